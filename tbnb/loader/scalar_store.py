"""Columnar storage of every scalar point of an experiment.

Points are written straight into preallocated columns as each run finishes
loading, so a load never holds its data twice: the capacity is an upper bound on
the number of points the files can hold, allocated with ``np.empty`` (pages that are
never written never become resident memory). DataFrames handed to users are views
of the filled part; later appends write past it and never change them, and a
restart purge writes new columns instead of compacting in place.

An append reserves the run's rows at once (in the caller's order) and copies its
points there either at once or as a job on an executor (``jobs=``), so runs are
copied in parallel; points not yet grouped by tag (the native decoder's) are grouped
by the native counting sort while they are copied (:mod:`tbnb.native.kernels`). Anything
that reads or moves the columns first waits for the jobs (:meth:`ScalarStore.wait`).

Examples
--------
>>> store = ScalarStore(capacity=8, runs=["a", "b"])
>>> store.append("b", ["loss"], [(np.array([0, 0]), np.array([1, 2]), np.zeros(2),
...                                np.array([.5, .4]))])
>>> store.frame()[["run", "tag", "step", "value"]].to_dict("list")
{'run': ['b', 'b'], 'tag': ['loss', 'loss'], 'step': [1, 2], 'value': [0.5, 0.4]}
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor, Future

import numpy as np
import pandas as pd

Pieces = list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]

MIN_BYTES_PER_POINT = 7
"""The fewest bytes of an event file that can hold one scalar point (a ``Summary.Value``
with an empty tag and a ``simple_value``), which bounds the points a file can hold."""

_COLUMNS = ("run", "tag", "step", "wall_time", "value")


def code_dtype(n_categories: int) -> np.dtype:
    """The integer dtype pandas uses for the codes of ``n_categories`` categories."""
    for dtype in (np.int8, np.int16, np.int32):
        if n_categories < np.iinfo(dtype).max:
            return np.dtype(dtype)
    return np.dtype(np.int64)


class ScalarStore:
    """Append-only scalar columns: run and tag codes, step, wall_time, value."""

    def __init__(self, capacity: int = 0, runs: Sequence[str] = ()) -> None:
        self.runs: list[str] = []
        self.run_codes: dict[str, int] = {}
        self.tags: list[str] = []
        self.tag_codes: dict[str, int] = {}
        self.n = 0
        self.run_tags: dict[str, set[str]] = {}
        for run in runs:
            self._run_code(run)
        self.columns = self._allocate(max(capacity, 0), len(self.runs), 1)
        self._pending: list[Future[None]] = []

    @staticmethod
    def _allocate(capacity: int, n_runs: int, n_tags: int) -> dict[str, np.ndarray]:
        return {
            "run": np.empty(capacity, dtype=code_dtype(n_runs)),
            "tag": np.empty(capacity, dtype=code_dtype(n_tags)),
            "step": np.empty(capacity, dtype=np.int64),
            "wall_time": np.empty(capacity, dtype=np.float64),
            "value": np.empty(capacity, dtype=np.float64),
        }

    @property
    def capacity(self) -> int:
        """Points that fit before the columns must be reallocated."""
        return int(self.columns["step"].shape[0])

    def _run_code(self, run: str) -> int:
        code = self.run_codes.get(run)
        if code is None:
            code = self.run_codes[run] = len(self.runs)
            self.runs.append(run)
        return code

    def reserve(self, extra: int) -> None:
        """Make room for ``extra`` more points (copying into new columns if needed)."""
        needed = self.n + extra
        if needed <= self.capacity:
            return
        self._reallocate(max(needed, self.capacity + self.capacity // 4))

    def wait(self) -> None:
        """Wait for the copies appends left running (re-raising their errors)."""
        while self._pending:
            self._pending.pop(0).result()

    def _reallocate(self, capacity: int, keep: np.ndarray | None = None) -> None:
        self.wait()
        new = self._allocate(capacity, len(self.runs), len(self.tags))
        n = self.n if keep is None else int(keep.sum())
        for name in _COLUMNS:
            old = self.columns[name][: self.n]
            new[name][:n] = old if keep is None else old[keep]
            self.columns[name] = new[name]  # drop the old column before copying the next
        self.n = n

    def _widen_codes(self) -> None:
        for name, count in (("run", len(self.runs)), ("tag", len(self.tags))):
            dtype = code_dtype(count)
            if self.columns[name].dtype != dtype:
                self.wait()
                self.columns[name] = self.columns[name].astype(dtype)

    def append(
        self,
        run: str,
        tags: Sequence[str],
        pieces: Pieces,
        *,
        grouped: bool = True,
        jobs: Executor | None = None,
    ) -> None:
        """Append one run's points, given as ``(tag_id, step, wall_time, value)`` pieces.

        ``tag_id`` indexes ``tags``. ``grouped``: the pieces hold each tag's points
        together, tags in order (else they are grouped while copied, which needs the
        native kernels). With ``jobs`` the copy runs on that executor. The list is
        emptied: its pieces are released as they are copied.
        """
        k = sum(int(piece[1].shape[0]) for piece in pieces)
        if k == 0:
            pieces.clear()
            return
        run_code = self._run_code(run)
        self.run_tags.setdefault(run, set()).update(tags)
        local = np.array(
            [self.tag_codes.setdefault(t, len(self.tag_codes)) for t in tags], dtype=np.int64
        )
        self.tags.extend(list(self.tag_codes)[len(self.tags) :])
        self._widen_codes()
        self.reserve(k)
        lo = self.n
        self.n = lo + k
        mine = list(pieces)
        pieces.clear()
        if jobs is None:
            _fill(self.columns, lo, k, run_code, local, mine, grouped)
        else:
            self._pending.append(
                jobs.submit(_fill, self.columns, lo, k, run_code, local, mine, grouped)
            )

    def purge(self, run: str, min_step: int) -> int:
        """Drop the points of ``run`` with ``step >= min_step``; return how many."""
        self.wait()
        code = self.run_codes.get(run)
        if code is None or self.n == 0:
            return 0
        runs, steps = self.columns["run"][: self.n], self.columns["step"][: self.n]
        doomed = (runs == code) & (steps >= min_step)
        dropped = int(doomed.sum())
        if dropped:
            self._reallocate(self.capacity, keep=~doomed)
        return dropped

    def frame(self) -> pd.DataFrame:
        """A DataFrame viewing the stored points (run, tag, step, wall_time, value)."""
        self.wait()
        self._widen_codes()
        n = self.n
        views = {name: self.columns[name][:n] for name in _COLUMNS}
        data = {
            "run": pd.Categorical.from_codes(views["run"], categories=self.runs, validate=False),
            "tag": pd.Categorical.from_codes(views["tag"], categories=self.tags, validate=False),
            "step": views["step"],
            "wall_time": views["wall_time"],
            "value": views["value"],
        }
        base = pd.DataFrame(data, copy=False)
        # Users get a shallow copy while the store keeps the base alive: with pandas'
        # copy-on-write an edit to the user's frame then copies the edited column
        # instead of writing into the store. Bases are kept while their columns are
        # still the store's.
        alive = {id(c) for c in self.columns.values()}
        self._bases = [b for b in getattr(self, "_bases", []) if b[0] <= alive] + [(alive, base)]
        return base.copy(deep=False)


def _fill(
    columns: dict[str, np.ndarray],
    lo: int,
    k: int,
    run_code: int,
    local: np.ndarray,
    pieces: Pieces,
    grouped: bool,
) -> None:
    """Copy a run's pieces into rows ``lo:lo + k`` of ``columns`` (grouping them by tag)."""
    columns["run"][lo : lo + k] = run_code
    if not grouped:
        from tbnb.native.kernels import count_tags, scatter_points

        counts = np.zeros(local.size, dtype=np.int64)
        pieces = [
            (
                np.ascontiguousarray(t, dtype=np.int32),
                np.ascontiguousarray(s, np.int64),
                np.ascontiguousarray(w, np.float64),
                np.ascontiguousarray(v, np.float64),
            )
            for t, s, w, v in pieces
        ]
        for piece in pieces:
            count_tags(piece[0], counts)
        cursor = lo + np.cumsum(counts) - counts
        out = (columns["tag"], columns["step"], columns["wall_time"], columns["value"])
        while pieces:
            scatter_points(*pieces.pop(0), local, cursor, *out)
        return
    pieces.reverse()
    while pieces:
        tag_id, step, wall_time, value = pieces.pop()
        hi = lo + int(step.shape[0])
        columns["tag"][lo:hi] = local[tag_id]
        columns["step"][lo:hi] = step
        columns["wall_time"][lo:hi] = wall_time
        columns["value"][lo:hi] = value
        lo = hi
