"""One normalised form for every summary value (layer 3).

TensorBoard's writers disagree on how a value is stored: torch and tensorboardX
write legacy ``simple_value`` / ``histo`` / ``image`` / ``audio`` fields, TF2 writes
tensors tagged with a plugin name, often on the first event of a tag only. This
module maps both onto one form, the way TensorBoard's ``data_compat`` does, so the
frame layer handles each kind once.

Examples
--------
>>> from tbnb._proto import Summary
>>> value = Summary.Value(tag="loss", simple_value=0.25)
>>> normalize_value(value, None)
('scalars', 0.25)
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

import numpy as np

from tbnb._proto import PrCurvePluginData
from tbnb.tensors import TensorDecodeError, tensor_shape, tensor_to_numpy

SCALARS = "scalars"
HISTOGRAMS = "histograms"
IMAGES = "images"
AUDIO = "audio"
TEXT = "text"
PR_CURVES = "pr_curves"
HPARAMS = "hparams"
TENSORS = "tensors"
CUSTOM_SCALARS = "custom_scalars"
GRAPHS = "graphs"

#: Kinds a user can ask for with ``event_types=``.
EVENT_TYPES = frozenset(
    {SCALARS, HISTOGRAMS, IMAGES, AUDIO, TEXT, PR_CURVES, HPARAMS, TENSORS, CUSTOM_SCALARS, GRAPHS}
)

# TensorBoard plugin name -> kind
_PLUGINS = {
    "scalars": SCALARS,
    "histograms": HISTOGRAMS,
    "images": IMAGES,
    "audio": AUDIO,
    "text": TEXT,
    "pr_curves": PR_CURVES,
    "hparams": HPARAMS,
    "custom_scalars": CUSTOM_SCALARS,
    "graph_keras_model": GRAPHS,
    "graph_run_metadata": GRAPHS,
    "graph_run_metadata_graph": GRAPHS,
}


@dataclass(frozen=True)
class TagMetadata:
    """What a writer declared about a tag (``SummaryMetadata``), kept per (run, tag)."""

    plugin_name: str = ""
    content: bytes = b""
    display_name: str = ""
    description: str = ""
    data_class: int = 0

    @classmethod
    def from_proto(cls, meta: Any) -> TagMetadata:
        """Build from a ``SummaryMetadata`` message."""
        return cls(
            plugin_name=meta.plugin_data.plugin_name,
            content=bytes(meta.plugin_data.content),
            display_name=meta.display_name,
            description=meta.summary_description,
            data_class=int(meta.data_class),
        )


def kind_of(value: Any, meta: TagMetadata | None) -> str | None:
    """Return the normalised kind of a ``Summary.Value``, or ``None`` if it holds no data."""
    field = value.WhichOneof("value")
    if field is None:
        # hparams summaries carry everything in their metadata and no data at all
        own = value.metadata.plugin_data.plugin_name if value.HasField("metadata") else ""
        return HPARAMS if own == "hparams" else None
    if field == "simple_value":
        return SCALARS
    if field == "histo":
        return HISTOGRAMS
    if field == "image":
        return IMAGES
    if field == "audio":
        return AUDIO
    if field == "tensor":
        plugin = meta.plugin_name if meta is not None else ""
        return _PLUGINS.get(plugin, TENSORS)
    return None  # obsolete_old_style_histogram: never written by any supported writer


def normalize_value(value: Any, meta: TagMetadata | None) -> tuple[str, Any] | None:
    """Return ``(kind, data)`` for a ``Summary.Value``, or ``None`` if it holds no data.

    ``data`` per kind: ``scalars`` a float; ``histograms`` a dict (``edges``,
    ``counts``, ``min``, ``max``, ``num``, ``sum``, ``sum_squares``); ``images`` and
    ``audio`` a list of per-sample dicts with the encoded bytes under ``"data"``;
    ``text`` a str or an array of str; ``pr_curves`` a dict of arrays; ``hparams``
    and ``custom_scalars`` the plugin content bytes; ``graphs`` the bytes of the
    model; ``tensors`` a numpy array.

    Raises
    ------
    TensorDecodeError
        When a tensor's contents do not fit its dtype or shape.
    """
    kind = kind_of(value, meta)
    if kind is None:
        return None
    field = value.WhichOneof("value")
    if kind == HPARAMS:
        return kind, meta.content if meta is not None else b""
    if field == "simple_value":
        return kind, float(value.simple_value)
    if field == "histo":
        return kind, legacy_histogram(value.histo)
    if field == "image":
        img = value.image
        return kind, [_image_sample(bytes(img.encoded_image_string), img.width, img.height)]
    if field == "audio":
        aud = value.audio
        return kind, [_audio_sample(bytes(aud.encoded_audio_string), aud.content_type,
                                    aud.sample_rate, aud.num_channels, aud.length_frames)]
    tensor = value.tensor
    if kind == CUSTOM_SCALARS:  # the layout is the tensor's string (older writers: the content)
        strings = list(tensor.string_val)
        return kind, bytes(strings[0]) if strings else (meta.content if meta is not None else b"")
    array = tensor_to_numpy(tensor)
    if kind == SCALARS:
        if array.size != 1 or array.dtype == object:
            return TENSORS, array
        return kind, float(array.reshape(()))
    if kind == HISTOGRAMS:
        return kind, tensor_histogram(array)
    if kind == IMAGES:
        return kind, _tensor_images(array)
    if kind == AUDIO:
        return kind, _tensor_audio(array)
    if kind == TEXT:
        return kind, _decode_text(array)
    if kind == PR_CURVES:
        return kind, _pr_curve(array, meta)
    if kind == GRAPHS:
        return kind, bytes(array.reshape(-1)[0]) if array.size else b""
    return kind, array


def legacy_histogram(histo: Any) -> dict[str, Any]:
    """Normalise a ``HistogramProto`` as TensorBoard's ``data_compat`` does.

    Empty buckets at both ends are dropped; ``min`` and ``max`` become the outer
    edges of the first and last non-empty bucket.
    """
    counts = np.asarray(histo.bucket, dtype=np.float64)
    limits = np.asarray(histo.bucket_limit, dtype=np.float64)
    nonzero = np.flatnonzero(counts > 0)
    if nonzero.size == 0:
        edges = np.zeros(0)
        kept = np.zeros(0)
    else:
        start, end = int(nonzero[0]), int(nonzero[-1])
        kept = counts[start:end + 1]
        edges = np.concatenate([[histo.min], limits[start:end], [histo.max]])
    return {
        "edges": edges, "counts": kept, "min": float(histo.min), "max": float(histo.max),
        "num": float(histo.num), "sum": float(histo.sum), "sum_squares": float(histo.sum_squares),
        "limits": limits, "bucket": counts,
    }


def tensor_histogram(array: np.ndarray) -> dict[str, Any]:
    """Normalise a TF2 ``[k, 3]`` histogram tensor (left edge, right edge, count)."""
    array = np.asarray(array, dtype=np.float64)
    if array.size == 0:
        array = array.reshape(0, 3)
    if array.ndim != 2 or array.shape[1] != 3:
        raise TensorDecodeError(f"histogram tensor has shape {array.shape}, expected [k, 3]")
    lefts, rights, counts = array[:, 0], array[:, 1], array[:, 2]
    edges = np.concatenate([lefts, rights[-1:]]) if len(lefts) else np.zeros(0)
    nan = float("nan")
    return {
        "edges": edges, "counts": counts.copy(),
        "min": float(lefts[0]) if len(lefts) else nan,
        "max": float(rights[-1]) if len(rights) else nan,
        "num": float(counts.sum()), "sum": nan, "sum_squares": nan,
        "limits": rights.copy(), "bucket": counts.copy(),
    }


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
    return {"data": data, "width": int(width), "height": int(height),
            "format": image_format(data), "nbytes": len(data)}


def _tensor_images(array: np.ndarray) -> list[dict[str, Any]]:
    flat = list(array.reshape(-1))
    if len(flat) < 2:
        raise TensorDecodeError(
            f"image tensor has {len(flat)} elements, expected [w, h, images...]")
    try:
        width, height = int(flat[0]), int(flat[1])
    except (TypeError, ValueError):
        raise TensorDecodeError("image tensor does not start with width and height") from None
    return [_image_sample(bytes(b), width, height) for b in flat[2:]]


def wav_header(data: bytes) -> tuple[float, int, int]:
    """Return ``(sample_rate, channels, frames)`` from a WAV file's header (zeros if not WAV)."""
    if not (data.startswith(b"RIFF") and data[8:12] == b"WAVE"):
        return 0.0, 0, 0
    pos, rate, channels, bits, frames = 12, 0, 0, 0, 0
    while pos + 8 <= len(data):
        chunk, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        if chunk == b"fmt " and pos + 24 <= len(data):
            channels, rate = struct.unpack("<HI", data[pos + 10:pos + 16])
            bits = struct.unpack("<H", data[pos + 22:pos + 24])[0]
        elif chunk == b"data":
            frame_bytes = channels * bits // 8
            frames = min(size, len(data) - pos - 8) // frame_bytes if frame_bytes else 0
            break
        pos += 8 + size + (size & 1)
    return float(rate), int(channels), int(frames)


