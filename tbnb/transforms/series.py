"""A long scalars frame indexed by (run, tag), without copying when it is already grouped.

The loader's frame is grouped: runs in order, each run grouped by tag, each tag in
stream order, and a reload appends its new points at the end. A few whole-array passes over
the categorical codes find the blocks of rows of one (run, tag) and checks that their
steps never go down; a frame of one block per series is then used as it is (no sort,
no copy), and one whose series continue in later blocks (after a reload) is gathered
block by block. Anything else (steps out of order, missing names) is sorted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

__all__ = ["SeriesStore", "present_names"]

FloatArray = npt.NDArray[np.float64]

#: numeric columns a store may carry besides step/wall_time/value.
EXTRA = ("lo", "hi", "n", "xv")


@dataclass
class SeriesStore:
    """Full-resolution series of a long frame, one contiguous slice per (run, tag).

    ``columns`` holds ``step`` (float64), ``wall_time`` (float64), ``value``
    (float64) and optional ``lo``/``hi``/``n``/``xv`` arrays; ``keys[i] = (run, tag)``
    owns rows ``bounds[i]:bounds[i+1]`` in step order.
    """

    keys: list[tuple[str, str]]
    bounds: npt.NDArray[np.int64]
    columns: dict[str, FloatArray]
    index: dict[tuple[str, str], int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index = {k: i for i, k in enumerate(self.keys)}

    @classmethod
    def from_frame(cls, df: pd.DataFrame, run_col: str = "run") -> SeriesStore:
        """Index ``df`` (columns run, tag, step, value, optional wall_time and extras).

        Rows are sorted by (run, tag, step) unless each series already is one
        contiguous, step-ordered block (the loader's usual output), in which case
        the column arrays are used as they are, or a run of such blocks in order
        (the loader's frame after a reload), gathered without sorting. ``step`` keeps
        an integer dtype (the loader's int64) and is float64 otherwise.

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"run": ["a", "a", "b", "a"], "tag": "loss",
        ...                    "step": [0, 1, 0, 2], "value": [1.0, 2.0, 3.0, 4.0]})
        >>> store = SeriesStore.from_frame(df)
        >>> store.keys, store.series(0)["value"].tolist()
        ([('a', 'loss'), ('b', 'loss')], [1.0, 2.0, 4.0])
        """
        n = len(df)
        run_codes, run_names = _codes(df[run_col])
        tag_codes, tag_names = _codes(df["tag"])
        raw_step = df["step"].to_numpy()
        step = raw_step if raw_step.dtype.kind in "iu" else np.asarray(raw_step, np.float64)
        if step.dtype.kind == "u" or (step.dtype.kind == "i" and step.dtype != np.int64):
            step = step.astype(np.int64)
        ntag = max(len(tag_names), 1)
        order: npt.NDArray[np.intp] | None = None
        if n == 0:
            block_keys = np.zeros(0, np.int64)
            bounds = np.zeros(1, dtype=np.int64)
        else:
            starts, block_keys, ok = _blocks(run_codes, tag_codes, ntag, step)
            if ok and np.unique(block_keys).size == block_keys.size:
                bounds = starts  # one block per series: the columns as they are
            else:
                order = _block_order(starts, block_keys, step) if ok else None
                if order is not None:  # each series' blocks one after another
                    by_key = np.argsort(block_keys, kind="stable")
                    sorted_keys = block_keys[by_key]
                    ends = np.cumsum(np.diff(starts)[by_key])
                    last = np.r_[sorted_keys[1:] != sorted_keys[:-1], True]
                    bounds = np.r_[0, ends[last]].astype(np.int64)
                    block_keys = sorted_keys[last]
                else:
                    key = run_codes.astype(np.int64) * ntag + tag_codes
                    order = _order(key, step)
                    skey = key[order]
                    cut = np.flatnonzero(skey[1:] != skey[:-1]) + 1
                    bounds = np.r_[0, cut, n].astype(np.int64)
                    block_keys = skey[bounds[:-1]]

        def col(name: str) -> FloatArray:
            arr = np.asarray(df[name].to_numpy(), dtype=np.float64)
            return arr if order is None else arr[order]

        columns = {"step": step if order is None else step[order], "value": col("value")}
        columns["wall_time"] = col("wall_time") if "wall_time" in df.columns else np.full(n, np.nan)
        for extra in EXTRA:
            if extra in df.columns:
                columns[extra] = col(extra)
        keys = [(run_names[int(k) // ntag], tag_names[int(k) % ntag]) for k in block_keys]
        return cls(keys=keys, bounds=bounds, columns=columns)

    def __len__(self) -> int:
        return len(self.keys)

    def slice(self, i: int) -> slice:
        """Rows of series ``i``."""
        return slice(int(self.bounds[i]), int(self.bounds[i + 1]))

    def series(self, i: int) -> dict[str, FloatArray]:
        """Column views of series ``i``."""
        s = self.slice(i)
        return {name: arr[s] for name, arr in self.columns.items()}

    @property
    def runs(self) -> list[str]:
        """Distinct runs, sorted."""
        return sorted({r for r, _ in self.keys})

    @property
    def tags(self) -> list[str]:
        """Distinct tags, sorted."""
        return sorted({t for _, t in self.keys})


def present_names(col: pd.Series) -> list[str]:
    """The distinct names in a run or tag column, as strings, in first-seen order
    (categories order for a categorical, counting only categories that occur).

    Examples
    --------
    >>> import pandas as pd
    >>> present_names(pd.Series(["b", "a", "b"], dtype="category").iloc[:2])
    ['a', 'b']
    >>> present_names(pd.Series(["b", "a", "b"]))
    ['b', 'a']
    """
    if isinstance(col.dtype, pd.CategoricalDtype):
        cats = col.cat.categories
        seen = _seen_codes(col.cat.codes.to_numpy(), len(cats))
        return [str(cats[i]) for i in np.flatnonzero(seen)]
    return [str(v) for v in pd.unique(col)]


def _seen_codes(codes: npt.NDArray[Any], n: int) -> npt.NDArray[np.bool_]:
    seen = np.zeros(n, np.bool_)
    seen[codes[codes >= 0]] = True
    return seen


def _codes(col: pd.Series) -> tuple[npt.NDArray[np.signedinteger[Any]], list[str]]:
    """Integer codes (-1 = missing; categoricals keep their narrow dtype) and names."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        cats = [str(c) for c in col.cat.categories]
        return col.cat.codes.to_numpy(), cats
    codes_any: Any
    codes_any, uniques = pd.factorize(col.astype(str), sort=False)
    return np.asarray(codes_any, dtype=np.int64), [str(u) for u in uniques]


def _order(key: npt.NDArray[np.int64], step: FloatArray) -> npt.NDArray[np.intp]:
    """Stable order by (key, step): one int64 argsort when steps are small integers."""
    finite = np.isfinite(step)
    if finite.all():
        lo, hi = float(step.min()), float(step.max())
        span = hi - lo + 1
        if np.all(step == np.floor(step)) and span * (float(key.max()) + 1) < 2**62:
            combined = key * np.int64(span) + (step - lo).astype(np.int64)
            return np.argsort(combined, kind="stable")
    return np.lexsort((step, key))


def _blocks(
    run_codes: npt.NDArray[Any], tag_codes: npt.NDArray[Any], ntag: int, step: npt.NDArray[Any]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], bool]:
    """Row offsets and keys of the blocks of equal (run, tag), and whether every code is
    valid and steps never go down inside a block."""
    n = run_codes.size
    change = run_codes[1:] != run_codes[:-1]
    change |= tag_codes[1:] != tag_codes[:-1]
    inner_steps_ok = bool(np.all((step[1:] >= step[:-1]) | change))
    ok = inner_steps_ok and bool(run_codes.min() >= 0) and bool(tag_codes.min() >= 0)
    starts = np.empty(int(np.count_nonzero(change)) + 2, np.int64)
    starts[0] = 0
    starts[1:-1] = np.flatnonzero(change) + 1
    starts[-1] = n
    first = starts[:-1]
    keys = run_codes[first].astype(np.int64) * ntag + tag_codes[first]
    return starts, keys, ok


def _block_order(
    starts: npt.NDArray[np.int64], keys: npt.NDArray[np.int64], step: npt.NDArray[Any]
) -> npt.NDArray[np.intp] | None:
    """Rows gathered series by series, each series' blocks in their order, when that
    keeps steps non-decreasing (a reloaded frame); else None."""
    by_key = np.argsort(keys, kind="stable")
    first, last = starts[:-1][by_key], starts[1:][by_key] - 1
    same = keys[by_key][1:] == keys[by_key][:-1]
    if np.any(step[first[1:][same]] < step[last[:-1][same]]):
        return None
    lengths = (last - first + 1).astype(np.int64)
    order: npt.NDArray[np.intp] = _gather(first, lengths, int(lengths.sum()))
    return order


def _gather(
    first: npt.NDArray[np.int64], lengths: npt.NDArray[np.int64], n: int
) -> npt.NDArray[np.intp]:
    """Rows ``first[b]:first[b] + lengths[b]`` of every block ``b``, one after another."""
    shift = first - (np.cumsum(lengths) - lengths)
    out: npt.NDArray[np.intp] = (np.repeat(shift, lengths) + np.arange(n)).astype(np.intp)
    return out
