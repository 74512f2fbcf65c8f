"""Read the new bytes of one run's event files into the normalised form (layer 3).

A run is loaded by one task, its files in name order as one stream, so that the
metadata a writer put on a tag's first event is known when later events of that
tag arrive, and restarts can be applied in stream order. Tasks are independent and
picklable: the experiment runs them on any ``concurrent.futures.Executor``.

Bytes are read in windows (16 MiB, grown for a larger record), so a file of
gigabytes of images never sits in memory whole. Scalar points come from the
compiled decoder where the record has a common shape and from protobuf otherwise;
``LoadOptions(fast=False)`` decodes everything with protobuf (the reference the
fast path is tested against).

Examples
--------
>>> import fsspec, struct
>>> from tbnb._crc32c import masked_crc32c
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

import math
import os
import re
import threading
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
from google.protobuf.message import DecodeError

from tbnb._proto import Event, SummaryMetadata
from tbnb.blobs import Blob
from tbnb.discovery import host_from_filename
from tbnb.normalize import (
    AUDIO,
    CUSTOM_SCALARS,
    EVENT_TYPES,
    GRAPHS,
    HPARAMS,
    IMAGES,
    SCALARS,
    TENSORS,
    TEXT,
    TagMetadata,
    kind_of,
    normalize_value,
)
from tbnb.records import scan_records
from tbnb.tensors import TensorDecodeError
from tbnb.warnings import CorruptRecordWarning, DataWarning, LogdirWarning

WINDOW = 16 << 20
"""Bytes read at a time from an event file."""

SEQ_FILE_SHIFT = 40
"""A point's stream position is ``file_rank << 40 | byte offset`` (files up to 1 TiB)."""

_SESSION_START = 1


_warming: threading.Thread | None = None


def decoder_ready() -> bool:
    """Whether the compiled decoder can run without compiling first.

    True once it ran in this process or when numba's on-disk cache holds it (the
    first use after an install compiles it once, which takes tens of seconds).
    """
    from tbnb import _fastdecode

    kernel = _fastdecode._decode_kernel
    if kernel.signatures:
        return True
    try:
        return os.path.exists(kernel._cache._cache_file._index_path)
    except AttributeError:  # numba internals moved: assume it is cheap
        return True


def warm_decoder() -> threading.Thread:
    """Compile the decoder (and fill numba's cache) in a background thread, once."""
    global _warming  # noqa: PLW0603 - one warm-up per process
    if _warming is None:
        from tbnb._fastdecode import decode_scalars

        empty = np.zeros(0, dtype=np.int64)
        _warming = threading.Thread(target=decode_scalars, args=(b"", empty, empty),
                                    name="tbnb-compile", daemon=True)
        _warming.start()
    return _warming


@dataclass
class FileState:
    """What has been read of one event file, and what it said about itself."""

    path: str
    rank: int
    offset: int = 0
    writer: str = ""
    version: str = ""
    records: int = 0
    corrupt_records: int = 0
    first_wall_time: float = math.nan
    last_wall_time: float = math.nan

    @property
    def host(self) -> str:
        """The host named in the file name."""
        return host_from_filename(self.path)

    def saw_wall_times(self, lo: float, hi: float) -> None:
        """Widen the file's wall-time range."""
        if not math.isnan(lo) and not (lo >= self.first_wall_time):
            self.first_wall_time = lo
        if not math.isnan(hi) and not (hi <= self.last_wall_time):
            self.last_wall_time = hi


@dataclass(frozen=True)
class LoadOptions:
    """What to keep while loading: a tag filter, the kinds wanted, CRC checking."""

    tags: str | tuple[str, ...] | None = None
    kinds: frozenset[str] = EVENT_TYPES
    verify_crc: bool = True
    fast: bool = True

    @cached_property
    def _tag_pattern(self) -> re.Pattern[str] | None:
        return re.compile(self.tags) if isinstance(self.tags, str) else None

    def keep_tag(self, tag: str) -> bool:
        """Whether values of ``tag`` are kept."""
        if self.tags is None:
            return True
        if self._tag_pattern is not None:
            return self._tag_pattern.search(tag) is not None
        return tag in self.tags