def _audio_sample(data: bytes, content_type: str, sample_rate: float = 0.0,
                  channels: int = 0, frames: int = 0, label: str = "") -> dict[str, Any]:
    if not sample_rate:
        sample_rate, channels, frames = wav_header(data)
    return {"data": data, "content_type": content_type or "audio/wav",
            "sample_rate": float(sample_rate), "num_channels": int(channels),
            "length_frames": int(frames), "label": label, "nbytes": len(data)}


def _tensor_audio(array: np.ndarray) -> list[dict[str, Any]]:
    if array.ndim == 2 and array.shape[1] == 2:
        rows = [(bytes(a), bytes(b).decode("utf-8", "replace")) for a, b in array]
    else:
        rows = [(bytes(a), "") for a in array.reshape(-1)]
    return [_audio_sample(data, "audio/wav", label=label) for data, label in rows]


def _decode_text(array: np.ndarray) -> Any:
    if array.dtype != object:
        return array.astype(str) if array.ndim else str(array)
    decoded = np.empty(array.shape, dtype=object)
    for index, item in np.ndenumerate(array):
        decoded[index] = bytes(item).decode("utf-8", "replace")
    # TensorBoard writes a single text as a rank-0 or a one-element rank-1 tensor
    return decoded.reshape(-1)[0] if decoded.size == 1 else decoded


PR_CURVE_ROWS = ("true_positives", "false_positives", "true_negatives", "false_negatives",
                 "precision", "recall")


def _pr_curve(array: np.ndarray, meta: TagMetadata | None) -> dict[str, Any]:
    array = np.asarray(array, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] != len(PR_CURVE_ROWS):
        raise TensorDecodeError(f"pr_curve tensor has shape {array.shape}, expected [6, n]")
    n = array.shape[1]
    if meta is not None and meta.content:
        declared = int(PrCurvePluginData.FromString(meta.content).num_thresholds)
        n = declared or n
    out: dict[str, Any] = {"thresholds": np.linspace(0.0, 1.0, array.shape[1])}
    if n != array.shape[1]:
        out["thresholds"] = np.arange(array.shape[1]) / max(n - 1, 1)
    for name, row in zip(PR_CURVE_ROWS, array, strict=True):
        out[name] = row.copy()
    return out


def shape_of(value: Any) -> tuple[int, ...]:
    """Shape of a value's tensor, ``()`` for non-tensor values."""
    return tensor_shape(value.tensor) if value.WhichOneof("value") == "tensor" else ()
