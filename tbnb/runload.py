"""Read the new bytes of one run's event files into the normalised form (layer 3).

A run is loaded by one task, its files in name order as one stream, so that the
metadata a writer put on a tag's first event is known when later events of that
tag arrive, and restarts can be applied in stream order. Tasks are independent and
picklable: the experiment runs them on any ``concurrent.futures.Executor``.

Bytes are read in windows (8 MiB, grown for a larger record), so a file of
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

WINDOW = 8 << 20
"""Bytes read at a time from an event file."""

SEQ_FILE_SHIFT = 40
"""A point's stream position is ``file_rank << 40 | byte offset`` (files up to 1 TiB)."""

_SESSION_START = 1

_PROBLEM_TEXT = {"length_crc": "bad length CRC", "data_crc": "bad data CRC",
                 "short_record": "record cut short"}


_warming: threading.Thread | None = None


def decoder_ready() -> bool:
    """Whether the compiled decoder can run without compiling first.

    True once it ran in this process or when numba's on-disk cache holds it (the
    first use after an install compiles it once, which takes tens of seconds).
    """
    from tbnb import _fastdecode

    kernel: Any = _fastdecode._decode_kernel
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
    scalar_pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]
    records: dict[str, list[dict[str, Any]]]
    starts: list[tuple[int, int]]
    hparams_values: list[tuple[str, int, bytes]]
    warnings: list[tuple[type[Warning], str]]
    bytes_read: int
    graphs: list[dict[str, Any]]

    @property
    def num_scalars(self) -> int:
        """Scalar points read."""
        return sum(int(piece[0].size) for piece in self.scalar_pieces)

    @property
    def num_points(self) -> int:
        """Scalar points plus other values read."""
        return self.num_scalars + sum(len(v) for v in self.records.values())

    def _column(self, index: int, dtype: Any) -> np.ndarray:
        if not self.scalar_pieces:
            return np.zeros(0, dtype=dtype)
        return np.concatenate([piece[index] for piece in self.scalar_pieces]).astype(
            dtype, copy=False)

    @cached_property
    def scalar_tag_id(self) -> np.ndarray:
        """Index into :attr:`scalar_tags` of every scalar point, in stream order."""
        return self._column(0, np.int32)

    @cached_property
    def step(self) -> np.ndarray:
        """Step of every scalar point."""
        return self._column(1, np.int64)

    @cached_property
    def wall_time(self) -> np.ndarray:
        """Wall time of every scalar point."""
        return self._column(2, np.float64)

    @cached_property
    def value(self) -> np.ndarray:
        """Value of every scalar point."""
        return self._column(3, np.float64)


class _Window:
    """Scalar points and restarts of one window, each tagged with its record index."""

    def __init__(self) -> None:
        self.fast: tuple[np.ndarray, ...] | None = None  # rec, tag_id, step, wall_time, value
        self.slow: list[tuple[int, int, int, float, float]] = []
        self.starts: list[tuple[int, int, int]] = []  # (record index, step, seq)

    def points(self) -> tuple[np.ndarray, ...]:
        """(rec, tag_id, step, wall_time, value) in record order."""
        if not self.slow:
            if self.fast is None:
                empty = np.zeros(0, dtype=np.int64)
                return (empty, empty.astype(np.int32), empty, empty.astype(np.float64),
                        empty.astype(np.float64))
            return self.fast
        slow = (np.array([p[0] for p in self.slow], dtype=np.int64),
                np.array([p[1] for p in self.slow], dtype=np.int32),
                np.array([p[2] for p in self.slow], dtype=np.int64),
                np.array([p[3] for p in self.slow], dtype=np.float64),
                np.array([p[4] for p in self.slow], dtype=np.float64))
        if self.fast is None:
            return slow
        merged = tuple(np.concatenate([a, b]) for a, b in zip(self.fast, slow, strict=True))
        order = np.argsort(merged[0], kind="stable")  # values of one event keep their order
        return tuple(a[order] for a in merged)


