"""The histograms widget's shown data: each chart's exact data, and as long frames (``w.data``,
the CSV's columns).

Examples
--------
>>> import numpy as np
>>> item = {"run": "a", "tag": "w", "steps": np.array([3]), "wall": np.array([1.0]),
...         "left": 0.0, "right": 2.0, "counts": np.array([1.0, 5.0], np.float32)}
>>> bins_frame([item], 2)[["step", "bin_left", "bin_right", "count"]].values.tolist()
[[3.0, 0.0, 1.0, 1.0], [3.0, 1.0, 2.0, 5.0]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.kinds.distributions import DISTRIBUTION_BPS
from tbnb.widgets.histograms import prepare
from tbnb.widgets.histograms.store import HistogramStore
from tbnb.widgets.ordering import pick

__all__ = [
    "BAND_COLUMNS",
    "BIN_COLUMNS",
    "bands_frame",
    "bins_frame",
    "chart_items",
    "empty_reason",
    "shown_frame",
]

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


def chart_items(
    store: HistogramStore,
    tag: str,
    run: str | None,
    *,
    mode: str,
    bins: int,
    max_steps: int,
    step: int | None,
    window: tuple[float, float] | None,
    runs: Sequence[str] = (),
) -> dict[str, Any]:
    """The data of one shown chart, exact: a series payload (with ``first_wall``, the
    series' first wall time), or (``run`` None: the ``runs`` mode) the at-step payload of
    ``runs`` holding ``tag``."""
    index = {key: i for i, key in enumerate(store.keys)}
    if run is None:
        series = [index[(r, tag)] for r in runs]
        if step is None:
            step = max(int(store.steps[store.bounds[i + 1] - 1]) for i in series)
        return prepare.at_step_payload(store, series, step=float(step), bins=bins, window=window)
    i = index[(run, tag)]
    payload = prepare.series_payload(
        store,
        i,
        bins=bins,
        limit=max_steps if mode in ("offset", "overlay") else _ALL,
        window=window,
        hist=mode != "distribution",
        bands=mode == "distribution",
    )
    return {**payload, "first_wall": float(store.wall[store.bounds[i]])}


def shown_frame(
    charts: Sequence[tuple[str, str | None, Any]], mode: str, bins: int
) -> pd.DataFrame:
    """The long frame of shown charts' data ``(tag, run, chart_items(...))`` (see
    :attr:`HistogramsWidget.data`)."""
    items: list[dict[str, Any]] = []
    for _tag, run, data in charts:
        if run is None:
            items.extend(
                {**item, "left": data["left"], "right": data["right"]} for item in data["items"]
            )
        else:
            items.append(data)
    if mode == "distribution":
        return bands_frame(items)
    return bins_frame(items, bins)


def empty_reason(frame: pd.DataFrame, name: str, runs: Any, tags: Any) -> str:
    """Why there is nothing to draw (``""`` when there is).

    Examples
    --------
    >>> empty_reason(pd.DataFrame(columns=BIN_COLUMNS), "the DataFrame", None, None)
    'no histograms in the DataFrame'
    """
    if len(frame) == 0:
        return f"no histograms in {name}"
    if runs is None and tags is None:
        return ""
    names = sorted({str(r) for r in frame["run"]})
    all_tags = sorted({str(g) for g in frame["tag"]})
    if not pick(names, runs, "runs"):
        return f"runs={runs!r} matched none of the runs with histograms: {names}"
    if not pick(all_tags, tags, "tags"):
        return f"tags={tags!r} matched none of the histogram tags: {all_tags}"
    return ""
