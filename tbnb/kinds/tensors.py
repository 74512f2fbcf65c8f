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
from tbnb.kinds.batch import Batch, BatchRows, tensor_arrays

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


def scalar_rows(
    value: np.ndarray, single: np.ndarray, tags: np.ndarray, meta: dict[str, TagMetadata]
) -> dict[str, np.ndarray]:
    """The columns of rank-0 float tensors that the scalar decoder read (``value`` as
    ``float64``; ``single``: a ``DT_FLOAT``), as :func:`rows` makes them.

    Examples
    --------
    >>> cols = scalar_rows(np.array([0.5]), np.array([True]), np.array(["t"]), {})
    >>> cols["value"][0], cols["dtype"][0], cols["shape"][0]
    (array(0.5, dtype=float32), 'float32', ())
    """
    n = value.shape[0]
    cells = np.empty(n, dtype=object)
    cells[:] = [
        np.array(v, dtype=np.float32 if s else np.float64)
        for v, s in zip(value.tolist(), single.tolist(), strict=True)
    ]
    shapes = np.empty(n, dtype=object)
    shapes[:] = [()] * n
    plugins = np.empty(n, dtype=object)
    plugins[:] = [m.plugin_name if (m := meta.get(t)) else "" for t in tags.tolist()]
    return {
        "value": cells,
        "dtype": np.where(single, "float32", "float64").astype(object),
        "shape": shapes,
        "plugin": plugins,
    }


def batch(values: Batch) -> BatchRows:
    """A window's tensors (no plugin, or one tbnb has no kind for), decoded natively."""
    arrays = tensor_arrays(values)
    ok = np.array([a is not None for a in arrays], dtype=bool)
    kept = [(i, a) for i, a in enumerate(arrays) if a is not None]
    cells: dict[str, list[Any]] = {"value": [], "dtype": [], "shape": [], "plugin": []}
    for i, array in kept:
        meta = values.meta.get(values.tag[i])
        assert array is not None
        cells["value"].append(array)
        cells["dtype"].append(str(array.dtype))
        cells["shape"].append(tuple(array.shape))
        cells["plugin"].append(meta.plugin_name if meta else "")
    columns = {}
    for name, items in cells.items():
        column = np.empty(len(items), dtype=object)
        column[:] = items
        columns[name] = column
    return BatchRows.one_per_value(ok, columns)


KIND = RecordsKind(
    key=KEY,
    doc="Every other tensor summary: value (numpy array), dtype, shape, plugin.",
    columns=("value", "dtype", "shape", "plugin"),
    normalize=normalize,
    rows=rows,
    batch=batch,
    counted=True,
    tbparse=("tensors",),
)
