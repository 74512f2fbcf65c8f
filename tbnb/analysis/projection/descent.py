"""Approximate nearest neighbours for many points: random-projection trees, then descent.

The exact kNN graph costs ``n^2`` distances; from :data:`EXACT_POINTS` points on,
:func:`approximate_knn` finds the neighbours the way NN-descent does (Dong, Charikar &
Li 2011; as pynndescent runs it), in three steps over the reduced points:

1. **Random-projection trees** (:data:`TREES` of them, leaves of up to ``leaf_size``
   points): each splits its points in two by the hyperplane halfway between two random
   ones, until the parts are leaves. Every pair of points sharing a leaf is measured,
   so each point starts with the nearest of a few hundred points near it in every tree.
2. **Neighbour descent**: a neighbour's neighbour, and a neighbour of a point listing
   this one, is often a neighbour too. Each round measures those candidates (the first
   :data:`WIDTH` of each list, where a link is new since the last round) and keeps the
   nearest, until a round changes fewer than :data:`STOP_FRACTION` of the entries.
   Rounds read one generation of lists and write the next, so two threads never race
   and the graph is the same whatever the number of threads.
3. Callers then measure each point's candidates again in the full space
   (:func:`rerank`): the reduction that makes the search cheap also blurs the order of
   close points.

:func:`recall_at` says how good the result is: the share of the exact ``k`` nearest
neighbours of a seeded sample of points that the graph holds.

Examples
--------
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> points = rng.normal(size=(3000, 8)).astype(np.float32)
>>> indices, _ = approximate_knn(points, 10, seed=0)
>>> indices.shape, recall_at(points, None, indices, 10) > 0.95
((3000, 10), True)
"""

from __future__ import annotations

import itertools
import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

__all__ = [
    "EXACT_POINTS",
    "STOP_FRACTION",
    "TREES",
    "WIDTH",
    "approximate_knn",
    "recall_at",
    "recall_sample",
    "rerank",
]

EXACT_POINTS = 20_000
"""Below this many points the exact graph is cheaper than the approximate one's setup."""

TREES = 6
"""Random-projection trees (each adds a few hundred candidates per point)."""

WIDTH = 12
"""Entries of each list a descent round follows (more: better recall, slower rounds)."""

MAX_ROUNDS = 6
STOP_FRACTION = 0.002
"""Descent stops once a round changes fewer than this share of the entries."""


