"""Interval arithmetic for traces: unions, and time split among classes by priority.

Every function takes plain arrays of starts and ends (microseconds) and is vectorised:
a million spans take tens of milliseconds.

Examples
--------
>>> union_length(np.array([0.0, 2, 10]), np.array([5.0, 6, 11]))
7.0
>>> split = priority_split(
...     [(np.array([2.0]), np.array([4.0])), (np.array([0.0]), np.array([6.0]))],
...     np.array([0.0, 5.0]), np.array([5.0, 10.0]))
>>> split.tolist()                      # per window: class 0, class 1, neither
[[2.0, 3.0, 0.0], [0.0, 1.0, 4.0]]
"""

from __future__ import annotations

import numpy as np

__all__ = ["merge", "priority_split", "union_length"]


def merge(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The union of intervals as disjoint, sorted intervals.

    Examples
    --------
    >>> [a.tolist() for a in merge(np.array([3.0, 0, 1]), np.array([4.0, 2, 2.5]))]
    [[0.0, 3.0], [2.5, 4.0]]
    """
    if not len(start):
        return np.empty(0), np.empty(0)
    order = np.argsort(start, kind="stable")
    s, e = start[order], end[order]
    reach = np.maximum.accumulate(e)
    new = np.r_[True, s[1:] > reach[:-1]]
    return s[new], np.maximum.reduceat(e, np.flatnonzero(new))


def union_length(start: np.ndarray, end: np.ndarray) -> float:
    """Total time covered by at least one interval."""
    s, e = merge(start, end)
    return float((e - s).sum())


def priority_split(
    classes: list[tuple[np.ndarray, np.ndarray]],
    window_start: np.ndarray,
    window_end: np.ndarray,
) -> np.ndarray:
    """Time of each window covered by each class, a higher class hiding the lower ones.

    ``classes`` are ``(starts, ends)`` in priority order (first wins). Returns an array of
    shape ``(windows, classes + 1)``: the last column is the time no class covers.
    Windows must not overlap.
    """
    k = len(classes)
    merged = [merge(s, e) for s, e in classes]
    points = np.unique(
        np.concatenate([window_start, window_end, *[np.r_[s, e] for s, e in merged]])
    )
    out = np.zeros((len(window_start), k + 1))
    if len(points) < 2 or not len(window_start):
        return out
    seg_start, seg_len = points[:-1], np.diff(points)
    owner = np.full(len(seg_start), k, dtype=np.int64)
    for index in range(k - 1, -1, -1):  # lower classes first; higher ones overwrite
        s, e = merged[index]
        if not len(s):
            continue
        covered = np.searchsorted(s, seg_start, side="right") - 1
        inside = (covered >= 0) & (seg_start < e[np.maximum(covered, 0)])
        owner[inside] = index
    order = np.argsort(window_start)
    w_start, w_end = window_start[order], window_end[order]
    window = np.searchsorted(w_start, seg_start, side="right") - 1
    keep = (window >= 0) & (seg_start < w_end[np.maximum(window, 0)])
    flat = order[window[keep]] * (k + 1) + owner[keep]
    out += np.bincount(flat, weights=seg_len[keep], minlength=out.size).reshape(out.shape)
    return out
