"""The PR-curve statistics loop, compiled: the kernel behind
:func:`tbnb.analysis.pr_areas.curve_stats` (whose numpy path gives equal results, tested).

Examples
--------
>>> import numpy as np
>>> tp, fp = np.array([[3.0, 2, 1, 0]]), np.array([[3.0, 1, 0, 0]])
>>> areas, kept, flags = np.full((1, 5), np.nan), np.zeros(1, np.int64), np.zeros(1, np.int64)
>>> curve_kernel(tp, fp, 3 - fp, 3 - tp, np.array([4]), areas, kept, flags)
>>> round(float(areas[0, 0]), 4), int(kept[0])
(0.7222, 3)
"""

from __future__ import annotations

import math

import numpy as np

from tbnb.jit import njit

__all__ = ["KERNELS", "curve_kernel"]


@njit
def _ratio(a: float, b: float) -> float:  # pragma: no cover - jit
    return a / b if b > 0 else math.nan


@njit
def curve_kernel(tp, fp, tn, fn, sizes, areas, kept, flags):  # type: ignore[no-untyped-def] # pragma: no cover - jit
    """Fill ``areas`` ([m, 5]: AP, PR-AUC, ROC-AUC, positives, negatives), ``kept`` and
    ``flags`` of ``m`` curves (see :func:`tbnb.analysis.pr_areas.curve_stats`)."""
    m = tp.shape[0]
    for c in range(m):
        n = sizes[c]
        kept[c] = 1
        if n == 0:
            flags[c] = 1
            continue
        positives = tp[c, 0] + fn[c, 0]
        negatives = fp[c, 0] + tn[c, 0]
        areas[c, 3] = positives
        areas[c, 4] = negatives
        # TensorBoard's length: up to the last threshold where int(TP) + int(FP) != 0;
        # the PR points: up to the last where TP + FP > 0
        last = -1
        for i in range(n - 1, -1, -1):
            a, b = tp[c, i], fp[c, i]
            if math.isnan(a) or math.isnan(b) or int(a) + int(b) != 0:
                kept[c] = i + 1
                break
        for i in range(n - 1, -1, -1):
            if tp[c, i] + fp[c, i] > 0:
                last = i
                break
        f = 0
        pos_lo = pos_hi = positives
        neg_lo = neg_hi = negatives
        tol_tp = 1e-9 * max(1.0, abs(tp[c, 0]))
        tol_fp = 1e-9 * max(1.0, abs(fp[c, 0]))
        roc = 0.0
        fpr = _ratio(fp[c, 0], negatives)
        tpr = _ratio(tp[c, 0], positives)
        roc_start = (1.0 - fpr) * (1.0 + tpr) / 2
        for i in range(n):
            a, b, d, e = tp[c, i], fp[c, i], tn[c, i], fn[c, i]
            if not (
                math.isfinite(a) and math.isfinite(b) and math.isfinite(d) and math.isfinite(e)
            ):
                f = 2
                break
            if a < 0 or b < 0 or d < 0 or e < 0:
                f |= 4
            if i:
                if a - tp[c, i - 1] > tol_tp:
                    f |= 8
                if b - fp[c, i - 1] > tol_fp:
                    f |= 16
            p, q = a + e, b + d
            pos_lo, pos_hi = min(pos_lo, p), max(pos_hi, p)
            neg_lo, neg_hi = min(neg_lo, q), max(neg_hi, q)
            if i == n - 1:
                fpr_next, tpr_next = 0.0, 0.0
            else:
                fpr_next = _ratio(fp[c, i + 1], fp[c, i + 1] + tn[c, i + 1])
                tpr_next = _ratio(tp[c, i + 1], tp[c, i + 1] + fn[c, i + 1])
            roc += (fpr - fpr_next) * (tpr + tpr_next) / 2
            fpr, tpr = fpr_next, tpr_next
        if f == 2:
            flags[c] = 2
            continue
        if pos_hi - pos_lo > 1e-6 * max(1.0, abs(pos_hi)):
            f |= 32
        if neg_hi - neg_lo > 1e-6 * max(1.0, abs(neg_hi)):
            f |= 64
        if not positives > 0:
            f |= 128
        elif not negatives > 0:
            f |= 256
        flags[c] = f
        if positives > 0 and negatives > 0:
            areas[c, 2] = roc_start + roc
        if positives > 0 and last >= 0:
            ap = 0.0
            trap = 0.0
            r = _ratio(tp[c, 0], tp[c, 0] + fn[c, 0])
            p = _ratio(tp[c, 0], tp[c, 0] + fp[c, 0])
            for i in range(last + 1):
                if i == last:
                    r_next, p_next = 0.0, 1.0
                else:
                    r_next = _ratio(tp[c, i + 1], tp[c, i + 1] + fn[c, i + 1])
                    p_next = _ratio(tp[c, i + 1], tp[c, i + 1] + fp[c, i + 1])
                drop = r - r_next
                if drop != 0:
                    ap += drop * p
                    trap += drop * (p + p_next) / 2
                r, p = r_next, p_next
            areas[c, 0] = ap
            areas[c, 1] = trap


def _example(dtype: type) -> tuple[np.ndarray, ...]:
    counts: np.ndarray = np.zeros((1, 1), dtype)
    return (
        counts,
        counts,
        counts,
        counts,
        np.zeros(1, np.int64),
        np.zeros((1, 5)),
        np.zeros(1, np.int64),
        np.zeros(1, np.int64),
    )


KERNELS = [(curve_kernel, _example(np.float32)), (curve_kernel, _example(np.float64))]
