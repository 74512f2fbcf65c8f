"""Images: encoded pictures per step, several samples per value (layer: kinds).

torch and tensorboardX write a legacy ``Summary.Image`` (one encoded image); TF2
writes a string tensor ``[width, height, image, image, ...]``. Rows hold metadata and
a lazy :class:`~tbnb.kinds.blob.Blob`: the bytes are read when asked for.

Examples
--------
>>> image_format(b"\\x89PNG\\r\\n\\x1a\\n...")
'png'
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from tbnb.decode.tensors import TensorDecodeError, tensor_to_numpy
from tbnb.kinds.base import Kind, RowContext, Tab, TagMetadata
from tbnb.kinds.batch import Batch, BatchRows
from tbnb.kinds.blob import Blob, media_type

KEY = "images"


def normalize(value: Any, meta: TagMetadata | None) -> list[dict[str, Any]]:
    """One dict per image sample: ``data`` (encoded bytes), width, height, format, nbytes."""
    if value.WhichOneof("value") == "image":
        img = value.image
        return [_image_sample(bytes(img.encoded_image_string), img.width, img.height)]
    return _tensor_images(tensor_to_numpy(value.tensor))


def sample_rows(kind: str, data: list[dict[str, Any]], context: RowContext) -> list[dict[str, Any]]:
    """One row per sample with its metadata and a lazy blob of its bytes (images, audio)."""
    rows = []
    for index, sample in enumerate(data):
        row = {
            **context.base(),
            "sample": index,
            **{k: v for k, v in sample.items() if k != "data"},
        }
        assert context.where is not None
        row["blob"] = Blob.at(
            kind,
            context.where,
            sample_index=index,
            nbytes=int(sample["nbytes"]),
            format=sample.get("format", "wav"),
        )
        rows.append(row)
    return rows


def rows(data: list[dict[str, Any]], context: RowContext) -> list[dict[str, Any]]:
    """One row per image sample."""
    return sample_rows(KEY, data, context)


def image_format(data: bytes) -> str:
    """An encoded image's format from its signature (``png``, ``jpeg``, ``gif``, ``webp``,
    ``bmp``: :func:`~tbnb.kinds.blob.media_type`), ``svg`` or ``unknown``."""
    kind = media_type(data)
    if kind.startswith("image/"):
        return kind.removeprefix("image/")
    if data.lstrip().startswith((b"<svg", b"<?xml")):
        return "svg"
    return "unknown"


def _png_size(data: bytes) -> tuple[int, int]:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return 0, 0


def _image_sample(data: bytes, width: int, height: int) -> dict[str, Any]:
    if not (width and height):
        width, height = _png_size(data)
    return {
        "data": data,
        "width": int(width),
        "height": int(height),
        "format": image_format(data),
        "nbytes": len(data),
    }


def _tensor_images(array: np.ndarray) -> list[dict[str, Any]]:
    flat = list(array.reshape(-1))
    if array.dtype != object:
        raise TensorDecodeError(f"image tensor holds {array.dtype} values, not strings")
    if len(flat) < 2:
        raise TensorDecodeError(
            f"image tensor has {len(flat)} elements, expected [w, h, images...]"
        )
    width, height = image_size(flat[0], flat[1])
    return [_image_sample(bytes(b), width, height) for b in flat[2:]]


def image_size(width: bytes, height: bytes) -> tuple[int, int]:
    """The width and height a TF2 image tensor starts with (decimal strings, int32).

    Examples
    --------
    >>> image_size(b"28", b"14")
    (28, 14)
    """
    try:
        w, h = int(width), int(height)
    except (TypeError, ValueError):
        raise TensorDecodeError("image tensor does not start with width and height") from None
    if not (-(2**31) <= w < 2**31 and -(2**31) <= h < 2**31):
        raise TensorDecodeError(f"image tensor claims a size of {w} x {h}")
    return w, h


_FORMATS = ("unknown", "png", "jpeg", "gif", "webp", "bmp", "svg")
"""Image formats by ``tbnb_image_format``'s code (:func:`image_format`'s names)."""


def sample_batch(kind: str, values: Batch, samples: list[list[dict[str, Any]] | None]) -> BatchRows:
    """The rows :func:`sample_rows` makes of each value's samples (None: left to protobuf)."""
    ok = np.array([s is not None for s in samples], dtype=bool)
    source: list[int] = []
    cells: dict[str, list[Any]] = {"sample": [], "blob": []}
    for i, value_samples in enumerate(samples):
        if value_samples is None:
            continue
        where = values.where(i)
        for index, sample in enumerate(value_samples):
            source.append(i)
            cells["sample"].append(index)
            for key, item in sample.items():
                cells.setdefault(key, []).append(item)
            cells["blob"].append(
                Blob.at(
                    kind,
                    where,
                    sample_index=index,
                    nbytes=int(sample["nbytes"]),
                    format=sample.get("format", "wav"),
                )
            )
    columns = {}
    for key, items in cells.items():
        column = np.empty(len(items), dtype=object)
        for j, item in enumerate(items):
            column[j] = item
        columns[key] = column
    return BatchRows(ok, np.asarray(source, dtype=np.int64), columns)


