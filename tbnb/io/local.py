"""The local filesystem, as the fsspec calls the loader makes, without importing fsspec.

Importing fsspec costs about 45 ms of CPU (asyncio, its caches and compressions), a tenth
of a large load's serial part on many cores, and most logdirs are local. :class:`LocalFiles`
answers the calls tbnb makes on a filesystem (``ls``, ``info``, ``exists``, ``isdir``,
``isfile``, ``open``, ``cat_file``, ``size``) with :mod:`os`, exactly as fsspec's
``LocalFileSystem`` answers them for plain paths; anything else (``glob``, ``walk``,
``pipe``, ...) is passed to a real ``LocalFileSystem``, imported the first time it is
needed. Remote logdirs use fsspec itself.

Examples
--------
>>> import os, tempfile
>>> fs = LocalFiles()
>>> d = tempfile.mkdtemp()
>>> fs.pipe_file(os.path.join(d, "a.txt"), b"hello")  # fsspec's, on first use
>>> [info["type"] for info in fs.ls(d, detail=True)], fs.cat_file(os.path.join(d, "a.txt"), start=1)
(['file'], b'ello')
>>> is_local(fs)
True
"""

from __future__ import annotations

import contextlib
import io
import os
import posixpath
import stat
from typing import Any, BinaryIO

__all__ = ["LocalFiles", "NotRegularFileError", "file_kind", "is_local", "open_regular"]


class NotRegularFileError(OSError):
    """A path that is not a regular file (a FIFO, a device, a socket) where tbnb reads
    one: reading a FIFO blocks until a writer comes, ``/dev/zero`` never ends."""


def file_kind(mode: int) -> str:
    """What a ``st_mode`` describes, in words.

    Examples
    --------
    >>> import stat
    >>> file_kind(stat.S_IFIFO), file_kind(stat.S_IFREG)
    ('a FIFO (named pipe)', 'a regular file')
    """
    for test, words in (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return words
    return "not a regular file"


def open_regular(path: str) -> BinaryIO:
    """Open a local file for reading, only if it is a regular file (links followed).

    A FIFO, a device (``/dev/zero``, ``/dev/urandom``) or a socket raises
    :class:`NotRegularFileError` naming the path and what it is, without blocking: the
    path is checked before it is opened, and the opened descriptor again (opened
    non-blocking), so one swapped in between is refused too.

    Examples
    --------
    >>> import os, tempfile
    >>> d = tempfile.mkdtemp()
    >>> os.mkfifo(os.path.join(d, "pipe"))
    >>> try:
    ...     open_regular(os.path.join(d, "pipe"))
    ... except NotRegularFileError as error:
    ...     print(str(error).split(": ", 1)[1])
    a FIFO (named pipe), not a regular file; tbnb reads only regular files
    """
    _check_regular(path, os.stat(path).st_mode)
    nonblocking = getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, os.O_RDONLY | nonblocking | getattr(os, "O_BINARY", 0))
    try:
        _check_regular(path, os.fstat(fd).st_mode)
        if nonblocking:
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _check_regular(path: str, mode: int) -> None:
    if not stat.S_ISREG(mode):
        raise NotRegularFileError(
            f"{path}: {file_kind(mode)}, not a regular file; tbnb reads only regular files"
        )


