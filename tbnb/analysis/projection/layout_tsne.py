"""t-SNE through openTSNE (Poličar, Stražar & Zupan 2024), a few iterations at a time.

Affinities come from the shared exact kNN graph (``3 * perplexity`` neighbours, as
openTSNE picks them) instead of openTSNE's own approximate index, so t-SNE, UMAP and
the neighbours panel agree on who is whose neighbour. Optimisation is openTSNE's
(FFT-accelerated interpolation for 2-D layouts of :data:`FFT_POINTS` points or more,
Barnes-Hut otherwise), run in chunks of
iterations through one :class:`~openTSNE.TSNEEmbedding` whose optimiser state (gains,
momentum) carries over, so intermediate layouts can be shown and a run cancelled
between chunks with the same result as one uninterrupted run. Defaults follow
openTSNE: PCA initialisation scaled to a standard deviation of 1e-4, 250 iterations of
early exaggeration 12 (momentum 0.5), then the rest at exaggeration 1 (momentum 0.8),
learning rate ``n / exaggeration``.

The FFT grid grows with the layout's extent (one interval per unit by default); once
the layout is wider than :data:`MAX_INTERVALS` units, the intervals widen so that the
grid stays at that many per axis, which bounds the cost of an iteration on large
layouts (openTSNE's ``ints_in_interval``).

openTSNE is an optional dependency: ``pip install 'tbnb[projector]'``.

Examples
--------
>>> import numpy as np
>>> from tbnb.analysis.projection.neighbors import knn_graph
>>> rng = np.random.default_rng(0)
>>> X = np.vstack([rng.normal(0, 1, (80, 5)), rng.normal(9, 1, (80, 5))]).astype(np.float32)
>>> idx, dist = knn_graph(X, 30)
>>> opt = TSNEOptimizer(idx, dist, X[:, :2], perplexity=10, iterations=300, seed=0)
>>> while not opt.done:
...     layout = opt.step(100)
>>> bool(abs(layout[:80, 0].mean() - layout[80:, 0].mean()) > 5)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tbnb.analysis.projection.extras import require

__all__ = ["MAX_INTERVALS", "TSNEOptimizer", "neighbors_needed"]

MAX_INTERVALS = 80
"""Most FFT grid intervals per axis (see the module docstring)."""

FFT_POINTS = 2000
"""From this many points on, 2-D layouts use FFT interpolation (below, Barnes-Hut is
faster: the FFT grid has a fixed cost per iteration)."""

EARLY_ITERATIONS = 250
EARLY_EXAGGERATION = 12.0


def neighbors_needed(perplexity: float, n: int) -> int:
    """Neighbours the affinities use: ``3 * perplexity`` (at most ``n - 1``)."""
    return int(min(n - 1, max(1, round(3 * perplexity))))


class TSNEOptimizer:
    """openTSNE's optimisation of one layout, run a few iterations at a time.

    Parameters
    ----------
    indices, distances
        The kNN graph (``(n, k)``, nearest first, no self), with at least
        ``3 * perplexity`` neighbours.
    init
        ``(n, >= dims)`` starting coordinates (the PCA): rescaled as openTSNE does.
    perplexity
        Effective number of neighbours (lowered to ``(n - 1) / 3`` for tiny data).
    learning_rate
        ``"auto"`` (``n / exaggeration``) or a number.
    iterations
        Iterations in all, the early-exaggeration ones included.
    dims
        2 or 3.
    seed, n_jobs
        openTSNE's ``random_state`` and threads.
    """

    def __init__(
        self,
        indices: np.ndarray,
        distances: np.ndarray,
        init: np.ndarray,
        *,
        perplexity: float = 30.0,
        learning_rate: float | str = "auto",
        iterations: int = 750,
        dims: int = 2,
        seed: int = 0,
        n_jobs: int = 2,
    ) -> None:
        open_tsne = require("openTSNE", "t-SNE")
        from openTSNE import affinity, nearest_neighbors

        n = len(indices)
        if n < 4:
            raise ValueError(f"t-SNE needs at least 4 points, got {n}")
        if iterations < 1:
            raise ValueError(f"iterations must be >= 1, got {iterations}")
        self.perplexity = float(min(perplexity, (n - 1) / 3.0))
        k = neighbors_needed(self.perplexity, n)
        if indices.shape[1] < k:
            raise ValueError(
                f"the kNN graph has {indices.shape[1]} neighbours per point; "
                f"perplexity {perplexity} needs {k}"
            )
        knn = nearest_neighbors.PrecomputedNeighbors(
            np.ascontiguousarray(indices[:, :k], dtype=np.int64),
            np.ascontiguousarray(distances[:, :k], dtype=np.float64),
        )
        affinities = affinity.PerplexityBasedNN(
            knn_index=knn,
            perplexity=self.perplexity,
            n_jobs=n_jobs,
            random_state=seed,
            verbose=False,
        )
        start = np.asarray(init, dtype=np.float64)[:, :dims].copy()
        spread = float(np.std(start[:, 0])) or 1.0
        start = start / spread * 1e-4
        self.method = "fft" if dims <= 2 and n >= FFT_POINTS else "bh"
        self.embedding: Any = open_tsne.TSNEEmbedding(
            start,
            affinities,
            n_jobs=n_jobs,
            negative_gradient_method=self.method,
            random_state=seed,
            verbose=False,
        )
        self.learning_rate = learning_rate
        self.iterations = int(iterations)
        self.early = min(EARLY_ITERATIONS, self.iterations // 3)
        self.iteration = 0
        self.kl_divergence = float("nan")

    @property
    def done(self) -> bool:
        """Whether every iteration has run."""
        return self.iteration >= self.iterations

    def step(self, iterations: int) -> np.ndarray:
        """Run up to ``iterations`` more (never across the end of early exaggeration)."""
        early = self.iteration < self.early
        stop = self.early if early else self.iterations
        count = max(min(int(iterations), stop - self.iteration), 0)
        if count:
            options: dict[str, Any] = {
                "n_iter": count,
                "inplace": True,
                "propagate_exception": True,
                "exaggeration": EARLY_EXAGGERATION if early else None,
                "momentum": 0.5 if early else 0.8,
                "learning_rate": self.learning_rate,
            }
            if self.method == "fft":
                span = float(np.ptp(np.asarray(self.embedding), axis=0).max())
                options["ints_in_interval"] = max(1.0, span / MAX_INTERVALS)
            self.embedding = self.embedding.optimize(**options)
            self.kl_divergence = float(getattr(self.embedding, "kl_divergence", np.nan))
            self.iteration += count
        layout: np.ndarray = np.array(self.embedding, dtype=np.float32)
        return layout
