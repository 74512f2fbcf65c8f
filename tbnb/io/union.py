"""Several logdirs' filesystems as one: each path read from the filesystem it lies on.

An experiment over several logdirs (``tbnb.load({"baseline": "runs/a", "new":
"s3://b/runs"})``) reads each logdir's event files through that logdir's own filesystem;
what reads files beside them (projector assets, profiler traces, config files) is
handed one filesystem for the whole experiment: a :class:`LogdirUnion`. Paths keep
their real form (a local path, a bucket path), so messages and frames name the real
files; each call goes to the filesystem of the logdir whose root holds the path (the
deepest, where roots nest on one filesystem). Roots that nest on *different*
filesystems would make a path ambiguous: :func:`check_roots` refuses them before
anything is read.

The union's own :attr:`~LogdirUnion.root` (``""``) stands for "the logdir the path lies
in": :func:`narrow` turns it into that logdir's root, so a check that a side file lies
inside its logdir (:func:`tbnb.io.files.read_side_file`) stays exact.

Examples
--------
>>> import fsspec
>>> from tbnb.io.local import LocalFiles
>>> memory = fsspec.filesystem("memory")
>>> memory.pipe("/union-doc/run/notes.txt", b"hello")
>>> union = LogdirUnion([(LocalFiles(), "/tmp/union-doc-local"), (memory, "/union-doc")])
>>> union.cat_file("/union-doc/run/notes.txt")
b'hello'
>>> narrow(union, "/union-doc/run/notes.txt", (union.root, "/union-doc/run"))[1]
('/union-doc', '/union-doc/run')
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["LogdirUnion", "check_roots", "narrow"]

_ROUTED = frozenset([
    "open", "cat", "cat_file", "find", "glob", "walk", "isfile", "size", "modified",
    "checksum", "ukey", "head", "tail", "read_bytes", "read_text", "read_block", "du",
])  # fmt: skip
"""fsspec's methods taking a path first, each the routed filesystem's own."""


def _inside(path: str, root: str) -> bool:
    if root == "/":
        return path.startswith("/")
    root = root.rstrip("/")
    return path == root or path.startswith(root + "/")


class LogdirUnion:
    """The filesystems of several logdirs, each path routed to the one whose root holds it.

    Parameters
    ----------
    members
        ``(filesystem, root)`` of each logdir.

    fsspec's methods taking a path (``open``, ``cat_file``, ``ls``, ``info``, ``exists``,
    ``isdir``, ``isfile``, ``size``, ``find``, ``glob``, ...) are the routed filesystem's
    own; a path under no logdir raises ``FileNotFoundError`` naming it. Nothing else of a
    filesystem is pretended (no ``storage_options`` of its own).
    """

    protocol = "tbnb-logdirs"
    root = ""
    """Where every logdir lies: :func:`narrow` reads it as the root of a path's logdir."""

    def __init__(self, members: Sequence[tuple[Any, str]]) -> None:
        check_roots(members)
        # deepest roots first: the first root holding a path is the nearest one
        self.members = sorted(
            ((fs, str(root).rstrip("/") or "/") for fs, root in members),
            key=lambda member: -len(member[1]),
        )

    def __repr__(self) -> str:
        return f"LogdirUnion({[root for _, root in self.members]!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LogdirUnion) and self.members == other.members

    def __hash__(self) -> int:
        return hash(tuple(root for _, root in self.members))

    def member(self, path: Any) -> tuple[Any, str]:
        """``(filesystem, root)`` of the logdir holding ``path``."""
        text = str(path).rstrip("/") or "/"
        for fs, root in self.members:
            if _inside(text, root):
                return fs, root
        roots = ", ".join(repr(root) for _, root in self.members)
        raise FileNotFoundError(f"{path}: lies in none of the experiment's logdirs ({roots})")

    def _strip_protocol(self, path: Any) -> str:
        return str(path)

    def ls(self, path: Any, detail: bool = False, **kwargs: Any) -> list[Any]:
        """A directory's entries; the union's :attr:`root` lists the logdirs' roots."""
        if str(path) != self.root:
            return list(self.member(path)[0].ls(path, detail=detail, **kwargs))
        return [self.info(root) if detail else root for _, root in self.members]

    def info(self, path: Any, **kwargs: Any) -> dict[str, Any]:
        """fsspec's description of ``path`` (the union's root: a directory)."""
        if str(path) == self.root:
            return {"name": self.root, "size": 0, "type": "directory"}
        return dict(self.member(path)[0].info(path, **kwargs))

    def isdir(self, path: Any) -> bool:
        """Whether ``path`` is a directory (the union's root is)."""
        return str(path) == self.root or bool(self.member(path)[0].isdir(path))

    def exists(self, path: Any, **kwargs: Any) -> bool:
        """Whether ``path`` exists (a path under no logdir does not)."""
        if str(path) == self.root:
            return True
        try:
            fs = self.member(path)[0]
        except FileNotFoundError:
            return False
        return bool(fs.exists(path, **kwargs))

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name not in _ROUTED:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

        def routed(path: Any, *args: Any, **kwargs: Any) -> Any:
            return getattr(self.member(path)[0], name)(path, *args, **kwargs)

        routed.__name__ = name
        return routed


def narrow(fs: Any, path: str, within: Sequence[str] = ()) -> tuple[Any, tuple[str, ...]]:
    """The filesystem that holds ``path`` (``fs`` itself unless it is a union), and
    ``within`` with the union's root replaced by the root of ``path``'s logdir."""
    if not isinstance(fs, LogdirUnion):
        return fs, tuple(within)
    member, root = fs.member(path)
    return member, tuple(root if w == fs.root else w for w in within)


def check_roots(members: Sequence[tuple[Any, str]]) -> None:
    """Refuse logdirs whose roots nest on different filesystems (a path under both could
    be either's): ``ValueError`` naming both roots.

    Examples
    --------
    >>> import fsspec
    >>> from tbnb.io.local import LocalFiles
    >>> check_roots([(LocalFiles(), "/data/runs"), (LocalFiles(), "/data/runs/a")])
    >>> try:
    ...     check_roots([(LocalFiles(), "/b"), (fsspec.filesystem("memory"), "/b/runs")])
    ... except ValueError as error:
    ...     print(str(error)[:58])
    tbnb: logdirs '/b' and '/b/runs' nest on different filesys
    """
    for i, (fs_a, root_a) in enumerate(members):
        for fs_b, root_b in members[i + 1 :]:
            a, b = posixpath.normpath(str(root_a)), posixpath.normpath(str(root_b))
            if (_inside(a, b) or _inside(b, a)) and fs_a != fs_b:
                raise ValueError(
                    f"tbnb: logdirs {a!r} and {b!r} nest on different filesystems "
                    f"({_kind(fs_a)} and {_kind(fs_b)}): a path below both could belong to "
                    "either; load them separately"
                )


def _kind(fs: Any) -> str:
    protocol = getattr(fs, "protocol", "?")
    return str(protocol[0] if isinstance(protocol, (tuple, list)) else protocol)
