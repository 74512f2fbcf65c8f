"""Reading bytes of files on any fsspec filesystem, with errors that name the file.

Examples
--------
>>> import fsspec
>>> fs = fsspec.filesystem("memory")
>>> fs.pipe("/files-doc/f.bin", b"0123456789")
>>> read_span(fs, "/files-doc/f.bin", 3, 4)
b'3456'
>>> read_window(fs, "/files-doc/f.bin", 8, 100)
b'89'
>>> import numpy as np
>>> out = np.zeros(4, np.uint8)
>>> read_window_into(fs, "/files-doc/f.bin", 7, out), out[:3].tobytes()
(3, b'789')
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["read_span", "read_window", "read_window_into"]


def read_window(fs: Any, path: str, offset: int, size: int) -> bytes:
    """Read up to ``size`` bytes of ``path`` from ``offset`` (fewer at the end of the file)."""
    with fs.open(path, "rb") as f:
        f.seek(offset)
        return bytes(f.read(size))


def read_window_into(fs: Any, path: str, offset: int, out: np.ndarray) -> int:
    """Read up to ``out.size`` bytes of ``path`` from ``offset`` into ``out`` (a ``uint8``
    array, reused from window to window: no new memory per read); return how many."""
    view = memoryview(out.data).cast("B")
    got = 0
    with fs.open(path, "rb") as f:
        f.seek(offset)
        while got < len(view):
            n = f.readinto(view[got:]) if hasattr(f, "readinto") else None
            if n is None:  # a file object without readinto
                data = f.read(len(view) - got)
                n = len(data)
                view[got : got + n] = data
            if not n:
                break
            got += n
    return got


def read_span(fs: Any, path: str, offset: int, length: int) -> bytes:
    """Read exactly ``length`` bytes at ``offset`` of a file (one record payload).

    Raises
    ------
    OSError
        When the file holds fewer bytes there (it was truncated or replaced).
    """
    data = read_window(fs, path, offset, length)
    if len(data) != length:
        raise OSError(f"{path}: expected {length} bytes at offset {offset}, got {len(data)}")
    return data
