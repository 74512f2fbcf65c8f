"""Scalars: one number per (run, tag, step) (layer: kinds).

torch and tensorboardX write ``simple_value``; TF2 writes a rank-0 tensor under the
``scalars`` plugin. Points are kept in the experiment's columnar scalar store, not
as rows; most of them never reach :func:`normalize` (the compiled decoder reads the
common layouts straight from the file).

Examples
--------
>>> from tbnb._proto import Summary
>>> normalize(Summary.Value(tag="loss", simple_value=0.25), None)
0.25
"""

from __future__ import annotations

from typing import Any

from tbnb.decode.tensors import tensor_to_numpy
from tbnb.kinds.base import AsTensor, ColumnarKind, Tab, TagMetadata

KEY = "scalars"


def normalize(value: Any, meta: TagMetadata | None) -> float | AsTensor:
    """A float, or :class:`AsTensor` for a scalar-plugin tensor that is not one real
    number (several values, a string, a complex number: kept whole as a tensor)."""
    if value.WhichOneof("value") == "simple_value":
        return float(value.simple_value)
    array = tensor_to_numpy(value.tensor)
    if array.size != 1 or array.dtype == object or array.dtype.kind == "c":
        return AsTensor(array)
    return float(array.reshape(()))


KIND = ColumnarKind(
    key=KEY,
    doc="Scalar points: run, tag, step, wall_time, value (TF2 tensor scalars included).",
    plugins=("scalars",),
    legacy_field="simple_value",
    columns=("value",),
    normalize=normalize,
    tbparse=("scalars",),
    tab=Tab("Scalars", "tbnb.widgets.scalars:scalars"),
)
