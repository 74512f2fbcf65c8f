"""Decode ``TensorProto`` messages into numpy arrays (layer 2).

TensorFlow stores a tensor either as raw little-endian bytes in ``tensor_content`` or
in a typed repeated field (``float_val``, ``int_val``, ...); a single value in a typed
field means "every element has this value". Both forms are handled for every dtype a
summary can carry.

Examples
--------
>>> from tbnb._proto import TensorProto
>>> t = TensorProto(dtype=1, float_val=[0.5])
>>> tensor_to_numpy(t)
array(0.5, dtype=float32)
"""

from __future__ import annotations

from typing import Any

import numpy as np

# DataType enum value -> (numpy dtype, typed field holding the values)
_DTYPES: dict[int, tuple[Any, str]] = {
    1: (np.float32, "float_val"),
    2: (np.float64, "double_val"),
    3: (np.int32, "int_val"),
    4: (np.uint8, "int_val"),
    5: (np.int16, "int_val"),
    6: (np.int8, "int_val"),
    7: (object, "string_val"),
    8: (np.complex64, "scomplex_val"),
    9: (np.int64, "int64_val"),
    10: (np.bool_, "bool_val"),
    11: (np.int8, "int_val"),  # qint8
    12: (np.uint8, "int_val"),  # quint8
    13: (np.int32, "int_val"),  # qint32
    14: (np.uint16, "half_val"),  # bfloat16 bits, widened below
    15: (np.int16, "int_val"),  # qint16
    16: (np.uint16, "int_val"),  # quint16
    17: (np.uint16, "int_val"),
    18: (np.complex128, "dcomplex_val"),
    19: (np.float16, "half_val"),
    22: (np.uint32, "uint32_val"),
    23: (np.uint64, "uint64_val"),
}

DT_FLOAT, DT_DOUBLE, DT_STRING, DT_BFLOAT16, DT_HALF = 1, 2, 7, 14, 19


class TensorDecodeError(ValueError):
    """A tensor whose dtype or size cannot be decoded."""


def tensor_shape(tensor: Any) -> tuple[int, ...]:
    """Return the shape of a ``TensorProto`` (``()`` for a scalar)."""
    return tuple(int(d.size) for d in tensor.tensor_shape.dim)


def tensor_to_numpy(tensor: Any) -> np.ndarray:
    """Return the contents of a ``TensorProto`` as a numpy array.

    Strings come back as an object array of ``bytes``; ``bfloat16`` is widened to
    ``float32`` (numpy has no bfloat16).

    Raises
    ------
    TensorDecodeError
        For an unsupported dtype or a value count that does not fit the shape.
    """
    shape = tensor_shape(tensor)
    if any(d < 0 for d in shape):
        raise TensorDecodeError(f"tensor has unknown dimensions {shape}")
    size = int(np.prod(shape, dtype=np.int64))
    try:
        np_dtype, field = _DTYPES[int(tensor.dtype)]
    except KeyError:
        raise TensorDecodeError(f"unsupported tensor dtype {int(tensor.dtype)}") from None

    if tensor.dtype == DT_STRING:
        values = list(tensor.string_val)
        arr = np.empty(len(values), dtype=object)
        arr[:] = values
    elif tensor.tensor_content:
        raw = np.frombuffer(tensor.tensor_content, dtype=np.dtype(np_dtype).newbyteorder("<"))
        arr = raw.astype(np_dtype)
    else:
        raw_values = getattr(tensor, field)
        if tensor.dtype in (DT_HALF, DT_BFLOAT16):
            arr = np.asarray(raw_values, dtype=np.uint16).view(np_dtype)
        elif np_dtype in (np.complex64, np.complex128):
            pairs = np.asarray(raw_values, dtype=np.float64)
            arr = (pairs[0::2] + 1j * pairs[1::2]).astype(np_dtype)
        else:
            arr = np.asarray(raw_values, dtype=np_dtype)
    if tensor.dtype == DT_BFLOAT16:
        arr = (arr.astype(np.uint32) << 16).view(np.float32)

    if arr.size == size:
        return arr.reshape(shape)
    if arr.size == 1 and size > 1:  # one value stands for every element
        return np.repeat(arr, size).reshape(shape)
    if arr.size == 0 and size == 0:
        return arr.reshape(shape)
    if 0 < arr.size < size and tensor.dtype != DT_STRING and not tensor.tensor_content:
        # TensorFlow pads a short typed field with its last value.
        return np.concatenate([arr, np.repeat(arr[-1:], size - arr.size)]).reshape(shape)
    raise TensorDecodeError(f"tensor of shape {shape} holds {arr.size} values")
