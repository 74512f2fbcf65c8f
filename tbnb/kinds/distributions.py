"""Distributions: TensorBoard's percentile bands of every histogram (layer: kinds).

Derived from the histograms frame: for each histogram, the values below which
0, 6.68, 15.87, 30.85, 50, 69.15, 84.13, 93.32 and 100 percent of its mass lie (the
normal distribution's -inf, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, +inf sigmas), interpolated
inside buckets exactly as TensorBoard's ``compress_histogram`` does.

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

from tbnb.kinds.base import Kind

KEY = "distributions"

#: TensorBoard's distribution percentiles, in basis points (normal-distribution sigmas).
DISTRIBUTION_BPS = (0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000)


def histogram_percentiles(histograms: pd.DataFrame,
                          bps: Sequence[int] = DISTRIBUTION_BPS) -> pd.DataFrame:
    """Add TensorBoard's distribution percentiles to a histograms frame.

    For each row, column ``p<bp>`` holds the value below which ``bp / 100`` percent
    of the histogram's mass lies, interpolated linearly inside buckets exactly as
    TensorBoard's distributions dashboard computes its bands.

    Parameters
    ----------
    histograms
        A frame with ``edges`` and ``counts`` columns, such as ``exp.histograms``.
    bps
        Basis points (0 to 10000); the default is TensorBoard's nine.
    """
    result = histograms.drop(columns=[c for c in ("edges", "counts", "limits", "bucket")
                                      if c in histograms.columns])
    table = np.array([_compress(np.asarray(e, dtype=np.float64), np.asarray(c, dtype=np.float64),
                                bps)
                      for e, c in zip(histograms["edges"], histograms["counts"], strict=True)]
                     ).reshape(len(histograms), len(bps))
    for j, bp in enumerate(bps):
        result[f"p{bp}"] = table[:, j]
    return result


def _compress(edges: np.ndarray, counts: np.ndarray, bps: Sequence[int]) -> list[float]:
    """TensorBoard's ``compress_histogram`` on one histogram given as edges and counts."""
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



KIND = Kind(
    key=KEY,
    doc="TensorBoard's distribution percentiles (p0 ... p10000) of every histogram.",
    storage="derived",
    columns=tuple(f"p{bp}" for bp in DISTRIBUTION_BPS),
    event_type=False,
    derive=("histograms", histogram_percentiles),
)
