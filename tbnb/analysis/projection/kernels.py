"""The projector's compiled kernels, kept off the user's path.

They form :mod:`tbnb.jit`'s group ``"projection"``: compiled once per install in a
detached, low-priority process (never in the notebook's kernel, whose GIL numba's
compiler would hold for tens of seconds), loaded from tbnb's cache afterwards in a
fraction of a second. :func:`prepare` (a view opening) loads them, or starts that
compile and returns at once; :func:`ensure` (a layout starting) waits for it,
reporting ``"compiling"`` through the job's progress. Without :mod:`tbnb.jit`
(``TBNB_JIT=0``), or when the compile failed, the kernels compile in this process on
their first call, as numba does.

Examples
--------
>>> isinstance(prepare(), bool)
True
"""

from __future__ import annotations

import time
from typing import Any

__all__ = ["GROUP", "WAIT_SECONDS", "ensure", "prepare"]

GROUP = "projection"
WAIT_SECONDS = 900.0
"""Longest wait for the detached compile before compiling here instead."""

POLL_SECONDS = 0.5


def prepare() -> bool:
    """Load the kernels if they are compiled, else start their compile; True if loaded."""
    from tbnb.jit import available, load

    return bool(available() and load(GROUP))


def ensure(progress: Any = None) -> bool:
    """Make the kernels ready to call; True if they came from tbnb's cache.

    Waits while a detached process compiles them (``progress.update("compiling", ...)``
    each poll, which also raises when the job is cancelled).
    """
    from tbnb.jit import available, load
    from tbnb.jit.build import compiling

    if not available():
        return False
    started = time.monotonic()
    while time.monotonic() - started < WAIT_SECONDS:
        if load(GROUP):
            return True
        if not compiling(GROUP):
            break  # a failed or impossible compile: numba compiles here on first call
        if progress is not None:
            progress.update(
                "compiling",
                0,
                0,
                "compiling the layout kernels (once per "
                f"install) · {time.monotonic() - started:.0f} s",
            )
        time.sleep(POLL_SECONDS)
    return False
