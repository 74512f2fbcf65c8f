"""Distributions: TensorBoard's percentile bands of every histogram (layer: kinds).

Derived from the histograms frame: for each histogram, the values below which
0, 6.68, 15.87, 30.85, 50, 69.15, 84.13, 93.32 and 100 percent of its mass lie (the
normal distribution's -inf, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, +inf sigmas), interpolated
inside buckets exactly as TensorBoard's ``compress_histogram`` does, from the buckets
TensorBoard has: a legacy ``HistogramProto`` (torch, tensorboardX, TF1, Keras with
``histogram_freq``) is migrated to float32 buckets first (``data_compat``), a TF2 tensor
keeps its own precision.

Examples
--------
>>> import numpy as np, pandas as pd
>>> hist = pd.DataFrame({"run": ["a"], "tag": ["w"], "step": [0], "wall_time": [0.0],
...                      "edges": [np.array([0.0, 1.0, 2.0])], "counts": [np.array([1.0, 1.0])]})
>>> histogram_percentiles(hist)[["p0", "p5000", "p10000"]].round(3).to_dict("records")
[{'p0': 0.0, 'p5000': 1.0, 'p10000': 2.0}]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from tbnb.kinds.base import DerivedKind, Tab

KEY = "distributions"

#: TensorBoard's distribution percentiles, in basis points (normal-distribution sigmas).
DISTRIBUTION_BPS = (0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000)


def histogram_percentiles(
    histograms: pd.DataFrame, bps: Sequence[int] = DISTRIBUTION_BPS
) -> pd.DataFrame:
    """Add TensorBoard's distribution percentiles to a histograms frame.

    For each row, column ``p<bp>`` holds the value below which ``bp / 100`` percent
    of the histogram's mass lies, interpolated linearly inside buckets exactly as
    TensorBoard's distributions dashboard computes its bands.

    Rows of a legacy ``HistogramProto`` (those with a ``sum``: a TF2 histogram tensor has
    none) have their edges and counts rounded to float32 first, as TensorBoard's
    ``data_compat`` migrates them before its compressor sees them.

    Parameters
    ----------
    histograms
        A frame with ``edges`` and ``counts`` columns, such as ``exp.histograms``.
    bps
        Basis points (0 to 10000); the default is TensorBoard's nine.
    """
    result = histograms.drop(
        columns=[c for c in ("edges", "counts", "limits", "bucket") if c in histograms.columns]
    )
    edges, counts = tensorboard_buckets(histograms)
    lengths = np.fromiter((len(c) for c in counts), dtype=np.int64, count=len(counts))
    edges = [e for e, n in zip(edges, lengths.tolist(), strict=True) if n]
    table = percentiles(
        np.concatenate(edges, dtype=np.float64) if edges else np.zeros(0),
        np.concatenate(counts, dtype=np.float64) if counts else np.zeros(0),
        lengths,
        bps,
    )
    for j, bp in enumerate(bps):
        result[f"p{bp}"] = table[:, j]
    return result


def tensorboard_buckets(histograms: pd.DataFrame) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Each row's ``edges`` and ``counts`` as TensorBoard's histogram plugins have them.

    A legacy ``HistogramProto`` (a row with a ``sum``; a TF2 tensor has none) is
    migrated to float32 buckets by TensorBoard's ``data_compat``: its edges and counts
    rounded to float32 (returned as float64 holding those values, as TensorBoard's
    plugins compute on them); other rows as they are.

    Examples
    --------
    >>> frame = pd.DataFrame({"edges": [np.array([0.0, 1.00000001])],
    ...                       "counts": [np.array([16777217.0])], "sum": [1.0]})
    >>> edges, counts = tensorboard_buckets(frame)
    >>> edges[0].tolist(), counts[0].tolist()
    ([0.0, 1.0], [16777216.0])
    """
    edges = histograms["edges"].tolist()
    counts = histograms["counts"].tolist()
    if "sum" not in histograms.columns:
        return edges, counts
    legacy = np.flatnonzero(histograms["sum"].notna().to_numpy())
    for listed in (edges, counts):
        for i, migrated in zip(
            legacy.tolist(), _as_float32([listed[i] for i in legacy]), strict=True
        ):
            listed[i] = migrated
    return edges, counts


def _as_float32(rows: list[np.ndarray]) -> list[np.ndarray]:
    """Each array rounded to float32 (as float64): one cast of them all, split back."""
    if not rows:
        return []
    try:
        lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    except TypeError:  # a scalar among them
        return [np.asarray(r, dtype=np.float64).astype(np.float32).astype(np.float64) for r in rows]
    flat = np.concatenate(rows, dtype=np.float64).astype(np.float32).astype(np.float64)
    ends = np.cumsum(lengths).tolist()
    return [flat[a:b] for a, b in zip([0, *ends[:-1]], ends, strict=True)]


