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
from tbnb.kinds.base import Kind, Tab
from tbnb.warnings import DataWarning, LogdirWarning

__all__ = ["COLUMNS", "KIND", "list_embeddings", "read_embedding", "read_sprite"]

CONFIG_NAME = "projector_config.pbtxt"
_STEP_DIR = re.compile(r"(?:^|/)(\d{5,})/")
_NAME_STEP = re.compile(r"^(.*):(\d{5,})$")

# pandas >= 3 parses floats exactly by default (and deprecates the option); older
# versions need round_trip to give what Python's float() gives, as TensorBoard reads.
_EXACT_FLOATS: dict[str, Any] = (
    {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
)

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
    listed with a ``note`` and a warning saying why they cannot be read.
    """
    rows: list[dict[str, Any]] = []
    for config_path in _config_paths(fs, root):
        directory = posixpath.dirname(config_path)
        try:
            config = text_format.Parse(fs.cat_file(config_path).decode("utf-8"), ProjectorConfig())
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
        text = fs.cat_file(posixpath.join(directory, "checkpoint")).decode("utf-8", "replace")
    except OSError:
        return ""
    found = re.search(r'^model_checkpoint_path:\s*"([^"]*)"', text, re.MULTILINE)
    return found.group(1) if found else ""


def _config_paths(fs: Any, root: str) -> list[str]:
    found = set(fs.glob(posixpath.join(root, "**", CONFIG_NAME)))
    top = posixpath.join(root, CONFIG_NAME)
    if fs.exists(top):
        found.add(top)
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
            row["num_points"], row["dim"] = _tsv_shape(fs, row["tensor_path"])
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


def _tsv_shape(fs: Any, path: str) -> tuple[int, int]:
    """Rows and columns of a tensor TSV without parsing its numbers."""
    data = fs.cat_file(path)
    first = data.split(b"\n", 1)[0].decode("utf-8")
    lines = data.count(b"\n") + (not data.endswith(b"\n") and bool(data))
    blank = data.count(b"\n\n") + data.startswith(b"\n")
    return lines - blank, first.count("\t") + 1 if first else 0


def read_tensor(fs: Any, path: str, shape: tuple[int, ...] = ()) -> np.ndarray:
    """The float32 matrix of a tensor file, as TensorBoard reads it.

    Tab-separated text, one vector per line, blank lines skipped; a file that is not
    UTF-8 text is raw float32 of ``shape`` (TensorBoard's binary tensor files).

    Raises
    ------
    ValueError
        Naming the file, when a line has a different number of values than the first
        or a value is not a number.
    """
    data = fs.cat_file(path)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        if len(shape) != 2:
            raise ValueError(
                f"{path}: not text, and the config gives no 2-D tensor_shape "
                "to read it as raw float32"
            ) from None
        flat = np.frombuffer(data, dtype="<f4")
        if flat.size != shape[0] * shape[1]:
            raise ValueError(
                f"{path}: {flat.size} float32 values, tensor_shape says {shape[0]} x {shape[1]}"
            ) from None
        return flat.reshape(shape).astype(np.float32)
    if not data.strip():
        return np.zeros((0, 0), dtype=np.float32)
    try:
        frame = pd.read_csv(
            io.BytesIO(data),
            sep="\t",
            header=None,
            dtype=np.float64,
            engine="c",
            na_filter=False,
            skip_blank_lines=True,
            **_EXACT_FLOATS,
        )
    except (ValueError, pd.errors.ParserError) as error:
        return _read_tensor_slowly(path, data.decode("utf-8"), error)
    matrix: np.ndarray = frame.to_numpy(dtype=np.float64).astype(np.float32)
    return matrix


def _read_tensor_slowly(path: str, text: str, error: Exception) -> np.ndarray:
    """Python's ``float`` per value, as TensorBoard parses: ``nan``, ``inf`` and the like
    (which writers log for NaN vectors) are read; anything else is an error."""
    rows = []
    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.rstrip("\r")
        if not line:
            continue
        try:
            rows.append([float(v) for v in line.split("\t")])
        except ValueError as bad:
            raise ValueError(
                f"{path}: line {number} is not tab-separated numbers ({bad})"
            ) from None
    if len({len(r) for r in rows}) > 1:
        raise ValueError(f"{path}: not a tab-separated matrix of numbers ({error})")
    return np.array(rows, dtype=np.float32)


def read_metadata(fs: Any, path: str) -> pd.DataFrame:
    """Metadata rows as strings: a header line exactly when the first line holds a tab
    (TensorBoard's rule), else one ``label`` column."""
    text = fs.cat_file(path).decode("utf-8")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [line.rstrip("\r") for line in lines]
    if lines and "\t" in lines[0]:
        header, *body = lines
        names = header.split("\t")
        cells = [line.split("\t") for line in body]
        width = len(names)
        bad = [i + 2 for i, row in enumerate(cells) if len(row) != width]
        if bad:
            warnings.warn(
                f"tbnb: {path}: line(s) {bad[:5]} do not have the header's "
                f"{width} columns; padded or cut to fit",
                DataWarning,
                stacklevel=3,
            )
            cells = [(row + [""] * width)[:width] for row in cells]
        return pd.DataFrame(cells, columns=_unique(names), dtype=object)
    return pd.DataFrame({"label": pd.Series(lines, dtype=object)})


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        count = seen.get(name, 0)
        seen[name] = count + 1
        out.append(name if count == 0 else f"{name}.{count}")
    return out


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


def read_sprite(fs: Any, row: Any) -> tuple[bytes, tuple[int, int]] | None:
    """``(PNG bytes, (image height, image width))`` of an embedding's sprite, or None.

    The sprite is one PNG holding every point's image in a grid, row by row
    (``single_image_dim`` gives one image's width and height, in that order).
    """
    path = row["sprite_path"]
    dims = tuple(row["sprite_single_image_dim"] or ())
    if not path or len(dims) != 2:
        return None
    data = fs.cat_file(path)
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        warnings.warn(
            f"tbnb: {path}: sprite is not a PNG; points are drawn as dots",
            DataWarning,
            stacklevel=2,
        )
        return None
    return bytes(data), (int(dims[1]), int(dims[0]))


KIND = Kind(
    key="embeddings",
    doc="Embeddings declared in ``projector_config.pbtxt`` files (one row each; vectors lazy).",
    storage="files",
    event_type=False,
    list_files=list_embeddings,
    tab=Tab("Projector", "tbnb.widgets.embeddings:projector"),
)
