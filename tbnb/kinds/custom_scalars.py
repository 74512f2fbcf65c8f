"""Custom-scalars layouts: the charts a run asks TensorBoard to draw (layer: kinds).

The ``custom_scalars`` plugin stores a serialized ``Layout`` (categories of charts,
each a multiline chart of tag regexes or a margin chart of value/lower/upper tags)
as the tensor's string; older writers put it in the plugin content instead.

Examples
--------
>>> from tbnb._proto import Summary, SummaryMetadata, TensorProto
>>> value = Summary.Value(tag="custom_scalars__config__",
...                       tensor=TensorProto(dtype=7, string_val=[b"layout"]))
>>> normalize(value, None)
b'layout'
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from tbnb.kinds.base import Kind, TagMetadata, column_rows

KEY = "custom_scalars"


def normalize(value: Any, meta: TagMetadata | None) -> bytes:
    """The serialized ``Layout``."""
    strings = list(value.tensor.string_val)
    if strings:
        return bytes(strings[0])
    return meta.content if meta is not None else b""



def latest_layouts(frame: pd.DataFrame) -> dict[str, bytes]:
    """Run -> the serialized ``Layout`` it wrote last."""
    return {str(run): rows_["layout"].iloc[-1]
            for run, rows_ in frame.groupby("run", observed=True, sort=False)}


KIND = Kind(
    key=KEY,
    doc="The custom-scalars layout (a serialized ``Layout``) written by each run.",
    plugins=("custom_scalars",),
    columns=("layout",),
    normalize=normalize,
    rows=column_rows("layout"),
    own_metadata=True,
    tbparse=("tensors",),
    finish=latest_layouts,
)
