"""Nearest neighbours: the kNN graph t-SNE and UMAP share, and one point's neighbours.

:func:`neighbor_graph` is the graph layouts use: candidates found on the reduced points
(exactly by :func:`knn_graph` below a size where that is cheap, approximately by
:mod:`~tbnb.analysis.projection.descent` above), measured again in the original space,
with its recall against the exact neighbours there. :func:`knn_graph` is exact: blocks
of rows are multiplied against all points (BLAS)
and a compiled kernel keeps each row's ``k`` smallest distances, then recomputes them
exactly (float32 products lose precision for close points). It runs on the reduced
points (PCA-50, :func:`reduce_for_neighbors`), on two threads (both stages release
the GIL), and gives the same graph every time. :func:`nearest` answers the
neighbours panel: one point's exact neighbours in the original space.

Cosine geometry: rows are scaled to unit length (without a copy, see
:func:`tbnb.analysis.projection.pca.pca`), where euclidean distance is
``sqrt(2 - 2 cos)``, a monotone function of the cosine distance.

Examples
--------
>>> import numpy as np
>>> points = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 0.0], [5.5, 0.0]], np.float32)
>>> indices, distances = knn_graph(points, 1)
>>> indices.ravel().tolist(), distances.ravel().tolist()
([1, 0, 3, 2], [1.0, 1.0, 0.5, 0.5])
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from tbnb.analysis.projection.pca import pca

__all__ = [
    "METRICS",
    "Graph",
    "Metric",
    "knn_graph",
    "nearest",
    "neighbor_graph",
    "reduce_for_neighbors",
]

Metric = Literal["euclidean", "cosine"]
METRICS: tuple[str, ...] = ("euclidean", "cosine")

REDUCED_DIMS = 50
"""Dimensions kept for the kNN graph (PCA), as t-SNE and UMAP practice recommends."""


def check_metric(metric: str) -> Metric:
    """``metric`` if it is one of :data:`METRICS`, else a ``ValueError`` naming them."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {list(METRICS)}, got {metric!r}")
    return metric  # type: ignore[return-value]


def unit_scale(data: np.ndarray) -> np.ndarray:
    """``1 / norm`` of each row (0 for a zero row)."""
    norms = np.sqrt(np.einsum("ij,ij->i", data, data, dtype=np.float64))
    with np.errstate(divide="ignore"):
        scale = np.where(norms > 0, 1.0 / norms, 0.0)
    return scale.astype(np.float32)


def reduce_for_neighbors(
    data: np.ndarray, metric: Metric = "euclidean", *, dims: int = REDUCED_DIMS, seed: int = 0
) -> np.ndarray:
    """The points the kNN graph is computed on: PCA to ``dims`` (of unit rows for cosine).

    Data with at most ``dims`` columns is used as it is (unit rows for cosine).
    """
    check_metric(metric)
    scale = unit_scale(data) if metric == "cosine" else None
    if data.shape[1] <= dims:
        out = data if scale is None else data * scale[:, None]
        return np.ascontiguousarray(out, dtype=np.float32)
    return pca(data, dims, seed=seed, row_scale=scale).coords


