"""``tbnb.meshes(...)``: build a meshes widget from an experiment, a frame or a logdir.

Examples
--------
>>> import numpy as np, pandas as pd, tbnb
>>> frame = pd.DataFrame({"run": ["a"], "tag": ["cloud"], "step": [0], "wall_time": [0.0],
...     "sample": [0], "vertices": [np.eye(3, dtype=np.float32)], "faces": [None],
...     "colors": [None], "num_vertices": [3], "num_faces": [0], "config": [None]})
>>> w = tbnb.meshes(frame, mode="points")
>>> w.data[["run", "tag", "step", "num_vertices"]].to_dict("records")
[{'run': 'a', 'tag': 'cloud', 'step': 0, 'num_vertices': 3}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.media_build import build_media
from tbnb.widgets.mesh.widget import MeshWidget

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["MeshOptions", "meshes"]


class MeshOptions(TypedDict, total=False):
    """Keyword arguments of :func:`meshes` beyond the documented ones."""

    run_filter: str
    tag_filter: str
    card_size: int
    camera: dict[str, float]
    max_points: int
    palette: str
    embed: str
    max_embed_bytes: int


def meshes(
    source: Any,
    *,
    runs: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    step: int | None = None,
    mode: str = "solid",
    point_size: float = 2.0,
    refresh: float | None = None,
    **kw: Unpack[MeshOptions],
) -> MeshWidget:
    """Meshes and point clouds of an experiment: a 3-D view per (run, tag), every step.

    Each card draws one mesh (``add_mesh``, TensorBoard's mesh summary) with its colours
    as logged (the run's colour where none were); the cards of a tag sit side by side,
    one per run, and turn together: drag to orbit, the wheel zooms, a double click fits
    the view again. A step slider per card and a global one; a sample slider when a step
    holds several meshes (a batch, or a tag logged twice).

    Parameters
    ----------
    source
        An ``Experiment`` (its ``.meshes``), a frame like ``exp.meshes``, or a logdir
        path/URL.
    runs, tags
        Keep only these: a case-insensitive regex or a list of names.
    step
        The global step (every card shows the step nearest to it); default: each card's
        last.
    mode
        ``"solid"`` (shaded triangles), ``"wireframe"`` or ``"points"``; a point cloud is
        drawn as points in every mode.
    point_size
        Diameter of a point in pixels (1 to 20).
    refresh
        Reload every so many seconds.
    **kw
        ``run_filter``, ``tag_filter`` (regexes), ``card_size`` (pixels, default 320),
        ``camera`` (``{"theta", "phi", "zoom"}``), ``max_points`` (points of a cloud
        sent to the browser, default 2,000,000; more are sampled uniformly),
        ``palette``, ``embed`` (``"shown"`` or ``"all"``) and ``max_embed_bytes``
        (what a saved notebook or exported page keeps; default 12 MB). Anything else is
        a ``TypeError``.
    """
    check_kwargs("meshes", dict(kw), MeshOptions.__annotations__)
    traits: dict[str, Any] = {**kw, "mode": mode, "point_size": float(point_size)}
    if step is not None:
        traits["step"] = int(step)
    widget: MeshWidget = build_media(
        MeshWidget, source, runs=runs, tags=tags, refresh=refresh, traits=traits
    )
    return widget
