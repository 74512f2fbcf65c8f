"""Histogram math for display: TensorBoard's re-binning and deterministic step sampling.

TensorBoard's histogram dashboard draws every histogram of a chart on one common set of
equal-width bins (``buildNormalizedHistograms`` in its webapp's ``histogram_util.ts``):
the range covers every histogram of the chart, and each writer bucket spreads its count
over the display bins it overlaps, in proportion to the overlap (a zero-width bucket
gives its whole count to the bin holding it). :func:`rebin` does the same arithmetic in
the same order, vectorised over many histograms, so its counts equal TensorBoard's
exactly. :func:`sample_indices` picks the steps a chart draws: evenly spaced in step,
always the first and the last, the same ones on every call.

Histograms travel as *ragged* arrays: ``counts`` of every histogram one after another
(``lengths[h]`` buckets each) and ``edges`` likewise (``lengths[h] + 1`` each, none for a
histogram without buckets).

Examples
--------
>>> import numpy as np
>>> edges, counts = rebin([np.array([0.0, 1.0, 3.0])], [np.array([5.0, 10.0])], 2)
>>> edges.tolist(), counts.tolist()
([0.0, 1.5, 3.0], [[7.5, 7.5]])
>>> sample_indices(np.arange(0, 1010, 10), 3).tolist()
[0, 50, 100]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["bin_range", "flatten", "rebin", "rebin_ragged", "sample_indices"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def flatten(
    edges: Sequence[npt.ArrayLike], counts: Sequence[npt.ArrayLike]
) -> tuple[Floats, Floats, Ints]:
    """Ragged arrays ``(edges, counts, lengths)`` of histograms given one by one.

    Examples
    --------
    >>> e, c, n = flatten([[0.0, 1.0], [2.0, 3.0, 4.0]], [[1.0], [2.0, 3.0]])
    >>> e.tolist(), c.tolist(), n.tolist()
    ([0.0, 1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0], [1, 2])
    """
    lengths = np.fromiter((np.size(c) for c in counts), dtype=np.int64, count=len(counts))
    if not len(counts):
        return np.zeros(0), np.zeros(0), lengths
    flat_counts = np.concatenate([np.asarray(c, dtype=np.float64) for c in counts])
    flat_edges = np.concatenate(
        [np.asarray(e, dtype=np.float64) for e, n in zip(edges, lengths, strict=True) if n > 0]
        or [np.zeros(0)]
    )
    return flat_edges, flat_counts, lengths


def _bucket_sides(edges: Floats, lengths: Ints) -> tuple[Floats, Floats, Ints]:
    """Left edge, right edge (as TensorBoard computes it: ``x + dx``) and histogram of
    every bucket of non-empty histograms."""
    kept = lengths[lengths > 0]
    hist = np.repeat(np.flatnonzero(lengths > 0), kept)
    # bucket b of histogram h: edges[b + h'] and edges[b + h' + 1], h' = non-empty rank
    rank = np.repeat(np.arange(kept.size), kept)
    position = np.arange(int(kept.sum())) + rank
    x = edges[position]
    right = edges[position + 1]
    return x, x + (right - x), hist


def bin_range(edges: Floats, lengths: Ints) -> tuple[float, float] | None:
    """The display range of a chart: every histogram's buckets inside it (TensorBoard's).

    ``None`` when no histogram has a bucket. A range of zero width is widened as
    TensorBoard widens it (``v / 1.1 - 1`` to ``v * 1.1 + 1``; for a negative ``v``,
    where those two would come out reversed, the same two numbers in order).

    Examples
    --------
    >>> import numpy as np
    >>> bin_range(np.array([0.0, 1.0, -2.0, 0.5]), np.array([1, 1]))
    (-2.0, 1.0)
    >>> bin_range(np.array([1.0, 1.0]), np.array([1]))
    (-0.09090909090909094, 2.1)
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    if not (lengths > 0).any():
        return None
    firsts = np.cumsum(np.r_[0, (lengths + 1)[lengths > 0][:-1]])
    lasts = firsts + lengths[lengths > 0]
    lefts = edges[firsts]
    last_x = edges[lasts - 1]
    rights = last_x + (edges[lasts] - last_x)
    left, right = float(lefts.min()), float(rights.max())
    if left == right:
        left, right = left / 1.1 - 1, right * 1.1 + 1
        if right < left:
            left, right = right, left
    return left, right


