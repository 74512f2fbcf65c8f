"""Read the new bytes of one run's event files into the normalised form (layer 3).

A run is loaded by one task, its files in name order as one stream, so that the
metadata a writer put on a tag's first event is known when later events of that
tag arrive, and restarts can be applied in stream order. Tasks are independent and
picklable: the experiment runs them on any ``concurrent.futures.Executor``.

Bytes are read in windows (4 MiB, grown for a larger record), so a file of
gigabytes of images never sits in memory whole. Scalar points come from the fast
decoder (the native C kernels where built, else numpy, or the numba kernels for large
loads) where the record has a common shape and from protobuf otherwise;
``LoadOptions(decoder="protobuf")`` decodes everything with protobuf (the reference
the fast decoders are tested against).

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

from itertools import pairwise
from typing import Any

import numpy as np
from google.protobuf.message import DecodeError

from tbnb._proto import Event, SummaryMetadata
from tbnb.decode.scalars import decode_scalars
from tbnb.io.files import read_window, read_window_into
from tbnb.io.records import scan_records
from tbnb.io.remote import is_storage_error
from tbnb.kinds import KINDS, RowContext, TagMetadata
from tbnb.kinds import tensors as tensor_kind
from tbnb.loader.accumulate import RunAccumulator, Window
from tbnb.loader.events import EventPosition, add_event
from tbnb.loader.state import FileState, LoadOptions, RunResult, RunTask
from tbnb.native import available as native_available
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
    acc.decoder = _decoder(task.options.decoder)
    for state in task.files:
        try:
            _load_file(state, acc)
        except Exception as error:
            if not is_storage_error(error):
                raise
            acc.warnings.append(
                (LogdirWarning, f"tbnb: cannot read {state.path}: {type(error).__name__}: {error}")
            )
    _report_lost_tails(task.files, acc)
    return acc.result()


def _decoder(requested: str) -> str:
    """The decoder this process uses: ``native`` only if the C library is available,
    ``compiled`` only if its kernels load from the cache without compiling (else
    ``numpy``); ``auto`` here means ``numpy``."""
    if requested == "native":
        return "native" if native_available() else "numpy"
    if requested == "compiled":
        from tbnb.jit import load as load_kernels

        return "compiled" if load_kernels("loader") else "numpy"
    return "numpy" if requested == "auto" else requested


_KERNELS = {"native": "native", "compiled": "numba"}
"""The kernels of :func:`scan_records` / :func:`decode_scalars` behind each decoder."""


def _report_lost_tails(files: list[FileState], acc: RunAccumulator) -> None:
    """Say so when a file ends in a partial record and a newer file of the run follows.

    A partial last record is normally a file still being written, kept for the next
    reload; once a newer file follows, its writer has moved on and the record is lost
    (the writer was killed mid-record). Reported once per file.
    """
    for state, newer in pairwise(files):
        if state.pending and not state.tail_reported and (newer.offset or newer.pending):
            state.tail_reported = True
            acc.warnings.append(
                (
                    CorruptRecordWarning,
                    (
                        f"tbnb: {state.path}: its last {state.pending} bytes are a record cut "
                        f"short, and a newer file of the run follows "
                        f"({newer.path.rsplit('/', 1)[-1]}): "
                        "that record was lost (its writer stopped mid-record); everything "
                        "before it was kept"
                    ),
                )
            )


def _load_file(state: FileState, acc: RunAccumulator) -> None:
    fs, window = acc.task.fs, WINDOW
    problems: list[str] = []
    undecodable: list[str] = []
    kernels = _KERNELS.get(acc.decoder, "numpy")
    while True:
        data: bytes | np.ndarray
        if kernels != "numpy":  # one window buffer per run, reused: no new memory per window
            if acc.window is None or acc.window.size < window:
                acc.window = np.empty(window, dtype=np.uint8)
            data = acc.window[: read_window_into(fs, state.path, state.offset, acc.window[:window])]
        else:  # bytes: what the numpy scanner's header walk reads fastest
            data = read_window(fs, state.path, state.offset, window)
        if not len(data):
            break
        acc.bytes_read += len(data)
        buf = np.frombuffer(data, dtype=np.uint8) if isinstance(data, bytes) else data
        scan = scan_records(
            data, base_offset=state.offset, verify_crc=acc.options.verify_crc, kernels=kernels
        )
        for problem in scan.problems:
            what = _PROBLEM_TEXT.get(problem.kind, problem.kind)
            problems.append(f"{what} at offset {problem.offset}")
        state.corrupt_records += len(scan.problems)
        if len(scan.starts):
            _decode_window(buf, scan.starts, scan.lengths, state, acc, undecodable)
        state.records += len(scan.starts)
        state.offset += scan.end
        state.pending = len(data) - scan.end
        if len(data) < window:
            break  # reached the current end of the file
        if scan.end == 0:
            window *= 2  # one record larger than the window
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


def _decode_window(
    buf: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    state: FileState,
    acc: RunAccumulator,
    undecodable: list[str],
) -> None:
    base = state.offset
    seq_base = (state.rank << SEQ_FILE_SHIFT) + base
    if acc.decoder != "protobuf":
        fast = decode_scalars(buf, starts, lengths, kernels=_KERNELS.get(acc.decoder, "numpy"))
        slow_index = np.flatnonzero(fast.fallback)
        _learn_fast_metadata(buf, fast, acc)
        if slow_index.size < fast.fallback.size:
            handled = fast.wall_time if slow_index.size == 0 else fast.wall_time[~fast.fallback]
            state.saw_wall_times(float(handled.min()), float(handled.max()))
    else:
        fast = None
        slow_index = np.arange(len(starts))

    events: list[tuple[int, Any]] = []
    for index in slow_index.tolist():
        start, length = int(starts[index]), int(lengths[index])
        try:
            event = Event.FromString(buf[start : start + length].tobytes())
        except DecodeError as error:
            undecodable.append(f"unparseable event at offset {base + start - 12}: {error}")
            continue
        events.append((index, event))
        for value in event.summary.value:
            tag = value.tag or value.node_name
            if value.HasField("metadata") and tag not in acc.tag_meta:
                acc.tag_meta[tag] = TagMetadata.from_proto(value.metadata)

    window = Window()
    if fast is not None and fast.value.size:
        _add_fast_points(fast, starts, seq_base, acc, window)
    for index, event in events:
        start = int(starts[index])
        add_event(
            event,
            EventPosition(index, seq_base + start, base + start, int(lengths[index])),
            state,
            acc,
            window,
            undecodable,
        )
    acc.add_window(window)


def _learn_fast_metadata(buf: np.ndarray, fast: Any, acc: RunAccumulator) -> None:
    """Remember the metadata of tags first described in this window (first one wins)."""
    unknown = [tid for tid, tag in enumerate(fast.tags) if tag not in acc.tag_meta]
    if not unknown:
        return  # writers repeating metadata on every event cost nothing after the first
    candidates = fast.meta_start >= 0
    if len(unknown) < len(fast.tags):
        candidates &= np.isin(fast.tag_id, np.asarray(unknown, dtype=fast.tag_id.dtype))
    with_meta = np.flatnonzero(candidates)
    if with_meta.size == 0:
        return
    tag_ids, first = np.unique(fast.tag_id[with_meta], return_index=True)
    for tid, position in zip(tag_ids.tolist(), first.tolist(), strict=True):
        tag = fast.tags[tid]
        if tag in acc.tag_meta:
            continue
        i = int(with_meta[position])
        start, length = int(fast.meta_start[i]), int(fast.meta_len[i])
        acc.tag_meta[tag] = TagMetadata.from_proto(
            SummaryMetadata.FromString(buf[start : start + length].tobytes())
        )


def _add_fast_points(
    fast: Any, starts: np.ndarray, seq_base: int, acc: RunAccumulator, window: Window
) -> None:
    local_to_run = np.array([acc.tag_id(t) for t in fast.tags], dtype=np.int32)
    is_scalar = fast.dtype == 1
    # Tensor-valued scalars are scalars only if their tag says so (TF2 `tf.summary.scalar`);
    # otherwise they are rank-0 tensors, as TensorBoard treats them.
    tensor_tags = np.flatnonzero(np.bincount(fast.tag_id[~is_scalar], minlength=len(fast.tags)))
    scalar_plugin = np.zeros(len(fast.tags), dtype=bool)
    for tid in tensor_tags.tolist():
        meta = acc.tag_meta.get(fast.tags[tid])
        scalar_plugin[tid] = meta is not None and meta.plugin_name == _SCALARS
    rec = fast.rec
    sel = is_scalar | scalar_plugin[fast.tag_id] if scalar_plugin.any() else is_scalar
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
    for i in np.flatnonzero(~sel).tolist():
        tag = fast.tags[int(fast.tag_id[i])]
        if not acc.options.keep_tag(tag):
            continue
        dtype = np.float32 if fast.dtype[i] == 2 else np.float64
        meta = acc.tag_meta.get(tag)
        context = RowContext(
            tag,
            int(fast.value_step[i]),
            float(fast.value_wall_time[i]),
            seq_base + int(starts[rec[i]]),
            meta,
            None,
        )
        acc.records[tensor_kind.KEY].extend(
            tensor_kind.rows(np.array(fast.value[i], dtype=dtype), context)
        )
