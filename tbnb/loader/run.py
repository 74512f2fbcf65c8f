"""Read the new bytes of one run's event files into the normalised form (layer 3).

A run is loaded by one task, its files in name order as one stream, so that the
metadata a writer put on a tag's first event is known when later events of that
tag arrive, and restarts can be applied in stream order. Tasks are independent and
picklable: the experiment runs them on any ``concurrent.futures.Executor``.

Bytes are read in windows (4 MiB, grown for a larger record), so a file of
gigabytes of images never sits in memory whole. The load's backend
(:mod:`tbnb.loader.backend`) decodes them: ``native`` decodes every scalar and indexes
every other value in C, each kind's batch decoder turning a window's values into
columns (:mod:`tbnb.loader.values`); ``numpy`` matches the writers' one-scalar layouts;
whatever a fast decoder leaves goes to protobuf, record by record (counted in the run's
result). ``LoadOptions(decoder="protobuf")`` decodes everything with protobuf (the
reference the fast decoders are tested against).

Examples
--------
>>> import fsspec, struct
>>> from tbnb.io.crc32c import masked_crc32c
>>> from tbnb._proto import Event
>>> def frame_record(data):
...     head = struct.pack("<Q", len(data))
...     return (head + struct.pack("<I", masked_crc32c(head)) + data
...             + struct.pack("<I", masked_crc32c(data)))
>>> fs = fsspec.filesystem("memory")
>>> ev = Event(step=1, wall_time=2.0)
>>> _ = ev.summary.value.add(tag="loss", simple_value=0.5)
>>> fs.pipe("/doc/run/events.out.tfevents.1.h", frame_record(ev.SerializeToString()))
>>> task = RunTask("run", fs, [FileState("/doc/run/events.out.tfevents.1.h", 0)], {})
>>> result = load_run(task)
>>> result.scalar_tags, result.value.tolist()
(['loss'], [0.5])
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import Future
from typing import Any

import numpy as np

from tbnb.io.files import read_window, read_window_into
from tbnb.io.local import is_local
from tbnb.io.records import HEADER_BYTES, record_size, scan_records
from tbnb.io.remote import is_storage_error
from tbnb.kinds import KINDS
from tbnb.loader import windows
from tbnb.loader.accumulate import RunAccumulator
from tbnb.loader.backend import choose_backend
from tbnb.loader.changes import HEAD_BYTES, files_changed, report_lost_tails
from tbnb.loader.state import FileState, LoadOptions, RunResult, RunTask
from tbnb.loader.window_decode import SEQ_FILE_SHIFT, decode_window
from tbnb.warnings import CorruptRecordWarning, DataWarning, LogdirWarning

__all__ = [
    "SEQ_FILE_SHIFT",
    "WINDOW",
    "FileState",
    "LoadOptions",
    "RunResult",
    "RunTask",
    "load_run",
]

_SCALARS = KINDS["scalars"].key

WINDOW = 4 << 20
"""Bytes read at a time from an event file."""


_PROBLEM_TEXT = {
    "length_crc": "bad length CRC",
    "data_crc": "bad data CRC",
    "short_record": "record cut short",
}


def load_run(task: RunTask) -> RunResult:
    """Read every new byte of a run's files and return their normalised contents.

    Problems never raise: corrupt records, unreadable files and undecodable values
    become warnings in ``RunResult.warnings`` (one per file and kind of problem),
    and every good record around them is kept.
    """
    acc = RunAccumulator(task)
    acc.backend = task.options.backend or choose_backend(task.options.decoder)
    acc.decoder = acc.backend.name
    if files_changed(task, acc):
        acc.reset = True
        acc.tag_meta.clear()
    for state in task.files:
        if state.tail_reported:
            continue  # a cut record followed by a newer file: final, not read again
        try:
            _load_file(state, acc)
        except Exception as error:
            if not is_storage_error(error):
                raise
            acc.warnings.append(
                (LogdirWarning, f"tbnb: cannot read {state.path}: {type(error).__name__}: {error}")
            )
    acc.close()
    report_lost_tails(task.files, acc)
    return acc.result()


def _load_file(state: FileState, acc: RunAccumulator) -> None:
    problems: list[str] = []
    undecodable: list[str] = []
    fs = acc.task.fs
    if (
        acc.options.helpers >= 2
        and acc.backend.kernels == "native"
        and is_local(fs)
        and _file_size(fs, state.path) - state.offset >= 2 * WINDOW
    ):
        _read_ahead(state, acc, problems, undecodable)
    else:
        _read_in_order(state, acc, problems, undecodable)
    _warn(state, acc, problems, undecodable)


def _read_ahead(
    state: FileState, acc: RunAccumulator, problems: list[str], undecodable: list[str]
) -> None:
    """Read the file's new bytes in windows decoded ahead on the load's helper threads
    (:mod:`tbnb.loader.windows`), taken here in file order. From a window that cannot be
    used (a corrupt record, a record still being written), the rest is read in order,
    from the window a read from the start would be at: every record, value and warning
    is that read's."""
    fs, helpers, verify = acc.task.fs, acc.options.helpers, acc.options.verify_crc
    pool = acc.helper_pool(helpers)
    todo = iter(windows.plan(state.offset, _file_size(fs, state.path), WINDOW))
    ahead: deque[tuple[windows.WindowPlan, Future[windows.Ahead]]] = deque()

    def submit() -> None:
        window = next(todo, None)
        if window is not None:
            job = pool.submit(windows.read_ahead, fs, state.path, window, WINDOW, verify)
            ahead.append((window, job))

    for _ in range(helpers + 1):  # one window per helper decoded ahead, one being taken
        submit()
    in_order = windows.InOrder(state.offset, WINDOW)
    while ahead:
        window, job = ahead.popleft()
        got = job.result()
        acc.bytes_read += got.nbytes
        if window.stop is not None and state.offset >= window.stop:
            submit()  # inside a record the window before read whole
            continue
        if got.ok and (got.empty or got.first != state.offset):  # met its records elsewhere
            exact = windows.WindowPlan(state.offset, window.stop, True)
            got = windows.read_ahead(fs, state.path, exact, WINDOW, verify)
            acc.bytes_read += got.nbytes
        if not got.ok:
            for _, future in ahead:
                future.cancel()
            _read_in_order(state, acc, problems, undecodable, in_order)
            return
        if got.head and not state.head:
            state.head = got.head
        for read in got.reads:
            decode_window(read.buf, read.starts, read.lengths, state, acc, undecodable,
                           base=read.base, fast=read.fast)  # fmt: skip
            state.records += len(read.starts)
            in_order.follow(read.base + read.starts, read.lengths)
        state.offset, state.pending = got.next, got.pending
        submit()


