"""PR curves' areas, TensorBoard's length, and what is wrong, in one pass.

:func:`curve_stats` reads the four count rows of many curves (``[m, n]`` arrays, each
curve ``sizes[i]`` thresholds long) and computes, per curve:

- ``average_precision``, ``pr_auc`` (trapezoid, ending at (0, 1)) and ``roc_auc``
  (trapezoid from (1, 1) to (0, 0)), with precision, recall, TPR and FPR recomputed
  from the counts in float64 (definitions: :mod:`tbnb.analysis.pr_curves`);
- ``kept``: how many thresholds TensorBoard serves (up to the last one where
  ``int(TP) + int(FP) != 0``, at least one);
- ``flags``: a bit per problem (:data:`PROBLEMS`).

The pass is whole-array numpy passes, or for large inputs
(:data:`tbnb.jit.loading.MIN_ITEMS` counts) a compiled loop
(:mod:`tbnb.analysis.compiled.pr_areas`, ``tbnb.jit`` group ``curves``) when numba is
installed and that loads from the cache (equal to the last bit, tested): nothing waits
for the compiler, small data never imports numba, and a read-only installation with no
writable home works.

Examples
--------
>>> import numpy as np
>>> tp, fp = np.array([[3.0, 2, 1, 0]]), np.array([[3.0, 1, 0, 0]])
>>> stats = curve_stats(tp, fp, 3 - fp, 3 - tp, np.array([4]))
>>> round(float(stats["average_precision"][0]), 4), int(stats["kept"][0])
(0.7222, 3)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tbnb.jit import load

__all__ = ["PROBLEMS", "curve_stats", "problem_texts"]

PROBLEMS = (
    "no thresholds",
    "counts are not finite",
    "negative counts",
    "true positives grow with the threshold",
    "false positives grow with the threshold",
    "TP + FN changes across thresholds",
    "FP + TN changes across thresholds",
    "no positive examples (recall, PR and ROC areas undefined)",
    "no negative examples (ROC-AUC undefined)",
)
"""Problem ``k`` is bit ``1 << k`` of a curve's flags."""


def problem_texts(flags: int) -> list[str]:
    """The problems a flags value names (a curve without thresholds or with non-finite
    counts is only that).

    Examples
    --------
    >>> problem_texts(0b1000), problem_texts(0)
    (['true positives grow with the threshold'], [])
    """
    for k in (0, 1):
        if flags & (1 << k):
            return [PROBLEMS[k]]
    return [text for k, text in enumerate(PROBLEMS) if flags & (1 << k)]


def curve_stats(
    tp: npt.ArrayLike, fp: npt.ArrayLike, tn: npt.ArrayLike, fn: npt.ArrayLike, sizes: npt.ArrayLike
) -> dict[str, npt.NDArray[np.generic]]:
    """Areas, positives, negatives, TensorBoard's length and problem flags of ``m`` curves.

    Parameters
    ----------
    tp, fp, tn, fn
        ``[m, n]`` counts, thresholds ascending (float32, as writers store them, or
        float64; the arithmetic is float64 either way).
    sizes
        Each curve's number of thresholds (the rest of its row is ignored).
    """
    first = np.asarray(tp)
    dtype = first.dtype if first.dtype in (np.float32, np.float64) else np.float64
    arrays = [np.ascontiguousarray(a, dtype=dtype) for a in (tp, fp, tn, fn)]
    size = np.ascontiguousarray(sizes, dtype=np.int64)
    m = size.shape[0]
    areas = np.full((m, 5), np.nan)
    kept = np.zeros(m, np.int64)
    flags = np.zeros(m, np.int64)
    if m and load("curves", arrays[0].size):
        from tbnb.analysis.compiled.pr_areas import curve_kernel

        curve_kernel(arrays[0], arrays[1], arrays[2], arrays[3], size, areas, kept, flags)
    elif m:
        _curve_passes(arrays[0], arrays[1], arrays[2], arrays[3], size, areas, kept, flags)
    return {
        "average_precision": areas[:, 0],
        "pr_auc": areas[:, 1],
        "roc_auc": areas[:, 2],
        "positives": areas[:, 3],
        "negatives": areas[:, 4],
        "kept": kept,
        "flags": flags,
    }


