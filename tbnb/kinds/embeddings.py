"""Embeddings written for TensorBoard's projector (layer: kinds).

Writers save each embedding as files listed in a ``projector_config.pbtxt``
(text-format ``ProjectorConfig``) in the run directory: torch and tensorboardX
``add_embedding`` write ``<step:05d>/<tag>/tensors.tsv`` (+ ``metadata.tsv``,
``sprite.png``) and name the tensor ``<tag>:<step:05d>``; TensorFlow's
``projector.visualize_embeddings`` names a ``tensor_path`` or a tensor of a model
checkpoint. Files are read as TensorBoard's projector plugin reads them: a tensor
file is tab-separated text (or raw float32 of ``tensor_shape`` when it is not text),
a metadata file has a header line exactly when its first line holds a tab, and an
asset path must stay inside the config's directory. Vectors that live in a
TensorFlow checkpoint (a ``tensor_name`` without ``tensor_path``) need TensorFlow:
they are listed, with a ``note`` saying so, and never loaded.

Examples
--------
>>> import fsspec
>>> fs = fsspec.filesystem("memory")
>>> fs.pipe("/emb/projector_config.pbtxt",
...         b'embeddings { tensor_name: "words:00003" tensor_path: "00003/words/t.tsv" '
...         b'metadata_path: "00003/words/m.tsv" }')
>>> fs.pipe("/emb/00003/words/t.tsv", b"1\\t2\\n3\\t4\\n")
>>> fs.pipe("/emb/00003/words/m.tsv", b"a\\nb\\n")
>>> table = list_embeddings(fs, "/emb")
>>> table[["run", "tag", "step", "num_points", "dim"]].to_dict("records")
[{'run': '.', 'tag': 'words', 'step': 3, 'num_points': 2, 'dim': 2}]
>>> vectors, labels = read_embedding(fs, table.iloc[0])
>>> vectors.tolist(), labels["label"].tolist()
([[1.0, 2.0], [3.0, 4.0]], ['a', 'b'])
"""

from __future__ import annotations

import posixpath
import re
import warnings
from typing import Any

import numpy as np
import pandas as pd
from google.protobuf import text_format

from tbnb._proto import ProjectorConfig
from tbnb.io.files import read_side_file
from tbnb.io.logdir import run_name, walk
from tbnb.io.projector_files import read_metadata, read_sprite, read_tensor, tsv_shape
from tbnb.kinds.base import Kind, Tab
from tbnb.warnings import DataWarning, LogdirWarning

__all__ = [
    "COLUMNS",
    "KIND",
    "list_embeddings",
    "read_embedding",
    "read_metadata",
    "read_sprite",
    "read_tensor",
]

CONFIG_NAME = "projector_config.pbtxt"
_STEP_DIR = re.compile(r"(?:^|/)(\d{5,})/")
_NAME_STEP = re.compile(r"^(.*):(\d{5,})$")

MAX_CONFIG_BYTES = 16 << 20
"""Largest ``projector_config.pbtxt`` read (16 MiB)."""
COLUMNS = [
    "run",
    "tag",
    "step",
    "name",
    "num_points",
    "dim",
    "source",
    "note",
    "tensor_path",
    "metadata_path",
    "sprite_path",
    "sprite_single_image_dim",
]
"""Columns of ``exp.embeddings``: ``name`` is TensorBoard's tensor name (the key its
projector shows), ``tag`` and ``step`` what ``add_embedding`` was given (``step`` -1
when unknown), ``source`` ``"file"`` or ``"checkpoint"``, ``note`` why an embedding
cannot be read (empty when it can)."""


