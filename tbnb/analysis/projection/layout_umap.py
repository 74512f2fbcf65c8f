"""UMAP (McInnes, Healy & Melville 2018), in compiled kernels that stream and cancel.

The algorithm is umap-learn's: the fuzzy simplicial set of the kNN graph
(:func:`fuzzy_graph`, equal to ``umap.umap_.fuzzy_simplicial_set`` on the same
neighbours, tested), the curve parameters ``a, b`` of ``min_dist`` and ``spread``
(:func:`ab_params`, equal to ``umap.umap_.find_ab_params``), and stochastic gradient
descent with negative sampling over the graph's edges, the learning rate decaying
linearly over ``n_epochs``. What differs is how it runs:

- the kernels (:mod:`~tbnb.analysis.projection.compiled.umap`) are compiled once per
  install by :mod:`tbnb.jit` in a detached process, so a new kernel loads them in a
  second, where umap-learn compiles for 30-50 s in every new process (and holds the
  GIL while it does) before its first result;
- they release the GIL (the notebook stays responsive while they run);
- the epochs run in chunks (:class:`UMAPOptimizer`) whose state carries over exactly,
  so intermediate layouts can be shown and a run cancelled between chunks, which
  umap-learn's one call does not allow;
- an epoch runs on several threads without races: the points are cut into
  :data:`PARTS` slabs of the initial layout, each thread moves only the points of its
  slab's edges (edges between slabs run after them), and the points pushed away are read
  from the layout as the epoch began; seeded random streams per slab, so the same seed
  gives the same layout whatever the number of threads. umap-learn runs one thread when
  seeded, or races between threads when not.

Initialisation is the data's PCA (scaled to a 10-unit box), as Kobak & Linderman
(2021, "Initialization is critical for preserving global data structure in both
t-SNE and UMAP") recommend; umap-learn's default spectral initialisation costs an
eigendecomposition of the graph.

Examples
--------
>>> import numpy as np
>>> from tbnb.analysis.projection.neighbors import knn_graph
>>> rng = np.random.default_rng(0)
>>> X = np.vstack([rng.normal(0, 1, (60, 5)), rng.normal(8, 1, (60, 5))]).astype(np.float32)
>>> idx, dist = knn_graph(X, 10)
>>> opt = UMAPOptimizer(fuzzy_graph(idx, dist), X[:, :2], n_epochs=100, seed=1)
>>> while not opt.done:
...     layout = opt.step(50)
>>> bool(abs(layout[:60, 0].mean() - layout[60:, 0].mean()) > 2)   # two clusters apart
True
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse

__all__ = ["PARTS", "UMAPOptimizer", "ab_params", "default_epochs", "fuzzy_graph"]

PARTS = 4
"""Slabs of points whose edges are optimised in parallel (fixed, so the layout is the same
on any machine)."""


def default_epochs(n: int) -> int:
    """umap-learn's default: 500 epochs up to 10,000 points, else 200."""
    return 500 if n <= 10000 else 200


def fuzzy_graph(
    indices: np.ndarray,
    distances: np.ndarray,
    n_neighbors: int | None = None,
    *,
    local_connectivity: float = 1.0,
    set_op_mix_ratio: float = 1.0,
) -> scipy.sparse.csr_matrix:
    """UMAP's fuzzy simplicial set of a kNN graph (``(n, k)`` neighbours without self).

    ``n_neighbors`` counts the point itself, as umap-learn counts it (default ``k + 1``).
    """
    n = len(indices)
    k = int(n_neighbors - 1 if n_neighbors is not None else indices.shape[1])
    k = max(min(k, indices.shape[1]), 1)
    self_col = np.arange(n, dtype=np.int32)[:, None]
    knn_i = np.hstack([self_col, indices[:, :k].astype(np.int32)])
    knn_d = np.hstack([np.zeros((n, 1), np.float32), distances[:, :k].astype(np.float32)])
    from tbnb.analysis.projection.compiled.umap import memberships, smooth_knn_dist

    sigma, rho = smooth_knn_dist(knn_d, float(k + 1), float(local_connectivity), 64)
    rows, cols, vals = memberships(knn_i, knn_d, sigma, rho)
    graph = scipy.sparse.coo_matrix((vals, (rows, cols)), shape=(n, n)).tocsr()
    graph.eliminate_zeros()
    transpose = graph.transpose()
    product = graph.multiply(transpose)
    union = set_op_mix_ratio * (graph + transpose - product) + (1.0 - set_op_mix_ratio) * product
    result: scipy.sparse.csr_matrix = scipy.sparse.csr_matrix(union)
    result.eliminate_zeros()
    return result


