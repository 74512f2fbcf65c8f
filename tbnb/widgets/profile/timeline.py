"""The timeline's data: what is in view at the resolution asked for, fast on a million spans.

A :class:`TimelineIndex` sorts one trace's spans once by lane, depth and start. Spans
of one lane and depth never overlap (they nest as calls do), so their ends rise with
their starts and the spans in a time window are found by two binary searches per row.
:meth:`TimelineIndex.window` returns them as binary columns, spans narrower than a pixel
merged per row and pixel (``count`` says how many, the widest one's name is shown), so a
reply holds at most a few spans per pixel and row whatever the zoom.

Examples
--------
>>> import pandas as pd
>>> events = pd.DataFrame({"lane": [0, 0, 0, 0], "depth": [0, 1, 1, 1],
...     "start": [0.0, 1.0, 1.1, 50.0], "dur": [100.0, 0.05, 0.05, 10.0],
...     "name": pd.Categorical(["step", "a", "b", "c"]), "kind": pd.Categorical(["step",
...     "cpu_op", "cpu_op", "cpu_op"]), "correlation": [-1, -1, -1, -1]})
>>> index = TimelineIndex(events)
>>> view = index.window(0.0, 100.0, 100)
>>> view["row"].tolist(), view["count"].tolist()         # a and b share a pixel
([0, -1, 3], [1, 2, 1])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tbnb.kinds.profile.trace import KINDS_OF_EVENT

__all__ = ["MAX_SPANS", "TimelineIndex"]

MAX_SPANS = 200_000
"""Most spans one reply holds (a wide screen of dense rows stays far below it)."""

_KIND_CODE = {kind: i for i, kind in enumerate(KINDS_OF_EVENT)}


class TimelineIndex:
    """One trace's spans sorted for window queries (see the module docstring)."""

    def __init__(self, events: pd.DataFrame) -> None:
        lane = events["lane"].to_numpy(np.int64)
        depth = events["depth"].to_numpy(np.int64)
        start = events["start"].to_numpy(np.float64)
        order = np.lexsort((start, depth, lane))
        self.rows = order.astype(np.int64)
        self.lane = lane[order]
        self.depth = depth[order]
        self.start = start[order]
        self.end = self.start + events["dur"].to_numpy(np.float64)[order]
        self.name = np.asarray(events["name"].cat.codes)[order].astype(np.int32)
        kinds = events["kind"].astype(str).map(_KIND_CODE).fillna(len(KINDS_OF_EVENT) - 1)
        self.kind = kinds.to_numpy(np.uint8)[order]
        self.correlation = events["correlation"].to_numpy(np.float64)[order]
        key = self.lane * (int(self.depth.max(initial=0)) + 1) + self.depth
        self.bounds = np.r_[0, np.flatnonzero(np.diff(key)) + 1, len(order)].astype(np.int64)
        # Within a row ends rise with starts, except where spans overlap improperly:
        # the running maximum keeps the binary search right.
        self.reach = np.empty_like(self.end)
        for a, b in zip(self.bounds[:-1], self.bounds[1:], strict=True):
            self.reach[a:b] = np.maximum.accumulate(self.end[a:b])
        self.t0 = float(self.start.min()) if len(order) else 0.0
        self.t1 = float(self.end.max()) if len(order) else 1.0

    def window(self, t0: float, t1: float, pixels: int) -> dict[str, Any]:
        """Spans overlapping ``[t0, t1]`` at ``pixels`` across (see the module docstring).

        Columns: ``lane``, ``depth``, ``start``, ``dur``, ``name`` (code), ``kind`` (code
        into :data:`~tbnb.kinds.profile.trace.KINDS_OF_EVENT`), ``row`` (the event's row,
        -1 for merged spans), ``count`` (spans drawn as one), ``correlation``.
        """
        t0, t1 = float(t0), float(max(t1, t0 + 1e-9))
        resolution = (t1 - t0) / max(int(pixels), 1)
        parts: list[np.ndarray] = []
        counts: list[np.ndarray] = []
        starts: list[np.ndarray] = []
        merged_ends: list[np.ndarray] = []
        for a, b in zip(self.bounds[:-1], self.bounds[1:], strict=True):
            lo = a + int(np.searchsorted(self.reach[a:b], t0, side="right"))
            hi = a + int(np.searchsorted(self.start[a:b], t1, side="left"))
            if hi <= lo:
                continue
            picked, count, begin, end = self._thin(lo, hi, t0, t1, resolution)
            parts.append(picked)
            counts.append(count)
            starts.append(begin)
            merged_ends.append(end)
        if not parts:
            return _empty(t0, t1)
        picked = np.concatenate(parts)
        count = np.concatenate(counts)
        begin = np.concatenate(starts)
        end = np.concatenate(merged_ends)
        if len(picked) > MAX_SPANS:  # keep the widest
            keep = np.sort(np.argsort(-(end - begin), kind="stable")[:MAX_SPANS])
            picked, count, begin, end = picked[keep], count[keep], begin[keep], end[keep]
        rows = np.where(count == 1, self.rows[picked], -1)
        return {
            "t0": t0,
            "t1": t1,
            "lane": self.lane[picked].astype(np.int32),
            "depth": self.depth[picked].astype(np.int16),
            "start": begin,
            "dur": end - begin,
            "name": self.name[picked],
            "kind": self.kind[picked],
            "row": rows.astype(np.int32),
            "count": count.astype(np.int32),
            "correlation": self.correlation[picked],
        }

    def _thin(
        self, lo: int, hi: int, t0: float, t1: float, resolution: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Spans of positions ``lo..hi`` of one row that overlap ``[t0, t1]``, those under
        a pixel merged per pixel."""
        index = np.arange(lo, hi)
        inside = (self.end[lo:hi] > t0) & (self.start[lo:hi] < t1)
        if not inside.all():  # a long span earlier in the row keeps ended ones in range
            index = index[inside]
        start, end = self.start[index], self.end[index]
        tiny = (end - start) < resolution
        if not tiny.any():
            return index, np.ones(len(index), np.int64), start, end
        pixel = np.floor((start - t0) / resolution).astype(np.int64)
        # A group: consecutive tiny spans in one pixel; every wide span its own group.
        new = np.r_[True, ~tiny[1:] | ~tiny[:-1] | (pixel[1:] != pixel[:-1])]
        heads = np.flatnonzero(new)
        count = np.diff(np.r_[heads, len(index)])
        group_end = np.maximum.reduceat(end, heads)
        widest = heads.copy()
        many = np.flatnonzero(count > 1)
        if len(many):
            width = end - start
            group = np.cumsum(new) - 1
            order = np.lexsort((-width, group))
            first = np.r_[True, group[order][1:] != group[order][:-1]]
            widest[group[order][first]] = order[first]
        return index[widest], count, start[heads], group_end


def _empty(t0: float, t1: float) -> dict[str, Any]:
    return {
        "t0": t0,
        "t1": t1,
        "lane": np.empty(0, np.int32),
        "depth": np.empty(0, np.int16),
        "start": np.empty(0),
        "dur": np.empty(0),
        "name": np.empty(0, np.int32),
        "kind": np.empty(0, np.uint8),
        "row": np.empty(0, np.int32),
        "count": np.empty(0, np.int32),
        "correlation": np.empty(0),
    }
