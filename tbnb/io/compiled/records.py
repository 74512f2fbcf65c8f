"""TFRecord framing compiled with numba: the kernel behind ``scan_records(kernels="numba")``.

The semantics are :mod:`tbnb.io.records`' (its module docstring); the numpy
implementation there gives the same scans (tested on random and corrupted buffers).

Examples
--------
>>> import numpy as np
>>> scan_kernel(np.frombuffer(b"", np.uint8), True)[2]
0
"""

from __future__ import annotations

import numpy as np

from tbnb.io.compiled.crc32c import masked_crc32c_range
from tbnb.io.compiled.memory import load32
from tbnb.jit import njit

__all__ = ["KERNELS", "scan_kernel"]

HEADER_BYTES = 12
FOOTER_BYTES = 4
_KIND_LENGTH_CRC = 1
_KIND_DATA_CRC = 2
_KIND_SHORT = 3


_u32 = load32


@njit(inline="always")
def _length(buf: np.ndarray, i: int) -> int:
    """The u64 length at ``i``, or -1 when it is ``2**48`` or more."""
    if buf[i + 6] != 0 or buf[i + 7] != 0:
        return -1
    return _u32(buf, i) | int(np.int64(buf[i + 4]) << 32) | int(np.int64(buf[i + 5]) << 40)


@njit(inline="always")
def _header_ok(buf: np.ndarray, i: int) -> bool:
    return bool(masked_crc32c_range(buf, i, i + 8) == _u32(buf, i + 8))


@njit
def _grow(a: np.ndarray, size: int) -> np.ndarray:
    b = np.empty(max(2 * a.size, size), dtype=a.dtype)
    b[: a.size] = a
    return b


@njit
def _resync(buf: np.ndarray, q: int, complete_only: bool) -> int:
    """The first offset from ``q`` where a record starts, or -1.

    A record starts where the header CRC validates and, when the whole record is in
    the buffer, the data CRC too. With ``complete_only`` the record must also be
    whole; otherwise a validated header whose record runs past the end is accepted
    (it may be the tail a writer is still writing).
    """
    n = buf.size
    while q + HEADER_BYTES <= n:
        if _header_ok(buf, q):
            length = _length(buf, q)
            if length < 0 or length > n - q - HEADER_BYTES - FOOTER_BYTES:
                if not complete_only:
                    return q
            else:
                d0 = q + HEADER_BYTES
                if masked_crc32c_range(buf, d0, d0 + length) == _u32(buf, d0 + length):
                    return q
        q += 1
    return -1


@njit
def _good_records(
    buf: np.ndarray, pos: int, verify_crc: bool, starts: np.ndarray, lengths: np.ndarray, count: int
) -> tuple[int, int]:
    """Append records from ``pos`` while each is whole and valid: (next position, count).

    The hot loop, kept apart from the problem handling: no array in it is reassigned
    (reassigned arrays cost reference counting on every iteration).
    """
    n = buf.size
    while n - pos >= HEADER_BYTES:
        if not _header_ok(buf, pos):
            break
        length = _length(buf, pos)
        d0 = pos + HEADER_BYTES
        if length < 0 or length > n - pos - HEADER_BYTES - FOOTER_BYTES:
            break
        if verify_crc and masked_crc32c_range(buf, d0, d0 + length) != _u32(buf, d0 + length):
            break
        starts[count] = d0
        lengths[count] = length
        count += 1
        pos = d0 + length + FOOTER_BYTES
    return pos, count


@njit
def _scan_kernel(
    buf: np.ndarray, verify_crc: bool
) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]:
    """Scan ``buf``; return (starts, lengths, end, problem offsets, kinds, skipped)."""
    n = buf.size
    cap = n // (HEADER_BYTES + FOOTER_BYTES) + 1  # records are 16 bytes at least
    starts = np.empty(cap, dtype=np.int64)
    lengths = np.empty(cap, dtype=np.int64)
    count = 0
    p_off = np.empty(4, dtype=np.int64)
    p_kind = np.empty(4, dtype=np.int8)
    p_skip = np.empty(4, dtype=np.int64)
    n_prob = 0
    pos = 0
    while n - pos >= HEADER_BYTES:
        pos, count = _good_records(buf, pos, verify_crc, starts, lengths, count)
        if n - pos < HEADER_BYTES:
            break
        # The record at pos fails a check or runs past the end.
        if not _header_ok(buf, pos):
            kind = _KIND_LENGTH_CRC
            q = _resync(buf, pos + 1, False)
        else:
            length = _length(buf, pos)
            if length < 0 or length > n - pos - HEADER_BYTES - FOOTER_BYTES:
                # Runs past the end: a tail still being written, unless a whole valid
                # record follows inside it (then this record was cut short).
                q = _resync(buf, pos + 1, True)
                if q < 0:
                    break
                kind = _KIND_SHORT
            else:
                # The data does not match: its length may be wrong too, so look for
                # the next record from the next byte rather than trusting it.
                kind = _KIND_DATA_CRC
                q = _resync(buf, pos + 1, False)
        if q < 0:
            q = n - (HEADER_BYTES - 1)
        if n_prob == p_off.size:
            p_off = _grow(p_off, n_prob + 1)
            p_kind = _grow(p_kind, n_prob + 1)
            p_skip = _grow(p_skip, n_prob + 1)
        p_off[n_prob] = pos
        p_kind[n_prob] = kind
        p_skip[n_prob] = q - pos
        n_prob += 1
        if q <= pos:
            break
        pos = q
    return starts[:count], lengths[:count], pos, p_off[:n_prob], p_kind[:n_prob], p_skip[:n_prob]


def scan_kernel(
    buf: np.ndarray, verify_crc: bool
) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]:
    """Scan a read-only ``uint8`` view of ``buf`` (the one argument type compiled)."""
    if buf.flags.writeable:
        buf = buf.view()
        buf.flags.writeable = False
    return _scan_kernel(buf, bool(verify_crc))


KERNELS = [(_scan_kernel, (np.frombuffer(b"", np.uint8), True))]
"""What :mod:`tbnb.jit` compiles and loads: the kernel called from Python, with
arguments of the types it is always called with."""
