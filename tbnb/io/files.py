"""Reading bytes of files on any fsspec filesystem, with errors that name the file.

Only regular files are read from a local filesystem (a FIFO would block the load, a
link to ``/dev/zero`` would never end: :func:`tbnb.io.local.open_regular`). Files
beside the event files (configs, projector assets) are read whole, by
:func:`read_side_file`: regular files of a bounded size that resolve inside the
folders they belong to, or an error naming the file and why; larger ones (profiler
traces) are streamed under the same rules (:func:`open_side_file`).

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

import contextlib
import os
import posixpath
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO

import numpy as np

from tbnb.io.local import LocalFiles, is_local, open_regular
from tbnb.io.union import narrow

__all__ = [
    "RefusedFileError",
    "open_binary",
    "open_side_file",
    "read_side_file",
    "read_span",
    "read_window",
    "read_window_into",
]


class RefusedFileError(OSError):
    """A side file tbnb will not read: larger than its cap, or outside its folders."""


def open_binary(fs: Any, path: str) -> BinaryIO | Any:
    """Open ``path`` of ``fs`` for reading bytes; a local one only if it is a regular
    file (:func:`~tbnb.io.local.open_regular`, for fsspec's local filesystem too)."""
    fs, _ = narrow(fs, path)
    if is_local(fs) and not isinstance(fs, LocalFiles):
        return open_regular(LocalFiles._strip_protocol(path))
    return fs.open(path, "rb")


def read_side_file(fs: Any, path: str, *, limit: int, within: Sequence[str] = ()) -> bytes:
    """The bytes of a file beside the event files (a config, a projector asset).

    Parameters
    ----------
    fs, path
        The filesystem and the file.
    limit
        Most bytes read: a larger file is refused, never read whole.
    within
        Folders the file must resolve inside, links followed (the logdir, the run's
        own real directory); empty: anywhere. A path leaving them with ``..`` is
        refused on every filesystem, a link leading out of them on a local one.

    Raises
    ------
    FileNotFoundError
        The file does not exist.
    tbnb.io.local.NotRegularFileError
        The file is a FIFO, a device or a socket (a local filesystem).
    RefusedFileError
        The file is larger than ``limit`` or resolves outside ``within``.

    Examples
    --------
    >>> import os, tempfile
    >>> fs, d = LocalFiles(), tempfile.mkdtemp()
    >>> with open(os.path.join(d, "hparams.yaml"), "w") as f:
    ...     _ = f.write("lr: 0.1\\n")
    >>> read_side_file(fs, os.path.join(d, "hparams.yaml"), limit=100, within=[d])
    b'lr: 0.1\\n'
    >>> os.symlink("/etc/hostname", os.path.join(d, "config.yaml"))
    >>> try:
    ...     read_side_file(fs, os.path.join(d, "config.yaml"), limit=100, within=[d])
    ... except RefusedFileError as error:
    ...     print(str(error).split(": ", 1)[1])
    resolves outside the folders it may be read from (a link leading out); not read
    """
    with open_side_file(fs, path, within=within) as handle:
        data = bytes(handle.read(limit + 1))
    if len(data) > limit:
        raise RefusedFileError(
            f"{path}: larger than the {_size(limit)} tbnb reads of such a file; not read"
        )
    return data


@contextlib.contextmanager
def open_side_file(fs: Any, path: str, *, within: Sequence[str] = ()) -> Iterator[Any]:
    """Open a file beside the event files for reading, streamed (a profiler trace of a
    gigabyte), under the rules of :func:`read_side_file`: a regular file that resolves
    inside ``within`` (empty: anywhere). Raises as :func:`read_side_file` does.

    Examples
    --------
    >>> import os, tempfile
    >>> fs, d = LocalFiles(), tempfile.mkdtemp()
    >>> with open(os.path.join(d, "t.json"), "w") as f:
    ...     _ = f.write("{}")
    >>> with open_side_file(fs, os.path.join(d, "t.json"), within=[d]) as handle:
    ...     handle.read()
    b'{}'
    """
    fs, within = narrow(fs, path, within)  # several logdirs: the one holding the file
    if within and not _inside_all_paths(path, within):
        raise RefusedFileError(f"{path}: lies outside the folders it may be read from; not read")
    local = is_local(fs)
    real = os.path.realpath(LocalFiles._strip_protocol(path)) if local else path
    if local and within:
        roots = [os.path.realpath(LocalFiles._strip_protocol(w)) for w in within]
        if not any(_inside(real, root) for root in roots):
            raise RefusedFileError(
                f"{path}: resolves outside the folders it may be read from "
                "(a link leading out); not read"
            )
    with open_binary(fs, path) as handle:
        if local and within and not os.path.samestat(os.fstat(handle.fileno()), os.stat(real)):
            raise RefusedFileError(f"{path}: replaced while it was opened; not read")
        yield handle


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip("/") + "/")


def _inside_all_paths(path: str, within: Sequence[str]) -> bool:
    """Whether ``path`` (normalised, no links followed) lies inside one of ``within``."""
    normal = posixpath.normpath(str(path))
    return any(_inside(normal, posixpath.normpath(str(w))) for w in within)


def _size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):g} {unit}"
    return f"{n} bytes"


def read_window(fs: Any, path: str, offset: int, size: int) -> bytes:
    """Read up to ``size`` bytes of ``path`` from ``offset`` (fewer at the end of the file)."""
    with open_binary(fs, path) as f:
        f.seek(offset)
        return bytes(f.read(size))


def read_window_into(fs: Any, path: str, offset: int, out: np.ndarray) -> int:
    """Read up to ``out.size`` bytes of ``path`` from ``offset`` into ``out`` (a ``uint8``
    array, reused from window to window: no new memory per read); return how many."""
    view = memoryview(out.data).cast("B")
    got = 0
    with open_binary(fs, path) as f:
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