class LocalFiles:
    """The local filesystem with fsspec's ``LocalFileSystem`` interface (see the module)."""

    protocol = ("file", "local")
    root_marker = "/"

    def __init__(self) -> None:
        self._fsspec: Any = None

    def __getstate__(self) -> dict[str, Any]:
        return {}  # nothing to carry to another process (dask workers, process pools)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._fsspec = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LocalFiles)

    def __hash__(self) -> int:
        return hash(LocalFiles)

    def __repr__(self) -> str:
        return "LocalFiles()"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name == "_fsspec":
            raise AttributeError(name)
        if self._fsspec is None:
            from fsspec.implementations.local import LocalFileSystem

            self._fsspec = LocalFileSystem()
        return getattr(self._fsspec, name)

    @classmethod
    def _strip_protocol(cls, path: Any) -> str:
        text = os.fspath(path)
        for prefix in ("file://", "local://"):
            if text.startswith(prefix):
                text = text[len(prefix) :]
                break
        text = os.path.abspath(os.path.expanduser(text)).replace(os.sep, "/")
        return text.rstrip("/") or "/"

    def info(self, path: Any, **kwargs: Any) -> dict[str, Any]:
        """fsspec's description of one path (a link described by what it points to; a
        dangling one raises ``FileNotFoundError``)."""
        name = self._strip_protocol(path)
        found = os.stat(name, follow_symlinks=False)
        link = stat.S_ISLNK(found.st_mode)
        if link:
            found = os.stat(name, follow_symlinks=True)
        kind = (
            "directory"
            if stat.S_ISDIR(found.st_mode)
            else "file"
            if stat.S_ISREG(found.st_mode)
            else "other"
        )
        return _described(name, found, kind, found.st_size, link)

    def ls(self, path: Any, detail: bool = False, **kwargs: Any) -> list[Any]:
        """The entries of a directory (full paths), or the path itself for a file. As in
        fsspec, an entry that is a link is typed by the link itself (``other``), its size
        is its target's (0 when dangling)."""
        name = self._strip_protocol(path)
        if not os.path.isdir(name):
            return [self.info(name) if detail else name]
        out: list[Any] = []
        with os.scandir(name) as entries:
            for entry in entries:
                full = posixpath.join(name, entry.name)
                if not detail:
                    out.append(full)
                    continue
                with contextlib.suppress(FileNotFoundError):  # gone while listed
                    out.append(_entry_info(full, entry))
        return out

    def exists(self, path: Any, **kwargs: Any) -> bool:
        return os.path.exists(self._strip_protocol(path))

    def isdir(self, path: Any) -> bool:
        return os.path.isdir(self._strip_protocol(path))

    def isfile(self, path: Any) -> bool:
        return os.path.isfile(self._strip_protocol(path))

    def size(self, path: Any) -> int:
        return os.path.getsize(self._strip_protocol(path))

    def open(self, path: Any, mode: str = "rb", **kwargs: Any) -> BinaryIO | Any:
        """A file object; writing modes go through fsspec (which creates no folders
        either, unless asked). Only regular files are opened for reading
        (:func:`open_regular`)."""
        if mode == "rb":
            return open_regular(self._strip_protocol(path))  # the caller closes it
        if mode == "r":
            return io.TextIOWrapper(open_regular(self._strip_protocol(path)))
        return self.__getattr__("open")(path, mode, **kwargs)

    def cat_file(
        self, path: Any, start: int | None = None, end: int | None = None, **kwargs: Any
    ) -> bytes:
        """The bytes of a file, or of ``[start, end)`` (negative: from the end); only a
        regular file is read (:func:`open_regular`)."""
        with open_regular(self._strip_protocol(path)) as handle:
            if start is None and end is None:
                return handle.read()
            size = os.fstat(handle.fileno()).st_size
            lo = 0 if start is None else (max(size + start, 0) if start < 0 else start)
            hi = size if end is None else (max(size + end, 0) if end < 0 else min(end, size))
            handle.seek(lo)
            return handle.read(max(hi - lo, 0))


def _entry_info(name: str, entry: os.DirEntry[str]) -> dict[str, Any]:
    found = entry.stat(follow_symlinks=False)
    link = entry.is_symlink()
    kind = (
        "directory"
        if entry.is_dir(follow_symlinks=False)
        else "file"
        if entry.is_file(follow_symlinks=False)
        else "other"
    )
    size = found.st_size
    if link:
        try:
            size = entry.stat(follow_symlinks=True).st_size
        except OSError:
            size = 0
    return _described(name, found, kind, size, link)


def _described(
    name: str, found: os.stat_result, kind: str, size: int, link: bool
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": name,
        "size": size,
        "type": kind,
        "created": getattr(found, "st_birthtime", found.st_ctime),
        "islink": link,
        "mode": found.st_mode,
        "uid": found.st_uid,
        "gid": found.st_gid,
        "mtime": found.st_mtime,
        "ino": found.st_ino,
        "nlink": found.st_nlink,
    }
    if link:
        out["destination"] = os.readlink(name)
    return out


def is_local(fs: Any) -> bool:
    """Whether ``fs`` is the local filesystem (tbnb's or fsspec's).

    Examples
    --------
    >>> is_local(LocalFiles()), is_local(object())
    (True, False)
    """
    protocol = getattr(fs, "protocol", None)
    protocols = protocol if isinstance(protocol, (tuple, list)) else (protocol,)
    return "file" in protocols
