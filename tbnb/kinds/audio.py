"""Audio: WAV clips per step, several samples per value (layer: kinds).

torch and tensorboardX write a legacy ``Summary.Audio``; TF2 writes a string tensor
of ``[clip, label]`` pairs. Rows hold metadata (sample rate, channels, frames from the
WAV header when the writer left them out) and a lazy blob of the bytes.

Examples
--------
>>> import io, wave
>>> buf = io.BytesIO()
>>> with wave.open(buf, "wb") as w:
...     w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000); w.writeframes(b"\\0\\0" * 10)
>>> wav_header(buf.getvalue())
(8000.0, 1, 10)
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from tbnb.decode.tensors import tensor_to_numpy
from tbnb.kinds.base import Kind, RowContext, Tab, TagMetadata
from tbnb.kinds.batch import Batch, BatchRows, tensor_arrays
from tbnb.kinds.images import sample_batch, sample_rows

KEY = "audio"


def normalize(value: Any, meta: TagMetadata | None) -> list[dict[str, Any]]:
    """One dict per clip: ``data`` (WAV bytes), content type, rate, channels, frames, label."""
    if value.WhichOneof("value") == "audio":
        aud = value.audio
        return [
            _audio_sample(
                bytes(aud.encoded_audio_string),
                aud.content_type,
                aud.sample_rate,
                aud.num_channels,
                aud.length_frames,
            )
        ]
    return _tensor_audio(tensor_to_numpy(value.tensor))


def rows(data: list[dict[str, Any]], context: RowContext) -> list[dict[str, Any]]:
    """One row per clip."""
    return sample_rows(KEY, data, context)


def wav_header(data: bytes) -> tuple[float, int, int]:
    """Return ``(sample_rate, channels, frames)`` from a WAV file's header (zeros if not WAV)."""
    if not (data.startswith(b"RIFF") and data[8:12] == b"WAVE"):
        return 0.0, 0, 0
    pos, rate, channels, bits, frames = 12, 0, 0, 0, 0
    while pos + 8 <= len(data):
        chunk, size = data[pos : pos + 4], struct.unpack("<I", data[pos + 4 : pos + 8])[0]
        if chunk == b"fmt " and pos + 24 <= len(data):
            channels, rate = struct.unpack("<HI", data[pos + 10 : pos + 16])
            bits = struct.unpack("<H", data[pos + 22 : pos + 24])[0]
        elif chunk == b"data":
            frame_bytes = channels * bits // 8
            frames = min(size, len(data) - pos - 8) // frame_bytes if frame_bytes else 0
            break
        pos += 8 + size + (size & 1)
    return float(rate), int(channels), int(frames)


def _audio_sample(
    data: bytes,
    content_type: str,
    sample_rate: float = 0.0,
    channels: int = 0,
    frames: int = 0,
    label: str = "",
) -> dict[str, Any]:
    if not sample_rate:
        sample_rate, channels, frames = wav_header(data)
    return {
        "data": data,
        "content_type": content_type or "audio/wav",
        "sample_rate": float(sample_rate),
        "num_channels": int(channels),
        "length_frames": int(frames),
        "label": label,
        "nbytes": len(data),
    }


def _tensor_audio(array: np.ndarray) -> list[dict[str, Any]]:
    if array.ndim == 2 and array.shape[1] == 2:
        rows = [(bytes(a), bytes(b).decode("utf-8", "replace")) for a, b in array]
    else:
        rows = [(bytes(a), "") for a in array.reshape(-1)]
    return [_audio_sample(data, "audio/wav", label=label) for data, label in rows]


def batch(values: Batch) -> BatchRows:
    """A window's audio clips (legacy ``Summary.Audio`` and TF2 string tensors) natively."""
    buf = values.buf
    samples: list[list[dict[str, Any]] | None] = [None] * len(values)
    for i, (rate_bits, channels, frames, start, size, t_start, t_size, _) in values.legacy_media(7):
        rate = float(np.array(rate_bits, dtype=np.uint32).view(np.float32))
        content_type = buf[t_start : t_start + t_size].tobytes().decode() if t_size else ""
        sample = _audio_sample(
            buf[start : start + size].tobytes() if not rate else b"",
            content_type,
            rate,
            channels,
            frames,
        )
        if rate:
            sample["nbytes"] = size  # the bytes were not read: only their length
        samples[i] = [{k: v for k, v in sample.items() if k != "data"}]
    tensor = np.flatnonzero(values.code == 4)
    if tensor.size:
        arrays = tensor_arrays(values.subset(tensor))
        for i, array in zip(tensor.tolist(), arrays, strict=True):
            if array is not None and array.dtype == object:
                clips = _tensor_audio(array)
                samples[i] = [{k: v for k, v in c.items() if k != "data"} for c in clips]
    return sample_batch(KEY, values, samples)


KIND = Kind(
    key=KEY,
    doc="Audio clips: one row per sample, metadata columns and a lazy ``blob``.",
    plugins=("audio",),
    legacy_field="audio",
    columns=(
        "sample",
        "content_type",
        "sample_rate",
        "num_channels",
        "length_frames",
        "label",
        "nbytes",
        "blob",
    ),
    dtypes={
        "sample": np.int64,
        "sample_rate": np.float64,
        "num_channels": np.int64,
        "length_frames": np.int64,
        "nbytes": np.int64,
    },
    normalize=normalize,
    rows=rows,
    batch=batch,
    counted=True,
    tab=Tab("Audio", "tbnb.widgets.audio:audio"),
    tbparse=("audio", "tensors"),
)