def approximate_knn(
    points: np.ndarray,
    k: int,
    *,
    seed: int = 0,
    workers: int = 2,
    trees: int = TREES,
    leaf_size: int | None = None,
    progress: Any = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The approximate ``k`` nearest other points of every point (euclidean).

    Parameters
    ----------
    points
        ``(n, d)`` float32.
    k
        Neighbours per point (at most ``n - 1``).
    seed
        Seed of the trees (same seed, same graph).
    workers
        Threads (the kernels release the GIL).
    trees, leaf_size
        Random-projection trees, and their leaves' size (default ``max(256, 2 k)``).
    progress
        A :class:`~tbnb.analysis.projection.jobs.Progress`: told of every tree and round
        (and stops the work when its job is cancelled).

    Returns
    -------
    indices, distances
        ``(n, k)`` int32 and float32 squared distances, nearest first.
    """
    from tbnb.analysis.projection.compiled.knn import descend, merge_leaves, rp_tree

    points = np.ascontiguousarray(points, dtype=np.float32)
    n = len(points)
    k = int(min(k, n - 1))
    leaf = int(leaf_size or max(256, 2 * k))
    heap_i = np.full((n, k), -1, dtype=np.int32)
    heap_d = np.full((n, k), np.inf, dtype=np.float32)
    heap_f = np.zeros((n, k), dtype=np.uint8)
    steps = trees + MAX_ROUNDS

    def tree(t: int) -> tuple[np.ndarray, np.ndarray]:
        perm = np.empty(n, dtype=np.int32)
        leaves = np.empty((2 * (n // leaf) + 130, 2), dtype=np.int64)
        count = rp_tree(points, leaf, seed * 1000 + t + 1, perm, leaves)
        return perm, leaves[:count]

    def merge(args: tuple[np.ndarray, np.ndarray, int, int]) -> None:
        perm, leaves, first, last = args
        merge_leaves(points, perm, leaves, first, last, heap_i, heap_d, heap_f)

    lanes = max(workers, 1)
    with ThreadPoolExecutor(max_workers=lanes, thread_name_prefix="tbnb-knn") as pool:
        for t, (perm, leaves) in enumerate(pool.map(tree, range(trees))):
            if progress is not None:
                progress.update(
                    "neighbours", t, steps, f"random-projection tree {t + 1} of {trees}"
                )
            # leaves of one tree hold different points: their lists never overlap
            cuts = np.linspace(0, len(leaves), lanes * 4 + 1).astype(np.int64).tolist()
            parts = [(perm, leaves, a, b) for a, b in itertools.pairwise(cuts) if b > a]
            list(pool.map(merge, parts))
        heaps = (heap_i, heap_d, heap_f)
        marks = [np.full(n, -1, dtype=np.int32) for _ in range(lanes)]
        for r in range(MAX_ROUNDS):
            if progress is not None:
                progress.update("neighbours", trees + r, steps, f"neighbour descent, round {r + 1}")
            heaps, changed = _descend(pool, points, heaps, marks, descend)
            if changed < STOP_FRACTION * n * k:
                break
    return heaps[0], heaps[1]


def _descend(
    pool: ThreadPoolExecutor, points: np.ndarray, heaps: Any, marks: list[np.ndarray], kernel: Any
) -> tuple[Any, int]:
    """One descent round over every point: the next generation of lists and how many
    entries changed. Part ``p`` of the points runs on lane ``p % len(marks)`` (each lane
    has its own mark array, so two parts sharing one never run at once)."""
    old_i, old_d, old_f = heaps
    n = len(old_i)
    rev, rev_f, rev_start = _reverse(old_i, old_f, WIDTH)
    new = (np.empty_like(old_i), np.empty_like(old_d), np.empty_like(old_f))
    lanes = len(marks)
    bounds = np.linspace(0, n, lanes * 4 + 1).astype(np.int64).tolist()

    def lane(index: int) -> int:
        mark = marks[index]
        return sum(
            int(
                kernel(
                    points,
                    old_i,
                    old_d,
                    old_f,
                    rev,
                    rev_f,
                    rev_start,
                    WIDTH,
                    bounds[p],
                    bounds[p + 1],
                    *new,
                    mark,
                )
            )
            for p in range(index, len(bounds) - 1, lanes)
        )

    return new, sum(pool.map(lane, range(lanes)))


def _reverse(
    indices: np.ndarray, flags: np.ndarray, width: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Who lists each point among their first ``width``, and whether that is new (CSR:
    ``rev[start[j]:start[j + 1]]``)."""
    n = len(indices)
    head = indices[:, :width]
    rows = np.repeat(np.arange(n, dtype=np.int32), head.shape[1])
    flat = head.ravel()
    fresh = flags[:, :width].ravel()
    keep = flat >= 0
    flat, rows, fresh = flat[keep], rows[keep], fresh[keep]
    order = np.argsort(flat, kind="stable")
    start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(flat, minlength=n), out=start[1:])
    return np.ascontiguousarray(rows[order]), np.ascontiguousarray(fresh[order]), start


