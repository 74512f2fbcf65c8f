"""Meshes written by real writers, and TensorBoard's mesh plugin as the oracle.

- :func:`write_torch` / :func:`write_tbx`: ``SummaryWriter.add_mesh`` of
  ``torch.utils.tensorboard`` and tensorboardX (every part float32, one event per mesh);
- :func:`write_tensorboard`: the tensors TensorBoard's ``mesh`` summary (``summary_v2``)
  writes, built with TensorBoard's own mesh metadata and tensor helpers (that summary
  needs TensorFlow to run; its tensors are float32 vertices, int32 faces, uint8
  colours, one event per part, the metadata on each tag's first event only);
- :func:`tensorboard_meshes`: every mesh as TensorBoard's mesh plugin serves it (its
  ``/tags``, ``/meshes`` and ``/data`` routes over TensorBoard's own event multiplexer),
  independent of tbnb.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np

from tests.tensorboard_plugins import plugin_routes
from tests.writers import WALL0, _TF2Writer

CONFIG = {"camera": {"cls": "PerspectiveCamera", "fov": 75}, "material": {"size": 0.05}}


def tetrahedron(seed: int, batch: int = 2) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A batch of tetrahedra (vertices float32, colours uint8, faces int32), jittered."""
    rng = np.random.default_rng(seed)
    base = np.array([[1, 1, 1], [-1, -1, 1], [1, -1, -1], [-1, 1, -1]], dtype=np.float32)
    vertices = base[None] + rng.normal(0, 0.1, (batch, 4, 3)).astype(np.float32)
    colors = rng.integers(0, 256, (batch, 4, 3)).astype(np.uint8)
    faces = np.tile(np.array([[0, 2, 3], [0, 3, 1], [0, 1, 2], [1, 3, 2]], np.int32), (batch, 1, 1))
    return vertices, colors, faces


def cloud(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A point cloud of ``n`` points on a noisy sphere, coloured by position."""
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(n, 3)).astype(np.float32)
    points /= np.linalg.norm(points, axis=1, keepdims=True)
    points += rng.normal(0, 0.03, points.shape).astype(np.float32)
    colors = ((points + 1.2) / 2.4 * 255).clip(0, 255).astype(np.uint8)
    return points[None], colors[None]


def _pytorch_style(logdir: str, module: str) -> None:
    import importlib

    writer_class: Any = importlib.import_module(
        "torch.utils.tensorboard" if module == "torch" else "tensorboardX"
    ).SummaryWriter
    for run, shift in (("a", 0.0), ("b", 0.5)):
        w = writer_class(os.path.join(logdir, run))
        for step in (0, 2, 5):
            vertices, colors, faces = tetrahedron(step)
            w.add_mesh(
                "tetra",
                vertices + shift + step / 10,
                colors=colors,
                faces=faces,
                config_dict=CONFIG,
                global_step=step,
                walltime=WALL0 + step,
            )
        points, colors = cloud(500, seed=ord(run))
        w.add_mesh("scan/points", points, colors=colors, global_step=1, walltime=WALL0)
        # a tag logged twice at one step: two meshes of that step
        w.add_mesh("twice", tetrahedron(8)[0], global_step=3, walltime=WALL0)
        w.add_mesh("twice", tetrahedron(9)[0] * 2, global_step=3, walltime=WALL0 + 1)
        w.close()


def write_torch(logdir: str) -> str:
    """Meshes of two runs through ``torch.utils.tensorboard.SummaryWriter.add_mesh``."""
    _pytorch_style(logdir, "torch")
    return logdir


def write_tbx(logdir: str) -> str:
    """Meshes of two runs through ``tensorboardX.SummaryWriter.add_mesh``."""
    _pytorch_style(logdir, "tensorboardX")
    return logdir


def mesh_summaries(
    name: str,
    vertices: np.ndarray,
    faces: np.ndarray | None = None,
    colors: np.ndarray | None = None,
    config: dict[str, Any] | None = None,
) -> list[Any]:
    """The ``Summary`` of each part TensorBoard's ``mesh`` summary (v2) writes, in order."""
    from tensorboard.compat.proto import summary_pb2
    from tensorboard.plugins.mesh import metadata
    from tensorboard.plugins.mesh.plugin_data_pb2 import MeshPluginData
    from tensorboard.util import tensor_util

    parts = [
        (vertices, MeshPluginData.VERTEX, np.float32),
        (faces, MeshPluginData.FACE, np.int32),
        (colors, MeshPluginData.COLOR, np.uint8),
    ]
    parts = [p for p in parts if p[0] is not None]
    components = metadata.get_components_bitmask([p[1] for p in parts])
    json_config = json.dumps(config, sort_keys=True) if config is not None else "{}"
    out = []
    for array, content_type, dtype in parts:
        tensor = tensor_util.make_tensor_proto(np.asarray(array, dtype=dtype))
        meta = metadata.create_summary_metadata(
            name, None, content_type, components, list(array.shape), None, json_config=json_config
        )
        value = summary_pb2.Summary.Value(
            tag=metadata.get_instance_name(name, content_type), tensor=tensor, metadata=meta
        )
        out.append(summary_pb2.Summary(value=[value]))
    return out


def write_tensorboard(logdir: str) -> str:
    """Meshes in the form of TensorBoard's ``mesh`` summary: one event per part."""
    w = _TF2Writer(os.path.join(logdir, "tb"), ".v2")
    for step in (1, 4):
        vertices, colors, faces = tetrahedron(20 + step, batch=1)
        for summary in mesh_summaries("solid", vertices + step, faces, colors, CONFIG):
            w.write(summary, step, WALL0 + step)
    points, _ = cloud(300, seed=3)
    for summary in mesh_summaries("bare", points):
        w.write(summary, 2, WALL0)
    w.close()
    return logdir


def tensorboard_meshes(logdir: str) -> list[dict[str, Any]]:
    """Every mesh of ``logdir`` as TensorBoard's mesh plugin serves it.

    One dict per (run, tag, step, sample): ``vertices``/``faces``/``colors`` from the
    plugin's ``/data`` route (float32, int32, uint8, reshaped ``[-1, 3]``; absent parts
    ``None``), ``wall_time`` and ``config`` (its JSON text) from ``/meshes``.
    """
    from tensorboard.plugins.mesh import mesh_plugin

    get = plugin_routes(logdir, mesh_plugin.MeshPlugin, "mesh")
    types = {"VERTEX": np.float32, "FACE": np.int32, "COLOR": np.uint8}
    out = []
    for run, tags in json.loads(get("/tags")).items():
        for tag, info in tags.items():
            metas = json.loads(get("/meshes", run=run, tag=tag))
            steps = sorted({m["step"] for m in metas})
            for step in steps:
                first = next(m for m in metas if m["step"] == step)
                for sample in range(info["samples"]):
                    mesh: dict[str, Any] = {
                        "run": run,
                        "tag": tag,
                        "step": step,
                        "sample": sample,
                        "wall_time": first["wall_time"],
                        "config": first["config"],
                    }
                    present = {m["content_type"] for m in metas if m["step"] == step}
                    for name, dtype in types.items():
                        content = ["", "VERTEX", "FACE", "COLOR"].index(name)
                        column = {"VERTEX": "vertices", "FACE": "faces", "COLOR": "colors"}[name]
                        if content not in present:
                            mesh[column] = None
                            continue
                        raw = get(
                            "/data",
                            run=run,
                            tag=tag,
                            step=step,
                            sample=sample,
                            content_type=name,
                        )
                        mesh[column] = np.frombuffer(raw, dtype=dtype).reshape(-1, 3)
                    out.append(mesh)
    return out
