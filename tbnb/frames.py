"""Tidy DataFrames from normalised records, and histogram reductions (layer 4).

Every frame is long format: one row per (run, tag, step[, sample]) with ``run`` and
``tag`` as categorical columns, then the kind's own columns.

Examples
--------
>>> import numpy as np, pandas as pd
>>> hist = pd.DataFrame({"run": ["a"], "tag": ["w"], "step": [0], "wall_time": [0.0],
...                      "edges": [np.array([0.0, 1.0, 2.0])], "counts": [np.array([1.0, 1.0])]})
>>> histogram_percentiles(hist)[["p0", "p5000", "p10000"]].round(3).to_dict("records")
[{'p0': 0.0, 'p5000': 1.0, 'p10000': 2.0}]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.normalize import (
    AUDIO,
    GRAPHS,
    HISTOGRAMS,
    IMAGES,
    PR_CURVE_ROWS,
    PR_CURVES,
    TENSORS,
    TEXT,
)

#: TensorBoard's distribution percentiles, in basis points (normal-distribution sigmas).
DISTRIBUTION_BPS = (0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000)

_BASE = ["run", "tag", "step", "wall_time"]

COLUMNS: dict[str, list[str]] = {
    HISTOGRAMS: [*_BASE, "edges", "counts", "min", "max", "num", "sum", "sum_squares"],
    IMAGES: [*_BASE, "sample", "width", "height", "format", "nbytes", "blob"],
    AUDIO: [*_BASE, "sample", "content_type", "sample_rate", "num_channels", "length_frames",
            "label", "nbytes", "blob"],
    TEXT: [*_BASE, "text"],
    PR_CURVES: [*_BASE, "thresholds", "precision", "recall", *PR_CURVE_ROWS[:4]],
    TENSORS: [*_BASE, "value", "dtype", "shape", "plugin"],
    GRAPHS: ["run", "tag", "kind", "step", "wall_time", "nbytes"],
}

_INTS = {"step": np.int64, "sample": np.int64, "width": np.int64, "height": np.int64,
         "nbytes": np.int64, "num_channels": np.int64, "length_frames": np.int64}


def records_frame(kind: str, rows_by_run: Mapping[str, Iterable[dict[str, Any]]]) -> pd.DataFrame:
    """Build the tidy frame of one kind from each run's normalised records."""
    columns = COLUMNS[kind]
    data: dict[str, list[Any]] = {c: [] for c in columns}
    for run, rows in rows_by_run.items():
        for row in rows:
            full = ({**row, "dtype": str(row["value"].dtype), "shape": tuple(row["value"].shape)}
                    if kind == TENSORS else row)
            for column in columns:
                data[column].append(run if column == "run" else full.get(column))
    out: dict[str, Any] = {}
    for column in columns:
        values = data[column]
        if column in ("run", "tag"):
            out[column] = pd.Categorical(values, categories=list(dict.fromkeys(values)))
        elif column in _INTS:
            out[column] = np.asarray(values, dtype=_INTS[column])
        elif column in ("wall_time", "min", "max", "num", "sum", "sum_squares", "sample_rate"):
            out[column] = np.asarray(values, dtype=np.float64)
        else:
            for value in values:
                if isinstance(value, np.ndarray):
                    # shared by every frame handed out: an edit in place would leak
                    value.flags.writeable = False
            series = np.empty(len(values), dtype=object)
            series[:] = values
            out[column] = series
    return pd.DataFrame(out)


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
