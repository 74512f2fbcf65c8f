"""Compiled kernels that never make a user wait for the compiler.

tbnb's hot loops outside the loader (smoothing and downsampling of series: group
``transforms``; the projector's kNN graph and UMAP: group ``projection``; PR curves'
areas: group ``curves``) are numba kernels (the loader's are C: :mod:`tbnb.native`).
numba compiles them once per machine (tens of seconds) into its on-disk cache;
afterwards a process loads them in a fraction of a second. This room makes sure that no
process ever waits for that compile:

- **A group of kernels is used only once it loads from the cache without compiling**
  (:func:`load`): every kernel of the group, with the argument types it is called
  with, is looked up in the cache and installed; if one is missing, nothing is used
  and the caller takes its numpy/protobuf path.
- **Compiling happens in a separate, detached process** (:func:`compile_in_background`,
  ``python -m tbnb.jit``), at low priority, one at a time per cache (a lock file). It
  outlives the process that started it, checks in a fresh process that every kernel
  loads from the cache, and only then writes the group's ready stamp (:func:`ready`,
  a file check that imports nothing).
- **The cache is the user's** (:func:`cache_dir`: ``$TBNB_CACHE_DIR``, else the
  platform's user cache directory; a private one in the temporary directory, with a
  warning, when the home cannot be written), one directory per Python, numba and
  kernel sources, so a read-only ``site-packages`` and upgrades need nothing special.

numba is optional (the ``projector`` extra brings it) and imported only by :func:`load`,
:func:`njit` and the compile process: ``import tbnb`` and everything that takes the
numpy path never import it. Small work never takes the compiled path (:func:`load`'s
``items``, :data:`~tbnb.jit.loading.MIN_ITEMS`): numba's import costs more than it
saves there, and nothing is compiled for it. Without numba every caller takes its numpy
path, and :func:`njit` raises an ``ImportError`` naming the extra.

A *group* is a list of modules, named as text (so this lowest layer imports no
higher one), each defining ``KERNELS``: ``(dispatcher, example_args)`` pairs whose
argument types are exactly those of every call.

Examples
--------
>>> sorted(GROUPS)
['curves', 'projection', 'transforms']
>>> isinstance(ready("curves"), bool)
True
"""

from __future__ import annotations

from tbnb.jit.build import compile_in_background, compile_now
from tbnb.jit.cache import GROUPS, available, cache_dir, group_dir, ready
from tbnb.jit.loading import load, njit

__all__ = [
    "GROUPS",
    "available",
    "cache_dir",
    "compile_in_background",
    "compile_now",
    "group_dir",
    "load",
    "njit",
    "ready",
]
