"""A long scalars frame indexed by (run, tag), without copying when it is already grouped."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

__all__ = ["SeriesStore"]

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
        the column arrays are used as they are.
        """
        n = len(df)
        runs = df[run_col]
        tags = df["tag"]
        run_codes, run_names = _codes(runs)
        tag_codes, tag_names = _codes(tags)
        step = np.asarray(df["step"].to_numpy(), dtype=np.float64)
        key = run_codes.astype(np.int64) * max(len(tag_names), 1) + tag_codes
        if n == 0:
            order = None
        else:
            change = np.flatnonzero(key[1:] != key[:-1]) + 1
            starts = np.r_[0, change]
            contiguous = np.unique(key[starts]).size == starts.size
            within = np.ones(n - 1, dtype=bool)
            within[change - 1] = False
            ordered = bool(np.all(np.diff(step)[within] >= 0)) if n > 1 else True
            order = None if (contiguous and ordered) else _order(key, step)

        def col(name: str) -> FloatArray:
            arr = np.asarray(df[name].to_numpy(), dtype=np.float64)
            return arr if order is None else arr[order]

        columns = {"step": step if order is None else step[order], "value": col("value")}
        columns["wall_time"] = col("wall_time") if "wall_time" in df.columns else np.full(n, np.nan)
        for extra in EXTRA:
            if extra in df.columns:
                columns[extra] = col(extra)
        skey = key if order is None else key[order]
        if n:
            starts = np.r_[0, np.flatnonzero(skey[1:] != skey[:-1]) + 1]
            bounds = np.r_[starts, n].astype(np.int64)
            first = skey[starts]
            ntag = max(len(tag_names), 1)
            keys = [(run_names[int(k) // ntag], tag_names[int(k) % ntag]) for k in first]
        else:
            bounds = np.zeros(1, dtype=np.int64)
            keys = []
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


def _codes(col: pd.Series) -> tuple[npt.NDArray[np.int64], list[str]]:
    if isinstance(col.dtype, pd.CategoricalDtype):
        cats = [str(c) for c in col.cat.categories]
        codes = col.cat.codes.to_numpy().astype(np.int64)
        return codes, cats
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
