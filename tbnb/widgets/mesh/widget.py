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
from tbnb.widgets.mesh.view import view_spec
from tbnb.widgets.traits import Choice, FloatRange, IntRange

if TYPE_CHECKING:
    from tbnb.widgets.spec import ViewSpec

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

    mode = Choice(MODES).tag(sync=True)
    point_size = FloatRange(2.0, lo=1.0, hi=20.0, unit="pixels").tag(sync=True)
    camera = t.Dict().tag(sync=True)
    card_size = IntRange(320, lo=120, hi=2000, unit="pixels").tag(sync=True)
    max_points = IntRange(MAX_POINTS, lo=1000).tag(sync=True)
    max_embed_bytes = IntRange(DEFAULT_MESH_EMBED_BYTES, lo=0).tag(sync=True)

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

    def view_spec(self) -> ViewSpec:
        """One 3-D panel per mesh shown, from the vertices the browser draws."""
        shown = self.shown_items()
        items = [self.item(i["run"], i["tag"], i["step"], i["sample"]) for i in shown]
        colors = [self.run_colors.get(i["run"], "#1f77b4") for i in shown]
        return view_spec(
            self.shown_titles(), items, colors, mode=self.mode, point_size=self.point_size
        )
