"""Smoothing kernels compiled with numba: the loops behind :mod:`tbnb.transforms.smoothing`.

The numpy path there runs the same loops in Python (equal results, tested).

Examples
--------
>>> import numpy as np
>>> ema_kernel(np.array([1.0, 0.0]), 0.5).round(4).tolist()
[1.0, 0.3333]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tbnb.jit import njit

__all__ = ["KERNELS", "ema_kernel", "time_kernel"]

FloatArray = npt.NDArray[np.float64]


@njit
def ema_kernel(values: FloatArray, weight: float) -> FloatArray:  # pragma: no cover - jit
    """Debiased EMA over the finite values (non-finite ones pass through)."""
    out = np.empty_like(values)
    last = 0.0
    count = 0.0
    for i in range(values.shape[0]):
        v = values[i]
        if not np.isfinite(v):
            out[i] = v
            continue
        last = last * weight + (1.0 - weight) * v
        count += 1.0
        out[i] = last / (1.0 - weight**count)
    return out


@njit
def time_kernel(
    x: FloatArray, values: FloatArray, weight: float, unit: float
) -> FloatArray:  # pragma: no cover - jit
    """Debiased EMA decaying by ``weight ** (dx / unit)`` between finite points."""
    out = np.empty_like(values)
    last = 0.0
    exponent = 0.0
    prev_x = np.nan
    for i in range(values.shape[0]):
        v = values[i]
        if not np.isfinite(v):
            out[i] = v
            continue
        xi = x[i]
        if np.isnan(prev_x):
            gap = 1.0
        elif np.isfinite(xi):
            gap = max(xi - prev_x, 0.0) / unit
        else:  # a point without a position neither decays nor advances the average
            gap = 0.0
        if np.isfinite(xi):
            prev_x = xi
        decay = weight**gap
        last = last * decay + (1.0 - decay) * v
        exponent += gap
        out[i] = last / (1.0 - weight**exponent)
    return out


_F = np.zeros(2, np.float64)
KERNELS = [(ema_kernel, (_F, 0.5)), (time_kernel, (_F, _F, 0.5, 1.0))]
