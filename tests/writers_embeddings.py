"""Embedding logs from real writers, and TensorBoard's projector plugin reading them.

``projector_reference(logdir)`` serves the logdir through TensorBoard's own
``ProjectorPlugin`` (its ``/runs``, ``/info``, ``/tensor``, ``/metadata`` and
``/sprite_image`` routes, called in-process through werkzeug) and returns what its
front end would get, decoded the way the front end decodes it: float32 tensors, and
metadata split on tabs with the first line a header when it holds a tab.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd


def write_torch_embeddings(logdir: Path) -> None:
    """Two steps and two tags, a header-less and a headed metadata, a sprite."""
    import torch
    from torch.utils.tensorboard import SummaryWriter

    gen = torch.Generator().manual_seed(0)
    writer = SummaryWriter(str(logdir / "torch"))
    writer.add_embedding(
        torch.randn(30, 8, generator=gen),
        metadata=[f"word{i}" for i in range(30)],
        global_step=1,
        tag="words",
    )
    writer.add_embedding(
        torch.randn(30, 8, generator=gen),
        metadata=[f"word{i}" for i in range(30)],
        global_step=2,
        tag="words",
    )
    images = torch.rand(12, 3, 8, 8, generator=gen)
    writer.add_embedding(
        torch.randn(12, 5, generator=gen),
        metadata=[[f"<b>{i}</b>", str(i % 3)] for i in range(12)],
        metadata_header=["name", "cls"],
        label_img=images,
        global_step=2,
        tag="images",
    )
    writer.close()


def write_tensorboardx_embeddings(logdir: Path) -> None:
    """tensorboardX's add_embedding: a header-less and a headed metadata."""
    import tensorboardX

    rng = np.random.default_rng(1)
    writer = tensorboardX.SummaryWriter(str(logdir / "tbx"))
    writer.add_embedding(
        rng.normal(size=(20, 6)).astype(np.float32),
        metadata=[f"t{i}" for i in range(20)],
        global_step=5,
        tag="feat",
    )
    writer.add_embedding(
        rng.normal(size=(9, 3)).astype(np.float32),
        metadata=[[str(i), "x" * i] for i in range(9)],
        metadata_header=["id", "text"],
        global_step=6,
        tag="small",
    )
    writer.close()


def projector_reference(logdir: Path) -> list[dict[str, Any]]:
    """Every embedding TensorBoard's projector serves for ``logdir`` (see module doc).

    Without a multiplexer the plugin serves one directory as run ``"."``: each run
    directory holding a ``projector_config.pbtxt`` is served on its own, and its rows
    are named by the directory relative to ``logdir``.
    """
    found = []
    for config in sorted(logdir.rglob("projector_config.pbtxt")):
        run = config.parent.relative_to(logdir).as_posix() or "."
        for item in _serve_run(config.parent):
            found.append({**item, "run": run})
    return found


def _serve_run(directory: Path) -> list[dict[str, Any]]:
    from tensorboard.plugins import base_plugin
    from tensorboard.plugins.projector.projector_plugin import ProjectorPlugin
    from werkzeug.test import Client
    from werkzeug.wrappers import Response

    plugin = ProjectorPlugin(base_plugin.TBContext(logdir=str(directory)))
    apps = plugin.get_plugin_apps()

    def get(route: str, **query: str) -> bytes:
        reply = Client(apps[route], Response).get(route, query_string=query)
        assert reply.status_code == 200, (route, query, reply.data[:200])
        return bytes(reply.data)

    found = []
    for run in json.loads(get("/runs")):
        for info in json.loads(get("/info", run=run))["embeddings"]:
            name = info["tensorName"]
            tensor = np.frombuffer(get("/tensor", run=run, name=name), np.float32)
            tensor = tensor.reshape(info["tensorShape"])
            lines = get("/metadata", run=run, name=name).decode().splitlines()
            rows = [line.split("\t") for line in lines]
            header = ["label"]
            if rows and len(rows[0]) > 1:
                header, rows = rows[0], rows[1:]
            sprite = None
            if "sprite" in info:
                sprite = get("/sprite_image", run=run, name=name)
            found.append(
                {
                    "run": run,
                    "name": name,
                    "tensor": tensor,
                    "metadata": pd.DataFrame(rows, columns=header),
                    "sprite": sprite,
                    "single_image_dim": info.get("sprite", {}).get("singleImageDim"),
                }
            )
    return found
