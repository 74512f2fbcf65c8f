"""How a trace's spans nest: each span's depth (and parent) among the spans of its lane.

Layer ``kinds``. Spans of one lane (a thread, a GPU stream) nest as calls do: a span
starting exactly when another ends is its sibling. Lanes are taken one at a time, so a
million spans need a lane's worth of temporaries, not the trace's.

Examples
--------
>>> import numpy as np
>>> depth, parent = nesting(np.zeros(3, int), np.array([0., 1, 5]), np.array([10., 4, 6]))
>>> depth.tolist(), parent.tolist()
([0, 1, 1], [-1, 0, 0])
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

__all__ = ["depths", "nesting"]


def depths(lane: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Nesting depth of each span among the spans of its lane (see :func:`nesting`).

    Examples
    --------
    >>> depths(np.zeros(3, int), np.array([0., 1, 5]), np.array([10., 4, 6])).tolist()
    [0, 1, 1]
    """
    depth = np.zeros(len(start), dtype=np.int32)
    for at in _lane_orders(lane, start, end):
        _depth_of(depth, at, start, end)
    return depth


def _lane_orders(lane: np.ndarray, start: np.ndarray, end: np.ndarray) -> Iterator[np.ndarray]:
    """The spans of each lane (lanes in ascending order), by start, the longest first;
    one lane at a time, so the temporaries are a lane's size."""
    for value in np.unique(lane):
        at = np.flatnonzero(lane == value)
        yield at[np.lexsort((start[at] - end[at], start[at]))]


def _depth_of(depth: np.ndarray, at: np.ndarray, start: np.ndarray, end: np.ndarray) -> None:
    """Depths of one lane's spans ``at`` (ordered by :func:`_lane_orders`): how many of
    the spans before each are still open when it starts."""
    closed = np.searchsorted(np.sort(end[at]), start[at], side="right")
    depth[at] = np.maximum(np.arange(len(at)) - closed, 0)


def nesting(lane: np.ndarray, start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Depth and parent (-1 at the top) of each span among the spans of its lane.

    Spans of a lane nest as calls do; a span starting exactly when another ends is
    its sibling. Vectorised: a span's depth is the number of spans of its lane that
    began before it and end after its start.

    Examples
    --------
    >>> depth, parent = nesting(np.zeros(4, int), np.array([0., 1, 2, 5]), np.array([10., 4, 3, 6]))
    >>> depth.tolist(), parent.tolist()
    ([0, 1, 2, 1], [-1, 0, 1, 0])
    """
    depth = np.zeros(len(start), dtype=np.int32)
    parent = np.full(len(start), -1, dtype=np.int64)
    if not len(start):
        return depth, parent
    pieces = list(_lane_orders(lane, start, end))
    for at in pieces:
        _depth_of(depth, at, start, end)
    order = np.concatenate(pieces)
    s_depth = depth[order]
    positions = np.arange(len(start))
    for level in range(1, int(s_depth.max()) + 1):
        last = np.maximum.accumulate(np.where(s_depth == level - 1, positions, -1))
        at = np.flatnonzero(s_depth == level)
        found = last[at]
        parent[order[at]] = np.where(found >= 0, order[np.maximum(found, 0)], -1)
    return depth, parent
