"""Windows of one event file read, scanned and decoded ahead, on helper threads.

A run's files are one stream, read in order by the run's task; a large file would keep
one core busy while the others wait. Here the unread part of a file is cut into
windows at fixed offsets (:func:`plan`); a helper thread takes each window
(:func:`read_ahead`): it reads it, meets the records at the first whole record with
valid CRCs at or after its offset (``tbnb_sync_record``), frames them with CRCs
checked and decodes their events, all in C with the GIL released, and stops at the
first record that starts in the next window. The run's task then takes the windows in
file order (:func:`tbnb.loader.run.load_run`), doing what needs the run's state
(metadata, kinds, restarts) as it does for its own windows.

A window read ahead is used only where it starts exactly where the one before it ended
and met no corrupt record and no record larger than a window; from the first one that
does not, the task reads the rest of the file itself. So the records, and every row
made of them, are the ones a read from the start finds (tested on files whose windows
fall in every place a record can, and on corrupt files).

Examples
--------
>>> [(w.start, w.stop) for w in plan(0, 10 << 20, 4 << 20)]
[(0, 4194304), (4194304, 8388608), (8388608, None)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tbnb.decode.scalars import FastScalars, decode_events
from tbnb.io.files import read_window_into
from tbnb.io.records import FOOTER_BYTES, HEADER_BYTES, record_size, scan_records
from tbnb.loader.changes import HEAD_BYTES as HEAD

__all__ = ["Ahead", "InOrder", "Scanned", "WindowPlan", "plan", "read_ahead"]


@dataclass(frozen=True)
class WindowPlan:
    """One window of a file: records starting in ``[start, stop)`` (``stop`` None: to the
    file's end); ``exact``: ``start`` is known to be a record's start."""

    start: int
    stop: int | None
    exact: bool


@dataclass
class Scanned:
    """Records of one read: ``buf`` holds the file's bytes from ``base``, each record's
    payload at ``starts``/``lengths`` of it, decoded into ``fast``."""

    base: int
    buf: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray
    fast: FastScalars


@dataclass
class Ahead:
    """What a helper made of one window.

    ``ok`` false: the window cannot be used (a corrupt record, a record larger than the
    window); ``empty``: no whole record starts in it (usable where the window before
    ends past it); else ``first`` is the file offset of its first record, ``next`` where
    a read continues after its last, ``pending`` the bytes of an incomplete record at
    the file's end, ``nbytes`` the bytes it read, ``head`` the file's first bytes (when
    it read from the file's start).
    """

    ok: bool
    empty: bool = False
    first: int = -1
    next: int = -1
    pending: int = 0
    nbytes: int = 0
    head: bytes = b""
    reads: list[Scanned] = field(default_factory=list)


@dataclass
class InOrder:
    """The window a read in order from the same start would be at, after the records
    taken so far: its start and size (a record larger than a window grows the window
    for the rest of the file, as :func:`tbnb.loader.run.load_run` grows it).

    Examples
    --------
    >>> at = InOrder(0, 100)
    >>> at.follow(np.array([12, 68, 124]), np.array([40, 40, 40]))  # records of 56 bytes
    >>> at.start, at.size
    (112, 100)
    """

    start: int
    size: int

    def follow(self, starts: np.ndarray, lengths: np.ndarray) -> None:
        """Take the records at file offsets ``starts`` (their payloads), in order."""
        heads = starts - HEADER_BYTES
        ends = starts + lengths + FOOTER_BYTES
        while ends.size:
            j = int(np.searchsorted(ends, self.start + self.size, side="right"))
            if j >= ends.size:
                return  # every record so far is whole in the window
            if heads[j] <= self.start:  # larger than the window: the read grows it
                self.size = max(2 * self.size, int(ends[j] - heads[j]))
            else:
                self.start = int(heads[j])  # the first record cut: the next window


def plan(offset: int, size: int, window: int) -> list[WindowPlan]:
    """The windows of a file read from ``offset`` (a record's start) to ``size``."""
    starts = list(range(offset, max(size, offset + 1), window))
    return [
        WindowPlan(start, starts[i + 1] if i + 1 < len(starts) else None, i == 0)
        for i, start in enumerate(starts)
    ]


def read_ahead(fs: Any, path: str, window: WindowPlan, size: int, verify_crc: bool) -> Ahead:
    """Read, frame and decode the records of ``window`` (reads of ``size`` bytes, or of
    one record where it is larger)."""
    buf = np.empty(size, dtype=np.uint8)
    pos = window.start
    data = buf[: read_window_into(fs, path, pos, buf)]
    nbytes = int(data.size)
    head = bytes(data[:HEAD]) if pos == 0 else b""
    asked = size
    if not window.exact:
        found = _sync(data)
        if found < 0:  # no whole record starts in the window: inside a larger one?
            return Ahead(window.stop is not None, empty=True, nbytes=nbytes)
        pos += found
        data, asked = data[found:], asked - found
    out = Ahead(True, first=pos, head=head)
    while True:
        scan = scan_records(data, base_offset=pos, verify_crc=verify_crc, kernels="native")
        if scan.problems:
            return Ahead(False, nbytes=nbytes)
        starts, lengths, end = scan.starts, scan.lengths, scan.end
        if window.stop is not None and len(starts):
            past = np.flatnonzero(pos + starts - HEADER_BYTES >= window.stop)
            if past.size:  # the first record of the next window: stop before it
                cut = int(past[0])
                starts, lengths = starts[:cut], lengths[:cut]
                end = int(scan.starts[cut]) - HEADER_BYTES
        if len(starts):
            fast = decode_events(data, starts, lengths, kernels="native")
            out.reads.append(Scanned(pos, data, starts, lengths, fast))
        pos += end
        if len(data) < asked:  # the file's end (a cut record waits as a read in order waits)
            out.pending = min(len(data) - end, size)
            break
        if window.stop is not None and pos >= window.stop:
            break
        whole = record_size(data[end:])  # the record at pos, if its header is read
        if whole is not None and whole > _size(fs, path) - pos:
            return Ahead(False, nbytes=nbytes)  # a long record still being written
        if end == 0 and whole is None:
            return Ahead(False, nbytes=nbytes)
        asked = whole if whole is not None and (end == 0 or window.stop is not None) else size
        more = np.empty(asked, dtype=np.uint8)
        data = more[: read_window_into(fs, path, pos, more)]
        nbytes += int(data.size)
    out.next, out.nbytes = pos, nbytes
    return out


def _size(fs: Any, path: str) -> int:
    return int(fs.size(path))


def _sync(data: np.ndarray) -> int:
    from tbnb.native.kernels import sync_kernel

    return sync_kernel(data)
