"""``HistogramsWidget.to_plotly()``: the shown charts, as a plotly figure.

Each mode as the widget draws it: ridgelines as filled traces offset by time, overlays as
lines coloured by step, heatmaps as ``go.Heatmap``, distributions as TensorBoard's nested
bands with the median, runs at a step as one line per run.

Examples
--------
>>> import numpy as np, pandas as pd, tbnb
>>> frame = pd.DataFrame({"run": "a", "tag": "w", "step": [0, 1], "wall_time": [0.0, 1.0],
...                       "edges": [np.array([0.0, 1.0, 2.0])] * 2,
...                       "counts": [np.array([1.0, 3.0])] * 2})
>>> [t.type for t in tbnb.histograms(frame, mode="heatmap").to_plotly().data]
['heatmap']
"""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tbnb.widgets.base import optional
from tbnb.widgets.colors import DEFAULT_PALETTE
from tbnb.widgets.histograms.frames import chart_items

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.histograms.widget import HistogramsWidget

__all__ = ["histograms_figure"]

_BAND_PAIRS = ((0, 8, 0.13), (1, 7, 0.22), (2, 6, 0.32), (3, 5, 0.45))


def _rgba(color: str, alpha: float, white: float = 0.0) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    mix = [round(c + (255 - c) * white) for c in (r, g, b)]
    return f"rgba({mix[0]},{mix[1]},{mix[2]},{alpha})"


def _times(widget: HistogramsWidget, item: dict[str, Any]) -> Any:
    steps = np.asarray(item["steps"], dtype=np.float64)
    wall = np.asarray(item["wall"], dtype=np.float64)
    if widget.time_axis == "wall":
        return pd.to_datetime(wall, unit="s")
    if widget.time_axis == "relative":
        store = widget._store
        assert store is not None
        first = store.wall[store.bounds[widget._series_index()[(item["run"], item["tag"])]]]
        return wall - first
    return steps


def histograms_figure(widget: HistogramsWidget, *, max_charts: int = 24) -> go.Figure:
    """A ``plotly.graph_objects.Figure`` of the first ``max_charts`` shown charts."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")
    make_subplots = optional("plotly.subplots", "plotly", "to_plotly()").make_subplots
    charts = widget.shown_charts()
    if len(charts) > max_charts:
        warnings.warn(
            f"to_plotly(): {len(charts)} charts are shown; the figure holds the "
            f"first {max_charts} (pass max_charts= for more)",
            stacklevel=3,
        )
        charts = charts[:max_charts]
    ncols = min(3, max(len(charts), 1))
    nrows = max(math.ceil(len(charts) / ncols), 1)
    titles = [tag if run is None else f"{tag} · {run}" for tag, run in charts]
    fig = make_subplots(rows=nrows, cols=ncols, subplot_titles=titles or None)
    for ci, (tag, run) in enumerate(charts):
        at = {"row": ci // ncols + 1, "col": ci % ncols + 1}
        data = chart_items(widget, tag, run)
        if run is None:
            _runs(go, fig, widget, data, at)
            continue
        color = widget.run_colors.get(run, DEFAULT_PALETTE[0])
        if widget.mode == "distribution":
            _bands(go, fig, widget, data, color, at)
        elif widget.mode == "heatmap":
            _heatmap(go, fig, widget, data, at)
        else:
            _ridges(go, fig, widget, data, color, at)
    fig.update_layout(
        height=max(widget.height, 150) * nrows + 80,
        template="plotly_white",
        showlegend=widget.mode == "runs",
    )
    return fig


def _centres(data: dict[str, Any], bins: int) -> np.ndarray:
    dx = (data["right"] - data["left"]) / bins
    return np.asarray(data["left"] + (np.arange(bins) + 0.5) * dx)


def _ridges(
    go: Any,
    fig: Any,
    widget: HistogramsWidget,
    data: dict[str, Any],
    color: str,
    at: dict[str, int],
) -> None:
    bins = widget.bins
    counts = np.asarray(data["counts"], dtype=np.float64).reshape(-1, bins)
    n = counts.shape[0]
    if n == 0:
        return
    xs = _centres(data, bins)
    times = np.asarray(_times(widget, data))
    offset = widget.mode == "offset"
    top = counts.max() or 1.0
    spacing = (1.0 / max(n - 1, 1)) if offset else 0.0
    for k in range(n):
        t = k / max(n - 1, 1)
        base = (n - 1 - k) * spacing if offset else 0.0
        ys = base + (counts[k] / top * 0.42 if offset else counts[k])
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="lines",
                line={"color": _rgba(color, 1.0, 0.8 * (1 - t)), "width": 1},
                fill="toself" if offset else None,
                fillcolor=_rgba(color, 1.0, 0.8 * (1 - t)),
                name=f"step {data['steps'][k]}",
                hovertext=f"step {data['steps'][k]} ({times[k]})",
                showlegend=False,
            ),
            **at,
        )


def _heatmap(
    go: Any, fig: Any, widget: HistogramsWidget, data: dict[str, Any], at: dict[str, int]
) -> None:
    bins = widget.bins
    counts = np.asarray(data["counts"], dtype=np.float64).reshape(-1, bins)
    z = np.log1p(counts) if widget.log_color else counts
    fig.add_trace(
        go.Heatmap(
            x=_times(widget, data),
            y=_centres(data, bins),
            z=z.T,
            colorscale="Viridis",
            showscale=False,
            customdata=counts.T,
            hovertemplate="count %{customdata}",
        ),
        **at,
    )


def _bands(
    go: Any,
    fig: Any,
    widget: HistogramsWidget,
    data: dict[str, Any],
    color: str,
    at: dict[str, int],
) -> None:
    table = np.asarray(data["bands"], dtype=np.float64).reshape(-1, 9)
    xs = _times(widget, data)
    for lo, hi, alpha in _BAND_PAIRS:
        fig.add_trace(
            go.Scatter(
                x=list(xs) + list(xs[::-1]),
                y=list(table[:, hi]) + list(table[::-1, lo]),
                fill="toself",
                mode="lines",
                line={"width": 0},
                fillcolor=_rgba(color, alpha),
                hoverinfo="skip",
                showlegend=False,
            ),
            **at,
        )
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=table[:, 4],
            mode="lines",
            line={"color": color},
            name="median",
            showlegend=False,
        ),
        **at,
    )


def _runs(
    go: Any, fig: Any, widget: HistogramsWidget, data: dict[str, Any], at: dict[str, int]
) -> None:
    xs = _centres(data, widget.bins) if data["items"] else np.zeros(0)
    for item in data["items"]:
        color = widget.run_colors.get(item["run"], DEFAULT_PALETTE[0])
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=np.asarray(item["counts"], dtype=np.float64),
                mode="lines",
                line={"color": color},
                name=f"{item['run']} @ {item['step']}",
                legendgroup=item["run"],
            ),
            **at,
        )
