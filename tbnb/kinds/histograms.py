"""Histograms: bucketed distributions of values per step (layer: kinds).

torch and tensorboardX write a legacy ``HistogramProto`` (variable-width buckets
given by ``bucket_limit``); TF2 writes a ``[k, 3]`` tensor of (left edge, right edge,
count). Both normalise to ``edges`` (k+1) and ``counts`` (k) as TensorBoard's
``data_compat`` does; the frame also keeps the writer's own buckets (``limits``,
``bucket``).

Examples
--------
>>> import numpy as np
>>> d = tensor_histogram(np.array([[0.0, 1.0, 2.0], [1.0, 3.0, 1.0]]))
>>> d["edges"].tolist(), d["counts"].tolist(), d["num"]
([0.0, 1.0, 3.0], [2.0, 1.0], 3.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tbnb.decode.tensors import TensorDecodeError, tensor_to_numpy
from tbnb.kinds.base import RecordsKind, Tab, TagMetadata, value_rows

KEY = "histograms"


def normalize(value: Any, meta: TagMetadata | None) -> dict[str, Any]:
    """The histogram as edges, counts, min, max, num, sum, sum_squares (+ raw buckets)."""
    if value.WhichOneof("value") == "histo":
        return legacy_histogram(value.histo)
    return tensor_histogram(tensor_to_numpy(value.tensor))


def legacy_histogram(histo: Any) -> dict[str, Any]:
    """Normalise a ``HistogramProto`` as TensorBoard's ``data_compat`` does.

    Empty buckets at both ends are dropped; ``min`` and ``max`` become the outer
    edges of the first and last non-empty bucket. A histogram whose counts and limits
    differ in number raises ``ValueError`` (the loader reports it, naming the file, tag
    and step, and keeps every other value).
    """
    counts = np.asarray(histo.bucket, dtype=np.float64)
    limits = np.asarray(histo.bucket_limit, dtype=np.float64)
    if counts.size != limits.size:
        raise ValueError(
            f"histogram has {counts.size} bucket counts but {limits.size} bucket limits"
        )
    nonzero = np.flatnonzero(counts > 0)
    if nonzero.size == 0:
        edges = np.zeros(0)
        kept = np.zeros(0)
    else:
        start, end = int(nonzero[0]), int(nonzero[-1])
        kept = counts[start : end + 1]
        edges = np.concatenate([[histo.min], limits[start:end], [histo.max]])
    return {
        "edges": edges,
        "counts": kept,
        "min": float(histo.min),
        "max": float(histo.max),
        "num": float(histo.num),
        "sum": float(histo.sum),
        "sum_squares": float(histo.sum_squares),
        "limits": limits,
        "bucket": counts,
    }


def tensor_histogram(array: np.ndarray) -> dict[str, Any]:
    """Normalise a TF2 ``[k, 3]`` histogram tensor (left edge, right edge, count)."""
    array = np.asarray(array, dtype=np.float64)
    if array.size == 0:
        array = array.reshape(0, 3)
    if array.ndim != 2 or array.shape[1] != 3:
        raise TensorDecodeError(f"histogram tensor has shape {array.shape}, expected [k, 3]")
    lefts, rights, counts = array[:, 0], array[:, 1], array[:, 2]
    edges = np.concatenate([lefts, rights[-1:]]) if len(lefts) else np.zeros(0)
    nan = float("nan")
    return {
        "edges": edges,
        "counts": counts.copy(),
        "min": float(lefts[0]) if len(lefts) else nan,
        "max": float(rights[-1]) if len(rights) else nan,
        "num": float(counts.sum()),
        "sum": nan,
        "sum_squares": nan,
        "limits": rights.copy(),
        "bucket": counts.copy(),
    }


KIND = RecordsKind(
    key=KEY,
    doc="Histograms: run, tag, step, wall_time, edges (k+1), counts (k), min, max, num, ...",
    plugins=("histograms",),
    legacy_field="histo",
    columns=("edges", "counts", "min", "max", "num", "sum", "sum_squares"),
    dtypes={
        "min": np.float64,
        "max": np.float64,
        "num": np.float64,
        "sum": np.float64,
        "sum_squares": np.float64,
    },
    normalize=normalize,
    rows=value_rows,
    counted=True,
    tbparse=("histograms", "tensors"),
    tab=Tab("Histograms", "tbnb.widgets.histograms:histograms"),
)
