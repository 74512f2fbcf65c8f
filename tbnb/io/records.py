"""TFRecord framing: split a byte buffer into record payloads, verifying both CRCs.

A record is ``u64 length (LE), u32 masked crc32c(length bytes), data, u32 masked
crc32c(data)``. :func:`scan_records` walks a whole buffer and
returns where every good payload starts, how long it is, where the scan stopped and
what was wrong on the way. It knows nothing about protobuf.

Two implementations give identical scans (``kernels=``): ``numpy`` (the default and
the reference that needs no compiler: a Python walk from header to header, then every
CRC of the window checked at once by :func:`tbnb.io.crc32c.crc32c_ranges`; exact
record-by-record rules only where a check fails) and ``native`` (C with the CPU's CRC32C
instructions, :mod:`tbnb.native`, compiled when the package is built: every load's
when present).

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

import struct
from dataclasses import dataclass
from typing import Any

import numpy as np

from tbnb.io.crc32c import crc32c_ranges, mask
from tbnb.io.files import open_binary
from tbnb.io.local import open_regular

__all__ = [
    "KERNELS",
    "RecordProblem",
    "RecordScan",
    "as_uint8",
    "read_from",
    "record_size",
    "scan_records",
]

KERNELS = ("numpy", "native")
"""The implementations of :func:`scan_records` (and of the event decoder)."""

HEADER_BYTES = 12
"""Length (8) plus its masked CRC (4)."""

FOOTER_BYTES = 4
"""Masked CRC of the data."""

_KIND_LENGTH_CRC = 1
_KIND_DATA_CRC = 2
_KIND_SHORT = 3
_KIND_NAMES = {
    _KIND_LENGTH_CRC: "length_crc",
    _KIND_DATA_CRC: "data_crc",
    _KIND_SHORT: "short_record",
}


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


_U64 = struct.Struct("<Q")
_NO_RECORD = 1 << 48
"""A length at or above this is never a real record (no file gets that large)."""


def _u32(buf: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Little-endian uint32 at every offset of ``at``."""
    out: np.ndarray = (
        buf[at].astype(np.uint32)
        | (buf[at + 1].astype(np.uint32) << 8)
        | (buf[at + 2].astype(np.uint32) << 16)
        | (buf[at + 3].astype(np.uint32) << 24)
    )
    return out


