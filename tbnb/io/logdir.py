"""Find runs and event files under a logdir, as TensorBoard does (local or fsspec).

An event file is any file whose name contains ``tfevents`` (profiler placeholders
ending in ``.profile-empty`` excluded). A run is every directory holding at least
one, named by its path relative to the logdir with ``/`` separators (``.`` for the
logdir itself). A run's files are read in name order as one stream.

Examples
--------
>>> import fsspec
>>> fs = fsspec.filesystem("memory")
>>> fs.pipe("/demo/a/events.out.tfevents.1.host", b"")
>>> fs.pipe("/demo/events.out.tfevents.2.host", b"")
>>> sorted(find_runs(fs, "/demo"))
['.', 'a']
"""

from __future__ import annotations

import os
import posixpath
import re
import stat
import warnings
from collections.abc import Iterator
from typing import Any

from tbnb.io.local import LocalFiles, file_kind, is_local
from tbnb.io.remote import is_storage_error, logdir_error, missing_package_error
from tbnb.warnings import LogdirWarning


def is_event_file(name: str) -> bool:
    """Whether a file name is a TensorBoard event file."""
    base = posixpath.basename(name)
    return "tfevents" in base and not base.endswith(".profile-empty")


def open_logdir(logdir: Any, storage_options: dict[str, Any] | None = None) -> tuple[Any, str]:
    """Return ``(filesystem, root path)`` for a local path, ``os.PathLike`` or fsspec URL.

    Raises
    ------
    FileNotFoundError, NotADirectoryError
        When the logdir does not exist or is a file.
    tbnb.io.remote.LogdirError
        When a remote logdir cannot be reached (credentials, network, a missing
        filesystem package); the message names the logdir and what to do.
    """
    text = str(logdir)
    remote = "://" in text or "::" in text
    fs: Any
    if remote:
        from fsspec.core import url_to_fs

        try:
            fs, root = url_to_fs(text, **(storage_options or {}))
        except ImportError as error:
            raise missing_package_error(text, error) from None
        except Exception as error:
            if is_storage_error(error) or isinstance(error, (TypeError, ValueError)):
                raise logdir_error(text, error, doing="open") from None
            raise
    else:
        fs = LocalFiles()  # fsspec's interface without importing fsspec
        root = fs._strip_protocol(os.path.abspath(os.path.expanduser(text)))
    root = root.rstrip("/") or "/"
    try:
        exists, isdir = fs.exists(root), fs.isdir(root)
    except Exception as error:
        if remote and is_storage_error(error):
            raise logdir_error(text, error, doing="open") from None
        raise
    if not exists:
        raise FileNotFoundError(f"logdir {text!r} does not exist")
    if not isdir:
        raise NotADirectoryError(not_a_folder(text, root))
    return fs, root


def not_a_folder(text: str, root: str) -> str:
    """Why a logdir that is a file cannot be loaded, and what to pass instead: an event
    file's folder is its run (TensorBoard reads logdirs, never single files).

    Examples
    --------
    >>> print(not_a_folder("a/events.out.tfevents.1.h", "/x/a/events.out.tfevents.1.h"))
    ... # doctest: +NORMALIZE_WHITESPACE
    logdir 'a/events.out.tfevents.1.h' is an event file, not a folder: pass the folder
    it is in ('/x/a') to load its run
    >>> print(not_a_folder("notes.txt", "/x/notes.txt"))
    logdir 'notes.txt' is not a directory
    """
    if is_event_file(root):
        folder = posixpath.dirname(root) or "/"
        return (
            f"logdir {text!r} is an event file, not a folder: pass the folder it is in "
            f"({folder!r}) to load its run"
        )
    return f"logdir {text!r} is not a directory"


def run_name(root: str, directory: str) -> str:
    """Name of the run living in ``directory`` (relative to ``root``; ``.`` for the root)."""
    rel = posixpath.relpath(directory.rstrip("/") or "/", root)
    return "." if rel in ("", ".") else rel


def qualified_run(name: str, run: str) -> str:
    """A run's name in an experiment over several logdirs: the logdir's name, then the
    run (TensorBoard's ``--logdir_spec`` spelling, ``name/run``); the logdir's own
    run (``.``) is the name alone. An unnamed logdir (``""``) keeps its run names.

    Examples
    --------
    >>> qualified_run("baseline", "seed=0"), qualified_run("baseline", "."), qualified_run("", ".")
    ('baseline/seed=0', 'baseline', '.')
    """
    if not name:
        return run
    return name if run == "." else f"{name}/{run}"