def percentiles(
    edges: np.ndarray,
    counts: np.ndarray,
    lengths: np.ndarray,
    bps: Sequence[int] = DISTRIBUTION_BPS,
) -> np.ndarray:
    """``[histograms, len(bps)]`` percentiles of ragged histograms, as TensorBoard's
    ``compress_histogram`` computes them (the same floats).

    ``counts`` holds every histogram's buckets one after another (``lengths[h]`` each),
    ``edges`` its ``lengths[h] + 1`` edges (none for a histogram without buckets, whose
    percentiles are all 0, as TensorBoard's). Histograms of equal bucket count are
    computed together; one with a non-finite edge or count or a negative count goes
    through TensorBoard's loop one bucket at a time.

    Examples
    --------
    >>> percentiles(np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0]), np.array([2]),
    ...             (0, 5000, 10000)).tolist()
    [[0.0, 1.3333333333333333, 2.0]]
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    out = np.zeros((lengths.size, len(bps)))
    counts_at = np.r_[0, np.cumsum(lengths)]
    edges_at = np.r_[0, np.cumsum(np.where(lengths > 0, lengths + 1, 0))]
    for size in np.unique(lengths[lengths > 0]).tolist():
        rows = np.flatnonzero(lengths == size)
        # bucket by bucket: [size, histograms]
        c = counts[np.arange(size)[:, None] + counts_at[rows][None, :]]
        e = edges[np.arange(size + 1)[:, None] + edges_at[rows][None, :]]
        odd = ~(np.isfinite(c).all(axis=0) & np.isfinite(e).all(axis=0) & (c >= 0).all(axis=0))
        if not odd.any():
            out[rows] = _compress_columns(e, c, bps)
            continue
        out[rows[~odd]] = _compress_columns(e[:, ~odd], c[:, ~odd], bps)
        with np.errstate(all="ignore"):  # inf - inf is NaN, as in TensorBoard
            for row, e_row, c_row in zip(rows[odd], e[:, odd].T, c[:, odd].T, strict=True):
                out[row] = _compress(e_row, c_row, bps)
    return out


def _compress_columns(edges: np.ndarray, counts: np.ndarray, bps: Sequence[int]) -> np.ndarray:
    """``compress_histogram`` of ``n`` histograms of ``k`` buckets at once: ``counts`` is
    ``[k, n]`` (a bucket's counts of every histogram in one row), ``edges`` ``[k + 1, n]``.

    Every sum runs in TensorBoard's order, each step one pass over ``n`` values.
    """
    k, n = counts.shape
    out = np.empty((n, len(bps)))
    if n == 0:
        return out
    total = np.ascontiguousarray(counts.T).sum(axis=1)  # numpy's own order, as TensorBoard's
    total[total == 0] = 1.0
    share = counts * bps[-1] / total
    weights = np.empty_like(share)
    before = np.zeros_like(share)
    weights[0] = share[0]
    for j in range(1, k):
        before[j] = weights[j - 1]
        weights[j] = weights[j - 1] + share[j]
    # first bucket at or after each one whose weight grows (k: none), as TensorBoard's
    # loop skips buckets that add nothing
    ahead = np.full((k + 1, n), k, dtype=np.int64)
    for j in range(k - 1, -1, -1):
        ahead[j] = np.where(weights[j] != before[j], j, ahead[j + 1])
    rights = edges[1:].ravel()
    lo, hi = edges[0], edges[-1]
    column = np.arange(n)
    for j, bp in enumerate(bps):
        i = ahead.ravel()[(weights <= bp).sum(axis=0) * n + column]
        found = i < k
        at = np.minimum(i, k - 1) * n + column
        cum, prev = weights.ravel()[at], before.ravel()[at]
        inner = (at >= n) & (prev != 0)
        lhs = np.where(inner, np.maximum(rights[np.maximum(at - n, 0)], lo), lo)
        rhs = np.minimum(rights[at], hi)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = lhs + (bp - prev) * (rhs - lhs) / (cum - prev)
        out[:, j] = np.where(found, value, hi)
    return out


def _compress(edges: np.ndarray, counts: np.ndarray, bps: Sequence[int]) -> list[float]:
    """TensorBoard's ``compress_histogram`` on one histogram, one bucket at a time."""
    if counts.size == 0:
        return [0.0] * len(bps)
    lo, hi = float(edges[0]), float(edges[-1])
    rights = edges[1:]
    total = counts.sum() or 1.0
    weights = (counts * bps[-1] / total).cumsum()
    out: list[float] = []
    index = 0
    while index < len(bps):
        i = int(np.searchsorted(weights, bps[index], side="right"))
        while i < len(weights):
            cum, prev = weights[i], (weights[i - 1] if i > 0 else 0.0)
            if cum == prev:
                i += 1
                continue
            left = lo if (not i or not prev) else max(float(rights[i - 1]), lo)
            right = min(float(rights[i]), hi)
            out.append(left + (bps[index] - prev) * (right - left) / (cum - prev))
            index += 1
            break
        else:
            break
    out.extend([hi] * (len(bps) - len(out)))
    return out


KIND = DerivedKind(
    key=KEY,
    doc="TensorBoard's distribution percentiles (p0 ... p10000) of every histogram.",
    columns=tuple(f"p{bp}" for bp in DISTRIBUTION_BPS),
    source="histograms",
    derive=histogram_percentiles,
    tab=Tab(
        "Distributions",
        "tbnb.widgets.histograms:distributions",
        present=lambda experiment: experiment.count("histograms") > 0,
    ),
)
