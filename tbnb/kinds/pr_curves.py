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

from typing import Any

import numpy as np

from tbnb._proto import PrCurvePluginData
from tbnb.decode.tensors import TensorDecodeError, tensor_to_numpy
from tbnb.kinds.base import Kind, TagMetadata, value_rows

KEY = "pr_curves"

PR_CURVE_ROWS = ("true_positives", "false_positives", "true_negatives", "false_negatives",
                 "precision", "recall")
"""The rows of the plugin's tensor, in order."""


def normalize(value: Any, meta: TagMetadata | None) -> dict[str, Any]:
    """Thresholds and the six rows of the plugin tensor, as float64 arrays."""
    return pr_curve(tensor_to_numpy(value.tensor), meta)


def pr_curve(array: np.ndarray, meta: TagMetadata | None) -> dict[str, Any]:
    """Split a ``[6, n]`` PR-curve tensor into named arrays, with its thresholds."""
    array = np.asarray(array, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] != len(PR_CURVE_ROWS):
        raise TensorDecodeError(f"pr_curve tensor has shape {array.shape}, expected [6, n]")
    n = array.shape[1]
    if meta is not None and meta.content:
        declared = int(PrCurvePluginData.FromString(meta.content).num_thresholds)
        n = declared or n
    out: dict[str, Any] = {"thresholds": np.linspace(0.0, 1.0, array.shape[1])}
    if n != array.shape[1]:
        out["thresholds"] = np.arange(array.shape[1]) / max(n - 1, 1)
    for name, row in zip(PR_CURVE_ROWS, array, strict=True):
        out[name] = row.copy()
    return out


KIND = Kind(
    key=KEY,
    doc="PR curves: one row per (run, tag, step) with threshold/precision/recall/... arrays.",
    plugins=("pr_curves",),
    columns=("thresholds", "precision", "recall", *PR_CURVE_ROWS[:4]),
    normalize=normalize,
    rows=value_rows,
    counted=True,
    tbparse=("tensors",),
)
