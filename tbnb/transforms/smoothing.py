"""TensorBoard's smoothing of scalar series.

Sampling semantics
------------------
Like TensorBoard, smoothing runs over the points it is given: the *sampled*
series (the points a chart holds after downsampling), not over the full
resolution log. With a weight ``w`` a downsampled series therefore smooths
over about ``1 / (1 - w)`` of its *shown* points, so the curve of a zoomed-in
(full resolution) range is smoother in steps than the same range shown at
overview resolution. ``mode="time"`` removes most of that dependence by
weighting each point by its distance in ``x`` (see :func:`smooth`).

The same algorithms live in ``js/src/smoothing.js``; a test checks both agree. The
loops run in Python, and compiled (:mod:`tbnb.transforms.compiled.smoothing`) for large
series (:data:`tbnb.jit.loading.MIN_ITEMS` points) when numba is installed and
:func:`tbnb.jit.load` finds them in the cache (equal results; small data never imports
numba).
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
import numpy.typing as npt

from tbnb.jit import loading

__all__ = ["MAX_WEIGHT", "SmoothingMode", "ema", "smooth", "time_weighted_ema"]

#: The largest weight accepted (TensorBoard's slider stops at 0.999).
MAX_WEIGHT = 0.999

SmoothingMode = Literal["ema", "time"]

FloatArray = npt.NDArray[np.float64]


def _check_weight(weight: float) -> float:
    w = float(weight)
    if not np.isfinite(w) or not 0.0 <= w <= MAX_WEIGHT:
        raise ValueError(f"smoothing weight must be in [0, {MAX_WEIGHT}], got {weight!r}")
    return w


def _check_series(values: FloatArray) -> None:
    if values.ndim != 1:
        raise ValueError(f"a series must be 1-d, got shape {values.shape}")


def _is_constant(values: FloatArray) -> bool:
    # TensorBoard compares every point to the first with ``==``: a NaN anywhere
    # makes the series non-constant, an empty series counts as constant.
    return values.size == 0 or bool(np.all(values == values[0]))


def _ema_loop(values: FloatArray, weight: float) -> FloatArray:
    """:func:`tbnb.transforms.compiled.smoothing.ema_kernel`'s loop, in Python."""
    if loading.load("transforms", values.size):
        from tbnb.transforms.compiled.smoothing import ema_kernel

        compiled: FloatArray = ema_kernel(values, weight)
        return compiled
    out = values.tolist()
    last = 0.0
    count = 0.0
    for i, v in enumerate(out):
        if math.isfinite(v):
            last = last * weight + (1.0 - weight) * v
            count += 1.0
            out[i] = last / (1.0 - weight**count)
    return np.array(out, dtype=np.float64)


def _time_loop(x: FloatArray, values: FloatArray, weight: float, unit: float) -> FloatArray:
    """:func:`tbnb.transforms.compiled.smoothing.time_kernel`'s loop, in Python."""
    if loading.load("transforms", values.size):
        from tbnb.transforms.compiled.smoothing import time_kernel

        compiled: FloatArray = time_kernel(x, values, weight, unit)
        return compiled
    out = values.tolist()
    last = 0.0
    exponent = 0.0
    prev_x = math.nan
    for i, (xi, v) in enumerate(zip(x.tolist(), out, strict=True)):
        if not math.isfinite(v):
            continue
        if math.isnan(prev_x):
            gap = 1.0
        elif math.isfinite(xi):
            gap = max(xi - prev_x, 0.0) / unit
        else:  # a point without a position neither decays nor advances the average
            gap = 0.0
        if math.isfinite(xi):
            prev_x = xi
        decay = weight**gap
        last = last * decay + (1.0 - decay) * v
        exponent += gap
        out[i] = last / (1.0 - weight**exponent)
    return np.array(out, dtype=np.float64)


