"""``MeshWidget.to_plotly()``: the meshes shown, one 3-D scene per card.

Each card at its step and sample becomes a ``Mesh3d`` (a mesh with faces, in ``solid`` or
``wireframe`` mode) or a ``Scatter3d`` of its points, coloured as logged (else the run's
colour), from the same vertices the browser draws (a point cloud larger than
``max_points`` is the same uniform sample).

Examples
--------
>>> import numpy as np, pandas as pd, tbnb
>>> frame = pd.DataFrame({"run": ["a"], "tag": ["tri"], "step": [0], "wall_time": [0.0],
...     "sample": [0], "vertices": [np.eye(3, dtype=np.float32)],
...     "faces": [np.array([[0, 1, 2]], np.int32)], "colors": [None],
...     "num_vertices": [3], "num_faces": [1], "config": [None]})
>>> fig = tbnb.meshes(frame).to_plotly()
>>> fig.data[0].type, fig.data[0].i.tolist()
('mesh3d', [0])
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from tbnb.widgets.base import optional
from tbnb.widgets.mesh.prepare import decode_positions

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.mesh.widget import MeshWidget

__all__ = ["meshes_figure"]


def _colors(item: dict[str, Any]) -> list[str] | None:
    where = item["layout"].get("colors")
    if where is None:
        return None
    offset, count = where
    rgb = np.asarray(item["data"], np.uint8)[offset : offset + count].reshape(-1, 3)
    return [f"rgb({r},{g},{b})" for r, g, b in rgb.tolist()]


def _trace(go: Any, item: dict[str, Any], mode: str, size: float, color: str, name: str) -> Any:
    xyz = decode_positions(item)
    colors = _colors(item)
    faces = item["layout"].get("faces")
    if faces is not None and mode != "points":
        offset, count = faces
        dtype = np.dtype(item["index_type"]).newbyteorder("<")
        data = np.asarray(item["data"], np.uint8)
        ijk = data[offset : offset + count * dtype.itemsize].view(dtype).reshape(-1, 3)
        return go.Mesh3d(
            x=xyz[:, 0],
            y=xyz[:, 1],
            z=xyz[:, 2],
            i=ijk[:, 0],
            j=ijk[:, 1],
            k=ijk[:, 2],
            vertexcolor=colors,
            color=None if colors else color,
            flatshading=True,
            opacity=0.35 if mode == "wireframe" else 1.0,
            name=name,
        )
    return go.Scatter3d(
        x=xyz[:, 0],
        y=xyz[:, 1],
        z=xyz[:, 2],
        mode="markers",
        marker={"size": size, "color": colors or color},
        name=name,
    )


def meshes_figure(widget: MeshWidget) -> go.Figure:
    """A ``plotly.graph_objects.Figure`` of the meshes shown (one 3-D scene per card)."""
    go = optional("plotly.graph_objects", "plotly", "to_plotly()")
    make_subplots = optional("plotly.subplots", "plotly", "to_plotly()").make_subplots
    shown = widget._shown_items()
    ncols = min(3, max(len(shown), 1))
    nrows = max(math.ceil(len(shown) / ncols), 1)
    titles = widget.shown_titles()
    specs = [[{"type": "scene"}] * ncols for _ in range(nrows)]
    fig = make_subplots(rows=nrows, cols=ncols, specs=specs, subplot_titles=titles or None)
    for i, (card, step, sample) in enumerate(shown):
        run = widget._cards.cards[card][0]
        item = widget._item(card, step, sample)
        color = widget.run_colors.get(run, "#1f77b4")
        trace = _trace(go, item, widget.mode, widget.point_size, color, titles[i])
        fig.add_trace(trace, row=i // ncols + 1, col=i % ncols + 1)
    fig.update_layout(
        height=max(360 * nrows, 300), template="plotly_white", margin={"l": 0, "r": 0, "t": 40}
    )
    return fig