def list_embeddings(fs: Any, root: str) -> pd.DataFrame:
    """One row per embedding declared in any ``projector_config.pbtxt`` under ``root``.

    A config that cannot be parsed, or an asset path leading outside its config's
    directory, gives one :class:`~tbnb.warnings.LogdirWarning` naming the file; every
    other embedding is still listed. Embeddings kept in a TensorFlow checkpoint are
    listed with a ``note`` and a warning saying why they cannot be read. Every file is
    read only if it is a regular file of bounded size (a FIFO or a device is never
    opened for reading; :mod:`tbnb.io.projector_files`), a config only if it
    resolves inside the logdir or its run's own directory.
    """
    rows: list[dict[str, Any]] = []
    for config_path in _config_paths(fs, root):
        directory = posixpath.dirname(config_path)
        try:
            data = read_side_file(fs, config_path, limit=MAX_CONFIG_BYTES, within=(root, directory))
            config = text_format.Parse(data.decode("utf-8"), ProjectorConfig())
        except (OSError, UnicodeDecodeError, text_format.ParseError) as error:
            warnings.warn(
                f"tbnb: {config_path}: not a readable projector config ({error})",
                LogdirWarning,
                stacklevel=2,
            )
            continue
        run = run_name(root, directory)
        checkpoint = (
            config.model_checkpoint_path
            or config.model_checkpoint_dir
            or _latest_checkpoint(fs, directory)
        )
        for info in config.embeddings:
            rows.append(_row(fs, run, directory, config_path, info, checkpoint))
        if not config.embeddings and checkpoint:  # TensorBoard lists every 2-D variable
            rows.append(_row(fs, run, directory, config_path, None, checkpoint))
    table = pd.DataFrame(rows, columns=COLUMNS).drop_duplicates(
        subset=["run", "name", "tensor_path"], ignore_index=True
    )
    for note in table.loc[table["source"] == "checkpoint", "note"]:
        warnings.warn(f"tbnb: {note}", LogdirWarning, stacklevel=2)
    return table


def _latest_checkpoint(fs: Any, directory: str) -> str:
    """The checkpoint TensorFlow's ``checkpoint`` file names (TF2 configs name none)."""
    try:
        path = posixpath.join(directory, "checkpoint")
        data = read_side_file(fs, path, limit=MAX_CONFIG_BYTES, within=(directory,))
        text = data.decode("utf-8", "replace")
    except OSError:
        return ""
    found = re.search(r'^model_checkpoint_path:\s*"([^"]*)"', text, re.MULTILINE)
    return found.group(1) if found else ""


def _config_paths(fs: Any, root: str) -> list[str]:
    """Every projector config under ``root``, run directories linked in followed (as
    the event files are found); a config name that is not a regular file warns."""
    found = []
    for directory, files, others in walk(fs, root):
        base = directory.rstrip("/")
        if CONFIG_NAME in files:
            found.append(posixpath.join(base, CONFIG_NAME))
        for path, kind in others:
            if posixpath.basename(path) == CONFIG_NAME:
                warnings.warn(
                    f"tbnb: {path}: {kind}, not a regular file; not read",
                    LogdirWarning,
                    stacklevel=4,
                )
    return sorted(found)