@dataclass
class RunTask:
    """One run's files (with how far each was read) and what is known of its tags."""

    run: str
    fs: Any
    files: list[FileState]
    tag_meta: dict[str, TagMetadata]
    options: LoadOptions = field(default_factory=LoadOptions)


@dataclass
class RunResult:
    """The normalised contents of the bytes a :class:`RunTask` read."""

    run: str
    files: list[FileState]
    tag_meta: dict[str, TagMetadata]
    scalar_tags: list[str]
    scalar_tag_id: np.ndarray
    step: np.ndarray
    wall_time: np.ndarray
    value: np.ndarray
    records: dict[str, list[dict[str, Any]]]
    starts: list[tuple[int, int]]
    hparams_values: list[tuple[str, int, bytes]]
    warnings: list[tuple[type[Warning], str]]
    bytes_read: int
    graphs: list[dict[str, Any]]

    @property
    def num_points(self) -> int:
        """Scalar points plus other values read."""
        return int(self.value.size) + sum(len(v) for v in self.records.values())


class _RunAccumulator:
    """Collects one run's values across windows and files."""

    def __init__(self, task: RunTask) -> None:
        self.task = task
        self.options = task.options
        self.tag_meta = dict(task.tag_meta)
        self.tag_ids: dict[str, int] = {}
        self.tag_kept: list[bool] = []
        self.pieces: dict[str, list[np.ndarray]] = defaultdict(list)
        self.records: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.starts: list[tuple[int, int]] = []
        self.hparams_values: list[tuple[str, int, bytes]] = []
        self.warnings: list[tuple[type[Warning], str]] = []
        self.graphs: list[dict[str, Any]] = []
        self.bytes_read = 0

    def tag_id(self, tag: str) -> int:
        tid = self.tag_ids.get(tag)
        if tid is None:
            tid = self.tag_ids[tag] = len(self.tag_ids)
            self.tag_kept.append(self.options.keep_tag(tag))
        return tid

    def add_points(self, tag_id: np.ndarray, step: np.ndarray, wall_time: np.ndarray,
                   value: np.ndarray, seq: np.ndarray) -> None:
        if SCALARS not in self.options.kinds or tag_id.size == 0:
            return
        keep = np.asarray(self.tag_kept, dtype=bool)[tag_id]
        if not keep.all():
            tag_id, step, wall_time, value, seq = (
                a[keep] for a in (tag_id, step, wall_time, value, seq))
        for name, array in (("tag_id", tag_id), ("step", step), ("wall_time", wall_time),
                            ("value", value), ("seq", seq)):
            self.pieces[name].append(array)

    def column(self, name: str, dtype: Any) -> np.ndarray:
        pieces = self.pieces.pop(name, [])
        if not pieces:
            return np.zeros(0, dtype=dtype)
        return np.concatenate(pieces).astype(dtype, copy=False)

    def result(self) -> RunResult:
        tag_id = self.column("tag_id", np.int32)
        step = self.column("step", np.int64)
        wall_time = self.column("wall_time", np.float64)
        value = self.column("value", np.float64)
        seq = self.column("seq", np.int64)
        if seq.size > 1 and bool(np.any(seq[1:] < seq[:-1])):
            # Within a window the compiled decoder's points come before those of the
            # records it left to protobuf: restore stream order (stable: values of
            # one event keep their order).
            order = np.argsort(seq, kind="stable")
            tag_id, step, wall_time, value, seq = (
                a[order] for a in (tag_id, step, wall_time, value, seq))
        records = dict(self.records)
        for rows in records.values():
            rows.sort(key=_seq_of)  # fast-path tensor rows came first in each window
        if self.starts:
            keep = _survivors(seq, step, self.starts)
            if not keep.all():
                tag_id, step, wall_time, value = (a[keep] for a in (tag_id, step, wall_time, value))
            for kind, rows in records.items():
                records[kind] = [r for r in rows if not _purged(r["seq"], r["step"], self.starts)]
        scalar_tags, tag_id = _compact_tags(list(self.tag_ids), tag_id)
        return RunResult(
            run=self.task.run, files=self.task.files, tag_meta=self.tag_meta,
            scalar_tags=scalar_tags, scalar_tag_id=tag_id, step=step,
            wall_time=wall_time, value=value, records=records, starts=self.starts,
            hparams_values=self.hparams_values, warnings=self.warnings,
            bytes_read=self.bytes_read, graphs=self.graphs,
        )


