"""``ProjectorWidget.to_plotly()``: the current layout as a plotly figure.

Points are coloured as the view colours them (a categorical column's top categories,
then "other"; a numeric column on viridis) and carry their label as hover text.

Examples
--------
>>> import numpy as np, tbnb
>>> w = tbnb.projector(np.random.default_rng(0).normal(size=(50, 5)), ["a", "b"] * 25)
>>> fig = w.to_plotly()
>>> [trace.name for trace in fig.data]
['a', 'b']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tbnb.widgets.base import optional
from tbnb.widgets.colors import palette_of

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.embeddings.widget import ProjectorWidget

__all__ = ["projector_figure"]


def projector_figure(widget: ProjectorWidget) -> go.Figure:
    """A ``Scattergl`` (2-D) or ``Scatter3d`` (3-D) figure of what is shown."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")
    frame = widget.coordinates
    three = "z" in frame.columns
    label = widget.label_by
    hover = frame[label].astype(str) if label else pd.Series(frame.index.astype(str))
    size = max(widget.point_size * 1.5, 1.0)

    def trace(rows: np.ndarray, name: str, color: Any, **marker: Any) -> Any:
        part = frame.iloc[rows]
        style = {"size": size, "color": color, "opacity": widget.opacity, **marker}
        if three:
            return go.Scatter3d(
                x=part["x"],
                y=part["y"],
                z=part["z"],
                mode="markers",
                name=name,
                text=hover.iloc[rows],
                marker=style,
            )
        return go.Scattergl(
            x=part["x"], y=part["y"], mode="markers", name=name, text=hover.iloc[rows], marker=style
        )

    fig = go.Figure()
    column = widget.color_by
    everything = np.arange(len(frame))
    if not column:
        fig.add_trace(trace(everything, "points", "#4e79a7"))
    else:
        values = frame[column]
        numbers = pd.to_numeric(values, errors="coerce")
        few = values.nunique(dropna=True) <= 20
        if numbers.notna().sum() == values.notna().sum() and not few:
            fig.add_trace(
                trace(
                    everything,
                    column,
                    numbers.to_numpy(),
                    colorscale="Viridis",
                    showscale=True,
                    colorbar={"title": column},
                )
            )
        else:
            colors = palette_of(widget.palette)
            text = values.astype(object).where(values.notna(), "").map(str)
            order = text.value_counts(sort=True).index.tolist()
            top = order[: widget.top_n]
            for i, name in enumerate(top):
                fig.add_trace(trace(np.flatnonzero(text == name), name, colors[i % len(colors)]))
            rest = np.flatnonzero(~text.isin(top))
            if len(rest):
                fig.add_trace(trace(rest, "other", "#b0b0b0"))
    fig.update_layout(
        template="plotly_white",
        height=max(widget.height, 300),
        title=widget.title or f"{widget.method.upper()} ({len(frame)} points)",
    )
    if not three:
        fig.update_yaxes(scaleanchor="x", scaleratio=1)
    return fig
