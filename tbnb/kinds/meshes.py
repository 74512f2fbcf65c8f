"""Meshes and point clouds: vertices, faces and colours per step (layer: kinds).

torch's and tensorboardX's ``add_mesh`` and TensorBoard's mesh summary write one mesh
as up to three tensors, each under its own tag (``<tag>_VERTEX``, ``<tag>_FACE``,
``<tag>_COLOR``; tensorboardX ``<tag>_1``, ``_2``, ``_3``) with ``mesh`` plugin
metadata naming the user's tag, the part it holds and a JSON scene configuration.
Each tensor is ``[batch, n, 3]``: a batch of meshes, the samples of the step.

The loader keeps one record per tensor as written; :func:`meshes_frame` puts the parts
of each mesh back together, one row per (run, tag, step, sample), in the types
TensorBoard's mesh plugin serves: vertices ``float32 [n, 3]``, faces ``int32 [f, 3]``
(vertex indices of each triangle), colours ``uint8 [n, 3]`` (RGB per vertex), either
of the last two ``None`` when not logged.

Examples
--------
>>> import numpy as np
>>> from tbnb._proto import MeshPluginData
>>> part = mesh_part(np.zeros((1, 4, 3), np.float32),
...                  MeshPluginData(name="cloud", content_type=1).SerializeToString())
>>> part["component"], part["tag"], part["value"].shape
('vertices', 'cloud', (1, 4, 3))
"""

from __future__ import annotations

import json
import warnings
from typing import Any

import numpy as np
import pandas as pd

from tbnb._proto import MeshPluginData
from tbnb.decode.tensors import TensorDecodeError, tensor_to_numpy
from tbnb.kinds.base import Kind, RowContext, Tab, TagMetadata
from tbnb.warnings import DataWarning

KEY = "meshes"

COMPONENTS = {1: "vertices", 2: "faces", 3: "colors"}
"""``MeshPluginData.ContentType`` -> the frame column of that part."""

DTYPES = {"vertices": np.float32, "faces": np.int32, "colors": np.uint8}
"""Each part's type, as TensorBoard's mesh plugin serves it."""

COLUMNS = (
    "sample",
    "vertices",
    "faces",
    "colors",
    "num_vertices",
    "num_faces",
    "config",
)
"""Columns of ``exp.meshes`` after ``run, tag, step, wall_time``."""

_RECORD_COLUMNS = ("component", "value", "config", "instance_tag")


def normalize(value: Any, meta: TagMetadata | None) -> dict[str, Any]:
    """One part of a mesh: which part, the mesh's tag and configuration, the tensor."""
    return mesh_part(tensor_to_numpy(value.tensor), meta.content if meta is not None else b"")


def mesh_part(array: np.ndarray, content: bytes) -> dict[str, Any]:
    """The part a mesh tensor holds, from its plugin metadata ``content``.

    Raises
    ------
    TensorDecodeError
        When the tensor is not ``[batch, n, 3]`` numbers or the metadata names no part.
    """
    data = MeshPluginData.FromString(content)
    component = COMPONENTS.get(int(data.content_type))
    if component is None:
        raise TensorDecodeError(f"mesh tensor of content type {data.content_type}: no mesh part")
    if array.ndim != 3 or array.shape[2] != 3 or array.dtype.kind not in "biuf":
        raise TensorDecodeError(
            f"mesh {component} tensor has shape {array.shape} and dtype {array.dtype}; "
            "expected numbers of shape [batch, n, 3]"
        )
    return {
        "tag": data.name,
        "component": component,
        "config": data.json_config,
        "value": array,
    }


def rows(data: dict[str, Any], context: RowContext) -> list[dict[str, Any]]:
    """One record per tensor, under the mesh's own tag (the instance tag kept beside it)."""
    return [
        {
            **context.base(),
            "tag": data["tag"] or context.tag,
            "instance_tag": context.tag,
            "component": data["component"],
            "config": data["config"],
            "value": data["value"],
        }
    ]


def as_served(component: str, array: np.ndarray) -> np.ndarray:
    """A part in TensorBoard's type: float32 vertices, int32 faces, uint8 colours.

    Values a writer stored as floats are truncated as TensorBoard does; colours outside
    [0, 255] (which TensorBoard fails to serve) are clipped, non-finite ones read 0.

    Examples
    --------
    >>> as_served("colors", np.array([[255.9, 3.7, -1.0]])).tolist()
    [[255, 3, 0]]
    """
    dtype = DTYPES[component]
    if array.dtype == dtype:
        return array
    if component == "colors" and array.dtype.kind == "f":
        array = np.nan_to_num(np.clip(array, 0, 255), nan=0.0)
    elif component == "colors":
        array = np.clip(array, 0, 255)
    elif component == "faces" and array.dtype.kind == "f":
        array = np.nan_to_num(array, nan=-1.0, posinf=-1.0, neginf=-1.0)
    return array.astype(dtype)


