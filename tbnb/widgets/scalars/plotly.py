"""``ScalarsWidget.to_plotly()``: the charts as shown, as a plotly figure.

Examples
--------
>>> import pandas as pd, tbnb
>>> df = pd.DataFrame({"run": "a", "tag": "loss", "step": [0, 1], "wall_time": [0.0, 1.0],
...                    "value": [2.0, 1.0]})
>>> len(tbnb.scalars(df).to_plotly().data)
2
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from tbnb.transforms.smoothing import smooth
from tbnb.widgets.base import optional
from tbnb.widgets.colors import DEFAULT_PALETTE

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.scalars.widget import ScalarsWidget

__all__ = ["scalars_figure"]


def scalars_figure(widget: ScalarsWidget) -> go.Figure:
    """A ``plotly.graph_objects.Figure`` of what is shown (one subplot per chart)."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")
    make_subplots = optional("plotly.subplots", "plotly", "to_plotly()").make_subplots

    shown = widget._shown_keys()
    tag_re = None
    if widget.tag_filter:
        try:
            tag_re = re.compile(widget.tag_filter, re.IGNORECASE)
        except re.error:
            tag_re = None
    charts = [
        c for c in widget.charts if tag_re is None or any(tag_re.search(tg) for tg in c["tags"])
    ]
    ncols = min(3, max(len(charts), 1))
    nrows = max(math.ceil(len(charts) / ncols), 1)
    fig = make_subplots(rows=nrows, cols=ncols, subplot_titles=[c["key"] for c in charts] or None)
    buckets = max(widget.max_points // 2, 2)
    legend_done: set[str] = set()
    dashes = ("solid", "dash", "dot", "dashdot")
    for ci, chart in enumerate(charts):
        row, col = ci // ncols + 1, ci % ncols + 1
        for i, run, tag in shown:
            if tag not in chart["tags"]:
                continue
            cols = widget._downsampled(i, buckets)
            xs = widget._xs(cols)
            if widget.x_axis == "wall":
                xs = pd.to_datetime(xs, unit="s")
            color = widget.run_colors.get(run, DEFAULT_PALETTE[0])
            sm = smooth(
                cols["value"],
                widget.smoothing,
                x=widget._xs(cols),
                mode=widget.smoothing_mode,  # type: ignore[arg-type]
            )
            name = run if len(chart["tags"]) == 1 else f"{run} {tag}"
            dash = dashes[chart["tags"].index(tag) % len(dashes)]
            if "lo" in cols and widget._build.get("band") not in (None, "none"):
                fig.add_trace(
                    go.Scatter(
                        x=np.r_[xs, xs[::-1]],
                        y=np.r_[cols["hi"], cols["lo"][::-1]],
                        fill="toself",
                        line={"width": 0},
                        fillcolor=color,
                        opacity=0.2,
                        hoverinfo="skip",
                        showlegend=False,
                        legendgroup=run,
                    ),
                    row=row,
                    col=col,
                )
            if widget.show_raw and widget.smoothing > 0:
                fig.add_trace(
                    go.Scatter(
                        x=xs,
                        y=cols["value"],
                        mode="lines",
                        line={"color": color, "dash": dash},
                        opacity=0.25,
                        hoverinfo="skip",
                        showlegend=False,
                        legendgroup=run,
                    ),
                    row=row,
                    col=col,
                )
            fig.add_trace(
                go.Scatter(
                    x=xs,
                    y=sm,
                    mode="lines",
                    name=name,
                    legendgroup=run,
                    line={"color": color, "dash": dash},
                    showlegend=name not in legend_done,
                ),
                row=row,
                col=col,
            )
            legend_done.add(name)
        if chart["key"] in widget.log_y:
            fig.update_yaxes(type="log", row=row, col=col)
        rng = widget.y_range.get(chart["key"])
        if rng and rng[0] is not None and rng[1] is not None:
            lo, hi = float(rng[0]), float(rng[1])
            if chart["key"] in widget.log_y:
                lo, hi = math.log10(lo), math.log10(hi)
            fig.update_yaxes(range=[lo, hi], row=row, col=col)
    fig.update_layout(height=max(widget.height, 150) * nrows + 80, template="plotly_white")
    return fig