def batch(values: Batch) -> BatchRows:
    """A window's images (legacy ``Summary.Image`` and TF2 string tensors), indexed
    natively: sizes and formats read from the file, the bytes left where they are."""
    buf = values.buf
    samples: list[list[dict[str, Any]] | None] = [None] * len(values)
    for i, (height, width, _, start, size, _, _, form) in values.legacy_media(6):
        samples[i] = [_indexed_sample(buf, start, size, form, width, height)]
    tensor = np.flatnonzero(values.code == 4)
    if tensor.size:
        index = values.subset(tensor).tensors()
        for j, i in enumerate(tensor.tolist()):
            samples[i] = _tensor_samples(buf, index, j)
    return sample_batch(KEY, values, samples)


def _indexed_sample(
    buf: np.ndarray, start: int, size: int, form: int, width: int, height: int
) -> dict[str, Any]:
    """:func:`_image_sample` of ``buf[start:start + size]``, without copying the bytes."""
    if not (width and height):
        width, height = 0, 0
        if form == 1 and size >= 24:
            width, height = struct.unpack(">II", buf[start + 16 : start + 24].tobytes())
    return {"width": int(width), "height": int(height), "format": _FORMATS[form], "nbytes": size}


def _tensor_samples(buf: np.ndarray, index: Any, j: int) -> list[dict[str, Any]] | None:
    """The samples of a TF2 image tensor (``[width, height, image, ...]`` strings)."""
    from tbnb.native.kernels import image_formats

    info = index.info[j]
    spans = index.strings(j)
    # a string tensor whose strings are its elements, two at least (else: protobuf's path)
    if info[0] != 7 or info[4] != 3 or len(spans) != info[3] or len(spans) < 2:
        return None
    try:
        width, height = image_size(*(buf[s : s + n].tobytes() for s, n in spans[:2].tolist()))
    except TensorDecodeError:
        return None
    images = spans[2:]
    forms = image_formats(buf, images[:, 0], images[:, 1]).tolist()
    return [
        _indexed_sample(buf, s, n, form, width, height)
        for (s, n), form in zip(images.tolist(), forms, strict=True)
    ]


KIND = Kind(
    key=KEY,
    doc="Images: one row per sample, metadata columns and a lazy ``blob`` (``.read()``).",
    plugins=("images",),
    legacy_field="image",
    columns=("sample", "width", "height", "format", "nbytes", "blob"),
    dtypes={"sample": np.int64, "width": np.int64, "height": np.int64, "nbytes": np.int64},
    normalize=normalize,
    rows=rows,
    batch=batch,
    counted=True,
    tab=Tab("Images", "tbnb.widgets.images:images"),
    tbparse=("images", "tensors"),
)
