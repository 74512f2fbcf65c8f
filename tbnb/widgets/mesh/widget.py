"""The meshes dashboard: one 3-D view per (run, tag), every step, runs side by side.

Python side of ``js/src/widgets/mesh/`` (widget key ``"mesh"``), on the media base
(:class:`tbnb.widgets.media.MediaWidget`: a card per run and tag with its step and
sample sliders, a global step, items fetched on request, the items shown saved with the
notebook). Each mesh travels as one binary block (:mod:`tbnb.widgets.mesh.prepare`:
positions quantised to ``uint16``, colours as logged, faces as vertex indices); the
browser draws it with WebGL2 (``js/src/gl/mesh.js``): drag to orbit (every card turns
together), the wheel zooms, a double click fits the view again. While the view moves, a
large point cloud draws a uniform sample sized to the frame budget, and every point once
it rests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pandas as pd
import traitlets as t

from tbnb.widgets.media import MediaWidget
from tbnb.widgets.mesh.prepare import MAX_POINTS, mesh_payload, mesh_problems, payload_size

if TYPE_CHECKING:
    import plotly.graph_objects as go

__all__ = ["DEFAULT_MESH_EMBED_BYTES", "MODES", "MeshWidget"]

MODES = ("solid", "wireframe", "points")
"""How a mesh is drawn (a point cloud, with no faces, is drawn as points in every mode)."""

DEFAULT_MESH_EMBED_BYTES = 12_000_000
"""Bytes of meshes a saved notebook or exported page keeps by default: a cloud of a
million coloured points (9 MB sent: ``uint16`` positions, ``uint8`` colours) fits, and
the saved notebook (base64) stays under 15 MB."""


class MeshWidget(MediaWidget):
    """Mesh and point-cloud cards (traits only; build it with :func:`tbnb.meshes`).

    Traits (synced with the browser), beyond those of :class:`~tbnb.widgets.media.MediaWidget`
    ----------------------------------------------------------------------------------------
    mode : str
        ``"solid"`` (shaded triangles), ``"wireframe"`` (their edges) or ``"points"``.
    point_size : float
        Diameter of a point in CSS pixels (1 to 20).
    camera : dict
        ``{"theta", "phi", "zoom"}``: the orbit every card shares (angles in radians,
        zoom 1 = each mesh fitted to its card); the browser writes it when a drag ends.
    card_size : int
        Width and height of a card's view in pixels.
    max_points : int
        Points of a point cloud sent to the browser (a larger one is sampled uniformly).
    """

    _widget_key = "mesh"
    _kind = "meshes"
    _columns = ("vertices", "faces", "colors")

    mode = t.Unicode("solid").tag(sync=True)
    point_size = t.Float(2.0).tag(sync=True)
    camera = t.Dict().tag(sync=True)
    card_size = t.Int(320).tag(sync=True)
    max_points = t.Int(MAX_POINTS).tag(sync=True)
    max_embed_bytes = t.Int(DEFAULT_MESH_EMBED_BYTES).tag(sync=True)

    @t.validate("mode")
    def _valid_mode(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value not in MODES:
            raise t.TraitError(f"mode must be one of {list(MODES)}, got {value!r}")
        return value

    @t.validate("point_size")
    def _valid_point_size(self, proposal: Any) -> float:
        value = float(proposal["value"])
        if not 1.0 <= value <= 20.0:
            raise t.TraitError(f"point_size must be between 1 and 20 pixels, got {value}")
        return value

    @t.validate("card_size")
    def _valid_card_size(self, proposal: Any) -> int:
        value = int(proposal["value"])
        if not 120 <= value <= 2000:
            raise t.TraitError(f"card_size must be between 120 and 2000 pixels, got {value}")
        return value

    @t.validate("max_points")
    def _valid_max_points(self, proposal: Any) -> int:
        value = int(proposal["value"])
        if value < 1000:
            raise t.TraitError(f"max_points must be >= 1000, got {value}")
        return value

    @t.observe("max_points")
    def _on_max_points(self, _change: Any) -> None:
        if hasattr(self, "_cache"):  # items already built were sampled to the old size
            self._cache.clear()
            self._cache_bytes = 0
            self._refresh_held()

    def _payload(self, row: pd.Series) -> dict[str, Any]:
        return mesh_payload(row, self.max_points)

    def _size(self, row: pd.Series) -> int:
        return payload_size(row, self.max_points)

    def _row_problems(self, frame: pd.DataFrame) -> list[str]:
        return mesh_problems(frame)

    def to_plotly(self) -> go.Figure:
        """A ``plotly.graph_objects.Figure`` of the meshes shown (one 3-D scene per card)."""
        from tbnb.widgets.mesh.plotly import meshes_figure

        return meshes_figure(self)
