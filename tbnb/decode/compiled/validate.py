"""Validators that mirror protobuf's acceptance rules for the fields the fast path reads.

A ``SummaryMetadata`` (and its ``PluginData``) must parse exactly as protobuf
would parse it, and a ``TensorProto`` must be a rank-0 ``DT_FLOAT`` or ``DT_DOUBLE``
with exactly one element, or the record goes to protobuf.

Examples
--------
>>> import numpy as np
>>> from tbnb._proto import TensorProto
>>> raw = TensorProto(dtype=1, float_val=[0.5]).SerializeToString()
>>> ok, value, code = tensor_scalar(np.frombuffer(raw, np.uint8), 0, len(raw))
>>> ok, value, code == DTYPE_FLOAT
(True, 0.5, True)
"""

from __future__ import annotations

import numpy as np

from tbnb.decode.compiled.wire import (
    f32,
    f64,
    field_key,
    length_delimited,
    skip_field,
    skip_varint_field,
    valid_utf8,
    varint,
)
from tbnb.decode.layouts import DTYPE_DOUBLE, DTYPE_FLOAT
from tbnb.jit import njit


@njit
def valid_plugin_data(buf: np.ndarray, p: int, end: int) -> bool:
    """``SummaryMetadata.PluginData`` parses: plugin_name UTF-8, content any bytes."""
    while p < end:
        k, p = field_key(buf, p, end)
        if p < 0:
            return False
        if k >> 3 <= 2:
            if k & 7 != 2:
                return False
            s, e = length_delimited(buf, p, end)
            if s < 0 or (k >> 3 == 1 and not valid_utf8(buf, s, e)):
                return False
            p = e
        else:
            p = skip_field(buf, p, end, k & 7)
            if p < 0:
                return False
    return True


@njit
def valid_metadata(buf: np.ndarray, p: int, end: int) -> bool:
    """``SummaryMetadata`` parses as protobuf would parse it (else: fall back)."""
    while p < end:
        k, p = field_key(buf, p, end)
        if p < 0:
            return False
        field = k >> 3
        if field <= 3:
            if k & 7 != 2:
                return False
            s, e = length_delimited(buf, p, end)
            if s < 0:
                return False
            if field == 1:
                if not valid_plugin_data(buf, s, e):
                    return False
            elif not valid_utf8(buf, s, e):
                return False
            p = e
        elif field == 4:
            if k & 7 != 0:
                return False
            _, p = varint(buf, p, end)
            if p < 0:
                return False
        else:
            p = skip_field(buf, p, end, k & 7)
            if p < 0:
                return False
    return True


@njit
def shape_is_scalar(buf: np.ndarray, p: int, end: int) -> bool:
    """A ``TensorShapeProto`` with no ``dim`` and ``unknown_rank`` false."""
    unknown_rank = np.int64(0)
    while p < end:
        key, p = field_key(buf, p, end)
        if p < 0:
            return False
        if key == (3 << 3):  # unknown_rank, varint
            unknown_rank, p = varint(buf, p, end)
            if p < 0:
                return False
        else:
            return False
    return bool(unknown_rank == 0)


@njit
def tensor_scalar(buf: np.ndarray, p: int, end: int) -> tuple[bool, float, int]:
    """Decode a rank-0 DT_FLOAT/DT_DOUBLE ``TensorProto``: (ok, value, dtype code)."""
    dtype = np.int64(0)
    content_start = -1
    content_len = 0
    n_float = 0
    n_double = 0
    fval = 0.0
    dval = 0.0
    while p < end:
        key, p = field_key(buf, p, end)
        if p < 0:
            return False, 0.0, 0
        if key == (1 << 3):  # dtype
            dtype, p = varint(buf, p, end)
            if p < 0:
                return False, 0.0, 0
        elif key == ((2 << 3) | 2):  # tensor_shape
            s, e = length_delimited(buf, p, end)
            if s < 0 or not shape_is_scalar(buf, s, e):
                return False, 0.0, 0
            p = e
        elif key == (3 << 3):  # version_number
            p = skip_varint_field(buf, p, end)
            if p < 0:
                return False, 0.0, 0
        elif key == ((4 << 3) | 2):  # tensor_content (last wins)
            s, e = length_delimited(buf, p, end)
            if s < 0:
                return False, 0.0, 0
            content_start = s
            content_len = e - s
            p = e
        elif key == ((5 << 3) | 2):  # float_val, packed
            s, e = length_delimited(buf, p, end)
            if s < 0 or (e - s) % 4 != 0:
                return False, 0.0, 0
            if e > s:
                n_float += (e - s) // 4
                fval = f32(buf, e - 4)
            p = e
        elif key == ((5 << 3) | 5):  # float_val, unpacked
            if end - p < 4:
                return False, 0.0, 0
            n_float += 1
            fval = f32(buf, p)
            p += 4
        elif key == ((6 << 3) | 2):  # double_val, packed
            s, e = length_delimited(buf, p, end)
            if s < 0 or (e - s) % 8 != 0:
                return False, 0.0, 0
            if e > s:
                n_double += (e - s) // 8
                dval = f64(buf, e - 8)
            p = e
        elif key == ((6 << 3) | 1):  # double_val, unpacked
            if end - p < 8:
                return False, 0.0, 0
            n_double += 1
            dval = f64(buf, p)
            p += 8
        else:
            return False, 0.0, 0
    if dtype == 1:  # DT_FLOAT
        if n_double != 0:
            return False, 0.0, 0
        if content_len == 4 and n_float == 0:
            return True, f32(buf, content_start), DTYPE_FLOAT
        if content_len == 0 and n_float == 1:
            return True, fval, DTYPE_FLOAT
    elif dtype == 2:  # DT_DOUBLE
        if n_float != 0:
            return False, 0.0, 0
        if content_len == 8 and n_double == 0:
            return True, f64(buf, content_start), DTYPE_DOUBLE
        if content_len == 0 and n_double == 1:
            return True, dval, DTYPE_DOUBLE
    return False, 0.0, 0
