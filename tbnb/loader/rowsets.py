"""One kind's rows of one run, as the decoders give them: dict rows and column sets.

The protobuf path gives a row per value as a dict (:attr:`tbnb.kinds.base.Kind.rows`);
the native path gives a window's values of one kind at once as a :class:`RowSet` of
columns, per-row arrays (a histogram's edges and counts) as slices of one flat array
(:class:`Ragged`), made into arrays only when a frame is built. :class:`KindRows` keeps
both, in stream order, and answers what the loader and the frames ask: how many rows,
drop those a restart or purge removes, the columns of a frame, the rows as dicts.

Examples
--------
>>> import numpy as np
>>> rows = KindRows()
>>> rows.extend([{"tag": "t", "step": 1, "wall_time": 2.0, "seq": 5, "text": "b"}])
>>> rows.extend(RowSet({
...     "tag": np.array(["t"], dtype=object), "step": np.array([0]),
...     "wall_time": np.array([1.0]), "seq": np.array([3]),
...     "text": np.array(["a"], dtype=object)}))
>>> len(rows), rows.columns(["step", "text"], {"step": np.int64})["text"].tolist()
(2, ['a', 'b'])
>>> rows.drop(lambda seq, step: step >= 1), [r["text"] for r in rows]
(1, ['a'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any, NamedTuple

import numpy as np

from tbnb.kinds.batch import object_array

__all__ = ["KindRows", "Ragged", "RowSet", "object_array"]

BASE = ("tag", "step", "wall_time", "seq")
"""Columns every row set holds: tag (``str`` objects), step, wall time, stream position."""


class Ragged(NamedTuple):
    """A per-row array column: row ``i`` is ``flat[lo[i]:hi[i]]`` (``flat`` read-only)."""

    flat: np.ndarray
    lo: np.ndarray
    hi: np.ndarray

    def take(self, index: np.ndarray) -> Ragged:
        """The rows at ``index`` (``flat`` shared)."""
        return Ragged(self.flat, self.lo[index], self.hi[index])

    def arrays(self) -> np.ndarray:
        """An object array of each row's array (read-only views of ``flat``)."""
        flat = self.flat
        flat.flags.writeable = False
        spans = zip(self.lo.tolist(), self.hi.tolist(), strict=True)
        return object_array([flat[a:b] for a, b in spans])


Column = np.ndarray | Ragged


class RowSet:
    """Rows of one kind as columns: :data:`BASE` plus the kind's own, each an array of
    one entry per row or a :class:`Ragged` column."""

    __slots__ = ("columns", "n")

    def __init__(self, columns: Mapping[str, Column]) -> None:
        self.columns = dict(columns)
        seq = self.columns["seq"]
        assert isinstance(seq, np.ndarray)
        self.n = int(seq.shape[0])

    def __len__(self) -> int:
        return self.n

    def take(self, index: np.ndarray) -> RowSet:
        """The rows at ``index`` (positions or a mask)."""
        return RowSet({name: column[index] if isinstance(column, np.ndarray) else
                       column.take(index) for name, column in self.columns.items()})  # fmt: skip

    @classmethod
    def concat(cls, sets: list[RowSet], order: np.ndarray) -> RowSet:
        """The rows of ``sets`` one after another, then taken in ``order`` (every set
        holds the same columns)."""
        if len(sets) == 1:
            return sets[0].take(order)
        columns: dict[str, Column] = {}
        for name, first in sets[0].columns.items():
            if isinstance(first, Ragged):
                parts = [_ragged(s.columns[name]) for s in sets]
                sizes = [0] + [int(part.flat.shape[0]) for part in parts[:-1]]
                base = np.cumsum(np.asarray(sizes, dtype=np.int64))
                flat = np.concatenate([part.flat for part in parts])
                lo = np.concatenate([part.lo + b for part, b in zip(parts, base, strict=True)])
                hi = np.concatenate([part.hi + b for part, b in zip(parts, base, strict=True)])
                columns[name] = Ragged(flat, lo[order], hi[order])
            else:
                plain = [s.columns[name] for s in sets]
                columns[name] = np.concatenate([c for c in plain if isinstance(c, np.ndarray)])[
                    order
                ]
        return cls(columns)

    def column(self, name: str) -> np.ndarray | None:
        """Column ``name`` as one array (per-row arrays as an object array), or None."""
        column = self.columns.get(name)
        if isinstance(column, Ragged):
            return column.arrays()
        return column

    def rows(self) -> Iterator[dict[str, Any]]:
        """Each row as a dict, as the protobuf path gives it."""
        names = list(self.columns)
        cells = [self.column(name) for name in names]
        for i in range(self.n):
            row = {}
            for name, cell in zip(names, cells, strict=True):
                value = cell[i]  # type: ignore[index]
                row[name] = value.item() if isinstance(value, np.generic) else value
            yield row


