"""Histograms: bucketed distributions of values per step (layer: kinds).

torch and tensorboardX write a legacy ``HistogramProto`` (variable-width buckets
given by ``bucket_limit``); TF2 writes a ``[k, 3]`` tensor of (left edge, right edge,
count). Both normalise to ``edges`` (k+1) and ``counts`` (k) as TensorBoard's
``data_compat`` does (tbparse's view also keeps the writer's own buckets, ``limits``
and ``bucket``). A histogram of more than :data:`MAX_BUCKETS` buckets is refused with a
warning naming the file, tag and step (no writer's default comes near; decoding one of
millions would stall the load and every view of it).

:func:`batch` decodes a window's histograms natively (both forms), equal to
:func:`normalize` bit for bit.

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
from tbnb.kinds.base import Kind, Tab, TagMetadata, value_rows
from tbnb.kinds.batch import Batch, BatchRows

KEY = "histograms"

MAX_BUCKETS = 1 << 16
"""The most buckets a histogram may have (torch's ``bins="tensorflow"``: about 1,500)."""

_SUM_GROUPED_UP_TO = 4096
"""Tensors' ``num`` is summed row-wise for histograms of up to this many buckets at once."""


def _too_many(buckets: int) -> ValueError:
    return ValueError(f"histogram has {buckets} buckets, more than the {MAX_BUCKETS} tbnb reads")


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
    if len(histo.bucket) > MAX_BUCKETS or len(histo.bucket_limit) > MAX_BUCKETS:
        raise _too_many(max(len(histo.bucket), len(histo.bucket_limit)))
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
    if array.shape[0] > MAX_BUCKETS:
        raise _too_many(array.shape[0])
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


def batch(values: Batch) -> BatchRows:
    """A window's histograms (legacy protos and TF2 tensors), decoded natively."""
    from tbnb.native.kernels import histograms_kernel

    raw = values.raw_buckets
    stats, status, edge_at, count_at, edges, counts, raw_at, limits, bucket = histograms_kernel(
        values.buf, values.start, values.length, values.code, MAX_BUCKETS, raw
    )
    ok = status == 0
    rows = np.flatnonzero(ok)
    num = stats[:, 2].copy()
    tensor = np.flatnonzero(ok & (values.code == 4))
    if tensor.size:
        num[tensor] = _sums(counts, count_at, tensor)
    columns: dict[str, Any] = {
        "edges": (edges, edge_at[rows], edge_at[rows + 1]),
        "counts": (counts, count_at[rows], count_at[rows + 1]),
        "min": stats[rows, 0],
        "max": stats[rows, 1],
        "num": num[rows],
        "sum": stats[rows, 3],
        "sum_squares": stats[rows, 4],
    }
    if raw:
        assert raw_at is not None
        columns["limits"] = (limits, raw_at[rows], raw_at[rows + 1])
        columns["bucket"] = (bucket, raw_at[rows], raw_at[rows + 1])
    return BatchRows.one_per_value(ok, columns)


def _sums(counts: np.ndarray, at: np.ndarray, which: np.ndarray) -> np.ndarray:
    """``counts[at[i]:at[i + 1]].sum()`` for each ``i`` of ``which``, as numpy sums one
    histogram's counts (its pairwise summation: rows of one length summed at once)."""
    lo, k = at[which], at[which + 1] - at[which]
    out = np.zeros(which.size, dtype=np.float64)
    for size in np.unique(k).tolist():
        group = np.flatnonzero(k == size)
        if size == 0:
            continue
        if size <= _SUM_GROUPED_UP_TO:
            out[group] = counts[lo[group][:, None] + np.arange(size)].sum(axis=1)
        else:  # one at a time, laid out as tensor_histogram sums it
            for g in group.tolist():
                rows = np.zeros((size, 3))
                rows[:, 2] = counts[lo[g] : lo[g] + size]
                out[g] = rows[:, 2].sum()
    return out


KIND = Kind(
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
    batch=batch,
    counted=True,
    tbparse=("histograms", "tensors"),
    tab=Tab("Histograms", "tbnb.widgets.histograms:histograms"),
)
