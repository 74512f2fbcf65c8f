"""Node attributes (``AttrValue``) as plain Python values, and their short text.

A ``NodeDef``'s attributes hold strings, numbers, dtypes, shapes, tensors, function
references and lists of them. :func:`attr_to_python` turns one into a value a
DataFrame cell can hold and a person can read: bytes as text, a ``DataType`` as its
numpy-style name, a shape as a tuple (``None`` for an unknown dimension), a small
tensor as its values and a large one as ``<float32 [3, 3, 64]>``.

Examples
--------
>>> from tbnb._proto import message_class
>>> AttrValue = message_class("tensorboard.AttrValue")
>>> attr_to_python(AttrValue(s=b"SAME"))
'SAME'
>>> attr_to_python(AttrValue(type=1))
'float32'
>>> value = AttrValue()
>>> _ = value.shape.dim.add(size=-1), value.shape.dim.add(size=10)
>>> attr_to_python(value)
(None, 10)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tbnb._proto import enum_value
from tbnb.decode.tensors import TensorDecodeError, tensor_shape, tensor_to_numpy

__all__ = ["SHAPES_ATTR", "attr_text", "attr_to_python", "dtype_name", "shape_of", "shapes_text"]

SHAPES_ATTR = "_output_shapes"
"""The attribute writers put a node's output shapes in (torch, tensorboardX, TF)."""

_SMALL_TENSOR = 16
"""Tensors of up to this many elements are shown by value."""

_NAMES = {
    1: "float32",
    2: "float64",
    3: "int32",
    4: "uint8",
    5: "int16",
    6: "int8",
    7: "string",
    8: "complex64",
    9: "int64",
    10: "bool",
    14: "bfloat16",
    17: "uint16",
    18: "complex128",
    19: "float16",
    20: "resource",
    21: "variant",
    22: "uint32",
    23: "uint64",
}


def dtype_name(value: int) -> str:
    """The name of a ``DataType`` number (``1`` -> ``'float32'``).

    Examples
    --------
    >>> dtype_name(9), dtype_name(101)
    ('int64', 'float32_ref')
    """
    if value > 100:  # reference types (TF1 variables) are the type + 100
        return f"{dtype_name(value - 100)}_ref"
    name = _NAMES.get(value)
    if name is not None:
        return name
    for candidate in ("DT_QINT8", "DT_QUINT8", "DT_QINT32", "DT_QINT16", "DT_QUINT16"):
        if enum_value("tensorboard.DataType", candidate) == value:
            return candidate[3:].lower()
    return f"dtype({value})"


def shape_of(shape: Any) -> tuple[int | None, ...] | None:
    """A ``TensorShapeProto`` as a tuple (``None`` for unknown dims; ``None`` if rank unknown).

    Examples
    --------
    >>> from tbnb._proto import TensorShapeProto
    >>> shape_of(TensorShapeProto(dim=[{"size": 2}, {"size": -1}]))
    (2, None)
    """
    if shape.unknown_rank:
        return None
    return tuple(int(d.size) if d.size >= 0 else None for d in shape.dim)


def _tensor(tensor: Any) -> Any:
    shape = tensor_shape(tensor)
    size = int(np.prod(shape, dtype=np.int64)) if shape else 1
    if size <= _SMALL_TENSOR:
        try:
            array = tensor_to_numpy(tensor)
        except TensorDecodeError:
            pass
        else:
            if array.dtype == object:
                array = (
                    np.vectorize(lambda b: b.decode("utf-8", "replace"), otypes=[object])(array)
                    if array.size
                    else array
                )
            return array.tolist()
    return f"<{dtype_name(int(tensor.dtype))} {list(shape)}>"


def _function(func: Any) -> str:
    return str(func.name)


def attr_to_python(value: Any) -> Any:
    """One ``AttrValue`` as a readable Python value (see the module docstring)."""
    which = value.WhichOneof("value")
    if which is None:
        return None
    if which == "s":
        return bytes(value.s).decode("utf-8", "replace")
    if which in ("i", "b"):
        return getattr(value, which)
    if which == "f":
        return float(np.float32(value.f))
    if which == "type":
        return dtype_name(int(value.type))
    if which == "shape":
        return shape_of(value.shape)
    if which == "tensor":
        return _tensor(value.tensor)
    if which == "func":
        return _function(value.func)
    if which == "placeholder":
        return f"${value.placeholder}"
    items = value.list
    for field in ("s", "i", "f", "b", "type", "shape", "tensor", "func"):
        values = getattr(items, field)
        if len(values):
            if field == "s":
                return [bytes(v).decode("utf-8", "replace") for v in values]
            if field == "f":
                return [float(np.float32(v)) for v in values]
            if field == "type":
                return [dtype_name(int(v)) for v in values]
            if field == "shape":
                return [shape_of(v) for v in values]
            if field == "tensor":
                return [_tensor(v) for v in values]
            if field == "func":
                return [_function(v) for v in values]
            return list(values)
    return []


def shapes_text(shapes: list[tuple[int | None, ...] | None] | None) -> str:
    """Output shapes as text: ``[1, 64, 56, 56]`` (``?`` unknown), outputs joined by ``; ``.

    Examples
    --------
    >>> shapes_text([(1, None, 3), None])
    '[1, ?, 3]; ?'
    >>> shapes_text(None)
    ''
    """
    if not shapes:
        return ""
    parts = []
    for shape in shapes:
        if shape is None:
            parts.append("?")
        else:
            parts.append("[" + ", ".join("?" if d is None else str(d) for d in shape) + "]")
    return "; ".join(parts)


def attr_text(attributes: dict[str, Any], limit: int = 240) -> str:
    """Attributes as one line of ``key=value`` pairs, cut at ``limit`` characters.

    Examples
    --------
    >>> attr_text({"T": "float32", "padding": "SAME"})
    'T=float32, padding=SAME'
    >>> len(attr_text({"value": "x" * 500}, limit=20))
    20
    """
    text = ", ".join(f"{k}={v}" for k, v in sorted(attributes.items()))
    return text if len(text) <= limit else text[: limit - 1] + "…"
