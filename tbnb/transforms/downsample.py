"""Deterministic min/max downsampling of a series to screen resolution.

The x range of a series is cut into ``buckets`` equal-width intervals (one per
pixel column, say); in each bucket the points holding the smallest and the
largest finite value are kept, plus the first non-finite point of the bucket
(so NaN/inf gaps stay visible), and always the first and the last point of the
series. Spikes therefore survive, the same input always gives the same points,
and the newest point is always shown (as TensorBoard's data provider promises).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["minmax_indices"]

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
    lo, hi = xs[0], xs[-1]
    span = hi - lo
    if not np.isfinite(span) or span <= 0:
        bucket = (np.arange(n, dtype=np.int64) * buckets) // n
    else:
        bucket = np.minimum(((xs - lo) / span * buckets).astype(np.int64), buckets - 1)
        # x should be sorted; guard against small disorder so buckets stay contiguous.
        bucket = np.maximum.accumulate(bucket)
    finite = np.isfinite(ys)
    keep = np.zeros(n, dtype=bool)
    keep[0] = keep[-1] = True
    fi = np.flatnonzero(finite)
    if fi.size:
        # Sort finite points by (bucket, value, index): the first of each bucket is
        # its minimum, the last its maximum (ties resolved by index: deterministic).
        order = fi[np.lexsort((fi, ys[fi], bucket[fi]))]
        b = bucket[order]
        starts = np.flatnonzero(np.r_[True, b[1:] != b[:-1]])
        ends = np.r_[starts[1:], b.size] - 1
        keep[order[starts]] = True
        keep[order[ends]] = True
    nf = np.flatnonzero(~finite)
    if nf.size:
        b = bucket[nf]
        keep[nf[np.r_[True, b[1:] != b[:-1]]]] = True
    return np.flatnonzero(keep).astype(np.int64)
