"""PR curves: precision/recall at every threshold, per step (layer: kinds).

The ``pr_curves`` plugin writes a ``[6, num_thresholds]`` tensor: true positives,
false positives, true negatives, false negatives, precision and recall, at
thresholds evenly spaced in [0, 1] (``num_thresholds`` is in the plugin metadata).

Examples
--------
>>> import numpy as np
>>> curve = pr_curve(np.ones((6, 3)), None)
>>> curve["thresholds"].tolist()
[0.0, 0.5, 1.0]
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from tbnb._proto import PrCurvePluginData
from tbnb.decode.tensors import TensorDecodeError, tensor_to_numpy
from tbnb.kinds.base import Kind, Tab, TagMetadata, value_rows
from tbnb.kinds.batch import Batch, BatchRows, tensor_arrays

KEY = "pr_curves"

PR_CURVE_ROWS = (
    "true_positives",
    "false_positives",
    "true_negatives",
    "false_negatives",
    "precision",
    "recall",
)
"""The rows of the plugin's tensor, in order."""


def normalize(value: Any, meta: TagMetadata | None) -> dict[str, Any]:
    """Thresholds and the six rows of the plugin tensor (float arrays as written)."""
    return pr_curve(tensor_to_numpy(value.tensor), meta)


@lru_cache(maxsize=64)
def _thresholds(columns: int, declared: int) -> np.ndarray:
    """Evenly spaced thresholds (one read-only array shared by every curve of its size)."""
    grid = (
        np.linspace(0.0, 1.0, columns)
        if declared == columns
        else np.arange(columns) / max(declared - 1, 1)
    )
    grid.flags.writeable = False
    return grid


def pr_curve(array: np.ndarray, meta: TagMetadata | None) -> dict[str, Any]:
    """Split a ``[6, n]`` PR-curve tensor into named arrays, with its thresholds.

    Rows keep the tensor's float dtype (float32 for every writer: half the memory of
    float64 for the 127-threshold curves torch writes); other dtypes become float64.
    Thresholds are ``i / (num_thresholds - 1)``, ``num_thresholds`` from the plugin
    metadata (TensorBoard spaces them over the tensor's columns, the same number for
    every writer).
    """
    array = np.asarray(array)
    if array.dtype.kind != "f":
        array = array.astype(np.float64)
    if array.ndim != 2 or array.shape[0] != len(PR_CURVE_ROWS):
        raise TensorDecodeError(f"pr_curve tensor has shape {array.shape}, expected [6, n]")
    n = array.shape[1]
    if meta is not None and meta.content:
        declared = int(PrCurvePluginData.FromString(meta.content).num_thresholds)
        n = declared or n
    out: dict[str, Any] = {"thresholds": _thresholds(array.shape[1], n)}
    for name, row in zip(PR_CURVE_ROWS, array, strict=True):
        out[name] = row
    return out


def batch(values: Batch) -> BatchRows:
    """A window's PR curves, decoded natively (the tensors without protobuf)."""
    ok = np.zeros(len(values), dtype=bool)
    curves = []
    for i, array in enumerate(tensor_arrays(values)):
        if array is None:
            continue
        try:
            curves.append(pr_curve(array, values.meta.get(values.tag[i])))
        except Exception:  # protobuf's path decides and reports (or raises, as it does)
            continue
        ok[i] = True
    columns = {}
    for name in ("thresholds", *PR_CURVE_ROWS):
        cells = np.empty(len(curves), dtype=object)
        cells[:] = [curve[name] for curve in curves]
        columns[name] = cells
    return BatchRows.one_per_value(ok, columns)


KIND = Kind(
    key=KEY,
    doc="PR curves: one row per (run, tag, step) with threshold/precision/recall/... arrays.",
    plugins=("pr_curves",),
    columns=("thresholds", "precision", "recall", *PR_CURVE_ROWS[:4]),
    normalize=normalize,
    rows=value_rows,
    batch=batch,
    counted=True,
    tbparse=("tensors",),
    tab=Tab("PR curves", "tbnb.widgets.pr_curves:pr_curves"),
)
