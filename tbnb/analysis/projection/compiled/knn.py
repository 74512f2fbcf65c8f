"""The kNN graph's compiled kernels (see :mod:`tbnb.analysis.projection.neighbors` and
:mod:`tbnb.analysis.projection.descent`).

- :func:`select_block`: the exact graph's selection from a block of products;
- :func:`rp_tree`: one random-projection tree (its leaves: ranges of a permutation);
- :func:`merge_leaves`: pairwise distances in leaves into every member's neighbour list;
- :func:`descend`: one round of neighbour descent over a range of points, reading one
  generation of lists and writing the next (so threads never race, and the result does
  not depend on how the points are split between them);
- :func:`rerank`: each point's candidates measured again in the full space, the ``k``
  nearest kept.

Neighbour lists are sorted ascending by squared distance (ties by index); ``-1`` marks
an empty slot, at the end. Compiled once per install by :mod:`tbnb.jit` (group
``"projection"``), each with exactly the argument types listed in ``KERNELS``.

Examples
--------
>>> import numpy as np
>>> points = np.array([[0.0], [1.0], [3.0]], np.float32)
>>> out_i, out_d = np.zeros((3, 1), np.int32), np.zeros((3, 1), np.float32)
>>> select_block(points, points @ points.T, (points ** 2).ravel(), 0, 1, out_i, out_d)
>>> out_i.ravel().tolist(), out_d.ravel().tolist()
([1, 0, 1], [1.0, 1.0, 2.0])
"""

from __future__ import annotations

import numpy as np

from tbnb.jit import njit

__all__ = ["KERNELS", "descend", "merge_leaves", "rerank", "rp_tree", "select_block"]


@njit
def select_block(points, gram, sq, start, k, out_i, out_d):  # type: ignore[no-untyped-def]
    """For rows ``start..`` of ``gram`` (their products with every point): the ``k``
    nearest other points by ``sq[j] - 2 g`` (the squared distance less the row's own
    norm), then exact squared distances, sorted."""
    n = gram.shape[1]
    dim = points.shape[1]
    for r in range(gram.shape[0]):
        row = start + r
        best_i = out_i[row]
        best_d = out_d[row]
        count = 0
        worst = np.inf
        for j in range(n):
            if j == row:
                continue
            v = sq[j] - 2.0 * gram[r, j]
            if count < k:
                p = count
                while p > 0 and best_d[p - 1] > v:
                    best_d[p] = best_d[p - 1]
                    best_i[p] = best_i[p - 1]
                    p -= 1
                best_d[p] = v
                best_i[p] = j
                count += 1
                worst = best_d[count - 1]
            elif v < worst:
                p = k - 1
                while p > 0 and best_d[p - 1] > v:
                    best_d[p] = best_d[p - 1]
                    best_i[p] = best_i[p - 1]
                    p -= 1
                best_d[p] = v
                best_i[p] = j
                worst = best_d[k - 1]
        for p in range(count):  # exact distances of the chosen ones, then sorted
            j = best_i[p]
            acc = 0.0
            for c in range(dim):
                diff = points[row, c] - points[j, c]
                acc += diff * diff
            best_d[p] = acc
        for p in range(1, count):
            vi = best_i[p]
            vd = best_d[p]
            q = p
            while q > 0 and (best_d[q - 1] > vd or (best_d[q - 1] == vd and best_i[q - 1] > vi)):
                best_d[q] = best_d[q - 1]
                best_i[q] = best_i[q - 1]
                q -= 1
            best_d[q] = vd
            best_i[q] = vi
        for p in range(count):
            best_d[p] = np.sqrt(best_d[p])


@njit
def _push(row_i, row_d, row_f, j, d, flag):  # type: ignore[no-untyped-def]
    """Insert ``j`` at squared distance ``d`` in one sorted list unless it is there or
    farther than the last; returns 1 if inserted."""
    k = row_i.shape[0]
    if d > row_d[k - 1] or (d == row_d[k - 1] and row_i[k - 1] >= 0 and j > row_i[k - 1]):
        return 0
    for p in range(k):
        if row_i[p] == j:
            return 0
        if row_i[p] < 0:
            break
    p = k - 1
    while p > 0 and (row_d[p - 1] > d or (row_d[p - 1] == d and row_i[p - 1] > j)):
        row_d[p] = row_d[p - 1]
        row_i[p] = row_i[p - 1]
        row_f[p] = row_f[p - 1]
        p -= 1
    row_d[p] = d
    row_i[p] = j
    row_f[p] = flag
    return 1


