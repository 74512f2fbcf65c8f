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
from tbnb.kinds.base import RecordsKind, RowContext, Tab, TagMetadata
from tbnb.kinds.blob import Blob

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
    """Guess an encoded image's format from its magic bytes (``png``, ``jpeg``, ...)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8"):
        return "jpeg"
    if data.startswith((b"GIF87a", b"GIF89a")):
        return "gif"
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "webp"
    if data.startswith(b"BM"):
        return "bmp"
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
    if len(flat) < 2:
        raise TensorDecodeError(
            f"image tensor has {len(flat)} elements, expected [w, h, images...]"
        )
    try:
        width, height = int(flat[0]), int(flat[1])
    except (TypeError, ValueError):
        raise TensorDecodeError("image tensor does not start with width and height") from None
    return [_image_sample(bytes(b), width, height) for b in flat[2:]]


KIND = RecordsKind(
    key=KEY,
    doc="Images: one row per sample, metadata columns and a lazy ``blob`` (``.read()``).",
    plugins=("images",),
    legacy_field="image",
    columns=("sample", "width", "height", "format", "nbytes", "blob"),
    dtypes={"sample": np.int64, "width": np.int64, "height": np.int64, "nbytes": np.int64},
    normalize=normalize,
    rows=rows,
    counted=True,
    tab=Tab("Images", "tbnb.widgets.images:images"),
    tbparse=("images", "tensors"),
)
