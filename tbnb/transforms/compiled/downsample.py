"""Min/max downsampling compiled with numba: the pass behind
:func:`tbnb.transforms.downsample.minmax_indices_blocks`.

The numpy path there keeps the same points (tested on random series).

Examples
--------
>>> import numpy as np
>>> keep = np.zeros(5, np.bool_)
>>> keep_blocks(np.arange(5.0), np.array([0, 9, 1, 1, 2.0]), np.array([0, 5]), 1, keep)
>>> np.flatnonzero(keep).tolist()
[0, 1, 4]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tbnb.jit import njit

__all__ = ["KERNELS", "keep_blocks"]

IntArray = npt.NDArray[np.int64]


@njit
def _mark(
    xs: npt.NDArray[np.generic],
    ys: npt.NDArray[np.float64],
    a: int,
    b: int,
    buckets: int,
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
            if np.isfinite(xi):
                f = min(max((xi - lo) / span * buckets, 0.0), buckets - 1.0)
                bk = int(f)
            else:
                bk = current
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


@njit
def keep_blocks(
    xs: npt.NDArray[np.generic],
    ys: npt.NDArray[np.float64],
    bounds: IntArray,
    buckets: int,
    keep: npt.NDArray[np.bool_],
) -> None:  # pragma: no cover - jit
    """Mark in ``keep`` the rows kept of each series ``bounds[k]:bounds[k + 1]``."""
    for k in range(bounds.size - 1):
        a = bounds[k]
        b = bounds[k + 1]
        if b - a <= 2 * buckets:
            keep[a:b] = True
        else:
            _mark(xs, ys, a, b, buckets, keep)


_F = np.zeros(2, np.float64)
_I = np.zeros(2, np.int64)
_KEEP = np.zeros(2, np.bool_)
KERNELS = [(keep_blocks, (_F, _F, _I, 1, _KEEP)), (keep_blocks, (_I, _F, _I, 1, _KEEP))]
