"""Pure preparation of the audio view: a clip's payload, WAV decoding, waveform, spectrogram.

The browser draws the waveform and spectrogram itself (``js/src/widgets/audio/wav.js``
and ``spectrum.js``, the same computations); these are for ``.to_plotly()`` and tests.

Examples
--------
>>> import io, wave
>>> import numpy as np
>>> buf = io.BytesIO()
>>> with wave.open(buf, "wb") as w:
...     w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
...     w.writeframes(np.array([0, 16384, -16384], "<i2").tobytes())
>>> samples, rate = decode_wav(buf.getvalue())
>>> samples[:, 0].tolist(), rate
([0.0, 0.5, -0.5], 8000)
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np
import pandas as pd

from tbnb.kinds.audio import wav_header
from tbnb.widgets.images.prepare import read_bytes

__all__ = ["audio_payload", "decode_wav", "envelope", "row_problems", "spectrogram"]

_PCM, _FLOAT, _EXTENSIBLE = 1, 3, 0xFFFE


def audio_payload(row: pd.Series) -> dict[str, Any]:
    """A clip for the browser: its WAV bytes as written and what the header says.

    Examples
    --------
    >>> import pandas as pd
    >>> p = audio_payload(pd.Series({"data": b"RIFF", "sample_rate": 8000.0,
    ...                              "length_frames": 4000, "num_channels": 1}))
    >>> p["duration"], p["nbytes"]
    (0.5, 4)
    """
    data = read_bytes(row)
    rate = float(row.get("sample_rate", 0) or 0)
    frames = int(row.get("length_frames", 0) or 0)
    channels = int(row.get("num_channels", 0) or 0)
    if not rate:
        rate, channels, frames = wav_header(data)
    label = row.get("label")
    return {
        "content_type": str(row.get("content_type") or "audio/wav"),
        "sample_rate": rate,
        "num_channels": channels,
        "length_frames": frames,
        "duration": frames / rate if rate else 0.0,
        "label": "" if label is None or pd.isna(label) else str(label),
        "nbytes": len(data),
        "data": data,
    }


def row_problems(frame: pd.DataFrame) -> list[str]:
    """Clips the browser cannot play: not WAV, or a header with no sample rate.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"run": "a", "tag": "x", "step": [0, 1],
    ...                       "content_type": ["audio/wav", "audio/wav"],
    ...                       "sample_rate": [8000.0, 0.0], "nbytes": [100, 3]})
    >>> row_problems(frame)
    ["run 'a', tag 'x': step 1 has no readable WAV header (3 bytes); it shows as an error"]
    """
    if frame.empty or "sample_rate" not in frame.columns:
        return []
    # A clip's type is its bytes' (js/src/media/media-type.js), never its content_type.
    bad = frame["sample_rate"].to_numpy(dtype=np.float64) <= 0
    rows = frame.loc[bad]
    out = []
    for (run, tag), group in rows.groupby(
        [rows["run"].astype(str), rows["tag"].astype(str)], sort=False
    ):
        steps = group["step"].tolist()
        listed = ", ".join(str(s) for s in steps[:5]) + (" ..." if len(steps) > 5 else "")
        size = f" ({int(group['nbytes'].iloc[0])} bytes)" if "nbytes" in group.columns else ""
        word = "steps" if len(steps) > 1 else "step"
        verb = "have" if len(steps) > 1 else "has"
        out.append(
            f"run {run!r}, tag {tag!r}: {word} {listed} {verb} no readable WAV header"
            f"{size}; it shows as an error"
        )
    return out


def decode_wav(data: bytes) -> tuple[np.ndarray, int]:
    """Samples as float32 ``[frames, channels]`` in [-1, 1] and the rate of a WAV file.

    PCM of 8, 16, 24 or 32 bits and IEEE float of 32 or 64 bits (also inside
    ``WAVE_FORMAT_EXTENSIBLE``); ``ValueError`` naming what is wrong otherwise.
    """
    if not (data.startswith(b"RIFF") and data[8:12] == b"WAVE"):
        raise ValueError("not a WAV file (no RIFF/WAVE header)")
    pos, fmt = 12, None
    while pos + 8 <= len(data):
        chunk, size = data[pos : pos + 4], struct.unpack("<I", data[pos + 4 : pos + 8])[0]
        body = data[pos + 8 : pos + 8 + size]
        if chunk == b"fmt " and len(body) >= 16:
            code, channels, rate, _, _, bits = struct.unpack("<HHIIHH", body[:16])
            if code == _EXTENSIBLE and len(body) >= 26:
                code = struct.unpack("<H", body[24:26])[0]
            fmt = (code, channels, rate, bits)
        elif chunk == b"data":
            if fmt is None:
                raise ValueError("WAV data before its fmt chunk")
            return _samples(body, *fmt), int(fmt[2])
        pos += 8 + size + (size & 1)
    raise ValueError("WAV file without a data chunk")


def _samples(body: bytes, code: int, channels: int, rate: int, bits: int) -> np.ndarray:
    width = bits // 8
    if channels < 1 or width < 1:
        raise ValueError(f"WAV with {channels} channels of {bits} bits")
    frames = len(body) // (width * channels)
    raw = body[: frames * width * channels]
    out: np.ndarray  # float64 first, float32 at the end (as the browser rounds)
    if code == _FLOAT and bits in (32, 64):
        out = np.frombuffer(raw, dtype=f"<f{width}").astype(np.float64)
    elif code == _PCM and bits == 8:
        out = (np.frombuffer(raw, dtype=np.uint8).astype(np.float64) - 128) / 128
    elif code == _PCM and bits in (16, 32):
        out = np.frombuffer(raw, dtype=f"<i{width}").astype(np.float64) / float(2 ** (bits - 1))
    elif code == _PCM and bits == 24:
        b = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3).astype(np.int32)
        value = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        value = np.where(value >= 1 << 23, value - (1 << 24), value)
        out = value.astype(np.float64) / float(1 << 23)
    else:
        raise ValueError(f"WAV format {code} with {bits} bits is not PCM or float")
    return out.astype(np.float32).reshape(frames, channels)


def envelope(samples: np.ndarray, columns: int) -> tuple[np.ndarray, np.ndarray]:
    """Min and max of ``samples`` in each of ``columns`` equal slices (what a waveform draws).

    Examples
    --------
    >>> import numpy as np
    >>> lo, hi = envelope(np.array([0, 1, -1, 0.5], dtype=np.float32), 2)
    >>> lo.tolist(), hi.tolist()
    ([0.0, -1.0], [1.0, 0.5])
    """
    n = len(samples)
    columns = max(1, min(columns, n)) if n else 1
    edges = (np.arange(columns + 1) * n) // columns
    if n == 0:
        return np.zeros(1, np.float32), np.zeros(1, np.float32)
    starts = edges[:-1]
    return (
        np.minimum.reduceat(samples, starts).astype(np.float32),
        np.maximum.reduceat(samples, starts).astype(np.float32),
    )


def spectrogram(
    samples: np.ndarray, columns: int, n_fft: int = 512, floor_db: float = -80.0
) -> np.ndarray:
    """Magnitude in dB (``[n_fft // 2 + 1, columns]``, relative to the loudest bin, floored).

    One Hann-windowed frame of ``n_fft`` samples centred on each column's time, moved
    inside the clip at its ends (zeros would add an onset: a broadband band at the edges;
    a clip shorter than a frame is zero padded), as ``js/src/widgets/audio/spectrum.js``
    computes it.

    Examples
    --------
    >>> import numpy as np
    >>> t = np.arange(8000) / 8000
    >>> s = spectrogram(np.sin(2 * np.pi * 1000 * t).astype(np.float32), 10, n_fft=256)
    >>> s.shape, int(s[:, 5].argmax())                 # 1000 Hz: bin 32 of 128 (4000 Hz)
    ((129, 10), 32)
    """
    n = len(samples)
    columns = max(int(columns), 1)
    window = np.hanning(n_fft + 1)[:-1].astype(np.float64)  # periodic Hann
    padded = np.concatenate([samples.astype(np.float64), np.zeros(n_fft)])
    centres = ((np.arange(columns) + 0.5) * n / columns).astype(np.int64)
    starts = np.clip(centres - n_fft // 2, 0, max(n - n_fft, 0))
    frames = np.stack([padded[s : s + n_fft] for s in starts]) * window
    mags = np.abs(np.fft.rfft(frames, axis=1)).T
    db = 20 * np.log10(np.maximum(mags, 1e-12))
    top = db.max() if db.size else 0.0
    result: np.ndarray = np.maximum(db - top, floor_db).astype(np.float32)
    return result
