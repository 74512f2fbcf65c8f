"""Text: strings per step, or string tensors (tables) (layer: kinds).

torch and tensorboardX ``add_text`` and TF2 ``tf.summary.text`` write a string tensor
under the ``text`` plugin; a single string becomes a ``str``, a larger tensor an
array of ``str`` (TensorBoard shows rank-2 text as a table).

Examples
--------
>>> import numpy as np
>>> decode_text(np.array([b"hello"], dtype=object))
'hello'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tbnb.decode.tensors import tensor_to_numpy
from tbnb.kinds.base import RecordsKind, Tab, TagMetadata, column_rows
from tbnb.kinds.batch import Batch, BatchRows, tensor_arrays, utf8_strings

KEY = "text"


def normalize(value: Any, meta: TagMetadata | None) -> Any:
    """A ``str``, or an array of ``str`` for a larger tensor (invalid UTF-8 replaced)."""
    return decode_text(tensor_to_numpy(value.tensor))


def decode_text(array: np.ndarray) -> Any:
    """Decode a string tensor: one element -> ``str``, more -> an object array of ``str``."""
    if array.dtype != object:
        return array.astype(str) if array.ndim else str(array)
    decoded = np.empty(array.shape, dtype=object)
    for index, item in np.ndenumerate(array):
        decoded[index] = bytes(item).decode("utf-8", "replace")
    # TensorBoard writes a single text as a rank-0 or a one-element rank-1 tensor
    return decoded.reshape(-1)[0] if decoded.size == 1 else decoded


def batch(values: Batch) -> BatchRows:
    """A window's text values, decoded natively (a single string without a numpy array)."""
    index = values.tensors()
    info, buf = index.info, values.buf
    single = (info[:, 0] == 7) & (info[:, 3] == 1) & (info[:, 4] == 3) & (info[:, 8] == 1)
    ok = single.copy()
    texts = np.empty(len(values), dtype=object)
    if single.any():
        spans = index.spans[info[single, 7]]
        texts[single] = utf8_strings(buf, spans[:, 0], spans[:, 1])
    others = np.flatnonzero(~single)
    if others.size:
        arrays = tensor_arrays(values.subset(others))
        for i, array in zip(others.tolist(), arrays, strict=True):
            if array is not None:
                texts[i] = decode_text(array)
                ok[i] = True
    return BatchRows.one_per_value(ok, {"text": texts[ok]})


KIND = RecordsKind(
    key=KEY,
    doc="Text summaries: run, tag, step, wall_time, text (str, or an array for rank > 0).",
    plugins=("text",),
    columns=("text",),
    normalize=normalize,
    rows=column_rows("text"),
    batch=batch,
    counted=True,
    tab=Tab("Text", "tbnb.widgets.text:text"),
    tbparse=("text",),
)