class _RunAccumulator:
    """Collects one run's values across windows and files, applying restarts in order."""

    def __init__(self, task: RunTask) -> None:
        self.task = task
        self.options = task.options
        self.tag_meta = dict(task.tag_meta)
        self.tag_ids: dict[str, int] = {}
        self.tag_kept: list[bool] = []
        self.pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
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

    def add_window(self, window: _Window) -> None:
        """Append a window's scalar points, applying its restarts in stream order."""
        rec, tag_id, step, wall_time, value = window.points()
        keep = None
        if SCALARS in self.options.kinds and tag_id.size:
            kept = np.asarray(self.tag_kept, dtype=bool)
            if not kept.all():
                keep = kept[tag_id]
        elif tag_id.size:
            keep = np.zeros(tag_id.shape, dtype=bool)
        for start_rec, start_step, start_seq in window.starts:
            self.restart(start_step, start_seq)
            doomed = (rec < start_rec) & (step >= start_step)
            if doomed.any():
                keep = ~doomed if keep is None else keep & ~doomed
        if keep is not None:
            tag_id, step, wall_time, value = (a[keep] for a in (tag_id, step, wall_time, value))
        if tag_id.size:
            self.pieces.append((tag_id, step, wall_time, value))

    def restart(self, start_step: int, start_seq: int) -> None:
        """A ``SessionLog.START``: drop what came before it with ``step >= start_step``."""
        self.starts.append((start_seq, start_step))
        for i, (tag_id, step, wall_time, value) in enumerate(self.pieces):
            keep = step < start_step
            if not keep.all():
                self.pieces[i] = (tag_id[keep], step[keep], wall_time[keep], value[keep])
        for rows in (*self.records.values(), self.graphs):
            rows[:] = [r for r in rows if not (r["seq"] < start_seq and r["step"] >= start_step)]

    def result(self) -> RunResult:
        records = dict(self.records)
        for rows in records.values():
            rows.sort(key=_seq_of)  # fast-path tensor rows came first in each window
        scalar_tags, pieces = _compact_tags(list(self.tag_ids), self.pieces)
        pieces = _group_by_tag(pieces, len(scalar_tags))
        return RunResult(
            run=self.task.run, files=self.task.files, tag_meta=self.tag_meta,
            scalar_tags=scalar_tags, scalar_pieces=pieces, records=records,
            starts=self.starts, hparams_values=self.hparams_values, warnings=self.warnings,
            bytes_read=self.bytes_read, graphs=self.graphs,
        )


def _seq_of(row: dict[str, Any]) -> int:
    return int(row["seq"])


Piece = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _compact_tags(tags: list[str], pieces: list[Piece]) -> tuple[list[str], list[Piece]]:
    """Keep only the tags that have points, numbered in order of first appearance.

    The compiled decoder numbers every tag it meets, including tags the filter drops
    and tensor tags that are not scalars; those must not become categories.
    """
    pieces = [p for p in pieces if p[0].size]
    if not pieces:
        return [], []
    first_seen: dict[int, None] = {}
    for tag_id, *_ in pieces:
        k = 1024  # first appearances are almost always near the start
        while True:
            ids, first = np.unique(tag_id[:k], return_index=True)
            if k >= tag_id.size or ids.size == np.unique(tag_id).size:
                break
            k *= 8
        for tid in ids[np.argsort(first, kind="stable")].tolist():
            first_seen.setdefault(tid, None)
    order = np.fromiter(first_seen, dtype=np.int64, count=len(first_seen))
    if order.size == len(tags) and bool(np.all(order == np.arange(len(tags)))):
        return tags, pieces
    remap = np.zeros(len(tags), dtype=np.int32)
    remap[order] = np.arange(order.size, dtype=np.int32)
    return ([tags[i] for i in order.tolist()],
            [(remap[t], step, wall, value) for t, step, wall, value in pieces])


def _group_by_tag(pieces: list[Piece], n_tags: int) -> list[Piece]:
    """Order a run's points by tag (in order of first appearance), stably.

    Writers interleave tags; grouping them once here, with a linear-time radix sort
    of small integer keys, gives every consumer contiguous (run, tag) series.
    """
    if n_tags <= 1 or not pieces:
        return pieces
    tag_id = np.concatenate([p[0] for p in pieces]) if len(pieces) > 1 else pieces[0][0]
    if bool(np.all(tag_id[1:] >= tag_id[:-1])):
        return pieces
    keys = tag_id.astype(np.int16) if n_tags < np.iinfo(np.int16).max else tag_id
    order = np.argsort(keys, kind="stable")  # radix sort for 16-bit keys
    grouped = [tag_id[order]]
    for column in (1, 2, 3):
        values = [p[column] for p in pieces]
        grouped.append((np.concatenate(values) if len(values) > 1 else values[0])[order])
        del values
    return [(grouped[0], grouped[1], grouped[2], grouped[3])]


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
            what = _PROBLEM_TEXT.get(problem.kind, problem.kind)
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
            event = Event.FromString(buf[start:start + length].tobytes())
        except DecodeError as error:
            undecodable.append(f"unparseable event at offset {base + start - 12}: {error}")
            continue
        events.append((index, event))
        for value in event.summary.value:
            tag = value.tag or value.node_name
            if value.HasField("metadata") and tag not in acc.tag_meta:
                acc.tag_meta[tag] = TagMetadata.from_proto(value.metadata)

    window = _Window()
    if fast is not None and fast.value.size:
        _add_fast_points(fast, starts, seq_base, acc, window)
    for index, event in events:
        _add_event(event, index, seq_base + int(starts[index]), base + int(starts[index]),
                   int(lengths[index]), state, acc, window, undecodable)
    acc.add_window(window)