def _ratios(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a / b`` where ``b > 0``, else NaN: divided in the counts' dtype, then float64."""
    with np.errstate(all="ignore"):
        return np.where(b > 0, a / b, np.nan).astype(np.float64)


def _last(mask: np.ndarray) -> np.ndarray:
    """Per row, the index of the last True, or -1."""
    width = mask.shape[1]
    if width == 0:
        return np.full(mask.shape[0], -1, np.int64)
    last = width - 1 - np.argmax(mask[:, ::-1], axis=1)
    return np.where(mask.any(axis=1), last, -1).astype(np.int64)


def _running(terms: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """Per row, ``0.0 + terms[0] + ... + terms[stop - 1]`` added in order (as a loop does)."""
    sums: np.ndarray = np.cumsum(
        np.concatenate([np.zeros((terms.shape[0], 1)), terms], axis=1), axis=1
    )
    picked: np.ndarray = sums[np.arange(terms.shape[0]), stop]
    return picked


def _curve_passes(
    tp: np.ndarray,
    fp: np.ndarray,
    tn: np.ndarray,
    fn: np.ndarray,
    sizes: np.ndarray,
    areas: np.ndarray,
    kept: np.ndarray,
    flags: np.ndarray,
) -> None:
    """The compiled kernel's results in whole-array passes, with its arithmetic (sums in the
    counts' dtype, ratios and areas in float64, areas summed in threshold order)."""
    m, width = tp.shape
    kept[:] = 1
    flags[sizes == 0] = 1
    some = sizes > 0
    if width == 0 or not some.any():
        return
    valid = np.arange(width)[None, :] < sizes[:, None]
    positives, negatives = tp[:, 0] + fn[:, 0], fp[:, 0] + tn[:, 0]
    areas[some, 3] = positives[some]
    areas[some, 4] = negatives[some]
    with np.errstate(all="ignore"):
        counted = np.isnan(tp) | np.isnan(fp) | (tp.astype(np.int64) + fp.astype(np.int64) != 0)
        hit = _last(counted & valid)
        kept[some] = np.where(hit >= 0, hit + 1, 1)[some]
        last = _last((tp + fp > 0) & valid)
        finite = np.isfinite(tp) & np.isfinite(fp) & np.isfinite(tn) & np.isfinite(fn)
        bad = some & (valid & ~finite).any(axis=1)
        good = some & ~bad
        flags[bad] = 2
        f = np.zeros(m, np.int64)
        f[((valid & ((tp < 0) | (fp < 0) | (tn < 0) | (fn < 0))).any(axis=1))] |= 4
        step = valid[:, 1:]
        tol_tp = 1e-9 * np.maximum(1.0, np.abs(tp[:, 0]).astype(np.float64))
        tol_fp = 1e-9 * np.maximum(1.0, np.abs(fp[:, 0]).astype(np.float64))
        f[(step & (tp[:, 1:] - tp[:, :-1] > tol_tp[:, None])).any(axis=1)] |= 8
        f[(step & (fp[:, 1:] - fp[:, :-1] > tol_fp[:, None])).any(axis=1)] |= 16
        for bit, total, first in ((32, tp + fn, positives), (64, fp + tn, negatives)):
            inf = np.array(np.inf, total.dtype)
            lo = np.minimum(np.where(valid, total, inf).min(axis=1), first)
            hi = np.maximum(np.where(valid, total, -inf).max(axis=1), first)
            f[(hi - lo) > 1e-6 * np.maximum(1.0, np.abs(hi).astype(np.float64))] |= bit
        no_pos = ~(positives > 0)
        f[no_pos] |= 128
        f[~no_pos & ~(negatives > 0)] |= 256
        flags[good] = f[good]

        end = np.maximum(sizes - 1, 0)[:, None]
        cols = np.arange(width)[None, :]
        fpr, tpr = _ratios(fp, fp + tn), _ratios(tp, tp + fn)
        fpr_next, tpr_next = np.zeros_like(fpr), np.zeros_like(tpr)
        fpr_next[:, :-1], tpr_next[:, :-1] = fpr[:, 1:], tpr[:, 1:]
        fpr_next[cols == end] = 0.0
        tpr_next[cols == end] = 0.0
        terms = np.where(valid, (fpr - fpr_next) * (tpr + tpr_next) / 2, 0.0)
        roc = _running(terms, sizes)
        roc_start = (1.0 - fpr[:, 0]) * (1.0 + tpr[:, 0]) / 2
        both = good & (positives > 0) & (negatives > 0)
        areas[both, 2] = (roc_start + roc)[both]

        ranked = good & (positives > 0) & (last >= 0)
        upto = valid & (cols <= last[:, None])
        recall, precision = _ratios(tp, tp + fn), _ratios(tp, tp + fp)
        r_next, p_next = np.zeros_like(recall), np.ones_like(precision)
        r_next[:, :-1], p_next[:, :-1] = recall[:, 1:], precision[:, 1:]
        at_last = cols == last[:, None]
        r_next[at_last] = 0.0
        p_next[at_last] = 1.0
        drop = recall - r_next
        use = upto & (drop != 0)
        ap = _running(np.where(use, drop * precision, 0.0), np.maximum(last + 1, 0))
        trap = _running(
            np.where(use, drop * (precision + p_next) / 2, 0.0), np.maximum(last + 1, 0)
        )
        areas[ranked, 0] = ap[ranked]
        areas[ranked, 1] = trap[ranked]
