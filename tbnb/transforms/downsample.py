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
    keep: npt.NDArray[np.bool_] = _keep_mask(xs, ys, int(buckets))
    return np.flatnonzero(keep).astype(np.int64)


@numba.njit(cache=True, nogil=True)
def _keep_mask(
    xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64], buckets: int
) -> npt.NDArray[np.bool_]:  # pragma: no cover - jit
    n = xs.size
    keep = np.zeros(n, dtype=np.bool_)
    keep[0] = True
    keep[n - 1] = True
    lo = xs[0]
    span = xs[n - 1] - lo
    by_x = np.isfinite(span) and span > 0
    current = -1
    imin = -1
    imax = -1
    inan = -1
    for i in range(n):
        if by_x:
            b = int((xs[i] - lo) / span * buckets) if np.isfinite(xs[i]) else current
            b = min(max(b, 0), buckets - 1)
        else:
            b = (i * buckets) // n
        # x should be sorted; small disorder never reopens a closed bucket.
        b = max(b, current)
        if b != current:
            if imin >= 0:
                keep[imin] = True
                keep[imax] = True
            if inan >= 0:
                keep[inan] = True
            current = b
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
    return keep
