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
from google.protobuf.message import DecodeError

from tbnb._proto import Event, SummaryMetadata
from tbnb.decode.scalars import decode_events
from tbnb.io.files import read_window, read_window_into
from tbnb.io.local import is_local
from tbnb.io.records import HEADER_BYTES, record_size, scan_records
from tbnb.io.remote import is_storage_error
from tbnb.kinds import KINDS, TagMetadata
from tbnb.kinds import tensors as tensor_kind
from tbnb.loader import windows
from tbnb.loader.accumulate import RunAccumulator, Window
from tbnb.loader.backend import choose_backend
from tbnb.loader.changes import HEAD_BYTES, files_changed, report_lost_tails
from tbnb.loader.events import EventPosition, add_event
from tbnb.loader.rowsets import RowSet
from tbnb.loader.state import FileState, LoadOptions, RunResult, RunTask
from tbnb.loader.values import Indexed, index_values
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

SEQ_FILE_SHIFT = 40
"""A point's stream position is ``file_rank << 40 | byte offset`` (files up to 1 TiB)."""


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
            _decode_window(read.buf, read.starts, read.lengths, state, acc, undecodable,
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
            _decode_window(buf, starts, lengths, state, acc, undecodable, base=offset)
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


def _decode_window(
    buf: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    state: FileState,
    acc: RunAccumulator,
    undecodable: list[str],
    base: int | None = None,
    fast: Any = None,
) -> None:
    """Decode the records at ``starts``/``lengths`` of ``buf`` (the file's bytes from
    ``base``, default ``state.offset``) into the run's values; ``fast``: their events,
    decoded already (:mod:`tbnb.loader.windows`)."""
    base = state.offset if base is None else base
    seq_base = (state.rank << SEQ_FILE_SHIFT) + base
    if fast is None and acc.backend.fast:
        fast = decode_events(buf, starts, lengths, kernels=acc.backend.kernels)
    slow = fast.fallback if fast is not None else np.ones(len(starts), dtype=bool)
    events = _parse(buf, starts, lengths, np.flatnonzero(slow), base)
    _learn_metadata(buf, fast, events, acc)
    rows = {}
    window = Window()
    if fast is not None:
        indexed = index_values(buf, fast, starts, lengths, (acc.task.fs, state.path, base,
                                                            seq_base), acc)  # fmt: skip
        more = np.flatnonzero(indexed.protobuf & ~fast.fallback)
        if more.size:  # values no batch decoder reproduces: their records from protobuf
            events.update(_parse(buf, starts, lengths, more, base))
            slow = indexed.protobuf
        if fast.value.size:
            _add_fast_points(fast, indexed, starts, seq_base, acc, window)
        rows = indexed.kept()
        handled = ~slow
        if handled.any():
            state.saw_wall_times(
                float(fast.wall_time[handled].min()), float(fast.wall_time[handled].max())
            )
    acc.protobuf_records += int(slow.sum())

    for key, kind_rows in rows.items():
        acc.records[key].extend(kind_rows)
    for index in sorted(events):  # problems reported in record order, whatever the window
        if isinstance(events[index], _Unparsed):
            undecodable.append(events[index])
            continue
        start = int(starts[index])
        add_event(
            events[index],
            EventPosition(index, seq_base + start, base + start, int(lengths[index])),
            state,
            acc,
            window,
            undecodable,
        )
    acc.add_window(window)


def _parse(
    buf: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    which: np.ndarray,
    base: int,
) -> dict[int, Any]:
    """The records ``which`` parsed by protobuf; one it cannot parse is an
    :class:`_Unparsed` (reported in its place among the record's values)."""
    events: dict[int, Any] = {}
    for index in which.tolist():
        start, length = int(starts[index]), int(lengths[index])
        try:
            events[index] = Event.FromString(buf[start : start + length].tobytes())
        except DecodeError as error:
            events[index] = _Unparsed(f"unparseable event at offset {base + start - 12}: {error}")
    return events


class _Unparsed(str):
    """What protobuf said of a record it cannot parse."""


def _learn_metadata(
    buf: np.ndarray, fast: Any, events: dict[int, Any], acc: RunAccumulator
) -> None:
    """Remember the metadata of tags first described in this window: the first one in
    record order wins, whichever decoder read its record."""
    found: list[tuple[int, str, Any]] = []
    for index, event in events.items():
        if isinstance(event, _Unparsed):
            continue
        for value in event.summary.value:
            tag = value.tag or value.node_name
            if value.HasField("metadata") and tag not in acc.tag_meta:
                found.append((index, tag, value.metadata))
    if fast is not None:
        for index, tag, start, length in _fast_metadata(fast, acc):
            found.append((index, tag, (start, length)))
    found.sort(key=lambda item: item[0])  # stable: values of one record keep their order
    for _, tag, where in found:
        if tag in acc.tag_meta:
            continue
        meta = where
        if isinstance(where, tuple):
            start, length = where
            meta = SummaryMetadata.FromString(buf[start : start + length].tobytes())
        acc.tag_meta[tag] = TagMetadata.from_proto(meta)


def _fast_metadata(fast: Any, acc: RunAccumulator) -> list[tuple[int, str, int, int]]:
    """``(record, tag, start, length)`` of the first metadata the fast decoder found for
    each tag not described yet."""
    unknown = [tid for tid, tag in enumerate(fast.tags) if tag not in acc.tag_meta]
    if not unknown:
        return []  # writers repeating metadata on every event cost nothing after the first
    candidates = fast.meta_start >= 0
    if len(unknown) < len(fast.tags):
        candidates &= np.isin(fast.tag_id, np.asarray(unknown, dtype=fast.tag_id.dtype))
    with_meta = np.flatnonzero(candidates)
    if with_meta.size == 0:
        return []
    tag_ids, first = np.unique(fast.tag_id[with_meta], return_index=True)
    found = []
    for tid, position in zip(tag_ids.tolist(), first.tolist(), strict=True):
        i = int(with_meta[position])
        found.append(
            (int(fast.rec[i]), fast.tags[tid], int(fast.meta_start[i]), int(fast.meta_len[i]))
        )
    return found


def _add_fast_points(
    fast: Any,
    indexed: Indexed,
    starts: np.ndarray,
    seq_base: int,
    acc: RunAccumulator,
    window: Window,
) -> None:
    """The fast decoder's scalar points of the records it decoded (not
    ``indexed.protobuf``) into ``window``; its rank-0 tensors of no plugin into
    ``indexed``'s tensor rows (in their place among the record's values)."""
    slow = indexed.protobuf
    local_to_run = np.array([acc.tag_id(t) for t in fast.tags], dtype=np.int32)
    is_scalar = fast.dtype == 1
    # Tensor-valued scalars are scalars only if their tag says so (TF2 `tf.summary.scalar`);
    # otherwise they are rank-0 tensors, as TensorBoard treats them.
    is_float = fast.dtype <= 3
    tensor_tags = np.flatnonzero(
        np.bincount(fast.tag_id[~is_scalar & is_float], minlength=len(fast.tags))
    )
    scalar_plugin = np.zeros(len(fast.tags), dtype=bool)
    for tid in tensor_tags.tolist():
        meta = acc.tag_meta.get(fast.tags[tid])
        scalar_plugin[tid] = meta is not None and meta.plugin_name == _SCALARS
    rec = fast.rec
    sel = is_scalar | scalar_plugin[fast.tag_id] & is_float if scalar_plugin.any() else is_scalar
    live = ~slow[rec]
    sel &= live
    if sel.all():
        window.fast = (
            rec,
            local_to_run[fast.tag_id],
            fast.value_step,
            fast.value_wall_time,
            fast.value,
        )
        return
    window.fast = (
        rec[sel],
        local_to_run[fast.tag_id[sel]],
        fast.value_step[sel],
        fast.value_wall_time[sel],
        fast.value[sel],
    )
    if tensor_kind.KEY not in acc.options.kinds:
        return
    which = np.flatnonzero(~sel & live & is_float)
    kept_tag = np.array([acc.options.keep_tag(t) for t in fast.tags], dtype=bool)
    which = which[kept_tag[fast.tag_id[which]]]
    if which.size:
        tags = np.array(fast.tags, dtype=object)[fast.tag_id[which]]
        rows = tensor_kind.scalar_rows(fast.value[which], fast.dtype[which] == 2, tags,
                                       acc.tag_meta)  # fmt: skip
        rows.update(tag=tags, step=fast.value_step[which], wall_time=fast.value_wall_time[which],
                    seq=seq_base + starts[rec[which]])  # fmt: skip
        indexed.add(tensor_kind.KEY, RowSet(rows), rec[which], fast.value_index[which])
