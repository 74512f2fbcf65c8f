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
"""

from __future__ import annotations

from typing import Any

__all__ = ["read_span", "read_window"]


def read_window(fs: Any, path: str, offset: int, size: int) -> bytes:
    """Read up to ``size`` bytes of ``path`` from ``offset`` (fewer at the end of the file)."""
    with fs.open(path, "rb") as f:
        f.seek(offset)
        return bytes(f.read(size))


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
