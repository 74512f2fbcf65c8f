"""Collect one run's values across read windows and files, applying restarts in order.

Scalar points arrive per window as column arrays (a fast decoder) and as
single points (protobuf); every other value as rows of its kind. A
``SessionLog.START`` at step N drops what came before it in the run's stream with
step >= N, in every kind, as TensorBoard does. At the end the run's scalar points are
grouped by tag, tags in order of first appearance.

Examples
--------
>>> import numpy as np
>>> pieces = [(np.array([1, 0, 1]), np.array([0, 0, 1]), np.zeros(3), np.array([1., 2., 3.]))]
>>> [p.tolist() for p in group_by_tag(pieces, 2)[0]]
[[0, 1, 1], [0, 0, 1], [0.0, 0.0, 0.0], [2.0, 1.0, 3.0]]
"""

from __future__ import annotations

from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from tbnb.kinds import KINDS
from tbnb.loader.backend import Backend
from tbnb.loader.rowsets import KindRows
from tbnb.loader.state import Piece, RunResult, RunTask

__all__ = ["RunAccumulator", "Window", "group_by_tag"]

SCALARS = KINDS["scalars"].key


class Window:
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
                return (
                    empty,
                    empty.astype(np.int32),
                    empty,
                    empty.astype(np.float64),
                    empty.astype(np.float64),
                )
            return self.fast
        slow = (
            np.array([p[0] for p in self.slow], dtype=np.int64),
            np.array([p[1] for p in self.slow], dtype=np.int32),
            np.array([p[2] for p in self.slow], dtype=np.int64),
            np.array([p[3] for p in self.slow], dtype=np.float64),
            np.array([p[4] for p in self.slow], dtype=np.float64),
        )
        if self.fast is None:
            return slow
        merged = tuple(np.concatenate([a, b]) for a, b in zip(self.fast, slow, strict=True))
        order = np.argsort(merged[0], kind="stable")  # values of one event keep their order
        return tuple(a[order] for a in merged)


class RunAccumulator:
    """Collects one run's values across windows and files, applying restarts in order."""

    def __init__(self, task: RunTask) -> None:
        self.task = task
        self.options = task.options
        self.tag_meta = dict(task.tag_meta)
        self.tag_ids: dict[str, int] = {}
        self.tag_kept: list[bool] = []
        self.seen_tags: set[str] = set()
        self.pieces: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self.records: dict[str, KindRows] = defaultdict(KindRows)
        self.starts: list[tuple[int, int]] = []
        self.raw: dict[str, list[tuple[str, int, Any]]] = defaultdict(list)
        self.warnings: list[tuple[type[Warning], str]] = []
        self.bytes_read = 0
        self.backend = Backend("numpy")
        self.decoder = "numpy"
        self.window: np.ndarray | None = None  # the native path's reused read buffer
        self.protobuf_records = 0  # records the fast decoder left to protobuf
        self.reset = False  # the run is read again from the start
        self._pool: ThreadPoolExecutor | None = None

    def helper_pool(self, helpers: int) -> ThreadPoolExecutor:
        """The run's helper threads (:mod:`tbnb.loader.windows`), started once."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(helpers, thread_name_prefix="tbnb-window")
        return self._pool

    def close(self) -> None:
        """Stop the helper threads."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def tag_id(self, tag: str) -> int:
        tid = self.tag_ids.get(tag)
        if tid is None:
            tid = self.tag_ids[tag] = len(self.tag_ids)
            self.tag_kept.append(self.options.keep_tag(tag))
        return tid

    def add_window(self, window: Window) -> None:
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
        for rows in self.records.values():
            rows.drop(lambda seq, step: (seq < start_seq) & (step >= start_step))

    def result(self) -> RunResult:
        records = dict(self.records)  # each kind's rows come out in stream order
        scalar_tags, pieces = _compact_tags(list(self.tag_ids), self.pieces)
        # the native decoder's points are grouped while copied into the frame
        grouped = self.decoder != "native"
        if grouped:
            pieces = group_by_tag(pieces, len(scalar_tags))
        return RunResult(
            run=self.task.run,
            files=self.task.files,
            tag_meta=self.tag_meta,
            scalar_tags=scalar_tags,
            scalar_pieces=pieces,
            records=records,
            starts=self.starts,
            raw=dict(self.raw),
            warnings=self.warnings,
            bytes_read=self.bytes_read,
            seen_tags=self.seen_tags | set(self.tag_ids),
            decoder=self.decoder,
            grouped=grouped,
            protobuf_records=self.protobuf_records,
            reset=self.reset,
        )


def _compact_tags(tags: list[str], pieces: list[Piece]) -> tuple[list[str], list[Piece]]:
    """Keep only the tags that have points, numbered in order of first appearance.

    The fast decoders number every tag they meet, including tags the filter drops
    and tensor tags that are not scalars; those must not become categories.
    """
    pieces = [p for p in pieces if p[0].size]
    if not pieces:
        return [], []
    first_seen: dict[int, None] = {}
    for tag_id, *_ in pieces:
        present = int(np.count_nonzero(np.bincount(tag_id)))  # distinct tags, no sort
        k = 1024  # first appearances are almost always near the start
        while True:
            ids, first = np.unique(tag_id[:k], return_index=True)
            if k >= tag_id.size or ids.size == present:
                break
            k *= 8
        for tid in ids[np.argsort(first, kind="stable")].tolist():
            first_seen.setdefault(tid, None)
    order = np.fromiter(first_seen, dtype=np.int64, count=len(first_seen))
    if order.size == len(tags) and bool(np.all(order == np.arange(len(tags)))):
        return tags, pieces
    remap = np.zeros(len(tags), dtype=np.int32)
    remap[order] = np.arange(order.size, dtype=np.int32)
    return (
        [tags[i] for i in order.tolist()],
        [(remap[t], step, wall, value) for t, step, wall, value in pieces],
    )


def group_by_tag(pieces: list[Piece], n_tags: int) -> list[Piece]:
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
