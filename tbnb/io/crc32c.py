"""CRC32C (Castagnoli), the checksum of TFRecord framing, compiled with numba.

A table-driven slice-by-8 implementation: eight 256-entry tables let the inner
loop consume eight bytes per iteration with independent table look-ups. The
njit kernels (:func:`crc32c_update`, :func:`masked_crc32c_range`) are meant to be
called from other njit code over a ``uint8`` array; :func:`crc32c` and
:func:`masked_crc32c` are the Python entry points.

Examples
--------
>>> hex(crc32c(b"123456789"))
'0xe3069283'
>>> masked_crc32c(b"")
2726488792
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = [
    "CASTAGNOLI_POLY",
    "MASK_DELTA",
    "crc32c",
    "crc32c_update",
    "mask",
    "masked_crc32c",
    "masked_crc32c_range",
]

CASTAGNOLI_POLY = 0x82F63B78
"""The reflected Castagnoli polynomial."""

MASK_DELTA = 0xA282EAD8
"""TFRecord's mask constant (added after rotating the CRC right by 15 bits)."""


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


_T = _make_tables()


@njit(cache=True, nogil=True)
def crc32c_update(crc: int, data: np.ndarray, start: int, stop: int) -> int:
    """Continue a CRC32C over ``data[start:stop]`` (a ``uint8`` array); start with ``crc=0``.

    Returns the (unmasked) CRC as a non-negative int below ``2**32``.
    """
    t = _T
    c = (crc ^ 0xFFFFFFFF) & 0xFFFFFFFF
    i = start
    while i + 8 <= stop:
        lo = c ^ (
            np.int64(data[i])
            | (np.int64(data[i + 1]) << 8)
            | (np.int64(data[i + 2]) << 16)
            | (np.int64(data[i + 3]) << 24)
        )
        c = (
            t[7, lo & 0xFF]
            ^ t[6, (lo >> 8) & 0xFF]
            ^ t[5, (lo >> 16) & 0xFF]
            ^ t[4, (lo >> 24) & 0xFF]
            ^ t[3, data[i + 4]]
            ^ t[2, data[i + 5]]
            ^ t[1, data[i + 6]]
            ^ t[0, data[i + 7]]
        )
        i += 8
    while i < stop:
        c = t[0, (c ^ np.int64(data[i])) & 0xFF] ^ (c >> 8)
        i += 1
    return c ^ 0xFFFFFFFF


@njit(cache=True, nogil=True)
def mask(crc: int) -> int:
    """Apply TFRecord's mask to an unmasked CRC32C."""
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + MASK_DELTA) & 0xFFFFFFFF


@njit(cache=True, nogil=True)
def masked_crc32c_range(data: np.ndarray, start: int, stop: int) -> int:
    """Masked CRC32C of ``data[start:stop]`` (a ``uint8`` array), as TFRecord stores it."""
    return mask(crc32c_update(0, data, start, stop))


def _as_u8(data: bytes | bytearray | memoryview | np.ndarray) -> np.ndarray:
    """View ``data``'s raw bytes as a 1-D ``uint8`` array (copying only non-contiguous arrays)."""
    if isinstance(data, np.ndarray):
        return np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    return np.frombuffer(data, dtype=np.uint8)


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
    buf = _as_u8(data)
    return int(crc32c_update(0, buf, 0, buf.size))


def masked_crc32c(data: bytes | bytearray | memoryview | np.ndarray) -> int:
    """Return the masked CRC32C that TFRecord framing stores after a length or payload.

    The mask is ``((crc >> 15) | (crc << 17)) + 0xa282ead8`` modulo ``2**32``.

    Examples
    --------
    >>> import struct
    >>> hex(masked_crc32c(struct.pack("<Q", 24)))
    '0x224b7fa3'
    """
    buf = _as_u8(data)
    return int(masked_crc32c_range(buf, 0, buf.size))
