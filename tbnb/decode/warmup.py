"""Compiling the decoder: whether it is ready, and warming it up in the background.

The compiled kernels take tens of seconds to compile once per install, then load
from numba's on-disk cache in under a second.

Examples
--------
>>> isinstance(decoder_ready(), bool)
True
"""

from __future__ import annotations

import os
import threading
from typing import Any

import numpy as np

__all__ = ["decoder_ready", "warm_decoder"]

_warming: threading.Thread | None = None


def decoder_ready() -> bool:
    """Whether the compiled decoder can run without compiling first.

    True once it ran in this process or when numba's on-disk cache holds it (the
    first use after an install compiles it once, which takes tens of seconds).
    """
    from tbnb.decode import scalars

    kernel: Any = scalars._decode_kernel
    if kernel.signatures:
        return True
    try:
        return os.path.exists(kernel._cache._cache_file._index_path)
    except AttributeError:  # numba internals moved: assume it is cheap
        return True


def warm_decoder() -> threading.Thread:
    """Compile the decoder (and fill numba's cache) in a background thread, once."""
    global _warming  # noqa: PLW0603 - one warm-up per process
    if _warming is None:
        from tbnb.decode.scalars import decode_scalars

        empty = np.zeros(0, dtype=np.int64)
        _warming = threading.Thread(target=decode_scalars, args=(b"", empty, empty),
                                    name="tbnb-compile", daemon=True)
        _warming.start()
    return _warming

