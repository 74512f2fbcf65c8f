"""The histograms of a frame, indexed by series (run, tag) and step, without copying buckets.

:class:`HistogramStore` sorts a histograms frame (``exp.histograms`` or any frame with
``run``, ``tag``, ``step``, ``edges``, ``counts``) by series and step once, and keeps
per-histogram numbers as arrays (step, wall time, outer edges); the buckets stay the
frame's own arrays, in the frame's order, and are gathered (and counted) only for the
histograms a chart draws (:meth:`HistogramStore.buckets`): indexing a large frame is a
sort of its numbers, no per-histogram Python work. Each gathered histogram is checked: one
whose edges
are not finite or not increasing, or whose counts are negative or not finite, is left
out of the chart and reported once, naming its run, tag and step.

Examples
--------
>>> import numpy as np, pandas as pd
>>> frame = pd.DataFrame({"run": "a", "tag": "w", "step": [2, 1], "wall_time": [2.0, 1.0],
...                       "edges": [np.array([0.0, 1.0]), np.array([0.0, 2.0])],
...                       "counts": [np.array([3.0]), np.array([4.0])]})
>>> store = HistogramStore.from_frame(frame)
>>> store.keys, store.steps.tolist()
([('a', 'w')], [1, 2])
>>> edges, counts, lengths, kept = store.buckets(np.array([0, 1]))
>>> counts.tolist(), kept.tolist()
([4.0, 3.0], [0, 1])
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from tbnb.kinds.distributions import tensorboard_buckets
from tbnb.warnings import DataWarning

__all__ = ["REQUIRED", "HistogramStore", "check_frame"]

REQUIRED = ("run", "tag", "step", "edges", "counts")
"""Columns a histograms frame must have (``wall_time``, ``min``, ``max`` are used if present)."""

_SHOWN_STEPS = 5


def check_frame(frame: Any) -> None:
    """Raise ``TypeError``/``ValueError`` naming what a histograms frame lacks.

    Examples
    --------
    >>> check_frame(pd.DataFrame(columns=["run", "tag", "step"]))
    Traceback (most recent call last):
    ...
    ValueError: histograms frame lacks column(s) ['counts', 'edges'] (exp.histograms has them)
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"expected a histograms DataFrame, got {type(frame).__name__}")
    missing = sorted(set(REQUIRED).difference(frame.columns))
    if missing:
        raise ValueError(f"histograms frame lacks column(s) {missing} (exp.histograms has them)")