def _headers_ok(buf: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Whether the length CRC of the header at every offset of ``at`` matches."""
    return np.asarray(mask(crc32c_ranges(buf, at, np.full(at.size, 8))) == _u32(buf, at + 8))


def _data_ok(buf: np.ndarray, raw: bytes, at: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Whether the data CRC of the records with headers at ``at`` matches."""
    d0 = at + HEADER_BYTES
    return np.asarray(mask(crc32c_ranges(buf, d0, lengths, raw)) == _u32(buf, d0 + lengths))


def _walk(raw: bytes, pos: int, n: int) -> tuple[list[int], list[int]]:
    """Headers and lengths from ``pos`` on, following lengths while records fit (no CRC)."""
    heads: list[int] = []
    lengths: list[int] = []
    unpack = _U64.unpack_from
    while n - pos >= HEADER_BYTES:
        (length,) = unpack(raw, pos)
        end = pos + HEADER_BYTES + length + FOOTER_BYTES
        if end > n:
            break
        heads.append(pos)
        lengths.append(length)
        pos = end
    return heads, lengths


def _length(raw: bytes, pos: int) -> int:
    """The u64 length at ``pos``, or -1 when it is ``2**48`` or more."""
    length = int(_U64.unpack_from(raw, pos)[0])
    return -1 if length >= _NO_RECORD else length


def _resync(buf: np.ndarray, raw: bytes, q: int, complete_only: bool) -> int:
    """The first offset from ``q`` where a record starts, or -1 (see the compiled kernel).

    Candidates are checked a chunk at a time: header CRCs at every offset of the
    chunk at once, then the data CRC of each offset whose header validated, in order.
    """
    n = buf.size
    chunk = 1024
    while q + HEADER_BYTES <= n:
        at = np.arange(q, min(n - HEADER_BYTES, q + chunk - 1) + 1, dtype=np.int64)
        if complete_only:  # only a whole record will do: its length must fit
            lengths = _u32(buf, at).astype(np.int64) | (_u32(buf, at + 4).astype(np.int64) << 32)
            at = at[(lengths >= 0) & (lengths <= n - at - HEADER_BYTES - FOOTER_BYTES)]
        for c in map(int, at[_headers_ok(buf, at)].tolist()):
            length = _length(raw, c)
            if length < 0 or length > n - c - HEADER_BYTES - FOOTER_BYTES:
                if not complete_only:
                    return c
            elif _data_ok(buf, raw, np.array([c]), np.array([length]))[0]:
                return c
        q += chunk
        chunk = min(4 * chunk, 1 << 20)
    return -1


def _scan_numpy(
    buf: np.ndarray, raw: bytes, verify_crc: bool
) -> tuple[np.ndarray, np.ndarray, int, list[tuple[int, int, int]]]:
    """Scan ``buf``; return (starts, lengths, end, problems as (offset, kind, skipped))."""
    n = buf.size
    starts: list[np.ndarray] = []
    lengths: list[np.ndarray] = []
    problems: list[tuple[int, int, int]] = []
    pos = 0
    while n - pos >= HEADER_BYTES:
        heads, sizes = _walk(raw, pos, n)
        if heads:
            at = np.array(heads, dtype=np.int64)
            size = np.array(sizes, dtype=np.int64)
            ok = _headers_ok(buf, at)
            if verify_crc:
                ok &= _data_ok(buf, raw, at, size)
            bad = np.flatnonzero(~ok)
            k = int(bad[0]) if bad.size else at.size
            starts.append(at[:k] + HEADER_BYTES)
            lengths.append(size[:k])
            pos = int(at[k]) if k < at.size else heads[-1] + sizes[-1] + 16
            if n - pos < HEADER_BYTES:
                break
        # The record at pos fails a check or runs past the end: the exact rules.
        kind = _KIND_LENGTH_CRC
        if not _headers_ok(buf, np.array([pos]))[0]:
            q = _resync(buf, raw, pos + 1, False)
        else:
            length = _length(raw, pos)
            if length < 0 or length > n - pos - HEADER_BYTES - FOOTER_BYTES:
                # Runs past the end: a tail still being written, unless a whole valid
                # record follows inside it (then this record was cut short).
                q = _resync(buf, raw, pos + 1, True)
                if q < 0:
                    break
                kind = _KIND_SHORT
            else:  # the data does not match: its length may be wrong too
                kind = _KIND_DATA_CRC
                q = _resync(buf, raw, pos + 1, False)
        if q < 0:
            q = n - (HEADER_BYTES - 1)
        problems.append((pos, kind, q - pos))
        if q <= pos:
            break
        pos = q
    if not starts:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty.copy(), pos, problems
    return np.concatenate(starts), np.concatenate(lengths), pos, problems


def record_size(buf: bytes | np.ndarray) -> int | None:
    """The size of the record whose header starts ``buf`` (header, data and footer), or
    None when ``buf`` does not start with a valid header (too short, a bad length CRC, a
    length of ``2**48`` or more).

    Examples
    --------
    >>> import struct
    >>> from tbnb.io.crc32c import masked_crc32c
    >>> head = struct.pack("<Q", 100)
    >>> record_size(head + struct.pack("<I", masked_crc32c(head)))
    116
    >>> record_size(b"garbage")
    """
    arr = as_uint8(buf)
    if arr.size < HEADER_BYTES or not _headers_ok(arr, np.array([0]))[0]:
        return None
    length = _length(arr[:8].tobytes(), 0)
    return None if length < 0 else HEADER_BYTES + length + FOOTER_BYTES


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
    kernels: str = "numpy",
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
    kernels
        ``"numpy"`` (default) or ``"native"`` (the C kernel of :mod:`tbnb.native`; raises
        if it is not available). Both return the same scan.

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
    if kernels not in KERNELS:
        raise ValueError(f"kernels must be one of {KERNELS}, got {kernels!r}")
    if kernels == "native":
        from tbnb.native.kernels import scan_kernel

        starts, lengths, end, p_off, p_kind, p_skip = scan_kernel(arr, bool(verify_crc))
        found = list(zip(p_off.tolist(), p_kind.tolist(), p_skip.tolist(), strict=True))
    else:
        raw = buf if isinstance(buf, bytes) else arr.tobytes()
        starts, lengths, end, found = _scan_numpy(arr, raw, bool(verify_crc))
    problems = [
        RecordProblem(offset=base_offset + o, kind=_KIND_NAMES[k], skipped=s) for o, k, s in found
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
        Without it, URLs go through :func:`fsspec.core.url_to_fs`. A local file is
        read only if it is a regular file (:func:`tbnb.io.local.open_regular`: a FIFO
        or a device swapped in raises :class:`tbnb.io.local.NotRegularFileError`
        instead of blocking or never ending).

    Examples
    --------
    >>> import fsspec
    >>> with fsspec.open("memory://tbnb-doc/f.bin", "wb") as f:
    ...     _ = f.write(b"0123456789")
    >>> read_from("memory://tbnb-doc/f.bin", 7)
    b'789'
    """
    if fs is None and "://" in path_or_url:
        from fsspec.core import url_to_fs

        fs, path_or_url = url_to_fs(path_or_url)
    with open_regular(path_or_url) if fs is None else open_binary(fs, path_or_url) as f:
        f.seek(offset)
        return bytes(f.read())
