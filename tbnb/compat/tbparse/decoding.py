"""Decoding as TensorFlow does, for tbparse's frames: images, WAV audio, histogram tensors.

Examples
--------
>>> import numpy as np
>>> tensor_to_histogram(np.array([[0.0, 1.0, 2.0]]))["counts"].tolist()
[0.0, 2.0]
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

__all__ = ["decode_image", "decode_wav", "read_wav", "tensor_to_histogram"]


# ---------------------------------------------------------------- decoding (as tf.io does)
def _pillow() -> Any:
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - exercised only without Pillow
        raise ImportError(
            "tbnb.SummaryReader decodes images to numpy arrays with Pillow, which is not "
            "installed: `pip install pillow`, or leave 'images' out of event_types (the "
            "encoded bytes are in tbnb.load(...).images without Pillow)"
        ) from None
    return Image


def decode_image(data: bytes) -> np.ndarray:
    """Decode an encoded image as ``tf.image.decode_image`` does (needs Pillow).

    PNG and JPEG give a ``(height, width, channels)`` uint8 array with the file's own
    channels (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA; palettes expand to RGB(A), 16-bit
    samples keep their high byte); a GIF gives ``(frames, height, width, 3)``.

    Examples
    --------
    >>> import io
    >>> from PIL import Image
    >>> buf = io.BytesIO()
    >>> Image.new("RGB", (3, 2), (255, 0, 0)).save(buf, format="PNG")
    >>> decode_image(buf.getvalue()).shape
    (2, 3, 3)
    """
    image_module = _pillow()
    from PIL import ImageSequence

    with image_module.open(io.BytesIO(data)) as opened:
        if opened.format == "GIF":
            return np.stack(
                [np.asarray(frame.convert("RGB")) for frame in ImageSequence.Iterator(opened)]
            )
        mode, image = opened.mode, opened
        if mode == "P":
            image = opened.convert("RGBA" if "transparency" in opened.info else "RGB")
        elif mode == "1":
            image = opened.convert("L")
        elif mode in ("PA", "CMYK", "YCbCr", "LAB", "HSV"):
            image = opened.convert("RGBA" if mode == "PA" else "RGB")
        array: np.ndarray = np.asarray(image)
    if array.dtype != np.uint8:  # 16-bit grey ("I;16", "I")
        array = (array.astype(np.uint32) >> 8).astype(np.uint8)
    return array[..., None] if array.ndim == 2 else array


def decode_wav(data: bytes) -> np.ndarray:
    """Decode 16-bit PCM WAV as ``tf.audio.decode_wav`` does: float32 ``(frames, channels)``
    in [-1, 1).

    Examples
    --------
    >>> import io, wave
    >>> buf = io.BytesIO()
    >>> with wave.open(buf, "wb") as w:
    ...     w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
    ...     w.writeframes(np.array([0, 16384, -32768], "<i2").tobytes())
    >>> decode_wav(buf.getvalue()).ravel().tolist()
    [0.0, 0.5, -1.0]
    """
    return read_wav(data)[0]


def read_wav(data: bytes) -> tuple[np.ndarray, np.int32]:
    """``tf.audio.decode_wav``'s two results: the samples (see :func:`decode_wav`) and the
    sample rate (``int32``).

    Examples
    --------
    >>> import io, wave
    >>> buf = io.BytesIO()
    >>> with wave.open(buf, "wb") as w:
    ...     w.setnchannels(2); w.setsampwidth(2); w.setframerate(8000)
    ...     w.writeframes(np.zeros(4, "<i2").tobytes())
    >>> samples, rate = read_wav(buf.getvalue())
    >>> samples.shape, int(rate)
    ((2, 2), 8000)
    """
    import wave

    with wave.open(io.BytesIO(data), "rb") as clip:
        if clip.getsampwidth() != 2:
            raise ValueError(f"can only decode 16-bit WAV, got {8 * clip.getsampwidth()}-bit")
        channels = clip.getnchannels()
        rate = np.int32(clip.getframerate())
        frames = clip.readframes(clip.getnframes())
    samples: np.ndarray = np.frombuffer(frames, dtype="<i2").astype(np.float32) / np.float32(32768)
    return samples.reshape(-1, channels), rate


def tensor_to_histogram(tensor: np.ndarray) -> dict[str, Any]:
    """Convert a TF2 ``[k, 3]`` histogram tensor (left, right, count) as tbparse does.

    Examples
    --------
    >>> d = tensor_to_histogram(np.array([[0.0, 1.0, 2.0], [1.0, 2.0, 3.0]]))
    >>> d["limits"].tolist(), d["counts"].tolist(), float(d["num"])
    ([0.0, 1.0, 2.0], [0.0, 2.0, 3.0], 5.0)
    """
    limits = [tensor[0][0], *(row[1] for row in tensor)]
    counts = [0, *(row[2] for row in tensor)]
    return {
        "limits": np.array(limits),
        "counts": np.array(counts),
        "min": limits[0],
        "max": limits[-1],
        "num": np.sum(counts),
        "sum": np.nan,
        "sum_squares": np.nan,
    }
