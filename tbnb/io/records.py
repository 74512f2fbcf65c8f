"""TFRecord framing: split a byte buffer into record payloads, verifying both CRCs.

A record is ``u64 length (LE), u32 masked crc32c(length bytes), data, u32 masked
crc32c(data)``. :func:`scan_records` walks a whole buffer in one compiled loop and
returns where every good payload starts, how long it is, where the scan stopped and
what was wrong on the way. It knows nothing about protobuf.

Semantics
---------
- **Truncated tail** (fewer than 12 bytes left, or a valid header whose data and
  CRC run past the end of the buffer with no whole valid record after it): not an
  error, the file is still being written. The scan stops and ``end`` is that
  record's start; read again from ``base_offset + end`` once more bytes have arrived.
- **Record cut short**: a valid header whose record runs past the end, but a whole
  valid record follows inside it (bytes were lost mid-file). One problem
  (``"short_record"``); the scan resumes at that record.
- **Bad length CRC**: corruption. One :class:`RecordProblem` (``"length_crc"``) is
  recorded and the scan searches forward byte by byte for the next offset whose
  header CRC validates and, when that whole record is in the buffer, whose data
  CRC validates too; every good record after it is kept. If no offset validates,
  the scan stops at ``end = len(buf) - 11``: the last 11 bytes (too short to hold a
  header) stay unconsumed so that a record an appender is still writing there can
  complete later. A text file named like an event file thus gives exactly one
  problem and no records, and rescanning from ``end`` without new bytes gives none.
- **Bad data CRC** with a valid header: one problem (``"data_crc"``). Bytes may
  have been lost or added inside the record, so its length is not trusted: the
  scan resynchronises from the next byte as after a bad length CRC (for a flipped
  bit this finds the very next record).
- A valid header claiming a length of ``2**48`` bytes or more is treated as a
  record running past the end (no file gets that large).

Examples
--------
>>> import struct
>>> from tbnb.io.crc32c import masked_crc32c
>>> def frame(data):
...     head = struct.pack("<Q", len(data))
...     return head + struct.pack("<I", masked_crc32c(head)) + data + struct.pack(
...         "<I", masked_crc32c(data))
>>> buf = frame(b"hello") + frame(b"world")[:7]
>>> scan = scan_records(buf)
>>> [bytes(buf[s:s + n]) for s, n in zip(scan.starts, scan.lengths)], scan.end, scan.problems
([b'hello'], 21, [])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from fsspec.core import url_to_fs
from numba import njit

from tbnb.io.crc32c import masked_crc32c_range

__all__ = ["RecordProblem", "RecordScan", "read_from", "scan_records"]

HEADER_BYTES = 12
"""Length (8) plus its masked CRC (4)."""

FOOTER_BYTES = 4
"""Masked CRC of the data."""

_KIND_LENGTH_CRC = 1
_KIND_DATA_CRC = 2
_KIND_SHORT = 3
_KIND_NAMES = {_KIND_LENGTH_CRC: "length_crc", _KIND_DATA_CRC: "data_crc",
               _KIND_SHORT: "short_record"}


@dataclass(frozen=True)
class RecordProblem:
    """One corruption found while scanning.

    Attributes
    ----------
    offset
        Byte offset in the file (``base_offset`` + position in the buffer) of the
        record header where the problem was found.
    kind
        ``"length_crc"`` (the header's CRC does not match its length bytes),
        ``"data_crc"`` (the payload's CRC does not match) or ``"short_record"``
        (a record runs into the next one: bytes were lost).
    skipped
        Bytes skipped to resynchronise.
    """

    offset: int
    kind: str
    skipped: int


@dataclass(frozen=True)
class RecordScan:
    """The result of :func:`scan_records`.

    Attributes
    ----------
    starts
        ``int64``: payload start of each good record, as an index into the buffer.
    lengths
        ``int64``: payload length of each good record.
    end
        Index in the buffer just after the last complete record (or resync point).
        A truncated tail, if any, starts here: resume reading at ``base_offset + end``.
    problems
        Corruption found on the way, in buffer order.
    """

    starts: np.ndarray
    lengths: np.ndarray
    end: int
    problems: list[RecordProblem]


@njit(cache=True, nogil=True)
def _u32(buf: np.ndarray, i: int) -> int:
    return int(
        np.int64(buf[i])
        | (np.int64(buf[i + 1]) << 8)
        | (np.int64(buf[i + 2]) << 16)
        | (np.int64(buf[i + 3]) << 24)
    )


@njit(cache=True, nogil=True)
def _length(buf: np.ndarray, i: int) -> int:
    """The u64 length at ``i``, or -1 when it is ``2**48`` or more."""
    if buf[i + 6] != 0 or buf[i + 7] != 0:
        return -1
    return _u32(buf, i) | int(np.int64(buf[i + 4]) << 32) | int(np.int64(buf[i + 5]) << 40)


@njit(cache=True, nogil=True)
def _header_ok(buf: np.ndarray, i: int) -> bool:
    return bool(masked_crc32c_range(buf, i, i + 8) == _u32(buf, i + 8))


@njit(cache=True, nogil=True)
def _grow(a: np.ndarray, size: int) -> np.ndarray:
    b = np.empty(max(2 * a.size, size), dtype=a.dtype)
    b[: a.size] = a
    return b


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _scan_kernel(
    buf: np.ndarray, verify_crc: bool
) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]:
    """Scan ``buf``; return (starts, lengths, end, problem offsets, kinds, skipped)."""
    n = buf.size
    cap = n // 64 + 16
    starts = np.empty(cap, dtype=np.int64)
    lengths = np.empty(cap, dtype=np.int64)
    count = 0
    p_off = np.empty(4, dtype=np.int64)
    p_kind = np.empty(4, dtype=np.int8)
    p_skip = np.empty(4, dtype=np.int64)
    n_prob = 0
    pos = 0
    while n - pos >= HEADER_BYTES:
        kind = 0
        q = -1
        if not _header_ok(buf, pos):
            kind = _KIND_LENGTH_CRC
            q = _resync(buf, pos + 1, False)
        else:
            length = _length(buf, pos)
            d0 = pos + HEADER_BYTES
            if length < 0 or length > n - pos - HEADER_BYTES - FOOTER_BYTES:
                # Runs past the end: a tail still being written, unless a whole valid
                # record follows inside it (then this record was cut short).
                q = _resync(buf, pos + 1, True)
                if q < 0:
                    break
                kind = _KIND_SHORT
            elif verify_crc and masked_crc32c_range(buf, d0, d0 + length) != _u32(
                    buf, d0 + length):
                # The data does not match: its length may be wrong too, so look for
                # the next record from the next byte rather than trusting it.
                kind = _KIND_DATA_CRC
                q = _resync(buf, pos + 1, False)
            else:
                if count == starts.size:
                    starts = _grow(starts, count + 1)
                    lengths = _grow(lengths, count + 1)
                starts[count] = d0
                lengths[count] = length
                count += 1
                pos = d0 + length + FOOTER_BYTES
                continue
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
    return (
        starts[:count].copy(),
        lengths[:count].copy(),
        pos,
        p_off[:n_prob].copy(),
        p_kind[:n_prob].copy(),
        p_skip[:n_prob].copy(),
    )


def as_uint8(buf: bytes | bytearray | memoryview | np.ndarray) -> np.ndarray:
    """View a bytes-like object or array as a 1-D ``uint8`` array without copying.

    Examples
    --------
    >>> as_uint8(b"ab")
    array([97, 98], dtype=uint8)
    """
    if isinstance(buf, np.ndarray):
        if buf.dtype == np.uint8 and buf.ndim == 1:
            return buf
        return np.ascontiguousarray(buf).reshape(-1).view(np.uint8)
    return np.frombuffer(buf, dtype=np.uint8)


def scan_records(
    buf: bytes | bytearray | memoryview | np.ndarray,
    *,
    base_offset: int = 0,
    verify_crc: bool = True,
) -> RecordScan:
    """Find the TFRecord payloads in ``buf``, verifying their CRCs.

    Parameters
    ----------
    buf
        Bytes of an event file from some record boundary on (e.g. :func:`read_from`).
    base_offset
        File offset of ``buf[0]``; only used for :attr:`RecordProblem.offset`.
    verify_crc
        Check each payload's CRC (default). Header CRCs are always checked: they
        are what makes resynchronisation after corruption possible.

    Returns
    -------
    RecordScan
        Payload starts and lengths (indices into ``buf``), where the scan stopped,
        and the problems found. See the module docstring for the exact semantics.

    Examples
    --------
    >>> scan = scan_records(b"not an event file, just some text\\n")
    >>> len(scan.starts), scan.end, scan.problems
    (0, 23, [RecordProblem(offset=0, kind='length_crc', skipped=23)])
    """
    arr = as_uint8(buf)
    starts, lengths, end, p_off, p_kind, p_skip = _scan_kernel(arr, bool(verify_crc))
    problems = [
        RecordProblem(offset=base_offset + int(o), kind=_KIND_NAMES[int(k)], skipped=int(s))
        for o, k, s in zip(p_off, p_kind, p_skip, strict=True)
    ]
    return RecordScan(starts=starts, lengths=lengths, end=int(end), problems=problems)


def read_from(path_or_url: str, offset: int, *, fs: Any = None) -> bytes:
    """Return the bytes of a file from ``offset`` to its current end.

    Parameters
    ----------
    path_or_url
        A local path, or any fsspec URL (``s3://``, ``gs://``, ``memory://``, ...).
    offset
        Where to start reading (e.g. a previous scan's ``base_offset + end``).
    fs
        An fsspec filesystem to use for ``path_or_url`` (then a path within it).
        Without it, URLs go through :func:`fsspec.core.url_to_fs` and local paths
        through plain :func:`open`.

    Examples
    --------
    >>> import fsspec
    >>> with fsspec.open("memory://tbnb-doc/f.bin", "wb") as f:
    ...     _ = f.write(b"0123456789")
    >>> read_from("memory://tbnb-doc/f.bin", 7)
    b'789'
    """
    if fs is None and "://" in path_or_url:
        fs, path_or_url = url_to_fs(path_or_url)
    if fs is None:
        with open(path_or_url, "rb") as f:
            f.seek(offset)
            return f.read()
    with fs.open(path_or_url, "rb") as f:
        f.seek(offset)
        return bytes(f.read())
