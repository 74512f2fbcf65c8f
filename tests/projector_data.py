"""Embedding-like data for the projector's tests and benchmarks, and the measures of a layout.

:func:`clusters` makes what model embeddings look like to a neighbour search: groups of
very uneven sizes, each spread over a few directions of its own (low rank) around its
centre, with noise in every dimension, so that 50 principal components do not hold every
group's spread. :func:`knn_preserved` and :func:`trustworthiness` measure how well a 2-D
layout keeps the neighbours of the original space, on a fixed subsample.

Examples
--------
>>> X, labels = clusters(1000, 32, k=4)
>>> X.shape, X.dtype.name, sorted(set(labels.tolist()))
((1000, 32), 'float32', [0, 1, 2, 3])
"""

from __future__ import annotations

import numpy as np

__all__ = ["clusters", "exact_neighbors", "knn_preserved", "trustworthiness"]


def clusters(
    n: int,
    d: int = 768,
    *,
    k: int = 20,
    seed: int = 0,
    noise: float = 0.03,
    spread: float = 1.0,
    centres: float = 0.12,
) -> tuple[np.ndarray, np.ndarray]:
    """``(vectors, labels)``: ``n`` float32 rows in ``k`` low-rank groups of uneven sizes.

    Group ``c`` holds a share ``1 / (c + 1)`` (normalised) of the rows; its rows are its
    centre (``N(0, centres^2)`` per dimension) plus ``spread`` times standard normal
    coordinates along 4 to 16 orthonormal directions of its own, plus ``N(0, noise^2)``
    in every dimension. Built in float32 a group at a time (1M x 768 needs 3 GB, no more).
    """
    rng = np.random.default_rng(seed)
    share = 1.0 / np.arange(1, k + 1)
    labels = rng.choice(k, size=n, p=share / share.sum()).astype(np.int32)
    out = np.empty((n, d), dtype=np.float32)
    for c in range(k):
        rows = np.flatnonzero(labels == c)
        rank = int(rng.integers(4, 17))
        basis, _ = np.linalg.qr(rng.standard_normal((d, rank)))
        centre = rng.normal(scale=centres, size=d).astype(np.float32)
        basis32 = (basis.T * spread).astype(np.float32)
        for start in range(0, len(rows), 65536):
            part = rows[start : start + 65536]
            block = rng.standard_normal((len(part), d), dtype=np.float32)
            block *= np.float32(noise)
            block += centre
            block += rng.standard_normal((len(part), rank), dtype=np.float32) @ basis32
            out[part] = block
    return out, labels


def exact_neighbors(data: np.ndarray, queries: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` nearest rows of ``data`` (euclidean, self excluded) of each query row index."""
    data = np.asarray(data, dtype=np.float32)
    sq = np.einsum("ij,ij->i", data, data)
    out = np.empty((len(queries), k), dtype=np.int64)
    for start in range(0, len(queries), 256):
        q = queries[start : start + 256]
        dist = sq[None, :] - 2.0 * (data[q] @ data.T)
        dist[np.arange(len(q)), q] = np.inf
        part = np.argpartition(dist, k, axis=1)[:, :k]
        order = np.argsort(np.take_along_axis(dist, part, axis=1), axis=1)
        out[start : start + 256] = np.take_along_axis(part, order, axis=1)
    return out


def knn_preserved(
    data: np.ndarray, layout: np.ndarray, *, k: int = 10, sample: int = 1000, seed: int = 0
) -> float:
    """Mean share of each sampled point's ``k`` nearest neighbours in ``data`` that are
    among its ``k`` nearest in ``layout`` (all points searched; a fixed sample of queries)."""
    queries = np.random.default_rng(seed).choice(len(data), min(sample, len(data)), replace=False)
    high = exact_neighbors(data, queries, k)
    low = exact_neighbors(np.asarray(layout, np.float32), queries, k)
    kept = [len(set(a) & set(b)) for a, b in zip(high.tolist(), low.tolist(), strict=True)]
    return float(np.mean(kept)) / k


def trustworthiness(
    data: np.ndarray, layout: np.ndarray, *, k: int = 10, sample: int = 2000, seed: int = 0
) -> float:
    """scikit-learn's trustworthiness of ``layout`` on a fixed sample of the points."""
    from sklearn.manifold import trustworthiness as sk_trustworthiness

    rows = np.random.default_rng(seed).choice(len(data), min(sample, len(data)), replace=False)
    return float(sk_trustworthiness(data[rows], np.asarray(layout)[rows], n_neighbors=k))
