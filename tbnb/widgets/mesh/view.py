"""The meshes view as a spec: one 3-D panel per card shown.

Each card at its step and sample is a ``mesh`` mark (a mesh with faces, in ``solid`` or
``wireframe`` mode) or ``points`` in 3-D, coloured as logged (else the run's colour),
from the same vertices the browser draws (a point cloud larger than ``max_points`` is the
same uniform sample).

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

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tbnb.widgets.mesh.prepare import decode_positions
from tbnb.widgets.spec import Mark, Panel, ViewSpec

__all__ = ["view_spec"]


def _colors(item: Mapping[str, Any]) -> list[str] | None:
    where = item["layout"].get("colors")
    if where is None:
        return None
    offset, count = where
    rgb = np.asarray(item["data"], np.uint8)[offset : offset + count].reshape(-1, 3)
    return [f"rgb({r},{g},{b})" for r, g, b in rgb.tolist()]


def _mark(item: Mapping[str, Any], mode: str, size: float, color: str, name: str) -> Mark:
    xyz = decode_positions(item)
    colors = _colors(item)
    corners = {"x": xyz[:, 0], "y": xyz[:, 1], "z": xyz[:, 2]}
    faces = item["layout"].get("faces")
    if faces is not None and mode != "points":
        offset, count = faces
        dtype = np.dtype(item["index_type"]).newbyteorder("<")
        data = np.asarray(item["data"], np.uint8)
        ijk = data[offset : offset + count * dtype.itemsize].view(dtype).reshape(-1, 3)
        triangles = {"i": ijk[:, 0], "j": ijk[:, 1], "k": ijk[:, 2]}
        opacity = 0.35 if mode == "wireframe" else 1.0
        return Mark(
            "mesh",
            corners | triangles,
            name=name,
            color=colors or color,
            style={"opacity": opacity},
        )
    return Mark("points", corners, name=name, color=colors or color, style={"size": size})


def view_spec(
    titles: Sequence[str],
    items: Sequence[Mapping[str, Any]],
    colors: Sequence[str],
    *,
    mode: str = "solid",
    point_size: float = 2.0,
) -> ViewSpec:
    """Three 3-D panels a row: the items shown (``w.shown_titles()``, their items, their
    runs' colours)."""
    panels = [
        Panel(title, [_mark(item, mode, point_size, color, title)])
        for title, item, color in zip(titles, items, colors, strict=True)
    ]
    columns = min(3, max(len(panels), 1))
    rows = max(-(-len(panels) // columns), 1)
    margin = {"l": 0, "r": 0, "t": 40}
    return ViewSpec(panels, columns=columns, height=max(360 * rows, 300), margin=margin)