def knn_graph(
    points: np.ndarray, k: int, *, workers: int = 2, block_bytes: int = 1 << 27
) -> tuple[np.ndarray, np.ndarray]:
    """The exact ``k`` nearest other points of every point (euclidean).

    Parameters
    ----------
    points
        ``(n, d)`` float32 (typically :func:`reduce_for_neighbors`'s output).
    k
        Neighbours per point (at most ``n - 1``); the point itself is never one.
    workers
        Threads (each multiplies a block, then selects in compiled code without the GIL).
    block_bytes
        Memory of one block of products per thread.

    Returns
    -------
    indices, distances
        ``(n, k)`` int32 and float32, nearest first (ties by index).
    """
    points = np.ascontiguousarray(points, dtype=np.float32)
    n = len(points)
    k = int(min(k, n - 1))
    out_i = np.zeros((n, k), dtype=np.int32)
    out_d = np.zeros((n, k), dtype=np.float32)
    if k <= 0:
        return out_i, out_d
    from tbnb.analysis.projection.compiled.knn import select_block

    sq = np.einsum("ij,ij->i", points, points)
    rows = int(max(16, min(4096, block_bytes // (4 * max(n, 1)))))

    def block(start: int) -> None:
        gram = points[start : start + rows] @ points.T
        select_block(points, gram, sq, start, k, out_i, out_d)

    starts = range(0, n, rows)
    if workers <= 1 or len(starts) == 1:
        for start in starts:
            block(start)
    else:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tbnb-knn") as pool:
            list(pool.map(block, starts))
    return out_i, out_d


@dataclass(frozen=True)
class Graph:
    """A kNN graph and how it was found.

    Attributes
    ----------
    indices, distances
        ``(n, k)`` int32 and float32 (euclidean in the original space, of unit rows for
        cosine), nearest first; no point is its own neighbour.
    method
        ``"exact"`` (every pair measured) or ``"approximate"`` (trees and descent).
    recall
        Share of the exact 10 nearest neighbours (original space) of a seeded sample of
        points that the graph lists (1.0 when every pair was measured there).
    sample
        Points that recall was measured on (0: exact, nothing to measure).
    """

    indices: np.ndarray
    distances: np.ndarray
    method: str
    recall: float
    sample: int = 0

    @property
    def nbytes(self) -> int:
        """Memory held (what a cache counts)."""
        return int(self.indices.nbytes + self.distances.nbytes)

    def describe(self) -> str:
        """What the status line says of it."""
        if self.sample == 0:
            return f"{self.method} kNN"
        return f"{self.method} kNN, recall@10 {self.recall:.3f} ({self.sample} points checked)"


def candidates_needed(k: int, n: int) -> int:
    """Candidates searched in the reduced space for ``k`` neighbours in the full one."""
    return int(min(n - 1, k + max(16, k // 2)))


def neighbor_graph(
    vectors: np.ndarray,
    reduced: np.ndarray,
    k: int,
    metric: Metric = "euclidean",
    *,
    progress: Any = None,
    workers: int = 2,
    seed: int = 0,
) -> Graph:
    """The ``k`` nearest neighbours of every row of ``vectors``, found on ``reduced``.

    Below :data:`~tbnb.analysis.projection.descent.EXACT_POINTS` points every pair of
    ``reduced`` rows is measured (:func:`knn_graph`), above it the trees and descent of
    :func:`~tbnb.analysis.projection.descent.approximate_knn` search it; either way
    :func:`candidates_needed` candidates per point are then measured again in the
    original space (the reduction blurs the order of close points) and the ``k``
    nearest kept. Recall against the exact neighbours of the original space is measured
    on a sample (:func:`~tbnb.analysis.projection.descent.recall_at`) whenever the graph
    was not found exactly there. Where torch has a CUDA device, every pair is measured
    there in the original space instead (:func:`~tbnb.analysis.projection.device.knn_on`).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = (rng.normal(size=(500, 4)) @ rng.normal(size=(4, 64))).astype(np.float32)
    >>> graph = neighbor_graph(X, reduce_for_neighbors(X, dims=8), 5)  # 4-D data in 64-D
    >>> graph.indices.shape, graph.method, graph.recall
    ((500, 5), 'exact', 1.0)
    """
    from tbnb.analysis.projection.descent import (
        EXACT_POINTS,
        approximate_knn,
        recall_at,
        recall_sample,
        rerank,
    )

    n = len(vectors)
    k = int(min(k, n - 1))
    if k <= 0:
        return Graph(np.zeros((n, 0), np.int32), np.zeros((n, 0), np.float32), "exact", 1.0)
    scale = unit_scale(vectors) if metric == "cosine" else None
    from tbnb.analysis.projection.device import device, knn_on

    where = device(n, vectors.shape[1], float(n) * n * vectors.shape[1])
    if where is not None:  # a GPU measures every pair in the original space
        if progress is not None:
            progress.update("neighbours", 0, 1, f"exact {k} nearest neighbours on {where}")
        found, distances = knn_on(vectors, k, where, scale=scale)
        return Graph(found, distances, f"exact ({where})", 1.0)
    full = reduced.shape[1] >= vectors.shape[1]  # nothing was reduced: no second look
    wanted = k if full else candidates_needed(k, n)
    if n <= EXACT_POINTS:
        if progress is not None:
            progress.update("neighbours", 0, 1, f"exact {k} nearest neighbours")
        found, distances = knn_graph(reduced, wanted, workers=workers)
        method = "exact"
    else:
        found, squared = approximate_knn(
            reduced, wanted, seed=seed, workers=workers, progress=progress
        )
        distances = np.sqrt(squared)
        method = "approximate"
    if full and method == "exact":
        return Graph(found, distances, method, 1.0)
    if not full:
        if progress is not None:
            progress.update("neighbours", 1, 1, "measuring the candidates in the full space")
        found, distances = rerank(vectors, scale, found, k, workers=workers)
    if progress is not None:
        progress.update("neighbours", 1, 1, "recall against exact neighbours")
    sample = recall_sample(n, vectors.shape[1])
    recall = recall_at(vectors, scale, found, 10, sample=sample, seed=seed)
    return Graph(found, distances, method, recall, sample)


def nearest(
    data: np.ndarray,
    index: int,
    k: int = 10,
    metric: Metric = "cosine",
    norms: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` nearest other points of point ``index`` in the original space, exactly.

    Distances are euclidean, or ``1 - cos`` for ``metric="cosine"``; ties by index.
    ``norms`` (the rows' norms) saves recomputing them for many queries.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [-1.0, 0.0]], np.float32)
    >>> idx, dist = nearest(data, 0, 2, "cosine")
    >>> idx.tolist(), [round(float(d), 3) for d in dist]
    ([1, 2], [0.006, 1.0])
    """
    check_metric(metric)
    n = len(data)
    if not 0 <= index < n:
        raise IndexError(f"point {index} does not exist: there are {n} points")
    k = int(min(k, n - 1))
    x = data[index].astype(np.float64)
    dots = (data @ data[index]).astype(np.float64)
    if norms is None:
        norms = np.sqrt(np.einsum("ij,ij->i", data, data, dtype=np.float64))
    norms = np.asarray(norms, dtype=np.float64)
    if metric == "cosine":
        with np.errstate(divide="ignore", invalid="ignore"):
            dist = 1.0 - dots / (norms * norms[index])
        dist[~np.isfinite(dist)] = 1.0
    else:
        dist = np.sqrt(np.maximum(norms**2 - 2.0 * dots + float(x @ x), 0.0))
    dist[index] = np.inf
    if k <= 0:
        return np.zeros(0, np.int32), np.zeros(0, np.float32)
    part = np.argpartition(dist, k - 1)[:k] if k < n - 1 else np.flatnonzero(np.isfinite(dist))
    order = np.lexsort((part, dist[part]))
    chosen = part[order]
    if metric == "euclidean":  # exact for close points (no cancellation)
        exact = np.sqrt(((data[chosen].astype(np.float64) - x) ** 2).sum(axis=1))
        resort = np.lexsort((chosen, exact))
        chosen, exact = chosen[resort], exact[resort]
        return chosen.astype(np.int32), exact.astype(np.float32)
    return chosen.astype(np.int32), dist[chosen].astype(np.float32)