def ab_params(spread: float = 1.0, min_dist: float = 0.1) -> tuple[float, float]:
    """``a, b`` of the curve ``1 / (1 + a d^(2b))`` fitted to ``min_dist`` and ``spread``.

    Examples
    --------
    >>> [round(v, 3) for v in ab_params(1.0, 0.1)]
    [1.577, 0.895]
    """
    from scipy.optimize import curve_fit

    if not 0.0 <= min_dist <= spread:
        raise ValueError(f"min_dist must be in [0, spread={spread}], got {min_dist}")

    def curve(x: np.ndarray, a: float, b: float) -> np.ndarray:
        return 1.0 / (1.0 + a * x ** (2 * b))

    xv = np.linspace(0, spread * 3, 300)
    yv = np.where(xv < min_dist, 1.0, np.exp(-(xv - min_dist) / spread))
    params, _ = curve_fit(curve, xv, yv)
    return float(params[0]), float(params[1])


class UMAPOptimizer:
    """UMAP's layout optimisation, run a few epochs at a time.

    Parameters
    ----------
    graph
        :func:`fuzzy_graph`'s output.
    init
        ``(n, dims)`` starting layout (rescaled into a 10-unit box).
    n_epochs
        Epochs in all (default :func:`default_epochs`).
    min_dist, spread
        How tightly points pack (see :func:`ab_params`).
    negative_sample_rate, repulsion_strength, learning_rate
        umap-learn's parameters of the same names.
    seed
        Seed of the negative sampling (same seed, same layout).
    workers
        Threads (at most :data:`PARTS`; the layout does not depend on them).
    """

    def __init__(
        self,
        graph: scipy.sparse.spmatrix,
        init: np.ndarray,
        *,
        n_epochs: int | None = None,
        min_dist: float = 0.1,
        spread: float = 1.0,
        negative_sample_rate: int = 5,
        repulsion_strength: float = 1.0,
        learning_rate: float = 1.0,
        seed: int = 0,
        workers: int = 2,
    ) -> None:
        n = graph.shape[0]
        self.n_epochs = int(n_epochs or default_epochs(n))
        if self.n_epochs < 1:
            raise ValueError(f"n_epochs must be >= 1, got {self.n_epochs}")
        coo = scipy.sparse.coo_matrix(graph)
        coo.sum_duplicates()
        keep = coo.data >= coo.data.max() / float(self.n_epochs) if coo.nnz else coo.data > 0
        self.head = coo.row[keep].astype(np.int32)
        self.tail = coo.col[keep].astype(np.int32)
        weights = coo.data[keep].astype(np.float64)
        samples = self.n_epochs * (weights / weights.max()) if len(weights) else weights
        self.epochs_per_sample = np.where(
            samples > 0, self.n_epochs / np.maximum(samples, 1e-12), -1.0
        )
        self.per_negative = self.epochs_per_sample / negative_sample_rate
        self.next_sample = self.epochs_per_sample.copy()
        self.next_negative = self.per_negative.copy()
        self.a, self.b = ab_params(spread, min_dist)
        self.gamma = float(repulsion_strength)
        self.alpha = float(learning_rate)
        rng = np.random.default_rng(seed)
        self.embedding = _box(np.asarray(init, dtype=np.float64), rng).astype(np.float32)
        # parts of the points (slabs along the first axis) whose edges run in parallel; the
        # edges between parts after them, alone: the result is the same for any threads
        self.parts = _partition(self.head, self.tail, self.embedding[:, 0], PARTS)
        self.states = [rng.integers(1, 2**31 - 1, 3).astype(np.int64) for _ in self.parts]
        self.workers = max(1, min(int(workers), PARTS))
        self.epoch = 0

    @property
    def done(self) -> bool:
        """Whether every epoch has run."""
        return self.epoch >= self.n_epochs

    def step(self, epochs: int) -> np.ndarray:
        """Run up to ``epochs`` more epochs; return the layout (a copy)."""
        stop = min(self.epoch + max(int(epochs), 1), self.n_epochs)
        if stop > self.epoch and len(self.head):
            from tbnb.analysis.projection.compiled.umap import sgd_epoch

            def run(part: int, epoch: int, alpha: float, snapshot: np.ndarray) -> None:
                sgd_epoch(
                    self.embedding,
                    snapshot,
                    self.head,
                    self.tail,
                    self.parts[part],
                    self.epochs_per_sample,
                    self.next_sample,
                    self.next_negative,
                    self.per_negative,
                    self.a,
                    self.b,
                    self.gamma,
                    alpha,
                    epoch,
                    self.states[part],
                )

            inner = range(len(self.parts) - 1)
            with ThreadPoolExecutor(self.workers, thread_name_prefix="tbnb-umap") as pool:
                for epoch in range(self.epoch, stop):
                    alpha = self.alpha * (1.0 - epoch / self.n_epochs)
                    at_start = self.embedding.copy()
                    same = [epoch] * len(inner), [alpha] * len(inner), [at_start] * len(inner)
                    list(pool.map(run, inner, *same))
                    run(len(self.parts) - 1, epoch, alpha, at_start)  # edges across parts
        self.epoch = stop
        layout: np.ndarray = self.embedding.copy()
        return layout


