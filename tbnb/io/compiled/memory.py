"""Little-endian loads from ``uint8`` arrays for compiled kernels: one load instruction.

Assembling a word from single bytes costs a load, a shift and an or per byte; on the
little-endian CPUs numba runs on (x86-64, ARM64, POWER little-endian) one unaligned
load reads the same value. A big-endian host gets the byte-by-byte version.

Examples
--------
>>> import numba, numpy as np
>>> words = numba.njit(lambda buf, i: (load64(buf, i), load32(buf, i)))
>>> [hex(w) for w in words(np.frombuffer(bytes(range(1, 10)), np.uint8), 1)]
['0x908070605040302', '0x5040302']
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from tbnb.jit import njit

__all__ = ["load32", "load64"]


def _load(bits: int) -> Any:
    def impl(typingctx: Any, data: Any, index: Any) -> Any:
        """``bits`` bits at ``data[index]`` (a ``uint8`` array), as a non-negative int64
        for 32 bits and the raw int64 for 64."""
        sig = types.int64(data, types.int64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            array = context.make_array(signature.args[0])(context, builder, value=args[0])
            at = builder.gep(array.data, [args[1]])
            word = builder.load(builder.bitcast(at, ir.IntType(bits).as_pointer()), align=1)
            return word if bits == 64 else builder.zext(word, ir.IntType(64))

        return sig, codegen

    return intrinsic(impl)


@njit(inline="always")
def _bytes32(buf: np.ndarray, i: int) -> int:
    return int(
        np.int64(buf[i])
        | (np.int64(buf[i + 1]) << 8)
        | (np.int64(buf[i + 2]) << 16)
        | (np.int64(buf[i + 3]) << 24)
    )


@njit(inline="always")
def _bytes64(buf: np.ndarray, i: int) -> int:
    return _bytes32(buf, i) | (_bytes32(buf, i + 4) << 32)


_LITTLE = sys.byteorder == "little"
load32: Any = _load(32) if _LITTLE else _bytes32
"""The little-endian uint32 at ``buf[i]`` (``njit`` code only), as a non-negative int."""
load64: Any = _load(64) if _LITTLE else _bytes64
"""The little-endian 64 bits at ``buf[i]`` (``njit`` code only), as an int64."""
