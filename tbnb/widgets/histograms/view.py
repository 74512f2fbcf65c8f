"""The histograms view as a spec: each shown chart as its mode draws it.

Ridgelines as filled lines offset by time, overlays as lines coloured by step, heatmaps
(step x bin), distributions as TensorBoard's nested bands with the median, runs at a
step as one line per run.

Examples
--------
>>> import numpy as np
>>> data = {"run": "a", "tag": "w", "steps": np.array([0, 1]), "wall": np.array([0.0, 1.0]),
...         "left": 0.0, "right": 2.0, "counts": np.array([1.0, 3.0, 2.0, 2.0]),
...         "first_wall": 0.0}
>>> spec = view_spec([("w", "a", data)], mode="heatmap", bins=2, colors={})
>>> [mark.kind for mark in spec.panels[0].marks], spec.panels[0].title
(['heatmap'], 'w · a')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.widgets.colors import DEFAULT_PALETTE
from tbnb.widgets.spec import Axis, Mark, Panel, ViewSpec

__all__ = ["view_spec"]

_BAND_PAIRS = ((0, 8, 0.13), (1, 7, 0.22), (2, 6, 0.32), (3, 5, 0.45))
"""The distribution's nested bands: (lower, upper) percentile columns and opacity."""


def _rgba(color: str, alpha: float, white: float = 0.0) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * white) for c in (r, g, b)]
    return f"rgba({mix[0]},{mix[1]},{mix[2]},{alpha})"


def _times(data: Mapping[str, Any], time_axis: str) -> np.ndarray[Any, Any]:
    if time_axis == "step":
        return np.asarray(data["steps"], dtype=np.float64)
    wall = np.asarray(data["wall"], dtype=np.float64)
    return wall - data["first_wall"] if time_axis == "relative" else wall


def _centres(data: Mapping[str, Any], bins: int) -> np.ndarray[Any, Any]:
    dx = (data["right"] - data["left"]) / bins
    return np.asarray(data["left"] + (np.arange(bins) + 0.5) * dx)


def view_spec(
    charts: Sequence[tuple[str, str | None, Mapping[str, Any]]],
    *,
    mode: str,
    bins: int,
    colors: Mapping[str, str],
    time_axis: str = "step",
    log_color: bool = False,
    height: int = 170,
) -> ViewSpec:
    """The spec of shown charts ``(tag, run, data)`` (``data``: the widget's
    ``chart_data(tag, run)``; ``run`` None in the ``runs`` mode)."""
    panels = []
    for tag, run, data in charts:
        if run is None:
            panels.append(Panel(tag, _runs(data, bins, colors)))
            continue
        color = colors.get(run, DEFAULT_PALETTE[0])
        x = Axis(time=time_axis == "wall")
        if mode == "distribution":
            marks = _bands(data, color, time_axis)
        elif mode == "heatmap":
            marks = _heatmap(data, bins, time_axis, log_color)
        else:
            marks = _ridges(data, bins, color, time_axis, offset=mode == "offset")
            x = Axis()
        panels.append(Panel(f"{tag} · {run}", marks, x=x))
    return ViewSpec.tiled(panels, most=3, panel_height=height, legend=mode == "runs")


def _ridges(
    data: Mapping[str, Any], bins: int, color: str, time_axis: str, *, offset: bool
) -> list[Mark]:
    counts = np.asarray(data["counts"], dtype=np.float64).reshape(-1, bins)
    n = counts.shape[0]
    xs = _centres(data, bins)
    times = _times(data, time_axis)
    top = counts.max() if n else 1.0
    top = top or 1.0
    spacing = (1.0 / max(n - 1, 1)) if offset else 0.0
    marks = []
    for k in range(n):
        shade = _rgba(color, 1.0, 0.8 * (1 - k / max(n - 1, 1)))
        base = (n - 1 - k) * spacing if offset else 0.0
        ys = base + (counts[k] / top * 0.42 if offset else counts[k])
        when = times[k]
        shown = pd.Timestamp(when, unit="s") if time_axis == "wall" else when
        style: dict[str, Any] = {"width": 1, "hovertext": f"step {data['steps'][k]} ({shown})"}
        if offset:
            style["fill"] = "self"
        name = f"step {data['steps'][k]}"
        marks.append(Mark("line", {"x": xs, "y": ys}, name=name, color=shade, style=style))
    return marks


def _heatmap(data: Mapping[str, Any], bins: int, time_axis: str, log_color: bool) -> list[Mark]:
    counts = np.asarray(data["counts"], dtype=np.float64).reshape(-1, bins)
    z = np.log1p(counts) if log_color else counts
    cells = {"x": _times(data, time_axis), "y": _centres(data, bins), "z": z.T}
    return [Mark("heatmap", cells, style={"values": counts.T, "label": "count"})]


def _bands(data: Mapping[str, Any], color: str, time_axis: str) -> list[Mark]:
    table = np.asarray(data["bands"], dtype=np.float64).reshape(-1, 9)
    xs = _times(data, time_axis)
    marks = [
        Mark(
            "band",
            {"x": xs, "lo": table[:, lo], "hi": table[:, hi]},
            color=_rgba(color, alpha),
            hover=False,
        )
        for lo, hi, alpha in _BAND_PAIRS
    ]
    marks.append(Mark("line", {"x": xs, "y": table[:, 4]}, name="median", color=color))
    return marks


def _runs(data: Mapping[str, Any], bins: int, colors: Mapping[str, str]) -> list[Mark]:
    xs = _centres(data, bins) if data["items"] else np.zeros(0)
    return [
        Mark(
            "line",
            {"x": xs, "y": np.asarray(item["counts"], dtype=np.float64)},
            name=f"{item['run']} @ {item['step']}",
            color=colors.get(item["run"], DEFAULT_PALETTE[0]),
            group=item["run"],
            legend=True,
        )
        for item in data["items"]
    ]