def _ragged(column: Column) -> Ragged:
    assert isinstance(column, Ragged)
    return column


Part = list[dict[str, Any]] | RowSet


class KindRows:
    """Every row of one kind of one run, from both paths, in the order they were read."""

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: list[Part] = []

    def extend(self, rows: KindRows | RowSet | Iterable[dict[str, Any]]) -> None:
        """Add rows: another :class:`KindRows`, a :class:`RowSet` or dict rows."""
        if isinstance(rows, KindRows):
            self.parts.extend(rows.parts)
        elif isinstance(rows, RowSet):
            if len(rows):
                self.parts.append(rows)
        else:
            rows = list(rows)
            if not rows:
                return
            if self.parts and isinstance(self.parts[-1], list):
                self.parts[-1].extend(rows)
            else:
                self.parts.append(rows)

    def __len__(self) -> int:
        return sum(len(part) for part in self.parts)

    def __bool__(self) -> bool:
        return any(len(part) for part in self.parts)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        """The rows as dicts, in stream order."""
        if not self._in_order():
            rows = [row for part in self.parts for row in _dicts(part)]
            rows.sort(key=lambda row: int(row["seq"]))
            yield from rows
            return
        for part in self.parts:
            yield from _dicts(part)

    def drop(self, doomed: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> int:
        """Remove the rows for which ``doomed(seq, step)`` is true; return how many."""
        dropped = 0
        kept: list[Part] = []
        for part in self.parts:
            seq = _part_column(part, "seq", np.int64)
            bad = doomed(seq, _part_column(part, "step", np.int64))
            left: Part = part
            if bad.any():
                dropped += int(bad.sum())
                if isinstance(part, RowSet):
                    left = part.take(~bad)
                else:
                    left = [r for r, b in zip(part, bad.tolist(), strict=True) if not b]
            if len(left) > 0:
                kept.append(left)
        self.parts = kept
        return dropped

    def _seq(self) -> np.ndarray:
        return np.concatenate([_part_column(part, "seq", np.int64) for part in self.parts])

    def _in_order(self) -> bool:
        if not self.parts:
            return True
        seq = self._seq()
        return bool(np.all(seq[1:] >= seq[:-1]))

    def columns(self, names: Iterable[str], dtypes: Mapping[str, Any]) -> dict[str, np.ndarray]:
        """Columns ``names`` of every row in stream order: typed where ``dtypes`` says so,
        else object arrays (per-row arrays read-only)."""
        names = list(names)
        if not self.parts:
            return {name: np.zeros(0, dtype=dtypes.get(name, object)) for name in names}
        out = {}
        for name in names:
            pieces = [_part_column(part, name, dtypes.get(name)) for part in self.parts]
            out[name] = pieces[0] if len(pieces) == 1 else np.concatenate(pieces)
        seq = self._seq()
        if not bool(np.all(seq[1:] >= seq[:-1])):
            order = np.argsort(seq, kind="stable")  # rows of a record stay together
            out = {name: column[order] for name, column in out.items()}
        return out


def _dicts(part: Part) -> Iterator[dict[str, Any]]:
    return iter(part) if isinstance(part, list) else part.rows()


def _part_column(part: Part, name: str, dtype: Any) -> np.ndarray:
    if isinstance(part, RowSet):
        column = part.column(name)
        if column is None:
            column = np.full(len(part), None, dtype=object)
        return column if dtype is None else np.asarray(column, dtype=dtype)
    values = [row.get(name) for row in part]
    if dtype is not None:
        return np.asarray(values, dtype=dtype)
    for value in values:
        if isinstance(value, np.ndarray):
            # shared by every frame handed out: an edit in place would leak
            value.flags.writeable = False
    return object_array(values)
