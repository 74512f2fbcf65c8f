"""Embeddings written for TensorBoard's projector (layer: kinds).

Writers save each embedding as TSV files and list them in a ``projector_config.pbtxt``
(text-format ``ProjectorConfig``) in the run directory: torch and tensorboardX
``add_embedding`` write ``<step:05d>/<tag>/tensors.tsv`` (+ ``metadata.tsv``,
``sprite.png``). Vectors from TensorFlow checkpoints (``tensor_name`` without
``tensor_path``) need TensorFlow and are listed but not loaded.

Examples
--------
>>> import fsspec
>>> fs = fsspec.filesystem("memory")
>>> fs.pipe("/emb/projector_config.pbtxt",
...         b'embeddings { tensor_name: "words" tensor_path: "t.tsv" metadata_path: "m.tsv" }')
>>> fs.pipe("/emb/t.tsv", b"1\\t2\\n3\\t4\\n")
>>> fs.pipe("/emb/m.tsv", b"a\\nb\\n")
>>> table = list_embeddings(fs, "/emb")
>>> table[["run", "name", "num_points", "dim"]].to_dict("records")
[{'run': '.', 'name': 'words', 'num_points': 2, 'dim': 2}]
>>> vectors, labels = read_embedding(fs, table.iloc[0])
>>> vectors.tolist(), labels["label"].tolist()
([[1.0, 2.0], [3.0, 4.0]], ['a', 'b'])
"""

from __future__ import annotations

import io
import posixpath
import re
import warnings
from typing import Any

import numpy as np
import pandas as pd
from google.protobuf import text_format

from tbnb._proto import ProjectorConfig
from tbnb.io.logdir import run_name
from tbnb.kinds.base import Kind
from tbnb.warnings import LogdirWarning

CONFIG_NAME = "projector_config.pbtxt"
_STEP_DIR = re.compile(r"(?:^|/)(\d{5,})/")

COLUMNS = ["run", "name", "step", "num_points", "dim", "tensor_path", "metadata_path",
           "sprite_path", "sprite_single_image_dim"]


def list_embeddings(fs: Any, root: str) -> pd.DataFrame:
    """One row per embedding declared in any ``projector_config.pbtxt`` under ``root``."""
    rows = []
    for config_path in sorted(fs.glob(posixpath.join(root, "**", CONFIG_NAME))
                              + ([posixpath.join(root, CONFIG_NAME)]
                                 if fs.exists(posixpath.join(root, CONFIG_NAME)) else [])):
        directory = posixpath.dirname(config_path)
        try:
            text = fs.cat_file(config_path).decode("utf-8")
            config = text_format.Parse(text, ProjectorConfig())
        except (OSError, UnicodeDecodeError, text_format.ParseError) as error:
            warnings.warn(f"tbnb: {config_path}: not a readable projector config ({error})",
                          LogdirWarning, stacklevel=2)
            continue
        for info in config.embeddings:
            tensor_path = _resolve(directory, info.tensor_path)
            shape = list(info.tensor_shape)
            step_match = _STEP_DIR.search(info.tensor_path or "")
            rows.append({
                "run": run_name(root, directory),
                "name": info.tensor_name or posixpath.dirname(info.tensor_path) or "embedding",
                "step": int(step_match.group(1)) if step_match else -1,
                "num_points": shape[0] if shape else -1,
                "dim": shape[1] if len(shape) > 1 else -1,
                "tensor_path": tensor_path,
                "metadata_path": _resolve(directory, info.metadata_path),
                "sprite_path": _resolve(directory, info.sprite.image_path),
                "sprite_single_image_dim": tuple(info.sprite.single_image_dim),
            })
    table = pd.DataFrame(rows, columns=COLUMNS).drop_duplicates(
        subset=["run", "name", "tensor_path"], ignore_index=True)
    for i, row in table.iterrows():
        if row["num_points"] < 0 and row["tensor_path"]:
            try:
                vectors = _read_tsv_matrix(fs, row["tensor_path"])
            except (OSError, ValueError):
                continue
            table.loc[i, ["num_points", "dim"]] = vectors.shape[0], vectors.shape[1]
    return table


def _resolve(directory: str, path: str) -> str:
    if not path:
        return ""
    return path if posixpath.isabs(path) or "://" in path else posixpath.join(directory, path)


def _read_tsv_matrix(fs: Any, path: str) -> np.ndarray:
    data = fs.cat_file(path)
    return np.loadtxt(io.BytesIO(data), delimiter="\t", dtype=np.float32, ndmin=2)


def read_embedding(fs: Any, row: Any) -> tuple[np.ndarray, pd.DataFrame]:
    """Return ``(vectors, metadata)`` of one row of :func:`list_embeddings`.

    ``metadata`` has one row per point: a single ``label`` column for a one-column
    metadata file (no header, as TensorBoard reads it), else the header's columns.
    """
    if not row["tensor_path"]:
        raise ValueError(f"embedding {row['name']!r} lives in a TensorFlow checkpoint; "
                         "tbnb reads the TSV form written by add_embedding")
    vectors = _read_tsv_matrix(fs, row["tensor_path"])
    if not row["metadata_path"]:
        return vectors, pd.DataFrame(index=range(len(vectors)))
    text = fs.cat_file(row["metadata_path"]).decode("utf-8")
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    if lines and "\t" in lines[0]:
        header, *body = lines
        meta = pd.DataFrame([line.split("\t") for line in body], columns=header.split("\t"))
    else:
        meta = pd.DataFrame({"label": lines})
    if len(meta) != len(vectors):
        raise ValueError(f"{row['metadata_path']}: {len(meta)} metadata rows for "
                         f"{len(vectors)} vectors")
    return vectors, meta


KIND = Kind(
    key="embeddings",
    doc="Embeddings declared in ``projector_config.pbtxt`` files (one row each; vectors lazy).",
    storage="files",
    event_type=False,
    list_files=list_embeddings,
)
