"""``CustomScalarsWidget.to_plotly()``: the charts as shown, as a plotly figure.

Examples
--------
>>> import pandas as pd, tbnb
>>> df = pd.DataFrame({"run": "a", "tag": "loss", "step": [0, 1], "wall_time": 0.0,
...                    "value": [2.0, 1.0]})
>>> w = tbnb.custom_scalars(df, layout={"c": {"loss": ["Multiline", ["loss"]]}})
>>> len(w.to_plotly().data)
2
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from tbnb.widgets.base import optional
from tbnb.widgets.colors import DEFAULT_PALETTE

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.custom_scalars.widget import CustomScalarsWidget

__all__ = ["custom_scalars_figure"]


def custom_scalars_figure(widget: CustomScalarsWidget) -> go.Figure:
    """One subplot per chart; per series a faint raw line and the smoothed one (named
    ``"<tag> (<run>)"``), margin series with their band."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")
    make_subplots = optional("plotly.subplots", "plotly", "to_plotly()").make_subplots
    data = widget.data
    charts = [c for c in widget.charts if c["series"]]
    ncols = min(2, max(len(charts), 1))
    nrows = max(math.ceil(len(charts) / ncols), 1)
    fig = make_subplots(
        rows=nrows,
        cols=ncols,
        subplot_titles=[f"{c['category']} / {c['title']}" for c in charts] or None,
    )
    dashes = ("solid", "dash", "dot", "dashdot")
    for k, chart in enumerate(charts):
        row, col = k // ncols + 1, k % ncols + 1
        part = data[data["chart"].astype(str) == chart["key"]]
        tags = list(dict.fromkeys(part["tag"].astype(str)))
        for (run, tag), series in part.groupby(
            [part["run"].astype(str), part["tag"].astype(str)], sort=False
        ):
            color = widget.run_colors.get(str(run), DEFAULT_PALETTE[0])
            xs = (
                series["step"].to_numpy()
                if widget.x_axis == "step"
                else (pd.to_datetime(series["wall_time"], unit="s"))
            )
            name = f"{tag} ({run})"
            line = {"color": color, "dash": dashes[tags.index(str(tag)) % len(dashes)]}
            if "lower" in series and series["lower"].notna().any():
                fig.add_trace(
                    go.Scatter(
                        x=np.r_[xs, xs[::-1]],
                        y=np.r_[series["upper"], series["lower"][::-1]],
                        fill="toself",
                        line={"width": 0},
                        fillcolor=color,
                        opacity=0.2,
                        hoverinfo="skip",
                        showlegend=False,
                    ),
                    row=row,
                    col=col,
                )
            fig.add_trace(
                go.Scatter(
                    x=xs,
                    y=series["value"],
                    mode="lines",
                    opacity=0.25,
                    line=line,
                    hoverinfo="skip",
                    showlegend=False,
                ),
                row=row,
                col=col,
            )
            fig.add_trace(
                go.Scatter(x=xs, y=series["smoothed"], mode="lines", name=name, line=line),
                row=row,
                col=col,
            )
        if chart["key"] in widget.log_y:
            fig.update_yaxes(type="log", row=row, col=col)
    fig.update_layout(height=max(widget.height, 150) * nrows + 80, template="plotly_white")
    return fig
