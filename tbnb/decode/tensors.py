"""Decode ``TensorProto`` messages into numpy arrays (layer 2).

TensorFlow stores a tensor either as raw little-endian bytes in ``tensor_content`` or
in a typed repeated field (``float_val``, ``int_val``, ...); a single value in a typed
field (or a single string) means "every element has this value", a short one is padded
with its last value, raw bytes must fill the shape exactly, and one ``-1`` dimension
is inferred from the values. Both forms are handled for every dtype a summary can
carry, as TensorBoard's ``tensor_util.make_ndarray`` reads them (tested against it;
the padding is TensorFlow's own reader's).

A tensor's shape is a claim of the file: it is checked against the values the record
holds before anything is allocated. A typed field may stand for more elements than it
holds (TensorFlow's fill rule) only up to :data:`MAX_FILLED_ELEMENTS`; beyond, or when
the shape cannot be that of the values, :class:`TensorDecodeError` says so (the loader
reports it naming the file, tag and step, and keeps every other value).

Examples
--------
>>> from tbnb._proto import TensorProto
>>> t = TensorProto(dtype=1, float_val=[0.5])
>>> tensor_to_numpy(t)
array(0.5, dtype=float32)
"""

from __future__ import annotations

import math
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

MAX_FILLED_ELEMENTS = 1 << 16
"""The most elements a tensor may have when its typed field holds fewer values (filled
as TensorFlow fills them); a record claiming more is refused, whatever its shape says."""


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
    try:
        np_dtype, field = _DTYPES[int(tensor.dtype)]
    except KeyError:
        raise TensorDecodeError(f"unsupported tensor dtype {int(tensor.dtype)}") from None

    if tensor.dtype == DT_STRING:
        if tensor.tensor_content:
            raise TensorDecodeError("string tensor holds raw tensor_content")
        held = len(tensor.string_val)
    elif tensor.tensor_content:
        held, extra = divmod(len(tensor.tensor_content), np.dtype(np_dtype).itemsize)
        if extra:
            raise TensorDecodeError(
                f"tensor_content of {len(tensor.tensor_content)} bytes is not a whole "
                f"number of {np.dtype(np_dtype).name} values"
            )
    else:
        held = len(getattr(tensor, field))
        if np_dtype in (np.complex64, np.complex128):
            held //= 2
    if any(d < 0 for d in shape):
        shape = _infer_dimension(shape, held, bool(tensor.tensor_content))
    size = math.prod(shape)  # exact: a claimed shape may not fit in 64 bits
    _check_size(shape, size, held)
    if tensor.dtype == DT_STRING:
        values = list(tensor.string_val)
        arr = np.empty(len(values), dtype=object)
        arr[:] = values
    elif tensor.tensor_content:
        arr = content_array(tensor.tensor_content, int(tensor.dtype))
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
            arr = widen_bfloat16(arr)
    return fit_shape(arr, shape, size, bool(tensor.tensor_content), tensor.dtype == DT_STRING)


def _infer_dimension(shape: tuple[int, ...], held: int, content: bool) -> tuple[int, ...]:
    """``shape`` with its one ``-1`` dimension inferred from the values held, as
    TensorBoard's reader reshapes them (a single typed value or string cannot fill an
    unknown shape; any other negative dimension is refused)."""
    unknown = [i for i, d in enumerate(shape) if d < 0]
    known = math.prod(d for d in shape if d >= 0)
    if len(unknown) > 1 or shape[unknown[0]] != -1 or known == 0 or held % known:
        raise TensorDecodeError(f"tensor has unknown dimensions {shape} for {held} values")
    if held == 1 and not content:
        raise TensorDecodeError(f"one value cannot fill a tensor of unknown shape {shape}")
    return tuple(held // known if d < 0 else d for d in shape)


def _check_size(shape: tuple[int, ...], size: int, held: int) -> None:
    """Refuse a shape that the values held cannot fill (before anything is allocated)."""
    if size > held and size > MAX_FILLED_ELEMENTS:
        raise TensorDecodeError(
            f"tensor of shape {shape} claims {size} elements but its record holds {held} "
            f"values (more than {MAX_FILLED_ELEMENTS} filled elements are refused)"
        )


def widen_bfloat16(arr: np.ndarray) -> np.ndarray:
    """bfloat16 bits (``uint16``) as the ``float32`` numbers they stand for."""
    widened: np.ndarray = (arr.astype(np.uint32) << 16).view(np.float32)
    return widened


def content_array(raw: Any, dtype: int) -> np.ndarray:
    """The values of a non-string ``tensor_content`` (little-endian bytes) as a new array.

    Examples
    --------
    >>> content_array(b"\\x00\\x00\\x80\\x3f", DT_FLOAT)
    array([1.], dtype=float32)
    """
    np_dtype = _DTYPES[dtype][0]
    arr = np.frombuffer(raw, dtype=np.dtype(np_dtype).newbyteorder("<")).astype(np_dtype)
    return widen_bfloat16(arr) if dtype == DT_BFLOAT16 else arr


def fit_shape(
    arr: np.ndarray, shape: tuple[int, ...], size: int, content: bool, strings: bool = False
) -> np.ndarray:
    """``arr`` (1-D values) as a tensor of ``shape``, as TensorBoard's reader shapes them:
    raw bytes (``content``) must fill the shape exactly; a single value of a typed field
    or a single string stands for every element (none, for a shape of no elements); a
    short typed field is padded with its last value (TensorFlow's own reader's rule).
    Raises :class:`TensorDecodeError` when the values cannot make that shape."""
    _check_size(shape, size, arr.size)
    if arr.size == size:
        return arr.reshape(shape)
    if arr.size == 1 and not content:  # one value stands for every element
        return np.repeat(arr, size).reshape(shape)
    if 0 < arr.size < size and not (content or strings):
        # TensorFlow pads a short typed field with its last value.
        return np.concatenate([arr, np.repeat(arr[-1:], size - arr.size)]).reshape(shape)
    raise TensorDecodeError(f"tensor of shape {shape} holds {arr.size} values")
