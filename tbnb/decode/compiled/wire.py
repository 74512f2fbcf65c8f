"""Protocol-buffer wire primitives for compiled decoders (numba ``njit``, inlined).

Little-endian loads, bit casts to floats, varints, field keys, length-delimited
spans, skipping unknown fields and UTF-8 validation, each exactly as protobuf's
parser reads them. Every function returns a position of ``-1`` (or ``(-1, -1)``)
where protobuf would reject the bytes, so callers fall back to protobuf.

Examples
--------
>>> import numpy as np
>>> buf = np.frombuffer(bytes([0xAC, 0x02]), np.uint8)
>>> value, end = varint(buf, 0, 2)
>>> int(value), end
(300, 2)
"""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from tbnb.io.compiled.memory import load32, load64
from tbnb.jit import njit


def f32_from_bits_impl(typingctx: Any, bits: Any) -> Any:
    """Reinterpret an int32 as a float32 (no numeric conversion)."""
    sig = types.float32(types.int32)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], ir.FloatType())

    return sig, codegen


def f64_from_bits_impl(typingctx: Any, bits: Any) -> Any:
    """Reinterpret an int64 as a float64 (no numeric conversion)."""
    sig = types.float64(types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.bitcast(args[0], ir.DoubleType())

    return sig, codegen


f32_from_bits: Any = intrinsic(f32_from_bits_impl)


f64_from_bits: Any = intrinsic(f64_from_bits_impl)


le32 = load32
le64 = load64


@njit(inline="always")
def f32(buf: np.ndarray, i: int) -> float:
    return float(f32_from_bits(np.int32(le32(buf, i))))


@njit(inline="always")
def f64(buf: np.ndarray, i: int) -> float:
    return float(f64_from_bits(np.int64(le64(buf, i))))


@njit(inline="always")
def varint(buf: np.ndarray, p: int, end: int) -> tuple[np.int64, int]:
    """Decode a varint at ``p``; return (value, next position), next = -1 if malformed.

    At most 10 bytes; the 10th may only carry the 64th bit (anything else is left
    to protobuf).
    """
    if p < end and buf[p] < 0x80:
        return np.int64(buf[p]), p + 1
    result = np.int64(0)
    shift = 0
    while p < end and shift < 70:
        b = np.int64(buf[p])
        p += 1
        if shift == 63 and b > 1:
            return result, -1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, p
        shift += 7
    return result, -1


@njit
def skip_varint_field(buf: np.ndarray, p: int, end: int) -> int:
    _, q = varint(buf, p, end)
    return q


@njit
def length_delimited(buf: np.ndarray, p: int, end: int) -> tuple[int, int]:
    """Return (start, stop) of a length-delimited field whose length varint is at ``p``.

    (-1, -1) if malformed or running past ``end``.
    """
    n, q = varint(buf, p, end)
    if q < 0 or q - p > 5 or n < 0 or n > end - q:
        return -1, -1
    return q, q + n


@njit
def valid_utf8(buf: np.ndarray, i: int, end: int) -> bool:
    """Whether ``buf[i:end]`` is well-formed UTF-8 (no surrogates, no overlong forms)."""
    while i < end:
        c = buf[i]
        if c < 0x80:
            i += 1
            continue
        if 0xC2 <= c <= 0xDF:
            n, lo, hi = 1, 0x80, 0xBF
        elif c == 0xE0:
            n, lo, hi = 2, 0xA0, 0xBF
        elif c == 0xED:
            n, lo, hi = 2, 0x80, 0x9F
        elif 0xE1 <= c <= 0xEF:
            n, lo, hi = 2, 0x80, 0xBF
        elif c == 0xF0:
            n, lo, hi = 3, 0x90, 0xBF
        elif 0xF1 <= c <= 0xF3:
            n, lo, hi = 3, 0x80, 0xBF
        elif c == 0xF4:
            n, lo, hi = 3, 0x80, 0x8F
        else:
            return False
        if end - i <= n or not (lo <= buf[i + 1] <= hi):
            return False
        for k in range(2, n + 1):
            if not (0x80 <= buf[i + k] <= 0xBF):
                return False
        i += n + 1
    return True


@njit(inline="always")
def field_key(buf: np.ndarray, p: int, end: int) -> tuple[int, int]:
    """A field key (at most 5 bytes, below 2**32, field number >= 1); next = -1 if not."""
    k, q = varint(buf, p, end)
    if q < 0 or q - p > 5 or k >= (1 << 32) or k < 8:
        return 0, -1
    return int(k), q


@njit
def skip_field(buf: np.ndarray, p: int, end: int, wire: int) -> int:
    """Skip an unknown field's value; -1 if malformed (groups are left to protobuf)."""
    if wire == 0:
        _, q = varint(buf, p, end)
        return q
    if wire == 1:
        return p + 8 if end - p >= 8 else -1
    if wire == 2:
        _, e = length_delimited(buf, p, end)
        return e
    if wire == 5:
        return p + 4 if end - p >= 4 else -1
    return -1


@njit
def grow(a: np.ndarray) -> np.ndarray:
    b = np.empty(2 * a.size + 16, dtype=a.dtype)
    b[: a.size] = a
    return b
