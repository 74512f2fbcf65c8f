"""Deterministic min/max downsampling of a series to screen resolution.

The x range of a series is cut into ``buckets`` equal-width intervals (one per
pixel column, say); in each bucket the points holding the smallest and the
largest finite value are kept, plus the first non-finite point of the bucket
(so NaN/inf gaps stay visible), and always the first and the last point of the
series. Spikes therefore survive, the same input always gives the same points,
and the newest point is always shown (as TensorBoard's data provider promises).
"""

from __future__ import annotations

import numba
import numpy as np
import numpy.typing as npt

__all__ = ["minmax_indices", "minmax_indices_blocks"]

IntArray = npt.NDArray[np.int64]


def minmax_indices(x: npt.ArrayLike, y: npt.ArrayLike, buckets: int) -> IntArray:
    """Indices of the points to keep when drawing ``(x, y)`` ``buckets`` pixels wide.

    Parameters
    ----------
    x
        Point positions (steps, times), non-decreasing.
    y
        Values; non-finite ones are kept at most once per bucket.
    buckets
        Number of equal-width x intervals (e.g. the chart width in pixels). A
        series with at most ``2 * buckets`` points is returned whole.

    Returns
    -------
    numpy.ndarray
        Sorted int64 indices into ``x``; always contains ``0`` and ``len(x) - 1``.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(10.0)
    >>> y = np.array([0, 5, 1, 1, -3, 1, 1, 1, 1, 2.0])
    >>> minmax_indices(x, y, 2).tolist()
    [0, 1, 4, 5, 9]
    """
    xs = np.asarray(x, dtype=np.float64)
    ys = np.asarray(y, dtype=np.float64)
    if xs.shape != ys.shape or xs.ndim != 1:
        raise ValueError(f"x and y must be 1-d of equal length, got {xs.shape} and {ys.shape}")
    if buckets < 1:
        raise ValueError(f"buckets must be >= 1, got {buckets}")
    n = xs.size
    if n <= 2 * buckets:
        return np.arange(n, dtype=np.int64)
    keep: npt.NDArray[np.bool_] = _keep_mask(xs, ys, int(buckets))
    return np.flatnonzero(keep).astype(np.int64)


def minmax_indices_blocks(
    x: npt.ArrayLike, y: npt.ArrayLike, bounds: npt.ArrayLike, buckets: int
) -> tuple[IntArray, IntArray]:
    """:func:`minmax_indices` of many series stored one after another, in one compiled pass.

    Parameters
    ----------
    x, y
        Columns holding every series; series ``k`` is rows ``bounds[k]:bounds[k + 1]``
        (each non-decreasing in ``x``). ``x`` may be integer (steps) or float.
    bounds
        Non-decreasing row offsets, ``len(series) + 1`` of them.
    buckets
        As for :func:`minmax_indices`, per series.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Sorted int64 row indices into ``x`` (what :func:`minmax_indices` keeps of each
        series, shifted by its first row), and the offsets of each series' part of
        them (``len(bounds)`` values).

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([0, 5, 1, 1, -3, 1, 1, 1, 1, 2.0, 7.0])
    >>> idx, offsets = minmax_indices_blocks(np.r_[np.arange(10), 0], y, [0, 10, 11], 2)
    >>> idx.tolist(), offsets.tolist()
    ([0, 1, 4, 5, 9, 10], [0, 5, 6])
    """
    ys = np.ascontiguousarray(y, dtype=np.float64)
    xs = np.ascontiguousarray(x)
    if xs.dtype.kind not in "iuf":
        raise TypeError(f"x must be numeric, got {xs.dtype}")
    if xs.dtype.kind != "f" and xs.dtype != np.int64:
        xs = xs.astype(np.int64)
    elif xs.dtype.kind == "f" and xs.dtype != np.float64:
        xs = xs.astype(np.float64)
    edges = np.ascontiguousarray(bounds, dtype=np.int64)
    if xs.shape != ys.shape or xs.ndim != 1:
        raise ValueError(f"x and y must be 1-d of equal length, got {xs.shape} and {ys.shape}")
    if edges.ndim != 1 or edges.size < 1 or np.any(np.diff(edges) < 0) or (
        edges.size and (edges[0] < 0 or edges[-1] > xs.size)
    ):
        raise ValueError("bounds must be non-decreasing row offsets within x")
    if buckets < 1:
        raise ValueError(f"buckets must be >= 1, got {buckets}")
    keep = np.zeros(xs.size, dtype=np.bool_)
    _keep_blocks(xs, ys, edges, int(buckets), keep)
    idx = np.flatnonzero(keep).astype(np.int64)
    offsets = np.searchsorted(idx, edges).astype(np.int64)
    return idx, offsets


@numba.njit(cache=True, nogil=True)
def _keep_blocks(
    xs: npt.NDArray[np.generic], ys: npt.NDArray[np.float64], bounds: IntArray, buckets: int,
    keep: npt.NDArray[np.bool_],
) -> None:  # pragma: no cover - jit
    for k in range(bounds.size - 1):
        a = bounds[k]
        b = bounds[k + 1]
        if b - a <= 2 * buckets:
            keep[a:b] = True
        else:
            _mark(xs, ys, a, b, buckets, keep)


@numba.njit(cache=True, nogil=True)
def _keep_mask(
    xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64], buckets: int
) -> npt.NDArray[np.bool_]:  # pragma: no cover - jit
    keep = np.zeros(xs.size, dtype=np.bool_)
    _mark(xs, ys, 0, xs.size, buckets, keep)
    return keep


@numba.njit(cache=True, nogil=True)
def _mark(
    xs: npt.NDArray[np.generic], ys: npt.NDArray[np.float64], a: int, b: int, buckets: int,
    keep: npt.NDArray[np.bool_],
) -> None:  # pragma: no cover - jit
    """Mark the points kept of rows ``a:b`` (one series) in ``keep``."""
    n = b - a
    keep[a] = True
    keep[b - 1] = True
    lo = float(xs[a])
    span = float(xs[b - 1]) - lo
    by_x = np.isfinite(span) and span > 0
    current = -1
    imin = -1
    imax = -1
    inan = -1
    for i in range(a, b):
        if by_x:
            xi = float(xs[i])
            bk = int((xi - lo) / span * buckets) if np.isfinite(xi) else current
            bk = min(max(bk, 0), buckets - 1)
        else:
            bk = ((i - a) * buckets) // n
        # x should be sorted; small disorder never reopens a closed bucket.
        bk = max(bk, current)
        if bk != current:
            if imin >= 0:
                keep[imin] = True
                keep[imax] = True
            if inan >= 0:
                keep[inan] = True
            current = bk
            imin = -1
            imax = -1
            inan = -1
        v = ys[i]
        if np.isfinite(v):
            # Strict comparisons: ties go to the earliest point (deterministic).
            if imin < 0 or v < ys[imin]:
                imin = i
            if imax < 0 or v > ys[imax]:
                imax = i
        elif inan < 0:
            inan = i
    if imin >= 0:
        keep[imin] = True
        keep[imax] = True
    if inan >= 0:
        keep[inan] = True