def _partition(
    head: np.ndarray, tail: np.ndarray, axis: np.ndarray, parts: int
) -> list[np.ndarray]:
    """Edge numbers by part: those with both ends in slab ``p`` of ``axis`` (equal counts
    of points), for each ``p``, then the edges between slabs."""
    cuts = np.quantile(axis, np.linspace(0, 1, parts + 1)[1:-1]) if len(axis) else []
    slab = np.searchsorted(np.asarray(cuts), axis)
    own = np.where(slab[head] == slab[tail], slab[head], parts)
    return [np.flatnonzero(own == p).astype(np.int64) for p in range(parts + 1)]


def _box(init: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``init`` scaled into [0, 10] (one factor for every axis: keeps the PCA's shape),
    with a little noise so that duplicate points separate."""
    lo = init.min(axis=0)
    span = float((init.max(axis=0) - lo).max())
    out = (init - lo) * (10.0 / span if span > 0 and math.isfinite(span) else 1.0)
    noisy: np.ndarray = out + rng.normal(scale=1e-4, size=out.shape)
    return noisy


def warm() -> None:
    """Load the kernels (waiting for their one compile) and run each on a tiny graph."""
    from tbnb.analysis.projection.kernels import ensure
    from tbnb.analysis.projection.neighbors import knn_graph

    ensure()

    from tbnb.analysis.projection.descent import approximate_knn, rerank

    points = np.random.default_rng(0).normal(size=(20, 3)).astype(np.float32)
    rerank(points, None, approximate_knn(points, 5, workers=1, trees=1)[0], 5, workers=1)
    indices, distances = knn_graph(points, 5, workers=1)
    UMAPOptimizer(fuzzy_graph(indices, distances), points[:, :2], n_epochs=2).step(2)
