"""CRC32C (Castagnoli), the checksum of TFRecord framing, without a compiler.

One CRC goes to ``google-crc32c`` (Google's C library, hardware-accelerated where the
CPU allows, wheels for every platform; its pure-Python fallback otherwise). Many
short ranges at once (:func:`crc32c_ranges`, the headers and payloads of a window of
records) are computed by numpy in lock step, eight bytes per step with slice-by-8
tables (:data:`TABLES`); long ones go to ``google-crc32c`` one by one.

Examples
--------
>>> hex(crc32c(b"123456789"))
'0xe3069283'
>>> masked_crc32c(b"")
2726488792
>>> import numpy as np
>>> buf = np.frombuffer(b"123456789123456789", np.uint8)
>>> [hex(c) for c in crc32c_ranges(buf, np.array([0, 9]), np.array([9, 9]))]
['0xe3069283', '0xe3069283']
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "CASTAGNOLI_POLY",
    "MASK_DELTA",
    "TABLES",
    "crc32c",
    "crc32c_ranges",
    "mask",
    "masked_crc32c",
]

CASTAGNOLI_POLY = 0x82F63B78
"""The reflected Castagnoli polynomial."""

MASK_DELTA = 0xA282EAD8
"""TFRecord's mask constant (added after rotating the CRC right by 15 bits)."""

LOCKSTEP_MAX = 512
"""Ranges up to this long are computed by numpy in lock step; longer ones one by one."""


def _make_tables() -> np.ndarray:
    """Return the ``(8, 256)`` slice-by-8 tables (int64 holding uint32 values)."""
    tables = np.zeros((8, 256), dtype=np.int64)
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ (CASTAGNOLI_POLY if crc & 1 else 0)
        tables[0, byte] = crc
    for k in range(1, 8):
        for byte in range(256):
            prev = int(tables[k - 1, byte])
            tables[k, byte] = (prev >> 8) ^ int(tables[0, prev & 0xFF])
    return tables


TABLES = _make_tables()
"""Slice-by-8 tables: ``TABLES[k][b]`` is the CRC of byte ``b`` followed by ``k`` zeros."""

_T32 = TABLES.astype(np.uint32)


def _google() -> object | None:
    try:
        import google_crc32c
    except ImportError:  # pragma: no cover - a declared dependency
        return None
    return google_crc32c


def _table_crc(data: bytes) -> int:
    """Byte-at-a-time CRC32C (used only without ``google-crc32c``)."""
    c = 0xFFFFFFFF
    t0 = TABLES[0].tolist()
    for b in data:
        c = t0[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def crc32c(data: bytes | bytearray | memoryview | np.ndarray) -> int:
    """Return the CRC32C (Castagnoli) of ``data``.

    Parameters
    ----------
    data
        Any contiguous bytes-like object or numpy array (its raw bytes are used).

    Examples
    --------
    >>> hex(crc32c(b"123456789"))
    '0xe3069283'
    """
    raw = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
    return int(getattr(_google(), "value", _table_crc)(raw))


def mask(crc: int | np.ndarray) -> int | np.ndarray:
    """Apply TFRecord's mask to unmasked CRC32C values (an int or a ``uint32`` array).

    Examples
    --------
    >>> mask(crc32c(b"123456789")) == masked_crc32c(b"123456789")
    True
    >>> hex(mask(0xE3069283))
    '0xc78ab0e5'
    """
    if isinstance(crc, np.ndarray):
        c = crc.astype(np.uint32)
        out: np.ndarray = ((c >> np.uint32(15)) | (c << np.uint32(17))) + np.uint32(MASK_DELTA)
        return out
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + MASK_DELTA) & 0xFFFFFFFF


def masked_crc32c(data: bytes | bytearray | memoryview | np.ndarray) -> int:
    """Return the masked CRC32C that TFRecord framing stores after a length or payload.

    The mask is ``((crc >> 15) | (crc << 17)) + 0xa282ead8`` modulo ``2**32``.

    Examples
    --------
    >>> import struct
    >>> hex(masked_crc32c(struct.pack("<Q", 24)))
    '0x224b7fa3'
    """
    return int(mask(crc32c(data)))


def _lockstep(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Unmasked CRCs of the ranges (numpy), all advanced together eight bytes a step.

    Ranges are sorted by length, so those still running at a step are a suffix.
    """
    order = np.argsort(lengths, kind="stable")
    s, n = starts[order], lengths[order]
    blocks = n // 8
    c = np.full(s.size, 0xFFFFFFFF, dtype=np.uint32)
    t = _T32
    first = np.searchsorted(
        blocks, np.arange(int(blocks[-1]) if blocks.size else 0), side="right"
    ).tolist()
    for k, a in enumerate(first):
        at = s[a:] + 8 * k
        lo = c[a:] ^ (
            buf[at].astype(np.uint32)
            | (buf[at + 1].astype(np.uint32) << 8)
            | (buf[at + 2].astype(np.uint32) << 16)
            | (buf[at + 3].astype(np.uint32) << 24)
        )
        c[a:] = (
            t[7][lo & 0xFF]
            ^ t[6][(lo >> 8) & 0xFF]
            ^ t[5][(lo >> 16) & 0xFF]
            ^ t[4][lo >> 24]
            ^ t[3][buf[at + 4]]
            ^ t[2][buf[at + 5]]
            ^ t[1][buf[at + 6]]
            ^ t[0][buf[at + 7]]
        )
    rest, tail = n % 8, s + 8 * blocks
    for j in range(7):
        m = np.flatnonzero(rest > j)
        if m.size == 0:
            break
        c[m] = t[0][(c[m] ^ buf[tail[m] + j]) & 0xFF] ^ (c[m] >> 8)
    out = np.empty_like(c)
    out[order] = c ^ np.uint32(0xFFFFFFFF)
    return out


def crc32c_ranges(
    buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, raw: bytes | None = None
) -> np.ndarray:
    """Unmasked CRC32C of ``buf[starts[i]:starts[i] + lengths[i]]`` for every ``i``.

    Parameters
    ----------
    buf
        A ``uint8`` array.
    starts, lengths
        The ranges (integer arrays of one size), inside ``buf``.
    raw
        ``buf``'s bytes as a ``bytes`` object, if at hand (saves a copy for long ranges;
        ``google-crc32c`` reads only ``bytes``).

    Returns
    -------
    numpy.ndarray
        ``uint32``, one CRC per range.
    """
    starts = np.asarray(starts, dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    out = np.empty(starts.size, dtype=np.uint32)
    short = lengths <= LOCKSTEP_MAX
    short_at = np.flatnonzero(short)
    if short_at.size:
        out[short_at] = _lockstep(buf, starts[short_at], lengths[short_at])
    long_at = np.flatnonzero(~short)
    if long_at.size:
        data = raw if raw is not None else buf.tobytes()
        value = getattr(_google(), "value", _table_crc)
        for i in long_at.tolist():
            s = int(starts[i])
            out[i] = value(data[s : s + int(lengths[i])])
    return out
