"""Tensors: every tensor summary no other kind claims (layer: kinds).

Examples
--------
>>> import numpy as np
>>> from tbnb._proto import Summary, TensorProto
>>> value = Summary.Value(tag="t", tensor=TensorProto(dtype=1, float_val=[1, 2],
...     tensor_shape={"dim": [{"size": 2}]}))
>>> normalize(value, None).tolist()
[1.0, 2.0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tbnb.decode.tensors import tensor_to_numpy
from tbnb.kinds.base import RecordsKind, RowContext, TagMetadata

KEY = "tensors"


def normalize(value: Any, meta: TagMetadata | None) -> np.ndarray:
    """The value's tensor as a numpy array."""
    return tensor_to_numpy(value.tensor)


def rows(data: np.ndarray, context: RowContext) -> list[dict[str, Any]]:
    """One row per value, with its dtype, shape and the plugin that wrote it."""
    meta = context.meta
    return [
        {
            **context.base(),
            "value": data,
            "dtype": str(data.dtype),
            "shape": tuple(data.shape),
            "plugin": meta.plugin_name if meta else "",
        }
    ]


KIND = RecordsKind(
    key=KEY,
    doc="Every other tensor summary: value (numpy array), dtype, shape, plugin.",
    columns=("value", "dtype", "shape", "plugin"),
    normalize=normalize,
    rows=rows,
    counted=True,
    tbparse=("tensors",),
)