@njit
def _below(state, m):  # type: ignore[no-untyped-def]
    """A pseudo-random integer in ``0..m-1`` (xorshift64*, its state in ``state[0]``)."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return np.int64((x * np.uint64(2685821657736338717)) >> np.uint64(33)) % m


@njit
def rp_tree(points, leaf_size, seed, perm, leaves):  # type: ignore[no-untyped-def]
    """Split ``perm`` (the point indices) by random hyperplanes until every part holds at
    most ``leaf_size`` points: each split is the hyperplane halfway between two random
    points of the part (a random half when all fall on one side). Writes the leaves'
    ``(start, stop)`` into ``leaves`` and returns how many there are."""
    state = np.array([seed * 2654435761 % 4294967296 + 1], np.uint64)
    dim = points.shape[1]
    n = perm.shape[0]
    for i in range(n):
        perm[i] = i
    stack = np.empty((2 * (n // max(leaf_size, 1)) + 128, 2), np.int64)
    stack[0, 0] = 0
    stack[0, 1] = n
    top = 1
    count = 0
    normal = np.empty(dim, np.float32)
    while top > 0:
        top -= 1
        lo = stack[top, 0]
        hi = stack[top, 1]
        m = hi - lo
        if m <= leaf_size:
            leaves[count, 0] = lo
            leaves[count, 1] = hi
            count += 1
            continue
        a = perm[lo + _below(state, m)]
        b = perm[lo + _below(state, m)]
        offset = 0.0
        for c in range(dim):
            normal[c] = points[a, c] - points[b, c]
            offset += normal[c] * (points[a, c] + points[b, c]) * 0.5
        i = lo
        j = hi - 1
        while i <= j:
            margin = -offset
            p = perm[i]
            for c in range(dim):
                margin += normal[c] * points[p, c]
            if margin < 0 or (margin == 0 and _below(state, 2) == 0):
                i += 1
            else:
                perm[i] = perm[j]
                perm[j] = p
                j -= 1
        mid = i
        if mid in (lo, hi):  # no split (duplicates): a random half
            for q in range(hi - 1, lo, -1):
                r = lo + _below(state, q - lo + 1)
                t = perm[q]
                perm[q] = perm[r]
                perm[r] = t
            mid = lo + m // 2
        stack[top, 0] = lo
        stack[top, 1] = mid
        stack[top + 1, 0] = mid
        stack[top + 1, 1] = hi
        top += 2
    return count


@njit
def merge_leaves(points, perm, leaves, first, last, heap_i, heap_d, heap_f):  # type: ignore[no-untyped-def]
    """Every pair of points sharing one of ``leaves[first:last]`` (ranges of ``perm``)
    into both their lists (a leaf's points are in no other leaf of its tree)."""
    for leaf in range(first, last):
        lo = leaves[leaf, 0]
        hi = leaves[leaf, 1]
        for r in range(lo, hi):
            a = perm[r]
            for c in range(r + 1, hi):
                b = perm[c]
                d = _distance(points, a, b)
                _push(heap_i[a], heap_d[a], heap_f[a], b, d, 1)
                _push(heap_i[b], heap_d[b], heap_f[b], a, d, 1)


@njit(fastmath=True)
def _distance(points, a, b):  # type: ignore[no-untyped-def]
    acc = np.float32(0.0)
    for c in range(points.shape[1]):
        diff = points[a, c] - points[b, c]
        acc += diff * diff
    return acc


@njit
def descend(  # type: ignore[no-untyped-def]
    points,
    old_i,
    old_d,
    old_f,
    rev,
    rev_f,
    rev_start,
    width,
    start,
    stop,
    new_i,
    new_d,
    new_f,
    mark,
):
    """One round of neighbour descent for points ``start..stop``: each point's list (a
    copy of the old one in ``new_*``) takes the nearest of its neighbours' neighbours and
    of the neighbours of the points that list it (``rev``, CSR by ``rev_start``; ``rev_f``
    whether that listing is new), the first ``width`` of each list, where either link is
    new since the last round. Returns
    how many entries changed. ``mark`` (n int32, all -1 at first) is this thread's own."""
    k = old_i.shape[1]
    w = min(width, k)
    changed = 0
    for i in range(start, stop):
        for p in range(k):
            new_i[i, p] = old_i[i, p]
            new_d[i, p] = old_d[i, p]
            new_f[i, p] = 0
            if old_i[i, p] >= 0:
                mark[old_i[i, p]] = i
        mark[i] = i
        for side in range(2):
            if side == 0:
                first = 0
                last = w
            else:
                first = rev_start[i]
                last = min(rev_start[i + 1], first + width)
            for a in range(first, last):
                if side == 0:
                    j = old_i[i, a]
                    fresh_j = old_f[i, a]
                else:
                    j = rev[a]
                    fresh_j = rev_f[a]
                if j < 0:
                    continue
                if not fresh_j:  # nothing new through j unless its own list changed
                    stale = True
                    for b in range(w):
                        if old_f[j, b]:
                            stale = False
                            break
                    if stale:
                        continue
                for b in range(w):
                    other = old_i[j, b]
                    if other < 0:
                        break
                    if mark[other] == i or not (fresh_j or old_f[j, b]):
                        continue
                    mark[other] = i
                    d = _distance(points, i, other)
                    changed += _push(new_i[i], new_d[i], new_f[i], other, d, 1)
    return changed


@njit(fastmath=True)
def rerank(data, scale, candidates, k, start, stop, out_i, out_d):  # type: ignore[no-untyped-def]
    """For points ``start..stop``: their ``candidates`` measured in ``data`` (rows times
    ``scale``, for cosine), the ``k`` nearest kept sorted, distances (not squared)."""
    width = candidates.shape[1]
    dim = data.shape[1]
    best_i = np.empty(k, np.int32)
    best_d = np.empty(k, np.float32)
    flags = np.empty(k, np.uint8)
    for i in range(start, stop):
        for p in range(k):
            best_i[p] = -1
            best_d[p] = np.inf
        si = scale[i]
        for a in range(width):
            j = candidates[i, a]
            if j < 0 or j == i:
                continue
            sj = scale[j]
            acc = 0.0
            for c in range(dim):
                diff = data[i, c] * si - data[j, c] * sj
                acc += diff * diff
            _push(best_i, best_d, flags, j, np.float32(acc), 0)
        for p in range(k):
            out_i[i, p] = best_i[p]
            out_d[i, p] = np.sqrt(best_d[p]) if best_i[p] >= 0 else np.inf


def _examples() -> list[tuple[object, tuple[object, ...]]]:
    f32, i32, i64, u8 = np.float32, np.int32, np.int64, np.uint8
    pts, ids, dists, flags = (
        np.zeros((2, 2), f32),
        np.zeros((2, 1), i32),
        np.zeros((2, 1), f32),
        np.zeros((2, 1), u8),
    )
    return [
        (
            select_block,
            (pts, pts, np.zeros(2, f32), 0, 1, ids, dists),
        ),
        (rp_tree, (pts, 1, 0, np.zeros(2, i32), np.zeros((2, 2), i64))),
        (merge_leaves, (pts, np.zeros(2, i32), np.zeros((1, 2), i64), 0, 1, ids, dists, flags)),
        (
            descend,
            (
                pts,
                ids,
                dists,
                flags,
                np.zeros(1, i32),
                np.zeros(1, u8),
                np.zeros(3, i64),
                1,
                0,
                1,
                ids,
                dists,
                flags,
                np.zeros(2, i32),
            ),
        ),
        (rerank, (pts, np.ones(2, f32), ids, 1, 0, 1, ids, dists)),
    ]


KERNELS = _examples()
"""What :mod:`tbnb.jit` compiles and loads: each kernel with arguments of its call's types."""
