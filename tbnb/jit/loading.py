"""Importing numba with tbnb's cache locator, and loading kernels from the cache only.

:func:`njit` is what kernel modules decorate with: numba's ``njit(cache=True,
nogil=True)``, with tbnb's locator first in numba's list, so that a kernel's cache is
:func:`~tbnb.jit.cache.group_dir` (never beside the sources, which may be read-only).
:func:`load` installs every kernel of a group from the cache, compiling nothing.

numba registers some types when it first loads code (``refresh()`` imports its
polynomial and other registries). A test runner that restores ``sys.modules`` after an
in-process run (pytest's ``pytester``) would remove those modules while numba keeps
their registrations, and the next load would register them again and fail. The
modules are therefore imported at once when numba is set up, and kept on the numba
package so that they are put back if they were removed.

Examples
--------
>>> load("no such group")
False
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from tbnb.extras import require
from tbnb.jit.cache import GROUPS, PACKAGE, available, group_dir, ready, remove_marker

__all__ = ["MIN_ITEMS", "NUMBA_EXTRA", "load", "njit", "numba_module", "signature_of", "worth"]

MIN_ITEMS = 4_000_000
"""Elements from which a call takes the compiled path (where it has a numpy twin).

Importing numba and loading a group costs 1-2 s of CPU and 120-160 MB; the numpy and
Python twins take about that for 4M elements (EMA 0.25 s, min/max downsampling 0.15 s
per million), so a smaller call never imports numba (a scalars widget on a small logdir
stays at numpy's cost)."""

NUMBA_EXTRA = "projector"
"""The extra that brings numba (the projector's UMAP and kNN graph need it)."""

_lock = threading.RLock()
_loaded: dict[str, bool] = {}
problems: dict[str, str] = {}
"""Why a group did not load, when an error (not a missing kernel) stopped it."""
_PINNED = "_tbnb_pinned_modules"


def _group_of(py_file: str) -> str | None:
    """The group whose folders hold ``py_file``, if any."""
    try:
        rel = Path(py_file).resolve().relative_to(PACKAGE)
    except ValueError:
        return None
    folder = ".".join(("tbnb", *rel.parts[:-1]))
    for group, modules in GROUPS.items():
        if any(name.rsplit(".", 1)[0] == folder for name in modules):
            return group
    return None


@cache
def _file_hash(path: str, mtime: float, size: int) -> str:
    import hashlib

    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _locator_class(caching: Any) -> type:
    """numba cache locator for tbnb's kernels: the group's directory in the user cache."""

    class TbnbCacheLocator(caching._CacheLocator):  # type: ignore[misc]
        tbnb_locator = True

        def __init__(self, py_func: Any, py_file: str, directory: Path) -> None:
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            folder = Path(py_file).resolve().parent.relative_to(PACKAGE)
            self._cache_path = str(directory / "-".join(folder.parts))  # e.g. io-compiled

        def get_cache_path(self) -> str:
            return self._cache_path

        def get_source_stamp(self) -> str:
            st = os.stat(self._py_file)
            return _file_hash(self._py_file, st.st_mtime, st.st_size)

        def get_disambiguator(self) -> str:
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func: Any, py_file: str) -> Any:
            group = _group_of(py_file)
            directory = group_dir(group) if group else None
            if directory is None:
                return None
            locator = cls(py_func, py_file, directory)
            try:
                locator.ensure_cache_path()
            except OSError:
                return None  # numba's own locators then decide
            return locator

    return TbnbCacheLocator


def _restore_pinned() -> None:
    numba = sys.modules.get("numba")
    for name, module in getattr(numba, _PINNED, {}).items():
        sys.modules.setdefault(name, module)


def numba_module() -> Any:
    """Import numba set up for tbnb (locator installed, registries loaded and pinned).

    Without numba this raises an ``ImportError`` naming the extra that brings it.
    """
    with _lock:
        _restore_pinned()
        numba = require("numba", "tbnb's compiled kernels", NUMBA_EXTRA)
        from numba.core import caching
        from numba.core.registry import cpu_target

        impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")  # noqa: B009
        if not any(getattr(c, "tbnb_locator", False) for c in impl._locator_classes):
            impl._locator_classes.insert(0, _locator_class(caching))
        if not hasattr(numba, _PINNED):
            cpu_target.target_context.refresh()
            setattr(
                numba,
                _PINNED,
                {
                    name: module
                    for name, module in sys.modules.items()
                    if name.split(".")[0] in ("numba", "llvmlite")
                },
            )
        return numba


def _njit(function: Callable[..., Any] | None = None, **options: Any) -> Any:
    numba = numba_module()
    decorate = numba.njit(cache=True, nogil=True, **options)
    return decorate if function is None else decorate(function)


njit: Any = _njit
"""numba's ``njit(cache=True, nogil=True, **options)``, cached in tbnb's cache.

Usable bare (``@njit``) or with options (``@njit(inline="always")``); typed ``Any``
like numba itself, so kernels keep their annotations for readers, not for mypy."""


def signature_of(dispatcher: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    """The numba argument types a call of ``dispatcher`` with ``args`` compiles for."""
    return tuple(dispatcher.typeof_pyval(a) for a in args)


def _from_cache(dispatcher: Any, args: tuple[Any, ...]) -> bool:
    """Install the cached code of ``dispatcher`` for ``args``' types; False if not cached."""
    from numba.core.compiler_lock import global_compiler_lock

    sig = signature_of(dispatcher, args)
    with global_compiler_lock:
        if sig in dispatcher.overloads:
            return True
        cres = dispatcher._cache.load_overload(sig, dispatcher.targetctx)
        if cres is None:
            return False
        dispatcher._cache_hits[sig] += 1
        if not cres.objectmode:
            dispatcher.targetctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
        dispatcher.add_overload(cres)
    return True


def worth(items: int | None) -> bool:
    """Whether a call over ``items`` elements is worth the compiled kernels: from
    :data:`MIN_ITEMS` elements (``None``: the caller always wants them, as the
    projector's layouts do).

    Examples
    --------
    >>> worth(None), worth(MIN_ITEMS), worth(10_000)
    (True, True, False)
    """
    return items is None or items >= MIN_ITEMS


def load(group: str, items: int | None = None) -> bool:
    """Install every kernel of ``group`` from the cache, compiling nothing.

    True when every kernel loaded (then calls with the registered argument types run
    the cached code). False, without importing numba or starting anything, when numba
    is missing or turned off, or the call is small (``items`` elements, see
    :func:`worth`); False when the group has no ready stamp (then numba is not even
    imported) or any kernel is not in the cache, and a background compile is then
    started (see :func:`tbnb.jit.compile_in_background`). On False the caller takes its
    numpy path. Remembered per process; safe from any thread.
    """
    if group not in GROUPS or not available() or not worth(items):
        return False
    with _lock:
        _restore_pinned()
        done = _loaded.get(group)
        if done is None and not ready(group):
            done = False  # not remembered: the background compile may finish meanwhile
        elif done is None:
            done = _loaded[group] = load_group(group)
    if not done:
        from tbnb.jit.build import compile_in_background

        remove_marker(group, "ready")
        compile_in_background(group)
    return done


def load_group(group: str) -> bool:
    """Install every kernel of ``group`` from the cache now (no stamp check, no compile)."""
    try:
        numba_module()
        for name in GROUPS[group]:
            module = importlib.import_module(name)
            for dispatcher, args in module.KERNELS:
                if not _from_cache(dispatcher, args):
                    return False
    except Exception as error:  # a broken cache entry or numba: the other path works
        problems[group] = f"{type(error).__name__}: {error}"
        return False
    return True
