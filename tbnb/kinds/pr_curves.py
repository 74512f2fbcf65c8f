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
from google.protobuf.message import DecodeError

from tbnb._proto import PrCurvePluginData
from tbnb.decode.tensors import TensorDecodeError, tensor_to_numpy
from tbnb.kinds.base import RecordsKind, Tab, TagMetadata, value_rows
from tbnb.kinds.batch import Batch, BatchRows, object_array, tensor_arrays, tensor_groups

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


def _declared(meta: TagMetadata | None, columns: int) -> int:
    """The thresholds a tag's metadata declares (its curves' column count if none).

    Raises
    ------
    TensorDecodeError
        When the metadata's content is not a ``PrCurvePluginData``.
    """
    if meta is not None and meta.content:
        try:
            declared = int(PrCurvePluginData.FromString(meta.content).num_thresholds)
        except DecodeError:
            raise TensorDecodeError("its pr_curves metadata cannot be parsed") from None
        return declared or columns
    return columns


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
    out: dict[str, Any] = {
        "thresholds": _thresholds(array.shape[1], _declared(meta, array.shape[1]))
    }
    for name, row in zip(PR_CURVE_ROWS, array, strict=True):
        out[name] = row
    return out


def batch(values: Batch) -> BatchRows:
    """A window's PR curves, decoded natively: ``[6, n]`` tensors of one dtype and size
    decoded at once (:func:`tbnb.kinds.batch.tensor_groups`), each row a read-only view;
    any other tensor as :func:`pr_curve` splits it."""
    n = len(values)
    ok = np.zeros(n, dtype=bool)
    columns = {name: np.empty(n, dtype=object) for name in ("thresholds", *PR_CURVE_ROWS)}
    groups, rest = tensor_groups(values)
    declared: dict[tuple[str, int], int | None] = {}
    for group in groups:
        array = group.array
        if array.ndim != 3 or array.shape[1] != len(PR_CURVE_ROWS):
            rest = np.concatenate([rest, group.which])
            continue
        if array.dtype.kind != "f":
            array = array.astype(np.float64)
            array.flags.writeable = False
        k, width = array.shape[0], array.shape[2]
        rows = object_array(list(array.reshape(k * len(PR_CURVE_ROWS), width)))
        for r, name in enumerate(PR_CURVE_ROWS):
            columns[name][group.which] = rows[r :: len(PR_CURVE_ROWS)]
        grids = []
        for tag in values.tag[group.which].tolist():
            key = (tag, width)
            if key not in declared:
                try:
                    declared[key] = _declared(values.meta.get(tag), width)
                except TensorDecodeError:
                    declared[key] = None  # left to protobuf's path, which reports it
            count = declared[key]
            grids.append(None if count is None else _thresholds(width, count))
        good = np.array([grid is not None for grid in grids], dtype=bool)
        columns["thresholds"][group.which] = object_array(grids)
        ok[group.which[good]] = True
    for i in np.sort(rest).tolist():
        (alone,) = tensor_arrays(values.subset(np.array([i])))
        if alone is None:
            continue
        try:
            curve = pr_curve(alone, values.meta.get(values.tag[i]))
        except Exception:  # protobuf's path decides and reports (or raises, as it does)
            continue
        for name, cell in curve.items():
            columns[name][i] = cell
        ok[i] = True
    return BatchRows.one_per_value(ok, {name: column[ok] for name, column in columns.items()})


KIND = RecordsKind(
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