def rerank(
    data: np.ndarray,
    scale: np.ndarray | None,
    candidates: np.ndarray,
    k: int,
    *,
    workers: int = 2,
) -> tuple[np.ndarray, np.ndarray]:
    """Each point's ``candidates`` (``(n, m)``, ``-1`` for none) measured in ``data`` (rows
    times ``scale`` when given: unit rows for cosine), the ``k`` nearest kept.

    Returns ``(n, k)`` int32 indices and float32 euclidean distances, nearest first.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.array([[0.0], [1.0], [3.0]], np.float32)
    >>> idx, dist = rerank(data, None, np.array([[2, 1], [2, 0], [0, 1]], np.int32), 1)
    >>> idx.ravel().tolist(), dist.ravel().tolist()
    ([1, 0, 1], [1.0, 1.0, 2.0])
    """
    from tbnb.analysis.projection.compiled.knn import rerank as rerank_rows

    data = np.ascontiguousarray(data, dtype=np.float32)
    n = len(data)
    factors = np.ones(n, np.float32) if scale is None else np.asarray(scale, np.float32)
    candidates = np.ascontiguousarray(candidates, dtype=np.int32)
    k = int(min(k, candidates.shape[1]))
    out_i = np.empty((n, k), dtype=np.int32)
    out_d = np.empty((n, k), dtype=np.float32)
    bounds = np.linspace(0, n, max(workers, 1) * 4 + 1).astype(np.int64)

    def part(p: int) -> None:
        rerank_rows(data, factors, candidates, k, int(bounds[p]), int(bounds[p + 1]), out_i, out_d)

    with ThreadPoolExecutor(max_workers=max(workers, 1), thread_name_prefix="tbnb-knn") as pool:
        list(pool.map(part, range(len(bounds) - 1)))
    return out_i, out_d


def recall_at(
    data: np.ndarray,
    scale: np.ndarray | None,
    indices: np.ndarray,
    k: int = 10,
    *,
    sample: int | None = None,
    seed: int = 0,
) -> float:
    """Share of the exact ``k`` nearest neighbours (in ``data``, rows times ``scale``) of a
    seeded sample of points that ``indices`` lists among its first ``k``.

    The sample is :func:`recall_sample` points by default.
    """
    n = len(data)
    k = int(min(k, indices.shape[1], n - 1))
    if k <= 0:
        return 1.0
    if sample is None:
        sample = recall_sample(n, data.shape[1])
    rows = np.sort(np.random.default_rng(seed).choice(n, min(sample, n), replace=False))
    factors = np.ones(n, np.float32) if scale is None else np.asarray(scale, np.float32)
    kept = 0
    block = max(1, int(2e8 // max(data.shape[1] * 4, 1)))  # ~200 MB of rows at a time
    queries = data[rows] * factors[rows, None]
    qsq = np.einsum("ij,ij->i", queries, queries)
    best = np.full((len(rows), k), np.inf)
    best_i = np.full((len(rows), k), -1, dtype=np.int64)
    for start in range(0, n, block):
        part = data[start : start + block] * factors[start : start + block, None]
        dist = qsq[:, None] + np.einsum("ij,ij->i", part, part)[None, :] - 2.0 * (queries @ part.T)
        local = np.arange(start, start + len(part))
        dist[rows[:, None] == local[None, :]] = np.inf  # not itself
        both = np.hstack([best, dist])
        both_i = np.hstack([best_i, np.broadcast_to(local, dist.shape)])
        top = np.argpartition(both, k - 1, axis=1)[:, :k]
        best = np.take_along_axis(both, top, axis=1)
        best_i = np.take_along_axis(both_i, top, axis=1)
    for q, row in enumerate(rows):
        kept += len(set(best_i[q].tolist()) & set(indices[row, :k].tolist()))
    return kept / (len(rows) * k)


def recall_sample(n: int, dims: int) -> int:
    """Points whose exact neighbours :func:`recall_at` finds: 200, down to 50 for data so
    large that each of them costs a noticeable pass over it."""
    return int(min(200, n, max(50, 2e9 / max(n * dims, 1))))


def default_trees(n: int) -> int:
    """Trees for ``n`` points: :data:`TREES`, a few more for millions."""
    return int(TREES + max(0, round(math.log2(max(n, 1) / 1e5))))