def _seq_of(row: dict[str, Any]) -> int:
    return int(row["seq"])


def _compact_tags(tags: list[str], tag_id: np.ndarray) -> tuple[list[str], np.ndarray]:
    """Keep only the tags of ``tag_id``'s points, numbered in order of first appearance.

    The compiled decoder numbers every tag it meets, including tags the filter drops
    and tensor tags that are not scalars; those must not become categories.
    """
    if tag_id.size == 0:
        return [], tag_id
    present = int(np.count_nonzero(np.bincount(tag_id, minlength=len(tags))))
    k = 1024  # first appearances are almost always near the start
    while True:
        ids, first = np.unique(tag_id[:k], return_index=True)
        if ids.size == present or k >= tag_id.size:
            break
        k *= 8
    order = ids[np.argsort(first, kind="stable")]
    if order.size == len(tags) and bool(np.all(order == np.arange(len(tags)))):
        return tags, tag_id
    remap = np.zeros(len(tags), dtype=np.int32)
    remap[order] = np.arange(order.size, dtype=np.int32)
    return [tags[i] for i in order.tolist()], remap[tag_id]


def _survivors(seq: np.ndarray, step: np.ndarray, starts: list[tuple[int, int]]) -> np.ndarray:
    """Mask of points not dropped by a later ``SessionLog.START`` (TensorBoard's restart rule)."""
    keep = np.ones(seq.shape, dtype=bool)
    for start_seq, start_step in starts:
        keep &= ~((seq < start_seq) & (step >= start_step))
    return keep


def _purged(seq: int, step: int, starts: list[tuple[int, int]]) -> bool:
    return any(seq < s and step >= n for s, n in starts)


def load_run(task: RunTask) -> RunResult:
    """Read every new byte of a run's files and return their normalised contents.

    Problems never raise: corrupt records, unreadable files and undecodable values
    become warnings in ``RunResult.warnings`` (one per file and kind of problem),
    and every good record around them is kept.
    """
    acc = _RunAccumulator(task)
    for state in task.files:
        try:
            _load_file(state, acc)
        except OSError as error:
            acc.warnings.append((LogdirWarning, f"tbnb: cannot read {state.path}: {error}"))
    return acc.result()


def _load_file(state: FileState, acc: _RunAccumulator) -> None:
    fs, window = acc.task.fs, WINDOW
    problems: list[str] = []
    undecodable: list[str] = []
    while True:
        data = _read_window(fs, state.path, state.offset, window)
        if not data:
            break
        acc.bytes_read += len(data)
        buf = np.frombuffer(data, dtype=np.uint8)
        scan = scan_records(buf, base_offset=state.offset, verify_crc=acc.options.verify_crc)
        for problem in scan.problems:
            what = "bad length CRC" if problem.kind == "length_crc" else "bad data CRC"
            problems.append(f"{what} at offset {problem.offset}")
        state.corrupt_records += len(scan.problems)
        if len(scan.starts):
            _decode_window(buf, scan.starts, scan.lengths, state, acc, undecodable)
        state.records += len(scan.starts)
        state.offset += scan.end
        if len(data) < window:
            break  # reached the current end of the file
        if scan.end == 0:
            window *= 2  # one record larger than the window
    if problems:
        shown = "; ".join(problems[:5]) + (f"; and {len(problems) - 5} more" if len(problems) > 5
                                           else "")
        acc.warnings.append((CorruptRecordWarning,
                             f"tbnb: {state.path}: {len(problems)} corrupt record(s) skipped "
                             f"({shown}); every good record around them was kept"))
    if undecodable:
        shown = "; ".join(undecodable[:5]) + (
            f"; and {len(undecodable) - 5} more" if len(undecodable) > 5 else "")
        acc.warnings.append((DataWarning, f"tbnb: {state.path}: {len(undecodable)} value(s) "
                                          f"could not be decoded ({shown})"))


