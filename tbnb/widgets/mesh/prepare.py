"""Meshes as the browser draws them: one binary block per mesh, positions quantised.

Pure functions from a row of ``exp.meshes`` to what the mesh view sends (no widget):

- positions are quantised to ``uint16`` per axis within the mesh's bounding box (the
  box's origin and size travel beside them): half the bytes of float32, and a step of
  1/65535 of the box, far below a pixel on any screen; the exact vertices stay in
  ``exp.meshes``;
- colours travel as logged (``uint8`` RGB per vertex), faces as ``uint16`` vertex
  indices when the mesh has at most 65,536 vertices, else ``uint32``;
- positions, colours and faces are one ``uint8`` block (``data``) with their offsets in
  ``layout``, so a mesh is one binary buffer of the media kit's items
  (:mod:`tbnb.widgets.media`);
- a point cloud of more than ``max_points`` points is sent as a uniform sample of
  them (the same one on every call), saying so.

A mesh whose faces name vertices it does not have is drawn as points, and colours that
are not one per vertex are left out; both are said (:func:`mesh_problems` names the
run, tag and step).

Examples
--------
>>> import numpy as np
>>> row = {"vertices": np.array([[0, 0, 0], [2, 1, 0], [1, 2, 4]], np.float32),
...        "faces": np.array([[0, 1, 2]], np.int32), "colors": None, "config": None}
>>> p = mesh_payload(row)
>>> p["origin"], p["scale"], p["index_type"], p["layout"]["faces"]
([0.0, 0.0, 0.0], [2.0, 2.0, 4.0], 'uint16', [20, 3])
>>> bool(np.abs(decode_positions(p) - row["vertices"]).max() <= 0.5 * 4 / 65535)  # half a step
True
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = [
    "MAX_POINTS",
    "decode_positions",
    "mesh_payload",
    "mesh_problems",
    "payload_size",
]

MAX_POINTS = 2_000_000
"""Points of a point cloud sent to the browser (more are sampled uniformly)."""

_LEVELS = 65535


def _faces_problem(faces: Any, n: int) -> str:
    if faces is None:
        return ""
    faces = np.asarray(faces)
    if faces.size == 0:
        return ""
    low, high = int(faces.min()), int(faces.max())
    if low >= 0 and high < n:
        return ""
    return f"faces name vertex {high if high >= n else low} of {n}: drawn as points"


def _colors_problem(colors: Any, n: int) -> str:
    if colors is None or len(colors) == n:
        return ""
    return f"{len(colors)} colours for {n} vertices: drawn in the run's colour"


def mesh_problems(frame: Any) -> list[str]:
    """What keeps meshes of ``frame`` from drawing as logged, naming run, tag and step.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> frame = pd.DataFrame({"run": ["a"], "tag": ["m"], "step": [3],
    ...     "vertices": [np.zeros((2, 3), np.float32)], "faces": [np.array([[0, 1, 5]])],
    ...     "colors": [None]})
    >>> mesh_problems(frame)
    ["run 'a', tag 'm', step 3: faces name vertex 5 of 2: drawn as points"]
    """
    out = []
    for run, tag, step, vertices, faces, colors in zip(
        frame["run"],
        frame["tag"],
        frame["step"],
        frame["vertices"],
        frame["faces"],
        frame["colors"],
        strict=True,
    ):
        n = len(vertices)
        for problem in (_faces_problem(faces, n), _colors_problem(colors, n)):
            if problem:
                out.append(f"run {str(run)!r}, tag {str(tag)!r}, step {int(step)}: {problem}")
    return out


def _sample(n: int, k: int) -> np.ndarray:
    """``k`` of ``n`` indices, uniform and sorted, the same on every call."""
    return np.sort(np.random.default_rng(0).choice(n, size=k, replace=False))


def payload_size(row: Mapping[str, Any], max_points: int = MAX_POINTS) -> int:
    """Bytes :func:`mesh_payload` sends for ``row``, known before building it."""
    n = len(row["vertices"])
    faces, colors = row.get("faces"), row.get("colors")
    if faces is None and n > max_points:
        n = max_points
    size = 6 * n + (3 * n if colors is not None else 0)
    if faces is not None:
        size += 3 * len(faces) * (2 if len(row["vertices"]) <= 65536 else 4) + 4
    return size


def mesh_payload(row: Mapping[str, Any], max_points: int = MAX_POINTS) -> dict[str, Any]:
    """What the browser gets for one mesh: ``data`` (one binary block) and how to read it.

    ``layout`` gives ``[offset, count]`` of ``positions`` (``uint16``, 3 per vertex,
    the box from ``origin`` to ``origin + scale``), ``colors`` (``uint8``, 3 per
    vertex) and ``faces`` (``index_type``, 3 per face) within ``data``; absent parts
    are missing from ``layout``. ``note`` says what is not drawn as logged.
    """
    vertices = np.asarray(row["vertices"], dtype=np.float32).reshape(-1, 3)
    n_logged = len(vertices)
    faces, colors = row.get("faces"), row.get("colors")
    notes = [p for p in (_faces_problem(faces, n_logged), _colors_problem(colors, n_logged)) if p]
    if _faces_problem(faces, n_logged):
        faces = None
    if _colors_problem(colors, n_logged):
        colors = None
    if faces is None and n_logged > max_points:
        keep = _sample(n_logged, max_points)
        vertices = vertices[keep]
        colors = None if colors is None else np.asarray(colors)[keep]
        notes.append(f"a uniform sample of {max_points:,} of the {n_logged:,} points")
    finite = np.asarray(np.isfinite(vertices).all(axis=1))
    low = vertices[finite].min(axis=0) if finite.any() else np.zeros(3, np.float32)
    high = vertices[finite].max(axis=0) if finite.any() else np.ones(3, np.float32)
    scale = (high.astype(np.float64) - low).astype(np.float64)
    scale[~(scale > 0)] = 1.0
    if not finite.all():
        notes.append(f"{int((~finite).sum())} vertices are not finite: drawn at the box's corner")
        vertices = np.where(finite[:, None], vertices, low)
    unit = (vertices.astype(np.float64) - low) / scale
    positions = np.rint(np.clip(unit, 0.0, 1.0) * _LEVELS).astype("<u2").reshape(-1)
    parts: list[tuple[str, np.ndarray]] = [("positions", positions)]
    if colors is not None:
        parts.append(("colors", np.ascontiguousarray(colors, dtype=np.uint8).reshape(-1)))
    index_type = "uint16" if len(vertices) <= 65536 else "uint32"
    if faces is not None:
        parts.append(("faces", np.asarray(faces).astype(np.dtype(index_type).newbyteorder("<"))))
    blocks, layout, offset = [], {}, 0
    for name, array in parts:
        pad = -offset % 4  # every part starts 4-byte aligned (typed array views)
        if pad:
            blocks.append(np.zeros(pad, np.uint8))
            offset += pad
        raw = np.ascontiguousarray(array).reshape(-1).view(np.uint8)
        layout[name] = [offset, int(array.size)]
        blocks.append(raw)
        offset += raw.size
    data = np.concatenate(blocks) if blocks else np.zeros(0, np.uint8)
    config = row.get("config")
    camera = config.get("camera") if isinstance(config, Mapping) else None
    fov = camera.get("fov") if isinstance(camera, Mapping) else None
    return {
        "data": data,
        "layout": layout,
        "origin": [float(v) for v in low],
        "scale": [float(v) for v in scale],
        "index_type": index_type,
        "num_vertices": n_logged,
        "num_faces": 0 if row.get("faces") is None else len(row["faces"]),
        "drawn_vertices": len(vertices),
        "fov": float(fov) if isinstance(fov, (int, float)) and 1 <= fov <= 170 else None,
        "note": "; ".join(notes),
    }


def decode_positions(payload: Mapping[str, Any]) -> np.ndarray:
    """The positions the browser draws, back in data units (``[n, 3]`` float64)."""
    offset, count = payload["layout"]["positions"]
    data = np.asarray(payload["data"], dtype=np.uint8)
    q = data[offset : offset + 2 * count].view("<u2").reshape(-1, 3)
    out: np.ndarray = np.asarray(payload["origin"]) + q / _LEVELS * np.asarray(payload["scale"])
    return out