def _read_in_order(
    state: FileState,
    acc: RunAccumulator,
    problems: list[str],
    undecodable: list[str],
    resume: windows.InOrder | None = None,
) -> None:
    """Read the file's new bytes window after window (the reference way). ``resume``:
    the window a read from the start would be at (:func:`_read_ahead` took the records
    before ``state.offset`` already: they are read again, not decoded again)."""
    fs = acc.task.fs
    offset, window = (state.offset, WINDOW) if resume is None else (resume.start, resume.size)
    taken = state.offset
    kernels = acc.backend.kernels
    while True:
        data: bytes | np.ndarray
        if kernels == "native":  # one window buffer per run, reused: no new memory per window
            if acc.window is None or acc.window.size < window:
                acc.window = np.empty(window, dtype=np.uint8)
            data = acc.window[: read_window_into(fs, state.path, offset, acc.window[:window])]
        else:  # bytes: what the numpy scanner's header walk reads fastest
            data = read_window(fs, state.path, offset, window)
        if not len(data):
            break
        acc.bytes_read += len(data)
        buf = np.frombuffer(data, dtype=np.uint8) if isinstance(data, bytes) else data
        if offset == 0 and not state.head:  # the first bytes of the first read
            state.head = bytes(buf[:HEAD_BYTES])
        scan = scan_records(
            data, base_offset=offset, verify_crc=acc.options.verify_crc, kernels=kernels
        )
        for problem in scan.problems:
            what = _PROBLEM_TEXT.get(problem.kind, problem.kind)
            problems.append(f"{what} at offset {problem.offset}")
        state.corrupt_records += len(scan.problems)
        starts, lengths = scan.starts, scan.lengths
        if offset < taken:  # records read ahead and taken already
            new = offset + starts - HEADER_BYTES >= taken
            starts, lengths = starts[new], lengths[new]
        if len(starts):
            decode_window(buf, starts, lengths, state, acc, undecodable, base=offset)
        state.records += len(starts)
        offset += scan.end
        state.offset = max(offset, state.offset)
        state.pending = len(data) - scan.end
        if len(data) < window:
            break  # reached the current end of the file
        if scan.end == 0:  # one record larger than the window: read it whole, if it is there
            size = record_size(data)
            if size is not None and size > _file_size(fs, state.path) - offset:
                break  # a tail still being written (or a length no file holds): wait for it
            window = max(2 * window, size or 0)


def _warn(
    state: FileState, acc: RunAccumulator, problems: list[str], undecodable: list[str]
) -> None:
    """One warning per file and kind of problem."""
    if problems:
        shown = "; ".join(problems[:5]) + (
            f"; and {len(problems) - 5} more" if len(problems) > 5 else ""
        )
        acc.warnings.append(
            (
                CorruptRecordWarning,
                f"tbnb: {state.path}: {len(problems)} corrupt record(s) skipped "
                f"({shown}); every good record around them was kept",
            )
        )
    if undecodable:
        shown = "; ".join(undecodable[:5]) + (
            f"; and {len(undecodable) - 5} more" if len(undecodable) > 5 else ""
        )
        acc.warnings.append(
            (
                DataWarning,
                f"tbnb: {state.path}: {len(undecodable)} value(s) could not be decoded ({shown})",
            )
        )


def _file_size(fs: Any, path: str) -> int:
    try:
        return int(fs.size(path))
    except Exception as error:
        if not is_storage_error(error):
            raise
        return 0
