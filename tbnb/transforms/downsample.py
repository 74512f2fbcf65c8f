"""Deterministic min/max downsampling of a series to screen resolution.

The x range of a series is cut into ``buckets`` equal-width intervals (one per
pixel column, say); in each bucket the points holding the smallest and the
largest finite value are kept, plus the first non-finite point of the bucket
(so NaN/inf gaps stay visible), and always the first and the last point of the
series. Spikes therefore survive, the same input always gives the same points,
and the newest point is always shown (as TensorBoard's data provider promises).

A vectorised numpy pass does the work; for large inputs
(:data:`tbnb.jit.loading.MIN_ITEMS` points) one compiled pass
(:mod:`tbnb.transforms.compiled.downsample`) does it when numba is installed and
:func:`tbnb.jit.load` finds it in the cache. Both keep the same points, nothing waits
for a compile, and small data never imports numba.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tbnb.jit import loading

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
    idx, _ = minmax_indices_blocks(xs, ys, np.array([0, n], np.int64), int(buckets))
    return idx


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
    if (
        edges.ndim != 1
        or edges.size < 1
        or np.any(np.diff(edges) < 0)
        or (edges.size and (edges[0] < 0 or edges[-1] > xs.size))
    ):
        raise ValueError("bounds must be non-decreasing row offsets within x")
    if buckets < 1:
        raise ValueError(f"buckets must be >= 1, got {buckets}")
    keep = np.zeros(xs.size, dtype=np.bool_)
    if loading.load("transforms", xs.size):
        from tbnb.transforms.compiled.downsample import keep_blocks

        keep_blocks(xs, ys, edges, int(buckets), keep)
    else:
        _keep_blocks_numpy(xs, ys, edges, int(buckets), keep)
    idx = np.flatnonzero(keep).astype(np.int64)
    offsets = np.searchsorted(idx, edges).astype(np.int64)
    return idx, offsets


def _keep_blocks_numpy(
    xs: npt.NDArray[np.generic],
    ys: npt.NDArray[np.float64],
    bounds: IntArray,
    buckets: int,
    keep: npt.NDArray[np.bool_],
) -> None:
    """Mark in ``keep`` what the compiled pass keeps, with whole-array numpy operations."""
    lengths = np.diff(bounds)
    small = lengths <= 2 * buckets
    for a, b in zip(bounds[:-1][small].tolist(), bounds[1:][small].tolist(), strict=True):
        keep[a:b] = True
    starts, ends = bounds[:-1][~small], bounds[1:][~small]
    if starts.size == 0:
        return
    keep[starts] = True
    keep[ends - 1] = True
    sizes = ends - starts
    rows = np.repeat(starts - np.r_[0, np.cumsum(sizes)[:-1]], sizes) + np.arange(sizes.sum())
    series = np.repeat(np.arange(starts.size), sizes)
    bucket = _buckets(xs, starts, ends, sizes, rows, series, buckets)
    # one id per (series, bucket), non-decreasing along the rows
    segment = series * np.int64(buckets) + bucket
    first = np.flatnonzero(np.r_[True, segment[1:] != segment[:-1]])
    values = ys[rows]
    finite = np.isfinite(values)
    for extreme, fill in ((np.minimum, np.inf), (np.maximum, -np.inf)):
        best = extreme.reduceat(np.where(finite, values, fill), first)
        hit = finite & (values == np.repeat(best, np.diff(np.r_[first, rows.size])))
        _mark_first(keep, rows, segment, hit)
    _mark_first(keep, rows, segment, ~finite)


def _buckets(
    xs: npt.NDArray[np.generic],
    starts: IntArray,
    ends: IntArray,
    sizes: IntArray,
    rows: IntArray,
    series: IntArray,
    buckets: int,
) -> IntArray:
    """Each row's bucket within its series (by x, or by position when x spans nothing),
    never going down: a closed bucket is never reopened."""
    lo = xs[starts].astype(np.float64)
    x = xs[rows].astype(np.float64)
    position = rows - np.repeat(starts, sizes)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        span = xs[ends - 1].astype(np.float64) - lo
        by_x = np.isfinite(span) & (span > 0)
        scaled = (x - lo[series]) / span[series] * buckets
    scaled = np.clip(scaled, 0.0, buckets - 1.0)
    by_position = position * buckets // np.repeat(sizes, sizes)
    row_by_x = by_x[series]
    bucket = np.where(row_by_x & np.isfinite(x), scaled, 0.0).astype(np.int64)
    bucket = np.where(row_by_x, bucket, by_position)
    # the running maximum within each series (series ids grow along the rows)
    offset = series * np.int64(buckets)
    out: IntArray = np.maximum.accumulate(bucket + offset) - offset
    return out


def _mark_first(
    keep: npt.NDArray[np.bool_], rows: IntArray, segment: IntArray, hit: npt.NDArray[np.bool_]
) -> None:
    """Mark the first row of each segment where ``hit`` holds."""
    where = np.flatnonzero(hit)
    if where.size:
        firsts = where[np.r_[True, segment[where][1:] != segment[where][:-1]]]
        keep[rows[firsts]] = True