def _config(text: str, run: str, tag: str, bad: set[tuple[str, str]]) -> Any:
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError as error:
        if (run, tag) not in bad:
            bad.add((run, tag))
            warnings.warn(
                f"mesh run {run!r} tag {tag!r}: its scene configuration is not JSON "
                f"({error}); the mesh is shown without it",
                DataWarning,
                stacklevel=3,
            )
        return None


def meshes_frame(records: pd.DataFrame) -> pd.DataFrame:
    """One row per (run, tag, step, sample) from the parts' records, in stream order.

    The parts of a mesh are matched by run, tag, step and sample; a tag logged twice at
    one step gives two meshes (the k-th vertices with the k-th faces and colours).
    Parts without vertices are left out with a warning naming them.

    Examples
    --------
    >>> vertices = np.arange(6, dtype=np.float32).reshape(1, 2, 3)
    >>> records = pd.DataFrame({"run": ["r"], "tag": ["m"], "step": [0], "wall_time": [1.0],
    ...     "component": ["vertices"], "value": [vertices], "config": ["{}"],
    ...     "instance_tag": ["m_VERTEX"]})
    >>> meshes_frame(records)[["run", "tag", "step", "sample", "num_vertices"]].to_dict("records")
    [{'run': 'r', 'tag': 'm', 'step': 0, 'sample': 0, 'num_vertices': 2}]
    """
    meshes: dict[tuple[Any, ...], dict[str, Any]] = {}
    seen: dict[tuple[Any, ...], int] = {}
    bad_config: set[tuple[str, str]] = set()
    for run, tag, step, wall_time, component, value, config in zip(
        records["run"],
        records["tag"],
        records["step"],
        records["wall_time"],
        records["component"],
        records["value"],
        records["config"],
        strict=True,
    ):
        served = as_served(component, np.asarray(value))
        for sample in range(served.shape[0]):
            where = (run, tag, int(step), sample, component)
            nth = seen.get(where, 0)
            seen[where] = nth + 1
            mesh = meshes.setdefault(
                (run, tag, int(step), sample, nth),
                {"wall_time": float(wall_time), "config": _config(config, run, tag, bad_config)},
            )
            part = served[sample]
            part.flags.writeable = False
            mesh[component] = part
    out: dict[str, list[Any]] = {c: [] for c in ("run", "tag", "step", "wall_time", *COLUMNS)}
    missing: dict[tuple[str, str], list[int]] = {}
    for (run, tag, step, sample, _), mesh in meshes.items():
        vertices = mesh.get("vertices")
        if vertices is None:
            missing.setdefault((run, tag), []).append(step)
            continue
        faces = mesh.get("faces")
        for column, value in (
            ("run", run),
            ("tag", tag),
            ("step", step),
            ("wall_time", mesh["wall_time"]),
            ("sample", sample),
            ("vertices", vertices),
            ("faces", faces),
            ("colors", mesh.get("colors")),
            ("num_vertices", len(vertices)),
            ("num_faces", 0 if faces is None else len(faces)),
            ("config", mesh["config"]),
        ):
            out[column].append(value)
    for (run, tag), steps in missing.items():
        warnings.warn(
            f"mesh run {run!r} tag {tag!r}: faces or colours without vertices at "
            f"step(s) {sorted(set(steps))[:5]}; left out",
            DataWarning,
            stacklevel=2,
        )
    return _typed(out)


def _typed(out: dict[str, list[Any]]) -> pd.DataFrame:
    columns: dict[str, Any] = {}
    for name, values in out.items():
        if name in ("run", "tag"):
            columns[name] = pd.Categorical(values, categories=list(dict.fromkeys(values)))
        elif name in ("step", "sample", "num_vertices", "num_faces"):
            columns[name] = np.asarray(values, dtype=np.int64)
        elif name == "wall_time":
            columns[name] = np.asarray(values, dtype=np.float64)
        else:
            cells = np.empty(len(values), dtype=object)
            cells[:] = values
            columns[name] = cells
    return pd.DataFrame(columns)


KIND = Kind(
    key=KEY,
    doc="Meshes and point clouds: one row per (run, tag, step, sample) with vertices "
    "(float32 [n, 3]), faces (int32 [f, 3] or None), colors (uint8 [n, 3] or None), config.",
    plugins=("mesh",),
    columns=_RECORD_COLUMNS,
    normalize=normalize,
    rows=rows,
    tbparse=("tensors",),
    finish=meshes_frame,
    tab=Tab("Meshes", "tbnb.widgets.mesh:meshes"),
)
