"""What a load knows and produces: file states, options, run tasks and their results.

Examples
--------
>>> options = LoadOptions(tags="^val/")
>>> options.keep_tag("val/acc"), options.keep_tag("train/loss")
(True, False)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

from tbnb.io.logdir import host_from_filename
from tbnb.kinds import EVENT_TYPES, TagMetadata
from tbnb.loader.backend import DECODERS, Backend
from tbnb.loader.rowsets import KindRows

__all__ = ["DECODERS", "FileState", "LoadOptions", "Piece", "RunResult", "RunTask"]

Piece = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""Scalar points as ``(tag_id, step, wall_time, value)`` arrays."""


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
    pending: int = 0
    tail_reported: bool = False
    head: bytes = b""

    def reset(self, rank: int) -> None:
        """Forget what was read: the file is read again from its start."""
        self.rank, self.offset, self.pending, self.records, self.corrupt_records = rank, 0, 0, 0, 0
        self.first_wall_time = self.last_wall_time = math.nan
        self.tail_reported, self.head = False, b""

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
    """What to keep while loading: a tag filter, the kinds wanted, CRC checking, the
    decoder asked for (one of :data:`~tbnb.loader.backend.DECODERS`) and the backend
    chosen for it once per load (:func:`~tbnb.loader.backend.choose_backend`; chosen by
    the run task when not given). ``raw_buckets`` keeps each histogram's own buckets
    (``limits``, ``bucket``) beside its edges and counts (tbparse's view needs them).
    ``helpers``: threads each run task may use to decode windows of a large file ahead
    (:mod:`tbnb.loader.windows`; fewer than 2: none)."""

    tags: str | tuple[str, ...] | None = None
    kinds: frozenset[str] = EVENT_TYPES
    verify_crc: bool = True
    decoder: str = "auto"
    backend: Backend | None = None
    raw_buckets: bool = False
    helpers: int = 0

    def __post_init__(self) -> None:
        if self.decoder not in DECODERS:
            raise ValueError(f"decoder must be one of {DECODERS}, got {self.decoder!r}")

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
    """The normalised contents of the bytes a :class:`RunTask` read.

    ``records`` holds each records kind's rows (see :attr:`tbnb.kinds.base.Kind.rows`),
    ``raw`` the ``(tag, step, data)`` of raw kinds (hparams), ``starts`` the
    ``SessionLog.START`` restarts as ``(seq, step)``, ``seen_tags`` every tag met
    (kept by the tag filter or not), ``decoder`` the backend that read them and
    ``protobuf_records`` how many records it left to protobuf. ``reset``: a file of the
    run was truncated, replaced or deleted since the last read, so the run was read again
    from the start: its earlier values must be dropped before these are added.
    ``scalar_pieces`` hold each tag's points together (tags in order) if ``grouped``;
    the native decoder leaves that to the copy into the frame.
    """

    run: str
    files: list[FileState]
    tag_meta: dict[str, TagMetadata]
    scalar_tags: list[str]
    scalar_pieces: list[Piece]
    records: dict[str, KindRows]
    starts: list[tuple[int, int]]
    raw: dict[str, list[tuple[str, int, Any]]]
    warnings: list[tuple[type[Warning], str]]
    bytes_read: int
    seen_tags: set[str] = field(default_factory=set)
    decoder: str = "numpy"
    grouped: bool = True
    protobuf_records: int = 0
    reset: bool = False

    @property
    def hparams_values(self) -> list[tuple[str, int, Any]]:
        """``(tag, step, content)`` of every hparams summary read."""
        return self.raw.get("hparams", [])

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
            dtype, copy=False
        )

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