def _learn_fast_metadata(buf: np.ndarray, fast: Any, acc: _RunAccumulator) -> None:
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
            SummaryMetadata.FromString(buf[start:start + length].tobytes()))


def _add_fast_points(fast: Any, starts: np.ndarray, seq_base: int, acc: _RunAccumulator,
                     window: _Window) -> None:
    local_to_run = np.array([acc.tag_id(t) for t in fast.tags], dtype=np.int32)
    is_scalar = fast.dtype == 1
    # Tensor-valued scalars are scalars only if their tag says so (TF2 `tf.summary.scalar`);
    # otherwise they are rank-0 tensors, as TensorBoard treats them.
    tensor_tags = np.flatnonzero(np.bincount(fast.tag_id[~is_scalar], minlength=len(fast.tags)))
    scalar_plugin = np.zeros(len(fast.tags), dtype=bool)
    for tid in tensor_tags.tolist():
        meta = acc.tag_meta.get(fast.tags[tid])
        scalar_plugin[tid] = meta is not None and meta.plugin_name == SCALARS
    rec = fast.rec
    sel = is_scalar | scalar_plugin[fast.tag_id] if scalar_plugin.any() else is_scalar
    if sel.all():
        window.fast = (rec, local_to_run[fast.tag_id], fast.value_step, fast.value_wall_time,
                       fast.value)
        return
    window.fast = (rec[sel], local_to_run[fast.tag_id[sel]], fast.value_step[sel],
                   fast.value_wall_time[sel], fast.value[sel])
    if TENSORS not in acc.options.kinds:
        return
    for i in np.flatnonzero(~sel).tolist():
        tag = fast.tags[int(fast.tag_id[i])]
        if not acc.options.keep_tag(tag):
            continue
        dtype = np.float32 if fast.dtype[i] == 2 else np.float64
        meta = acc.tag_meta.get(tag)
        acc.records[TENSORS].append({
            "tag": tag, "step": int(fast.value_step[i]),
            "wall_time": float(fast.value_wall_time[i]),
            "seq": seq_base + int(starts[rec[i]]), "value": np.array(fast.value[i], dtype=dtype),
            "plugin": meta.plugin_name if meta else ""})


def _add_event(event: Any, index: int, seq: int, offset: int, length: int, state: FileState,
               acc: _RunAccumulator, window: _Window, undecodable: list[str]) -> None:
    step, wall_time = int(event.step), float(event.wall_time)
    state.saw_wall_times(wall_time, wall_time)
    if event.HasField("source_metadata") and event.source_metadata.writer:
        state.writer = event.source_metadata.writer
    what = event.WhichOneof("what")
    if what == "summary":
        _add_summary(event, index, seq, offset, length, state, acc, window, undecodable)
    elif what == "file_version":
        state.version = event.file_version
    elif what == "session_log":
        if event.session_log.status == _SESSION_START:
            window.starts.append((index, step, seq))
    elif what in ("graph_def", "meta_graph_def", "tagged_run_metadata") and (
            GRAPHS in acc.options.kinds):
        payload = getattr(event, what)
        acc.graphs.append({"tag": getattr(payload, "tag", what), "kind": what, "step": step,
                           "wall_time": wall_time, "seq": seq,
                           "nbytes": len(payload if isinstance(payload, bytes)
                                         else payload.run_metadata)})


def _add_summary(event: Any, index: int, seq: int, offset: int, length: int, state: FileState,
                 acc: _RunAccumulator, window: _Window, undecodable: list[str]) -> None:
    step, wall_time = int(event.step), float(event.wall_time)
    kinds = acc.options.kinds
    for value_index, value in enumerate(event.summary.value):
        tag = value.tag or value.node_name
        meta = acc.tag_meta.get(tag)
        kind = kind_of(value, meta)
        if kind is None or (kind not in kinds and kind != HPARAMS):
            continue
        if kind != HPARAMS and not acc.options.keep_tag(tag):
            continue  # hparams describe the run, whatever tags were asked for
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
            window.slow.append((index, acc.tag_id(tag), step, wall_time, data))
        elif kind == HPARAMS:
            acc.hparams_values.append((tag, step, data))
        elif kind in kinds:
            acc.records[kind].extend(_rows(kind, data, tag, step, wall_time, seq, meta,
                                           offset, length, value_index, state, acc))


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