def find_runs(fs: Any, root: str) -> dict[str, list[str]]:
    """Map each run name to its event files (full paths, in name order).

    Directories that cannot be listed are skipped with one :class:`LogdirWarning`
    each, naming the directory and the error; everything readable is still found.
    Only regular files are event files: FIFOs, devices (a link to ``/dev/zero``) and
    dangling links with event-file names are skipped with one warning naming them.
    """
    runs: dict[str, list[str]] = {}
    skipped: list[str] = []
    for directory, files, others in walk(fs, root):
        names = sorted(f for f in files if is_event_file(f))
        skipped += [f"{name}: {kind}" for name, kind in others if is_event_file(name)]
        if names:
            base = directory.rstrip("/")
            runs[run_name(root, base)] = [posixpath.join(base, f) for f in names]
    if skipped:
        shown = "; ".join(skipped[:10]) + (
            f"; and {len(skipped) - 10} more" if len(skipped) > 10 else ""
        )
        warnings.warn(
            f"tbnb: {len(skipped)} event file name(s) that are not regular files skipped "
            f"(only regular files are read): {shown}",
            LogdirWarning,
            stacklevel=3,
        )
    return dict(sorted(runs.items()))


def walk(fs: Any, root: str) -> Iterator[tuple[str, list[str], list[tuple[str, str]]]]:
    """Yield ``(directory, regular file names, others)`` for ``root`` and every
    directory below it; ``others`` are ``(path, what it is)`` of the entries that are
    neither directories nor regular files (a FIFO, a device, a dangling link).

    Symbolic links to directories are followed, as TensorBoard follows them (a logdir
    of links to chosen runs is a common way to compare them), each real directory
    once, so a link back up never loops. ``fs.walk`` cannot be used: fsspec passes its
    ``on_error`` callback to the top level only, so a directory deeper down that
    cannot be listed vanishes silently.
    """
    stack = [root]
    seen: set[str] = set()
    while stack:
        directory = stack.pop()
        real = _real_path(fs, directory)
        if real in seen:
            continue
        seen.add(real)
        try:
            listing = fs.ls(directory, detail=True)
        except Exception as error:
            if not is_storage_error(error):
                raise
            warnings.warn(
                f"tbnb: cannot list {directory}: {type(error).__name__}: {error}; "
                "its runs are skipped",
                LogdirWarning,
                stacklevel=4,
            )
            continue
        here = directory.rstrip("/")
        files, dirs, others = [], [], []
        for info in listing:
            name = str(info["name"]).rstrip("/")
            if name == here or not name:
                continue
            kind = _kind(fs, name, info)
            if kind == "directory":
                dirs.append(name)
            elif kind == "file":
                files.append(posixpath.basename(name))
            else:
                others.append((name, kind))
        yield directory, files, others
        stack.extend(sorted(dirs, reverse=True))


def _kind(fs: Any, name: str, info: dict[str, Any]) -> str:
    """``directory``, ``file`` (a regular file, links followed) or, for anything
    else, what it is in words (a FIFO, a device, a dangling link)."""
    kind = info.get("type")
    if kind in ("directory", "file"):
        return str(kind)
    if is_local(fs):
        try:
            mode = os.stat(name).st_mode
        except OSError:
            return "a dangling link"
        if stat.S_ISDIR(mode):
            return "directory"
        return "file" if stat.S_ISREG(mode) else file_kind(mode)
    if info.get("islink"):
        return "directory" if _is_dir(fs, name) else "file"
    return "file"


def _real_path(fs: Any, path: str) -> str:
    if is_local(fs):
        return os.path.realpath(path)
    return path.rstrip("/")


def _is_dir(fs: Any, path: str) -> bool:
    try:
        return bool(fs.isdir(path))
    except OSError:
        return False  # a dangling link


_HOST_RE = re.compile(r"tfevents\.(?P<time>\d+)\.(?P<rest>.+)$")  # writers use int(time())


def host_from_filename(path: str) -> str:
    """The host name a writer put in an event file's name (``""`` if absent).

    Writers name files ``events.out.tfevents.<time>.<host>[.<pid>.<n>][<suffix>]``
    (TF2 and Keras use the suffix ``.v2``; torch and tensorboardX take any
    ``filename_suffix``). Host names may hold dots, so the host ends before the
    last pair of all-digit parts (pid and counter) when there is one.

    Examples
    --------
    >>> host_from_filename("events.out.tfevents.1700000000.gpu-3.cluster.4242.1.v2")
    'gpu-3.cluster'
    >>> host_from_filename("events.out.tfevents.1700000000.vm.4242.1.my_run")
    'vm'
    >>> host_from_filename("events.out.tfevents.1700000000.worker-7")
    'worker-7'
    >>> host_from_filename("events.out.tfevents.1700000000.10.1.2.3.4242.0")
    '10.1.2.3'
    """
    match = _HOST_RE.search(posixpath.basename(path))
    if not match:
        return ""
    parts = match.group("rest").split(".")
    for i in range(len(parts) - 2, 0, -1):
        if parts[i].isdigit() and parts[i + 1].isdigit():
            return ".".join(parts[:i])
    if parts and parts[-1] == "v2":
        parts.pop()
    while len(parts) > 1 and parts[-1].isdigit():
        parts.pop()
    return ".".join(parts)
