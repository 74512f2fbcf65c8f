"""Handing memory freed during a large read back to the operating system.

A large load decodes every run in windows and copies each run into the frame's
columns, allocating and freeing megabytes at a time on several threads; a profiler
trace's parse decodes a gigabyte of JSON in batches that are dropped once they are
columns. glibc's allocator keeps much of what is freed in its per-thread arenas (its
mmap threshold grows to the largest block freed), so a process can hold tens of
megabytes it no longer uses at the moment its peak is measured.
:func:`release_free_memory` returns those pages (``malloc_trim``, a few milliseconds):
the loader calls it after each run it takes in (about 50 MB less at the peak on 20M
points), a trace's reader after its batches (:mod:`tbnb.kinds.profile.chrome`).
Elsewhere than glibc it does nothing. Layer ``io``: the loader and the kinds both use it.

Examples
--------
>>> isinstance(release_free_memory(), bool)
True
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys
from collections.abc import Callable
from functools import cache

__all__ = ["release_free_memory"]


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim  # glibc only (musl has none)
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    function: Callable[[int], int] = trim
    return function


def release_free_memory() -> bool:
    """Return the allocator's free pages to the system; True if any were returned."""
    trim = _malloc_trim()
    return bool(trim(0)) if trim is not None else False
