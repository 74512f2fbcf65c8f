"""CRC32C (Castagnoli) compiled with numba, for other compiled kernels.

A table-driven slice-by-8 implementation: eight 256-entry tables let the inner loop
consume eight bytes per iteration with independent table look-ups. The kernels take
a ``uint8`` array and a range; the tables are :data:`tbnb.io.crc32c.TABLES`.

Examples
--------
>>> import numpy as np
>>> buf = np.frombuffer(b"123456789", np.uint8)
>>> hex(crc32c_update(0, buf, 0, buf.size))
'0xe3069283'
>>> masked_crc32c_range(buf, 0, 0)
2726488792
"""

from __future__ import annotations

import numpy as np

from tbnb.io.crc32c import MASK_DELTA, TABLES
from tbnb.jit import njit

__all__ = ["crc32c_update", "mask", "masked_crc32c_range"]

_T = TABLES

@njit
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


@njit
def mask(crc: int) -> int:
    """Apply TFRecord's mask to an unmasked CRC32C."""
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + MASK_DELTA) & 0xFFFFFFFF


@njit
def masked_crc32c_range(data: np.ndarray, start: int, stop: int) -> int:
    """Masked CRC32C of ``data[start:stop]`` (a ``uint8`` array), as TFRecord stores it."""
    return mask(crc32c_update(0, data, start, stop))