def _read_window(fs: Any, path: str, offset: int, size: int) -> bytes:
    with fs.open(path, "rb") as f:
        f.seek(offset)
        return bytes(f.read(size))


def _decode_window(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, state: FileState,
                   acc: _RunAccumulator, undecodable: list[str]) -> None:
    base = state.offset
    seq_base = (state.rank << SEQ_FILE_SHIFT) + base
    if acc.options.fast:
        from tbnb._fastdecode import decode_scalars

        fast = decode_scalars(buf, starts, lengths)
        slow_index = np.flatnonzero(fast.fallback)
        _learn_fast_metadata(buf, fast, acc)
        handled = ~fast.fallback
        if handled.any():
            state.saw_wall_times(float(np.min(fast.wall_time[handled])),
                                 float(np.max(fast.wall_time[handled])))
    else:
        fast = None
        slow_index = np.arange(len(starts))

    events: list[tuple[int, Any]] = []
    for index in slow_index.tolist():
        start, length = int(starts[index]), int(lengths[index])
        try:
            event = Event.FromString(buf[start:start + length].tobytes())
        except DecodeError as error:
            undecodable.append(f"unparseable event at offset {base + start - 12}: {error}")
            continue
        events.append((index, event))
        for value in event.summary.value:
            tag = value.tag or value.node_name
            if value.HasField("metadata") and tag not in acc.tag_meta:
                acc.tag_meta[tag] = TagMetadata.from_proto(value.metadata)

    if fast is not None and fast.value.size:
        _add_fast_points(fast, starts, seq_base, acc)
    for index, event in events:
        _add_event(event, seq_base + int(starts[index]), base + int(starts[index]),
                   int(lengths[index]), state, acc, undecodable)


def _learn_fast_metadata(buf: np.ndarray, fast: Any, acc: _RunAccumulator) -> None:
    """Remember the metadata of tags first described in this window (first one wins)."""
    with_meta = np.flatnonzero(fast.meta_start >= 0)
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
            SummaryMetadata.FromString(buf[start:start + length].tobytes()))


def _add_fast_points(fast: Any, starts: np.ndarray, seq_base: int, acc: _RunAccumulator) -> None:
    local_to_run = np.array([acc.tag_id(t) for t in fast.tags], dtype=np.int32)
    is_scalar = fast.dtype == 1
    # Tensor-valued scalars are scalars only if their tag says so (TF2 `tf.summary.scalar`);
    # otherwise they are rank-0 tensors, as TensorBoard treats them.
    tensor_tags = np.flatnonzero(np.bincount(fast.tag_id[~is_scalar], minlength=len(fast.tags)))
    scalar_plugin = np.zeros(len(fast.tags), dtype=bool)
    for tid in tensor_tags.tolist():
        meta = acc.tag_meta.get(fast.tags[tid])
        scalar_plugin[tid] = meta is not None and meta.plugin_name == SCALARS
    as_scalar = is_scalar | scalar_plugin[fast.tag_id]
    rec = fast.rec
    seq = seq_base + starts[rec]
    if as_scalar.all():
        acc.add_points(local_to_run[fast.tag_id], fast.step[rec], fast.wall_time[rec],
                       fast.value, seq)
        return
    sel = as_scalar
    acc.add_points(local_to_run[fast.tag_id[sel]], fast.step[rec[sel]],
                   fast.wall_time[rec[sel]], fast.value[sel], seq[sel])
    if TENSORS not in acc.options.kinds:
        return
    for i in np.flatnonzero(~sel).tolist():
        tag = fast.tags[int(fast.tag_id[i])]
        if not acc.options.keep_tag(tag):
            continue
        dtype = np.float32 if fast.dtype[i] == 2 else np.float64
        meta = acc.tag_meta.get(tag)
        r = int(rec[i])
        acc.records[TENSORS].append({
            "tag": tag, "step": int(fast.step[r]), "wall_time": float(fast.wall_time[r]),
            "seq": int(seq[i]), "value": np.array(fast.value[i], dtype=dtype),
            "plugin": meta.plugin_name if meta else ""})