def ema(values: npt.ArrayLike, weight: float = 0.6) -> FloatArray:
    """TensorBoard's debiased exponential moving average.

    ``last = last * w + (1 - w) * v`` over the finite values in order, starting
    from 0, and each output divided by ``1 - w**k`` where ``k`` counts the finite
    values seen so far (the debiasing). Non-finite values (NaN, +-inf) are passed
    through unchanged and neither counted nor mixed in. A constant series is
    returned unchanged. ``w = 0`` returns the input.

    Parameters
    ----------
    values
        The sampled series, in step order.
    weight
        Smoothing weight in ``[0, 0.999]``.

    Returns
    -------
    numpy.ndarray
        float64 array of the same length.

    Examples
    --------
    >>> ema([1.0, 0.0, float("nan"), 1.0], 0.5).round(4).tolist()
    [1.0, 0.3333, nan, 0.7143]
    """
    w = _check_weight(weight)
    arr: FloatArray = np.ascontiguousarray(values, dtype=np.float64)
    _check_series(arr)
    if _is_constant(arr):
        same: FloatArray = arr.copy()
        return same
    result: FloatArray = _ema_loop(arr, w)
    return result


def time_weighted_ema(x: npt.ArrayLike, values: npt.ArrayLike, weight: float = 0.6) -> FloatArray:
    """Debiased EMA whose decay follows the distance between points in ``x``.

    Each finite point decays the running average by ``w ** (dx / unit)`` where
    ``dx`` is its distance in ``x`` from the previous finite point and ``unit``
    the median positive gap of the series; the debiasing divides by
    ``1 - w ** (sum of gaps)`` (the first point counts as one unit). On evenly
    spaced points this is exactly :func:`ema`; on uneven steps (e.g. denser logging
    late in training) a point's influence depends on how far away it is in
    ``x``, not on how many points lie between. Non-finite values pass through and
    a constant series is returned unchanged, as in :func:`ema`.

    Examples
    --------
    >>> time_weighted_ema([0, 1, 2, 3], [1.0, 0.0, 1.0, 0.0], 0.5).round(4).tolist()
    [1.0, 0.3333, 0.7143, 0.3333]
    """
    w = _check_weight(weight)
    xs = np.ascontiguousarray(x, dtype=np.float64)
    arr: FloatArray = np.ascontiguousarray(values, dtype=np.float64)
    _check_series(arr)
    if xs.shape != arr.shape:
        raise ValueError(f"x and values differ in shape: {xs.shape} vs {arr.shape}")
    if _is_constant(arr):
        same: FloatArray = arr.copy()
        return same
    unit = _median_gap(xs[np.isfinite(arr)])
    result: FloatArray = _time_loop(xs, arr, w, unit)
    return result


def _median_gap(x: FloatArray) -> float:
    gaps = np.diff(x)
    gaps = gaps[np.isfinite(gaps) & (gaps > 0)]
    if gaps.size == 0:
        return 1.0
    # Lower median (no averaging of the two middle gaps), so JS can mirror it exactly.
    return float(np.sort(gaps)[(gaps.size - 1) // 2])


def smooth(
    values: npt.ArrayLike,
    weight: float = 0.6,
    *,
    x: npt.ArrayLike | None = None,
    mode: SmoothingMode = "ema",
) -> FloatArray:
    """Smooth one sampled series with TensorBoard's EMA or its time-weighted variant.

    Parameters
    ----------
    values
        The series values in step order.
    weight
        Smoothing weight in ``[0, 0.999]`` (TensorBoard's default is 0.6).
    x
        Positions of the points (steps or times); needed for ``mode="time"``.
    mode
        ``"ema"`` (TensorBoard) or ``"time"`` (:func:`time_weighted_ema`).

    Examples
    --------
    >>> smooth([1.0, 2.0, 3.0], 0.0).tolist()
    [1.0, 2.0, 3.0]
    >>> smooth([1.0, 2.0, 4.0], 0.5, x=[0, 1, 3], mode="time").round(3).tolist()
    [1.0, 1.667, 3.533]
    """
    if mode == "ema":
        return ema(values, weight)
    if mode == "time":
        if x is None:
            raise ValueError("mode='time' needs x")
        return time_weighted_ema(x, values, weight)
    raise ValueError(f"mode must be 'ema' or 'time', got {mode!r}")
