"""Where compiled kernels live, and whether a group of them is ready: file checks only.

A group's directory is named after what makes compiled code valid: the Python version,
the machine, the numba version and a hash of the group's kernel sources. Its ready
stamp is written by the compile process once every kernel of the group has been
loaded back from the cache by a fresh process. Nothing here imports numba.

Examples
--------
>>> d = group_dir("curves")
>>> d is None or d.name.startswith("curves-py")
True
"""

from __future__ import annotations

import getpass
import hashlib
import json
import os
import platform
import stat
import sys
import tempfile
import time
import warnings
from functools import cache, lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any

from tbnb.warnings import TbnbWarning

__all__ = [
    "GROUPS",
    "available",
    "cache_dir",
    "group_dir",
    "preferred_cache_dir",
    "ready",
    "write_marker",
]

GROUPS: dict[str, tuple[str, ...]] = {
    "curves": ("tbnb.analysis.compiled.pr_areas",),
    "projection": (
        "tbnb.analysis.projection.compiled.knn",
        "tbnb.analysis.projection.compiled.umap",
    ),
    "transforms": ("tbnb.transforms.compiled.smoothing", "tbnb.transforms.compiled.downsample"),
}
"""Each group's modules (each defines ``KERNELS``); every ``.py`` file in their folders
is part of the group's source hash."""

PACKAGE = Path(__file__).resolve().parents[1]
"""The ``tbnb`` package directory."""

FAILED_RETRY_SECONDS = 24 * 3600
"""A group whose compile failed is not tried again by background compiles for this long."""


def cache_dir() -> Path:
    """The per-user directory holding compiled kernels.

    ``$TBNB_CACHE_DIR/compiled`` if set, else ``compiled`` in the platform's user cache
    directory for tbnb (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux,
    ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows). When that cannot be
    written (a read-only or missing home, as for service accounts), a private directory
    of this user in the temporary directory is used instead (``tbnb-<uid>``, mode
    0700, refused if another user owns it), with a :class:`~tbnb.warnings.TbnbWarning`
    saying so once per process.

    Examples
    --------
    >>> cache_dir().name
    'compiled'
    """
    return _usable(preferred_cache_dir(), tempfile.gettempdir())


def preferred_cache_dir() -> Path:
    """Where the user's cache would be (see :func:`cache_dir`), writable or not.

    Examples
    --------
    >>> preferred_cache_dir().name
    'compiled'
    """
    env = os.environ.get("TBNB_CACHE_DIR")
    if env:
        base = Path(env).expanduser()
    elif sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local") / "tbnb"
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches" / "tbnb"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tbnb"
    return base / "compiled"


def _can_create(path: Path) -> bool:
    """Whether ``path`` is, or can be made, a directory this process writes in."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate.is_dir() and os.access(candidate, os.W_OK | os.X_OK)
    return False


def _private_dir(tmp: Path) -> Path | None:
    """This user's own directory under ``tmp`` (created 0700), or None if it cannot be
    made or is not safely this user's alone (another owner, a link, group/other-writable)."""
    getuid = getattr(os, "getuid", None)
    owner = str(getuid()) if getuid else getpass.getuser()
    path = tmp / f"tbnb-{owner}"
    try:
        path.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or (getuid and info.st_uid != getuid()):
        return None
    if getuid and info.st_mode & 0o022:
        return None
    return path


@lru_cache(maxsize=8)
def _usable(preferred: Path, tmp: str) -> Path:
    if _can_create(preferred):
        return preferred
    private = _private_dir(Path(tmp))
    if private is None:
        warnings.warn(
            f"tbnb cannot write its cache directory {preferred} nor a private one in "
            f"{tmp}: kernels are not compiled and loads keep their numpy path. Set "
            "TBNB_CACHE_DIR to a writable directory.",
            TbnbWarning,
            stacklevel=3,
        )
        return preferred
    warnings.warn(
        f"tbnb cannot write its cache directory {preferred}: compiled kernels are kept in "
        f"{private} instead (set TBNB_CACHE_DIR to choose a directory).",
        TbnbWarning,
        stacklevel=3,
    )
    return private / "compiled"


@lru_cache(maxsize=1)
def numba_version() -> str | None:
    """The installed numba's version, or None without numba (found without importing it)."""
    try:
        return metadata.version("numba")
    except metadata.PackageNotFoundError:
        return None


def available() -> bool:
    """Whether compiled kernels can be used at all: numba installed and not turned off
    (``TBNB_JIT=0``).

    Examples
    --------
    >>> isinstance(available(), bool)
    True
    """
    if os.environ.get("TBNB_JIT", "").strip().lower() in {"0", "off", "false", "no"}:
        return False
    return numba_version() is not None


def group_files(group: str) -> list[Path]:
    """The source files a group's compiled code depends on: every ``.py`` in its modules'
    folders, and this room's."""
    folders = {PACKAGE.joinpath(*name.split(".")[1:-1]) for name in GROUPS[group]}
    folders.add(Path(__file__).resolve().parent)
    return sorted(p for folder in folders for p in folder.glob("*.py"))


@cache
def _source_hash(group: str) -> str:
    digest = hashlib.sha256()
    for path in group_files(group):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def group_dir(group: str) -> Path | None:
    """The directory of a group's compiled code on this machine, or None without numba."""
    version = numba_version()
    if version is None:
        return None
    py = f"{sys.version_info.major}{sys.version_info.minor}"
    name = (
        f"{group}-py{py}-{platform.machine().lower() or 'cpu'}-numba{version}-{_source_hash(group)}"
    )
    return cache_dir() / name


def _marker(group: str, kind: str) -> Path | None:
    directory = group_dir(group)
    return None if directory is None else directory / f"{kind}.json"


def ready(group: str) -> bool:
    """Whether a group's kernels were compiled and verified to load from the cache.

    A file check: cheap, imports nothing. :func:`tbnb.jit.load` still verifies every
    kernel before use.
    """
    if not available():
        return False
    marker = _marker(group, "ready")
    return marker is not None and marker.is_file()


def write_marker(group: str, kind: str, **info: Any) -> None:
    """Write (atomically) the ``ready`` or ``failed`` marker of a group."""
    marker = _marker(group, kind)
    if marker is None:
        return
    marker.parent.mkdir(parents=True, exist_ok=True)
    tmp = marker.with_name(f".{marker.name}.{os.getpid()}")
    tmp.write_text(json.dumps({"time": time.time(), "pid": os.getpid(), **info}))
    os.replace(tmp, marker)


def remove_marker(group: str, kind: str) -> None:
    marker = _marker(group, kind)
    if marker is not None:
        marker.unlink(missing_ok=True)


def recently_failed(group: str) -> bool:
    """Whether the group's last compile failed less than a day ago."""
    marker = _marker(group, "failed")
    if marker is None or not marker.is_file():
        return False
    try:
        return time.time() - marker.stat().st_mtime < FAILED_RETRY_SECONDS
    except OSError:
        return False


def writable(directory: Path) -> bool:
    """Whether files can be created in ``directory`` (created if missing)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return False
    return True