def _row(
    fs: Any, run: str, directory: str, config_path: str, info: Any, checkpoint: str
) -> dict[str, Any]:
    tensor_name = info.tensor_name if info is not None else ""
    if tensor_name.endswith(":0"):  # TensorBoard's normalisation of variable names
        tensor_name = tensor_name[:-2]
    tensor_path = info.tensor_path if info is not None else ""
    if tensor_path and not tensor_name:
        tensor_name = posixpath.basename(tensor_path)
    named = _NAME_STEP.match(tensor_name)
    step_dir = _STEP_DIR.search(tensor_path)
    tag = named.group(1) if named else tensor_name or "embedding"
    step = int(named.group(2)) if named else int(step_dir.group(1)) if step_dir else -1
    shape = list(info.tensor_shape) if info is not None else []
    row: dict[str, Any] = {
        "run": run,
        "tag": tag,
        "step": step,
        "name": tensor_name,
        "num_points": shape[0] if shape else -1,
        "dim": shape[1] if len(shape) > 1 else -1,
        "source": "file" if tensor_path else "checkpoint",
        "note": "",
        "tensor_path": "",
        "metadata_path": "",
        "sprite_path": "",
        "sprite_single_image_dim": tuple(info.sprite.single_image_dim) if info else (),
    }
    if not tensor_path:
        where = f" {checkpoint!r}" if checkpoint else ""
        row["note"] = (
            f"{config_path}: embedding {tensor_name or '(every 2-D variable)'!r} "
            f"of run {run!r} lives in the TensorFlow checkpoint{where}, which only "
            "TensorFlow reads: with TensorFlow, tbnb.projector(tf.train.load_checkpoint("
            f"{directory!r}).get_tensor({tensor_name or '<name>'!r})) shows it; or write "
            "the vectors with add_embedding (a tensors.tsv) to see them in tbnb"
        )
        return row
    for column, path in (
        ("tensor_path", tensor_path),
        ("metadata_path", info.metadata_path),
        ("sprite_path", info.sprite.image_path),
    ):
        try:
            row[column] = _asset(fs, directory, path)
        except ValueError as error:
            warnings.warn(f"tbnb: {config_path}: {error}; skipped", LogdirWarning, stacklevel=4)
            if column == "tensor_path":
                row["note"] = f"{config_path}: {error}"
    if row["tensor_path"] and row["num_points"] < 0:
        try:
            row["num_points"], row["dim"] = tsv_shape(fs, row["tensor_path"])
        except (OSError, UnicodeDecodeError) as error:
            row["note"] = f"{row['tensor_path']}: cannot be read ({error})"
    return row


def _asset(fs: Any, directory: str, path: str) -> str:
    """An asset's path, refused (as TensorBoard refuses it) when it leaves ``directory``."""
    if not path:
        return ""
    if "://" in path or posixpath.isabs(path):
        raise ValueError(f"asset path {path!r} is not relative to the config's directory")
    joined = posixpath.normpath(posixpath.join(directory, path))
    if posixpath.commonpath([directory, joined]) != posixpath.normpath(directory):
        raise ValueError(f"asset path {path!r} resolves outside the config's directory")
    local = getattr(fs, "protocol", None) in ("file", ("file", "local"))
    if local:
        import os

        real_dir = os.path.realpath(directory)
        if os.path.commonpath([real_dir, os.path.realpath(joined)]) != real_dir:
            raise ValueError(f"asset path {path!r} resolves outside the config's directory")
    return joined


def read_embedding(fs: Any, row: Any) -> tuple[np.ndarray, pd.DataFrame]:
    """Return ``(vectors, metadata)`` of one row of :func:`list_embeddings`.

    ``metadata`` has one row per point, as strings: a single ``label`` column for a
    one-column metadata file (no header, as TensorBoard reads it), else the header's
    columns. A metadata file with another number of rows than there are vectors warns,
    naming the file and both counts, and is cut or padded with empty strings.

    Raises
    ------
    ValueError
        When the embedding lives in a TensorFlow checkpoint or its tensor file cannot
        be read (the message names the file).
    """
    if row["note"] or not row["tensor_path"]:
        raise ValueError(row["note"] or f"embedding {row['name']!r} has no tensor file")
    shape = tuple(int(v) for v in (row["num_points"], row["dim"]) if int(v) >= 0)
    vectors = read_tensor(fs, row["tensor_path"], shape)
    if not row["metadata_path"]:
        return vectors, pd.DataFrame(index=range(len(vectors)))
    meta = read_metadata(fs, row["metadata_path"])
    if len(meta) != len(vectors):
        warnings.warn(
            f"tbnb: {row['metadata_path']}: {len(meta)} metadata rows for "
            f"{len(vectors)} vectors (run {row['run']!r}, tag {row['tag']!r}); "
            "rows matched by position, the missing ones left empty",
            DataWarning,
            stacklevel=2,
        )
        meta = meta.reindex(range(len(vectors))).fillna("")
    return vectors, meta


KIND = Kind(
    key="embeddings",
    doc="Embeddings declared in ``projector_config.pbtxt`` files (one row each; vectors lazy).",
    storage="files",
    event_type=False,
    list_files=list_embeddings,
    tab=Tab("Projector", "tbnb.widgets.embeddings:projector"),
)
