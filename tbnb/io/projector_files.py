"""The files of a projector embedding: tensors, metadata and sprite (layer: io).

Read as TensorBoard's projector reads them (see :mod:`tbnb.kinds.embeddings`), each
only if it is a regular file no larger than its cap (a FIFO is never opened for
reading, a link to ``/dev/zero`` never read: :func:`tbnb.io.files.read_side_file`).

Examples
--------
>>> import fsspec
>>> fs = fsspec.filesystem("memory")
>>> fs.pipe("/emb-files/t.tsv", b"1\\t2\\n3\\t4\\n")
>>> tsv_shape(fs, "/emb-files/t.tsv"), read_tensor(fs, "/emb-files/t.tsv").tolist()
((2, 2), [[1.0, 2.0], [3.0, 4.0]])
"""

from __future__ import annotations

import io
import math
import struct
import warnings
from typing import Any

import numpy as np
import pandas as pd

from tbnb.io.files import read_side_file
from tbnb.warnings import DataWarning

__all__ = [
    "MAX_METADATA_BYTES",
    "MAX_SPRITE_BYTES",
    "MAX_TENSOR_BYTES",
    "read_metadata",
    "read_sprite",
    "read_tensor",
    "tsv_shape",
]

# pandas >= 3 parses floats exactly by default (and deprecates the option); older
# versions need round_trip to give what Python's float() gives, as TensorBoard reads.
_EXACT_FLOATS: dict[str, Any] = (
    {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
)

MAX_TENSOR_BYTES = 1 << 30
"""Largest tensor file read (1 GiB: about 100 million numbers as text)."""
MAX_METADATA_BYTES = 256 << 20
"""Largest metadata file read (256 MiB)."""
MAX_SPRITE_BYTES = 64 << 20
"""Largest sprite read (64 MiB: TensorBoard's projector draws sprites up to 8192 px a side)."""


def tsv_shape(fs: Any, path: str) -> tuple[int, int]:
    """Rows and columns of a tensor TSV without parsing its numbers."""
    data = read_side_file(fs, path, limit=MAX_TENSOR_BYTES)
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
    OSError
        When the file is not a regular file or is larger than :data:`MAX_TENSOR_BYTES`.
    """
    data = read_side_file(fs, path, limit=MAX_TENSOR_BYTES)
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
    text = read_side_file(fs, path, limit=MAX_METADATA_BYTES).decode("utf-8")
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


def read_sprite(fs: Any, row: Any) -> tuple[bytes, tuple[int, int]] | None:
    """``(PNG bytes, (image height, image width))`` of an embedding's sprite, or None.

    The sprite is one PNG holding every point's image in a grid, row by row
    (``single_image_dim`` gives one image's width and height, in that order), as
    many images a row as fit its width. A sprite that cannot be read (not a regular
    file, larger than :data:`MAX_SPRITE_BYTES`), is not a PNG, or holds fewer images
    than the embedding has points warns naming the run and tag.
    """
    path = row["sprite_path"]
    dims = tuple(row["sprite_single_image_dim"] or ())
    if not path or len(dims) != 2:
        return None
    where = f"run {row['run']!r}, tag {row['tag']!r}"
    try:
        data = read_side_file(fs, path, limit=MAX_SPRITE_BYTES)
    except OSError as error:
        warnings.warn(
            f"tbnb: {path}: sprite not read ({where}: {error}); points are drawn as dots",
            DataWarning,
            stacklevel=2,
        )
        return None
    if not data.startswith(b"\x89PNG\r\n\x1a\n") or len(data) < 24:
        warnings.warn(
            f"tbnb: {path}: sprite is not a PNG ({where}); points are drawn as dots",
            DataWarning,
            stacklevel=2,
        )
        return None
    _warn_small_sprite(path, where, data, (int(dims[0]), int(dims[1])), int(row["num_points"]))
    return bytes(data), (int(dims[1]), int(dims[0]))


def _warn_small_sprite(
    path: str, where: str, png: bytes, cell: tuple[int, int], points: int
) -> None:
    """Warn when a sprite holds fewer images than there are points (as many a row as fit
    its width, the rows that fit its height: the view's reading of it)."""
    width, height = struct.unpack(">II", png[16:24])
    cell_w, cell_h = max(cell[0], 1), max(cell[1], 1)
    holds = (width // cell_w) * (height // cell_h)
    if points <= holds:
        return
    side = math.ceil(math.sqrt(points))
    warnings.warn(
        f"tbnb: {path}: sprite of {width}x{height} px holds {holds} images of "
        f"{cell_w}x{cell_h} px, fewer than the {points} points ({where}; a square grid "
        f"needs {side * cell_w}x{side * cell_h} px); points past image {holds} have no "
        "picture and draw as black squares",
        DataWarning,
        stacklevel=3,
    )