def _add_event(event: Any, seq: int, offset: int, length: int, state: FileState,
               acc: _RunAccumulator, undecodable: list[str]) -> None:
    step, wall_time = int(event.step), float(event.wall_time)
    state.saw_wall_times(wall_time, wall_time)
    if event.HasField("source_metadata") and event.source_metadata.writer:
        state.writer = event.source_metadata.writer
    what = event.WhichOneof("what")
    if what == "summary":
        _add_summary(event, seq, offset, length, state, acc, undecodable)
    elif what == "file_version":
        state.version = event.file_version
    elif what == "session_log":
        if event.session_log.status == _SESSION_START:
            acc.starts.append((seq, step))
    elif what in ("graph_def", "meta_graph_def", "tagged_run_metadata") and (
            GRAPHS in acc.options.kinds):
        payload = getattr(event, what)
        acc.graphs.append({"tag": getattr(payload, "tag", what), "kind": what, "step": step,
                           "wall_time": wall_time, "seq": seq,
                           "nbytes": len(payload if isinstance(payload, bytes)
                                         else payload.run_metadata)})


def _add_summary(event: Any, seq: int, offset: int, length: int, state: FileState,
                 acc: _RunAccumulator, undecodable: list[str]) -> None:
    step, wall_time = int(event.step), float(event.wall_time)
    kinds = acc.options.kinds
    scalars: list[tuple[int, float]] = []
    for value_index, value in enumerate(event.summary.value):
        tag = value.tag or value.node_name
        meta = acc.tag_meta.get(tag)
        kind = kind_of(value, meta)
        if kind is None or (kind not in kinds and kind != HPARAMS) or not acc.options.keep_tag(tag):
            continue
        if kind in (HPARAMS, CUSTOM_SCALARS) and value.HasField("metadata"):
            meta = TagMetadata.from_proto(value.metadata)  # each event carries its own content
        try:
            normalized = normalize_value(value, meta)
        except (TensorDecodeError, ValueError) as error:
            undecodable.append(f"tag {tag!r} step {step}: {error}")
            continue
        if normalized is None:
            continue
        kind, data = normalized
        if kind == SCALARS:
            scalars.append((acc.tag_id(tag), data))
        elif kind == HPARAMS:
            acc.hparams_values.append((tag, step, data))
        elif kind in kinds:
            acc.records[kind].extend(_rows(kind, data, tag, step, wall_time, seq, meta,
                                           offset, length, value_index, state, acc))
    if scalars:
        n = len(scalars)
        acc.add_points(np.array([s[0] for s in scalars], dtype=np.int32),
                       np.full(n, step, dtype=np.int64), np.full(n, wall_time),
                       np.array([s[1] for s in scalars], dtype=np.float64),
                       np.full(n, seq, dtype=np.int64))


def _rows(kind: str, data: Any, tag: str, step: int, wall_time: float, seq: int,
          meta: TagMetadata | None, offset: int, length: int, value_index: int,
          state: FileState, acc: _RunAccumulator) -> list[dict[str, Any]]:
    base = {"tag": tag, "step": step, "wall_time": wall_time, "seq": seq}
    if kind in (IMAGES, AUDIO):
        rows = []
        for sample_index, sample in enumerate(data):
            row = {**base, "sample": sample_index,
                   **{k: v for k, v in sample.items() if k != "data"}}
            row["blob"] = Blob(kind=kind, fs=acc.task.fs, path=state.path, offset=offset,
                               length=length, value_index=value_index,
                               sample_index=sample_index, nbytes=int(sample["nbytes"]),
                               format=sample.get("format", "wav"))
            rows.append(row)
        return rows
    if kind == TENSORS:
        return [{**base, "value": data, "plugin": meta.plugin_name if meta else ""}]
    if kind == CUSTOM_SCALARS:
        return [{**base, "layout": data}]
    if kind == TEXT:
        return [{**base, "text": data}]
    if isinstance(data, dict):
        return [{**base, **data}]
    return [{**base, "value": data}]
