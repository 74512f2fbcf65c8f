"""The exact kNN graph's compiled kernel (see :mod:`tbnb.analysis.projection.neighbors`).

Compiled once per install by :mod:`tbnb.jit` (group ``"projection"``).

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

__all__ = ["KERNELS", "select_block"]


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


KERNELS = [
    (
        select_block,
        (
            np.zeros((1, 1), np.float32),
            np.zeros((1, 1), np.float32),
            np.zeros(1, np.float32),
            0,
            1,
            np.zeros((1, 1), np.int32),
            np.zeros((1, 1), np.float32),
        ),
    )
]
"""What :mod:`tbnb.jit` compiles and loads: the kernel with arguments of its call's types."""