def rebin_ragged(
    edges: Floats, counts: Floats, lengths: Ints, bins: int, bounds: tuple[float, float]
) -> Floats:
    """Counts ``[histograms, bins]`` of ragged histograms on ``bins`` equal bins over ``bounds``.

    Exactly TensorBoard's ``rebuildBins``: display bin ``i`` is ``[left + i*dx, that + dx)``;
    a bucket adds ``count * overlap / width`` to each display bin it reaches (in bucket
    order, as TensorBoard's loop adds them); a zero-width bucket adds its count to the
    bin holding it (a point on a boundary goes right, except past the last bin).

    Examples
    --------
    >>> import numpy as np
    >>> rebin_ragged(np.array([0.0, 1.0, 1.0, 2.0]), np.array([4.0, 2.0, 6.0]),
    ...              np.array([3]), 2, (0.0, 2.0)).tolist()
    [[4.0, 8.0]]
    """
    if bins < 1:
        raise ValueError(f"bins must be >= 1, got {bins}")
    lengths = np.asarray(lengths, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.float64)
    n_hist = lengths.size
    if counts.size == 0:
        return np.zeros((n_hist, bins))
    left, right = bounds
    dx = (right - left) / bins
    lo = left + np.arange(bins) * dx
    hi = lo + dx
    x, xr, hist = _bucket_sides(np.asarray(edges, dtype=np.float64), lengths)
    width = xr - x
    # Display bins TensorBoard's loop visits with each bucket: from the first bin whose
    # right side reaches the previous bucket's right side, to the first reaching this one's.
    last = np.minimum(np.searchsorted(hi, xr, side="left"), bins - 1)
    first = np.empty_like(last)
    first[1:] = last[:-1]
    first[np.r_[0, np.cumsum(lengths[lengths > 0])[:-1]]] = 0
    first = np.minimum(first, last)
    visits = last - first + 1
    bucket = np.repeat(np.arange(x.size), visits)
    target = first[bucket] + (
        np.arange(int(visits.sum())) - np.repeat(np.cumsum(visits) - visits, visits)
    )
    bl, br, bw, by = x[bucket], xr[bucket], width[bucket], counts[bucket]
    rl, rr = lo[target], hi[target]
    outside = (bl > rr) | (br < rl)
    point = bw == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        share = (by * (np.minimum(br, rr) - np.maximum(bl, rl))) / bw
    contribution = np.where(outside, 0.0, np.where(point, by, share))
    target = target + (point & ~outside & (target < bins - 1) & (br >= rr))
    summed = np.asarray(
        np.bincount(hist[bucket] * bins + target, weights=contribution, minlength=n_hist * bins),
        dtype=np.float64,
    )
    return summed.reshape(n_hist, bins)


def rebin(
    edges: Sequence[npt.ArrayLike],
    counts: Sequence[npt.ArrayLike],
    bins: int = 30,
    *,
    bounds: tuple[float, float] | None = None,
) -> tuple[Floats, Floats]:
    """TensorBoard's display histograms: every histogram on ``bins`` common equal bins.

    Parameters
    ----------
    edges, counts
        One array per histogram: ``k + 1`` edges and ``k`` counts (a row of
        ``exp.histograms``).
    bins
        Display bins (TensorBoard: 30).
    bounds
        ``(left, right)`` of the display bins; default: TensorBoard's, the range of
        every histogram given (:func:`bin_range`).

    Returns
    -------
    (edges, counts)
        The ``bins + 1`` display edges and the ``[histograms, bins]`` counts (none
        when no histogram has a bucket: ``bins`` then does not matter).

    Examples
    --------
    >>> import numpy as np
    >>> e, c = rebin([np.array([0.0, 2.0]), np.array([1.0, 1.0, 4.0])],
    ...              [np.array([8.0]), np.array([3.0, 1.0])], 4)
    >>> e.tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0]
    >>> c.round(3).tolist()
    [[4.0, 4.0, 0.0, 0.0], [0.0, 3.333, 0.333, 0.333]]
    """
    flat_edges, flat_counts, lengths = flatten(edges, counts)
    if bounds is None:
        bounds = bin_range(flat_edges, lengths)
        if bounds is None:
            return np.zeros(0), np.zeros((len(lengths), 0))
    left, right = bounds
    dx = (right - left) / bins
    display = np.r_[left + np.arange(bins) * dx, left + (bins - 1) * dx + dx]
    return display, rebin_ragged(flat_edges, flat_counts, lengths, bins, bounds)


def sample_indices(steps: npt.ArrayLike, limit: int) -> Ints:
    """Indices of at most ``limit`` histograms of a series to draw, the same on every call.

    ``steps`` are sorted; the picks are the steps nearest to ``limit`` evenly spaced
    values from the first step to the last (each once), so the first and the last step
    are always drawn. A series of at most ``limit`` steps is drawn whole.

    Examples
    --------
    >>> sample_indices([0, 1, 2, 3, 4, 100], 3).tolist()
    [0, 4, 5]
    >>> sample_indices([5, 6], 10).tolist()
    [0, 1]
    """
    values = np.asarray(steps, dtype=np.float64)
    n = values.size
    if limit < 2 and n:
        return np.array([n - 1], dtype=np.int64)
    if n <= limit:
        return np.arange(n, dtype=np.int64)
    targets = np.linspace(values[0], values[-1], limit)
    after = np.clip(np.searchsorted(values, targets, side="left"), 1, n - 1)
    before = after - 1
    nearest = np.where(targets - values[before] <= values[after] - targets, before, after)
    picks = np.unique(np.r_[0, nearest, n - 1])
    return picks.astype(np.int64)
