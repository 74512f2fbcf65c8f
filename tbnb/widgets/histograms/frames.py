"""The histograms widget's shown data as long frames (``w.data``, the CSV's columns).

Examples
--------
>>> import numpy as np
>>> item = {"run": "a", "tag": "w", "steps": np.array([3]), "wall": np.array([1.0]),
...         "left": 0.0, "right": 2.0, "counts": np.array([1.0, 5.0], np.float32)}
>>> bins_frame([item], 2)[["step", "bin_left", "bin_right", "count"]].values.tolist()
[[3.0, 0.0, 1.0, 1.0], [3.0, 1.0, 2.0, 5.0]]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tbnb.kinds.distributions import DISTRIBUTION_BPS
from tbnb.widgets.histograms import prepare

if TYPE_CHECKING:
    from tbnb.widgets.histograms.widget import HistogramsWidget

__all__ = ["BAND_COLUMNS", "BIN_COLUMNS", "bands_frame", "bins_frame", "chart_items", "shown_frame"]

BIN_COLUMNS = ["run", "tag", "step", "wall_time", "bin_left", "bin_right", "count"]
BAND_COLUMNS = ["run", "tag", "step", "wall_time", *(f"p{bp}" for bp in DISTRIBUTION_BPS)]
_ALL = 2**31


def bins_frame(items: list[dict[str, Any]], bins: int) -> pd.DataFrame:
    """Rows ``run, tag, step, wall_time, bin_left, bin_right, count`` of re-binned charts."""
    parts = []
    for item in items:
        steps = np.asarray(item["steps"] if "steps" in item else [item["step"]], dtype=np.int64)
        wall = np.asarray(item["wall"], dtype=np.float64).reshape(-1)
        dx = (item["right"] - item["left"]) / bins
        lefts = item["left"] + np.arange(bins) * dx
        rights = lefts + dx
        parts.append(
            pd.DataFrame(
                {
                    "run": item["run"],
                    "tag": item["tag"],
                    "step": np.repeat(steps, bins),
                    "wall_time": np.repeat(wall, bins),
                    "bin_left": np.tile(lefts, steps.size),
                    "bin_right": np.tile(rights, steps.size),
                    "count": np.asarray(item["counts"], dtype=np.float64),
                }
            )
        )
    if not parts:
        return pd.DataFrame(columns=BIN_COLUMNS)
    return pd.concat(parts, ignore_index=True)[BIN_COLUMNS]


def bands_frame(items: list[dict[str, Any]]) -> pd.DataFrame:
    """Rows ``run, tag, step, wall_time, p0 ... p10000``: the nine bands of each step."""
    parts = []
    for item in items:
        table = np.asarray(item["bands"], dtype=np.float64).reshape(-1, len(DISTRIBUTION_BPS))
        part = pd.DataFrame(table, columns=BAND_COLUMNS[4:])
        part.insert(0, "wall_time", np.asarray(item["wall"], dtype=np.float64))
        part.insert(0, "step", np.asarray(item["steps"], dtype=np.int64))
        part.insert(0, "tag", item["tag"])
        part.insert(0, "run", item["run"])
        parts.append(part)
    if not parts:
        return pd.DataFrame(columns=BAND_COLUMNS)
    return pd.concat(parts, ignore_index=True)[BAND_COLUMNS]


def chart_items(widget: HistogramsWidget, tag: str, run: str | None) -> Any:
    """The data of one shown chart, exact: a series payload, or (``runs`` mode) the
    at-step payload of the tag's selected runs."""
    store = widget._store
    assert store is not None
    index = widget._series_index()
    window = widget._window()
    if run is None:
        series = [index[(r, tag)] for r in widget.chart_runs(tag)]
        step = widget.step
        if step is None:
            step = max(int(store.steps[store.bounds[i + 1] - 1]) for i in series)
        return prepare.at_step_payload(
            store, series, step=float(step), bins=widget.bins, window=window
        )
    limit = widget.max_steps if widget.mode in ("offset", "overlay") else _ALL
    return prepare.series_payload(
        store,
        index[(run, tag)],
        bins=widget.bins,
        limit=limit,
        window=window,
        hist=widget.mode != "distribution",
        bands=widget.mode == "distribution",
    )


def shown_frame(widget: HistogramsWidget) -> pd.DataFrame:
    """Every shown chart's data (see :attr:`HistogramsWidget.data`)."""
    if widget._store is None:
        return pd.DataFrame(columns=BIN_COLUMNS)
    items: list[dict[str, Any]] = []
    for tag, run in widget.shown_charts():
        data = chart_items(widget, tag, run)
        if run is None:
            items.extend(
                {**item, "left": data["left"], "right": data["right"]} for item in data["items"]
            )
        else:
            items.append(data)
    if widget.mode == "distribution":
        return bands_frame(items)
    return bins_frame(items, widget.bins)