@dataclass
class HistogramStore:
    """Every histogram of a frame, by series (run, tag) then step.

    Attributes
    ----------
    keys
        ``(run, tag)`` of each series, in first-seen order.
    bounds
        Histograms of series ``i`` are ``bounds[i]:bounds[i + 1]`` of the arrays below.
    steps, wall, lo, hi
        Per histogram: step, wall time (NaN if unknown), outer edges.
    order
        Per histogram: its row in the frame (where its buckets are).
    edges, counts
        The buckets TensorBoard shows of each row, in the frame's order (the frame's own
        arrays, or their float32 migration for a legacy ``HistogramProto``).
    blocks, frame_steps
        Each run's rows ``(first, count)`` when the frame holds every run's rows as one
        block (the loader's frames), and each row's step: what a reload's store reuses.
    """

    keys: list[tuple[str, str]]
    bounds: npt.NDArray[np.int64]
    steps: npt.NDArray[np.int64]
    wall: npt.NDArray[np.float64]
    lo: npt.NDArray[np.float64]
    hi: npt.NDArray[np.float64]
    order: npt.NDArray[np.int64]
    edges: npt.NDArray[Any]
    counts: npt.NDArray[Any]
    blocks: dict[str, tuple[int, int]] | None = None
    frame_steps: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))
    _bad: dict[int, str] = field(default_factory=dict)
    _reported: set[int] = field(default_factory=set)
    _lengths: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, np.int64))

    def __post_init__(self) -> None:
        if self._lengths.size != self.steps.size:
            self._lengths = np.full(self.steps.size, -1, dtype=np.int64)  # -1: not counted yet

    def lengths_of(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """Buckets of each histogram of ``rows`` (counted on first use, then kept)."""
        rows = np.asarray(rows, dtype=np.int64)
        known = self._lengths[rows]
        todo = rows[known < 0]
        if todo.size:
            self._lengths[todo] = _lengths(self.counts[self.order[todo]])
            known = self._lengths[rows]
        return known

    @property
    def lengths(self) -> npt.NDArray[np.int64]:
        """Buckets of every histogram (counts them all: prefer :meth:`lengths_of`)."""
        return self.lengths_of(np.arange(self.steps.size, dtype=np.int64))

    @classmethod
    def from_frame(cls, frame: pd.DataFrame, reuse: HistogramStore | None = None) -> HistogramStore:
        """Index ``frame`` (rows of one series in any order; ties keep the frame's order).

        ``reuse``: the store of an earlier frame of the same experiment whose rows are all
        still there (no restart dropped any): each run's rows it holds are taken from it,
        and only the rows a reload added are read (a reload costs what is new).
        """
        check_frame(frame)
        runs, run_names = _factorize(frame["run"])
        tags, tag_names = _factorize(frame["tag"])
        series = runs.astype(np.int64) * max(len(tag_names), 1) + tags
        steps = frame["step"].to_numpy(dtype=np.int64)
        order = np.lexsort((steps, series))
        series = series[order]
        first = np.r_[0, np.flatnonzero(np.diff(series)) + 1] if len(series) else np.zeros(0, int)
        bounds = np.r_[first, len(series)].astype(np.int64)
        keys = [
            (
                str(run_names[s // max(len(tag_names), 1)]),
                str(tag_names[s % max(len(tag_names), 1)]),
            )
            for s in series[first].tolist()
        ]
        blocks = _run_blocks(runs, run_names)
        frame_steps = frame["step"].to_numpy(dtype=np.int64)
        edges, counts = _buckets(frame, blocks, frame_steps, reuse)
        if {"min", "max"} <= set(frame.columns):  # exp.histograms: the outer edges
            lo = frame["min"].to_numpy(dtype=np.float64)[order]
            hi = frame["max"].to_numpy(dtype=np.float64)[order]
        else:
            ordered = edges[order]
            lo = np.fromiter(
                (e[0] if np.size(e) else np.nan for e in ordered), np.float64, count=len(ordered)
            )
            hi = np.fromiter(
                (e[-1] if np.size(e) else np.nan for e in ordered), np.float64, count=len(ordered)
            )
        wall = (
            frame["wall_time"].to_numpy(dtype=np.float64)[order]
            if "wall_time" in frame
            else np.full(len(order), np.nan)
        )
        return cls(
            keys=keys,
            bounds=bounds,
            steps=steps[order],
            wall=wall,
            lo=lo,
            hi=hi,
            order=order.astype(np.int64),
            edges=edges,
            counts=counts,
            blocks=blocks,
            frame_steps=frame_steps,
        )

    def __len__(self) -> int:
        return len(self.keys)

    def rows(self, i: int, window: tuple[float, float] | None = None) -> npt.NDArray[np.int64]:
        """Histograms of series ``i`` (indices into the per-histogram arrays), optionally
        only those with ``window[0] <= step <= window[1]``."""
        a, b = int(self.bounds[i]), int(self.bounds[i + 1])
        if window is not None:
            steps = self.steps[a:b]
            a, b = (
                a + int(np.searchsorted(steps, window[0], side="left")),
                a + int(np.searchsorted(steps, window[1], side="right")),
            )
        return np.arange(a, b, dtype=np.int64)

    def series_of(self, row: int) -> int:
        """The series a histogram belongs to."""
        return int(np.searchsorted(self.bounds, row, side="right") - 1)

    def bounds_of(self, rows: npt.NDArray[np.int64]) -> tuple[float, float] | None:
        """``(left, right)``: every histogram of ``rows`` with buckets inside, or None."""
        usable = rows[
            (self.lengths_of(rows) > 0) & np.isfinite(self.lo[rows]) & np.isfinite(self.hi[rows])
        ]
        usable = usable[[r not in self._bad for r in usable.tolist()]] if self._bad else usable
        if usable.size == 0:
            return None
        left, right = float(self.lo[usable].min()), float(self.hi[usable].max())
        if left == right:  # one value everywhere: widened as TensorBoard widens it
            left, right = sorted((left / 1.1 - 1, right * 1.1 + 1))
        return left, right

    def buckets(self, rows: npt.NDArray[np.int64]) -> tuple[npt.NDArray[Any], ...]:
        """Ragged ``(edges, counts, lengths, kept)`` of the good histograms among ``rows``.

        ``kept`` are the rows whose buckets are in the arrays; a histogram left out is
        listed in :attr:`problems` (a warning names its series the first time).
        """
        rows = np.asarray(rows, dtype=np.int64)
        if self._bad:
            rows = rows[[r not in self._bad for r in rows.tolist()]]
        lengths = self.lengths_of(rows)
        full = rows[lengths > 0]
        at = self.order[full].tolist()
        e_list = [np.asarray(self.edges[r], dtype=np.float64) for r in at]
        c_list = [np.asarray(self.counts[r], dtype=np.float64) for r in at]
        edges = np.concatenate(e_list) if e_list else np.zeros(0)
        counts = np.concatenate(c_list) if c_list else np.zeros(0)
        n = lengths[lengths > 0]
        sizes = np.fromiter((e.size for e in e_list), dtype=np.int64, count=len(e_list))
        if full.size and (not (sizes == n + 1).all() or not _all_good(edges, counts, n)):
            for row, e, c in zip(full.tolist(), e_list, c_list, strict=True):
                reason = _problem(e, c)
                if reason:
                    self._flag(row, reason)
            return self.buckets(rows)
        return edges, counts, lengths, rows

    @property
    def problems(self) -> list[str]:
        """One line per series with histograms left out: run, tag, steps and why."""
        by_series: dict[int, list[int]] = {}
        for row in sorted(self._bad):
            by_series.setdefault(self.series_of(row), []).append(row)
        out = []
        for series, rows in by_series.items():
            run, tag = self.keys[series]
            steps = ", ".join(str(int(self.steps[r])) for r in rows[:_SHOWN_STEPS])
            more = f" and {len(rows) - _SHOWN_STEPS} more" if len(rows) > _SHOWN_STEPS else ""
            out.append(
                f"run {run!r} tag {tag!r}: {len(rows)} histogram(s) left out "
                f"(step {steps}{more}): {self._bad[rows[0]]}"
            )
        return out

    def _flag(self, row: int, reason: str) -> None:
        self._bad[row] = reason
        series = self.series_of(row)
        if series in self._reported:
            return
        self._reported.add(series)
        run, tag = self.keys[series]
        warnings.warn(
            f"tbnb histograms: run {run!r} tag {tag!r}: the histogram of step "
            f"{int(self.steps[row])} is left out of the charts: {reason} "
            "(w.problems lists every one)",
            DataWarning,
            stacklevel=4,
        )

    def check_outer_edges(self) -> None:
        """Flag every histogram whose outer edges are not finite (one vectorised pass)."""
        odd = np.flatnonzero(~(np.isfinite(self.lo) & np.isfinite(self.hi)))
        for row in odd[self.lengths_of(odd) > 0].tolist():
            self._flag(row, "its edges are not finite (were NaN or inf values logged?)")


def _run_blocks(
    codes: npt.NDArray[np.int64], names: list[str]
) -> dict[str, tuple[int, int]] | None:
    """``run -> (first row, rows)`` when each run's rows are one block, else None."""
    if codes.size == 0:
        return {}
    starts = np.r_[0, np.flatnonzero(np.diff(codes)) + 1]
    if np.unique(codes[starts]).size != starts.size:
        return None
    sizes = np.diff(np.r_[starts, codes.size])
    return {
        names[int(c)]: (int(a), int(n))
        for c, a, n in zip(codes[starts].tolist(), starts.tolist(), sizes.tolist(), strict=True)
    }


def _buckets(
    frame: pd.DataFrame,
    blocks: dict[str, tuple[int, int]] | None,
    steps: npt.NDArray[np.int64],
    reuse: HistogramStore | None,
) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """The buckets TensorBoard shows of each row (a legacy histogram's in float32, as it
    migrates them), as object arrays in the frame's order; a run's rows that ``reuse``
    holds (its first rows, the same steps) are taken from it."""
    edges = np.empty(len(frame), dtype=object)
    counts = np.empty(len(frame), dtype=object)
    todo: list[npt.NDArray[np.int64]] = []
    if reuse is not None and reuse.blocks is not None and blocks is not None:
        for run, (a, n) in blocks.items():
            old = reuse.blocks.get(run)
            if old is not None and old[1] <= n:
                b, m = old
                if np.array_equal(reuse.frame_steps[b : b + m], steps[a : a + m]):
                    edges[a : a + m] = reuse.edges[b : b + m]
                    counts[a : a + m] = reuse.counts[b : b + m]
                    todo.append(np.arange(a + m, a + n, dtype=np.int64))
                    continue
            todo.append(np.arange(a, a + n, dtype=np.int64))
        rows = np.concatenate(todo) if todo else np.zeros(0, np.int64)
    else:
        rows = np.arange(len(frame), dtype=np.int64)
    if rows.size:
        part = frame.iloc[rows] if rows.size < len(frame) else frame
        listed_edges, listed_counts = tensorboard_buckets(part)
        for i, e, c in zip(rows.tolist(), listed_edges, listed_counts, strict=True):
            edges[i], counts[i] = e, c
    return edges, counts


def _factorize(names: pd.Series) -> tuple[npt.NDArray[np.int64], list[str]]:
    """``(codes, names as text)``; a categorical column (``exp.histograms``) by its codes,
    without turning every row into a string."""
    codes, uniques = pd.factorize(
        names if isinstance(names.dtype, pd.CategoricalDtype) else names.astype(str)
    )
    text = [str(u) for u in uniques]
    if len(set(text)) < len(text) or (codes < 0).any():  # alike when printed, or missing
        codes, uniques = pd.factorize(names.astype(str))
        text = [str(u) for u in uniques]
    return codes.astype(np.int64), text


def _lengths(counts: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """Buckets per histogram (``len`` of each 1-d array: 20x faster than ``np.size``)."""
    try:
        return np.fromiter(map(len, counts), dtype=np.int64, count=len(counts))
    except TypeError:  # a scalar among them
        return np.fromiter((np.size(c) for c in counts), dtype=np.int64, count=len(counts))


def _all_good(edges: np.ndarray, counts: np.ndarray, lengths: np.ndarray) -> bool:
    """Whether every ragged histogram has finite, non-decreasing edges and finite counts >= 0."""
    if not (np.isfinite(edges).all() and np.isfinite(counts).all() and (counts >= 0).all()):
        return False
    steps = np.diff(edges)
    inner = np.ones(steps.size, dtype=bool)
    inner[np.cumsum(lengths + 1)[:-1] - 1] = False  # differences across two histograms
    return bool((steps[inner] >= 0).all())


def _problem(edges: np.ndarray, counts: np.ndarray) -> str:
    """Why a histogram cannot be drawn, or ``""``."""
    if edges.size != counts.size + 1:
        return f"{edges.size} edges for {counts.size} buckets"
    if not np.isfinite(edges).all():
        return "its edges are not finite (were NaN or inf values logged?)"
    if (np.diff(edges) < 0).any():
        return "its bucket edges decrease"
    if not np.isfinite(counts).all():
        return "a bucket count is not finite"
    if (counts < 0).any():
        return "a bucket count is negative"
    return ""
