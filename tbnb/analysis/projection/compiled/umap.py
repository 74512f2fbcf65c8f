"""UMAP's compiled kernels (see :mod:`tbnb.analysis.projection.layout_umap`).

Compiled once per install by :mod:`tbnb.jit` in a detached process (group
``"projection"``), loaded from its cache afterwards; ``KERNELS`` lists each one with
arguments of the types it is called with.

Examples
--------
>>> import numpy as np
>>> state = np.array([1, 2, 3], np.int64)
>>> 0 <= int(tau_rand_int(state)) < 2**32
True
"""

from __future__ import annotations

import numpy as np

from tbnb.jit import njit

__all__ = ["KERNELS", "memberships", "sgd_epoch", "smooth_knn_dist", "tau_rand_int"]

SMOOTH_K_TOLERANCE = 1e-5
MIN_K_DIST_SCALE = 1e-3


@njit
def smooth_knn_dist(distances, k, local_connectivity, n_iter):  # type: ignore[no-untyped-def]
    """Per point: ``rho`` (distance to the nearest neighbour) and ``sigma`` such that the
    memberships sum to ``log2(k)`` (umap-learn's ``smooth_knn_dist``)."""
    target = np.log2(k)
    n = distances.shape[0]
    rho = np.zeros(n, dtype=np.float32)
    sigma = np.zeros(n, dtype=np.float32)
    mean_distances = np.mean(distances)
    for i in range(n):
        lo = 0.0
        hi = np.inf
        mid = 1.0
        ith = distances[i]
        non_zero = ith[ith > 0.0]
        if non_zero.shape[0] >= local_connectivity:
            index = int(np.floor(local_connectivity))
            interpolation = local_connectivity - index
            if index > 0:
                rho[i] = non_zero[index - 1]
                if interpolation > SMOOTH_K_TOLERANCE:
                    rho[i] += interpolation * (non_zero[index] - non_zero[index - 1])
            else:
                rho[i] = interpolation * non_zero[0]
        elif non_zero.shape[0] > 0:
            rho[i] = np.max(non_zero)
        for _ in range(n_iter):
            psum = 0.0
            for j in range(1, distances.shape[1]):
                d = distances[i, j] - rho[i]
                psum += np.exp(-(d / mid)) if d > 0 else 1.0
            if np.fabs(psum - target) < SMOOTH_K_TOLERANCE:
                break
            if psum > target:
                hi = mid
                mid = (lo + hi) / 2.0
            else:
                lo = mid
                mid = mid * 2 if hi == np.inf else (lo + hi) / 2.0
        sigma[i] = mid
        floor = MIN_K_DIST_SCALE * (np.mean(ith) if rho[i] > 0.0 else mean_distances)
        sigma[i] = max(sigma[i], floor)
    return sigma, rho


@njit
def memberships(indices, distances, sigma, rho):  # type: ignore[no-untyped-def]
    n, k = indices.shape
    rows = np.zeros(n * k, dtype=np.int32)
    cols = np.zeros(n * k, dtype=np.int32)
    vals = np.zeros(n * k, dtype=np.float32)
    for i in range(n):
        for j in range(k):
            other = indices[i, j]
            if other == -1:
                continue
            if other == i:
                val = 0.0
            elif distances[i, j] - rho[i] <= 0.0 or sigma[i] == 0.0:
                val = 1.0
            else:
                val = np.exp(-((distances[i, j] - rho[i]) / sigma[i]))
            rows[i * k + j] = i
            cols[i * k + j] = other
            vals[i * k + j] = val
    return rows, cols, vals


@njit
def tau_rand_int(state):  # type: ignore[no-untyped-def]
    state[0] = (((state[0] & 4294967294) << 12) & 0xFFFFFFFF) ^ (
        (((state[0] << 13) & 0xFFFFFFFF) ^ state[0]) >> 19
    )
    state[1] = (((state[1] & 4294967288) << 4) & 0xFFFFFFFF) ^ (
        (((state[1] << 2) & 0xFFFFFFFF) ^ state[1]) >> 25
    )
    state[2] = (((state[2] & 4294967280) << 17) & 0xFFFFFFFF) ^ (
        (((state[2] << 3) & 0xFFFFFFFF) ^ state[2]) >> 11
    )
    return state[0] ^ state[1] ^ state[2]


@njit(fastmath=True)
def sgd_epoch(  # type: ignore[no-untyped-def]
    emb,
    snapshot,
    head,
    tail,
    edges,
    epochs_per_sample,
    next_sample,
    next_negative,
    per_negative,
    a,
    b,
    gamma,
    alpha,
    epoch,
    state,
):
    """One epoch of UMAP's SGD over the edges listed in ``edges``: each due edge pulls
    its two ends together, then pushes its head away from random points, read from
    ``snapshot`` (the layout when the epoch began). Callers give each thread edges whose
    ends no other thread moves, so threads never race and the result does not depend
    on their timing."""
    n_vertices = emb.shape[0]
    dim = emb.shape[1]
    for e in range(edges.shape[0]):
        i = edges[e]
        if next_sample[i] > epoch:
            continue
        j = head[i]
        k = tail[i]
        dist_squared = 0.0
        for d in range(dim):
            diff = emb[j, d] - emb[k, d]
            dist_squared += diff * diff
        if dist_squared > 0.0:
            powered = np.exp(b * np.log(dist_squared))  # d^2b; d^2(b-1) is that / d^2
            coeff = -2.0 * a * b * (powered / dist_squared) / (a * powered + 1.0)
        else:
            coeff = 0.0
        for d in range(dim):
            grad = coeff * (emb[j, d] - emb[k, d])
            grad = min(max(grad, -4.0), 4.0)
            emb[j, d] += grad * alpha
            emb[k, d] -= grad * alpha
        next_sample[i] += epochs_per_sample[i]
        n_negative = int((epoch - next_negative[i]) / per_negative[i])
        for _ in range(n_negative):
            k = tau_rand_int(state) % n_vertices
            if k == j:
                continue
            dist_squared = 0.0
            for d in range(dim):
                diff = emb[j, d] - snapshot[k, d]
                dist_squared += diff * diff
            if dist_squared <= 0.0:  # a different point at the same place: no push
                continue
            powered = np.exp(b * np.log(dist_squared))
            coeff = 2.0 * gamma * b / ((0.001 + dist_squared) * (a * powered + 1.0))
            for d in range(dim):
                grad = min(max(coeff * (emb[j, d] - snapshot[k, d]), -4.0), 4.0)
                emb[j, d] += grad * alpha
        next_negative[i] += n_negative * per_negative[i]


def _examples() -> list[tuple[object, tuple[object, ...]]]:
    f32, f64, i32, i64 = np.float32, np.float64, np.int32, np.int64
    knn_i, knn_d = np.zeros((2, 2), i32), np.zeros((2, 2), f32)
    emb, edges, floats = np.zeros((2, 2), f32), np.zeros(1, i32), np.ones(1, f64)
    return [
        (smooth_knn_dist, (knn_d, 2.0, 1.0, 64)),
        (memberships, (knn_i, knn_d, np.zeros(2, f32), np.zeros(2, f32))),
        (
            sgd_epoch,
            (
                *(emb, emb, edges, edges, np.zeros(1, i64), floats, floats, floats, floats),
                *(1.0, 1.0, 1.0, 1.0, 0, np.zeros(3, i64)),
            ),
        ),
    ]


KERNELS = _examples()
"""What :mod:`tbnb.jit` compiles and loads: each kernel with arguments of its call's types."""
