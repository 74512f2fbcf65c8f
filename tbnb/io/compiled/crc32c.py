"""CRC32C (Castagnoli) compiled with numba, for other compiled kernels.

A table-driven slice-by-8 implementation: eight 256-entry tables let the inner loop
consume eight bytes per iteration with independent table look-ups. The kernels take
a ``uint8`` array and a range; the tables are :data:`tbnb.io.crc32c.TABLES`.

Examples
--------
>>> import numpy as np
>>> buf = np.frombuffer(b"123456789", np.uint8)
>>> hex(crc32c_update(0, buf, 0, buf.size))
'0xe3069283'
>>> masked_crc32c_range(buf, 0, 0)
2726488792
"""

from __future__ import annotations

import platform
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from tbnb.io.compiled.memory import load64
from tbnb.io.crc32c import MASK_DELTA, TABLES
from tbnb.jit import njit

__all__ = [
    "HARDWARE",
    "crc32c_update",
    "crc32c_update_hw",
    "crc32c_update_sw",
    "mask",
    "masked_crc32c_range",
]

_T = TABLES


def _hardware() -> str:
    """``"x86"`` or ``"arm"`` when numba compiles for this CPU and it has CRC32C
    instructions, else ``""``."""
    from numba.core import config

    cpu_name = getattr(config, "CPU_NAME", None)
    if cpu_name and cpu_name != "host":
        return ""  # compiling for another CPU (a portable cache): tables only
    try:
        import llvmlite.binding as llvm

        features = llvm.get_host_cpu_features()
    except Exception:  # an unknown host: tables only
        return ""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64") and features.get("sse4.2"):
        return "x86"
    if machine in ("aarch64", "arm64") and features.get("crc"):
        return "arm"
    return ""


HARDWARE = _hardware()
"""The CRC32C instructions compiled kernels use: ``"x86"``, ``"arm"`` or ``""``."""


def _crc_word_impl(typingctx: Any, crc: Any, word: Any) -> Any:
    """CRC32C of ``crc`` (uint32 in an int64) extended by the 8 bytes of ``word``."""
    sig = types.int64(types.int64, types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i32, i64 = ir.IntType(32), ir.IntType(64)
        if HARDWARE == "x86":
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(i64, [i64, i64]), "llvm.x86.sse42.crc32.64.64"
            )
            return builder.call(fn, list(args))
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(i32, [i32, i64]), "llvm.aarch64.crc32cx"
        )
        return builder.zext(builder.call(fn, [builder.trunc(args[0], i32), args[1]]), i64)

    return sig, codegen


def _crc_byte_impl(typingctx: Any, crc: Any, byte: Any) -> Any:
    """CRC32C of ``crc`` (uint32 in an int64) extended by one byte."""
    sig = types.int64(types.int64, types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i8, i32, i64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
        c = builder.trunc(args[0], i32)
        if HARDWARE == "x86":
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(i32, [i32, i8]), "llvm.x86.sse42.crc32.32.8"
            )
            out = builder.call(fn, [c, builder.trunc(args[1], i8)])
        else:
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(i32, [i32, i32]), "llvm.aarch64.crc32cb"
            )
            out = builder.call(fn, [c, builder.trunc(args[1], i32)])
        return builder.zext(out, i64)

    return sig, codegen


_crc_word: Any = intrinsic(_crc_word_impl)
_crc_byte: Any = intrinsic(_crc_byte_impl)


@njit(inline="always")
def crc32c_update_hw(crc: int, data: np.ndarray, start: int, stop: int) -> int:
    """:func:`crc32c_update_sw` with the CPU's CRC32C instructions (when :data:`HARDWARE`)."""
    c = (crc ^ 0xFFFFFFFF) & 0xFFFFFFFF
    i = start
    while i + 8 <= stop:
        c = _crc_word(c, load64(data, i))
        i += 8
    while i < stop:
        c = _crc_byte(c, np.int64(data[i]))
        i += 1
    return c ^ 0xFFFFFFFF


@njit(inline="always")
def crc32c_update_sw(crc: int, data: np.ndarray, start: int, stop: int) -> int:
    """Continue a CRC32C over ``data[start:stop]`` (a ``uint8`` array); start with ``crc=0``.

    Returns the (unmasked) CRC as a non-negative int below ``2**32``.
    """
    t = _T
    c = (crc ^ 0xFFFFFFFF) & 0xFFFFFFFF
    i = start
    while i + 8 <= stop:
        lo = c ^ (
            np.int64(data[i])
            | (np.int64(data[i + 1]) << 8)
            | (np.int64(data[i + 2]) << 16)
            | (np.int64(data[i + 3]) << 24)
        )
        c = (
            t[7, lo & 0xFF]
            ^ t[6, (lo >> 8) & 0xFF]
            ^ t[5, (lo >> 16) & 0xFF]
            ^ t[4, (lo >> 24) & 0xFF]
            ^ t[3, data[i + 4]]
            ^ t[2, data[i + 5]]
            ^ t[1, data[i + 6]]
            ^ t[0, data[i + 7]]
        )
        i += 8
    while i < stop:
        c = t[0, (c ^ np.int64(data[i])) & 0xFF] ^ (c >> 8)
        i += 1
    return c ^ 0xFFFFFFFF


crc32c_update: Any = crc32c_update_hw if HARDWARE else crc32c_update_sw
"""Continue a CRC32C over ``data[start:stop]``: the instructions where the CPU has them."""


@njit(inline="always")
def mask(crc: int) -> int:
    """Apply TFRecord's mask to an unmasked CRC32C."""
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + MASK_DELTA) & 0xFFFFFFFF


@njit(inline="always")
def masked_crc32c_range(data: np.ndarray, start: int, stop: int) -> int:
    """Masked CRC32C of ``data[start:stop]`` (a ``uint8`` array), as TFRecord stores it."""
    return mask(crc32c_update(0, data, start, stop))
