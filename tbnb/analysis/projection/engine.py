"""Everything computed for one set of vectors: PCA, the kNN graph, layouts, neighbours.

A :class:`Projection` holds the vectors and computes on demand, caching by (data,
parameters) so that asking again, or building another view of the same data, costs
nothing: the PCA (3 components) at once (for a large matrix, a row sample's axes first,
:meth:`Projection.pca_first`, and the exact ones in a job); t-SNE and UMAP in a background
:class:`~tbnb.analysis.projection.jobs.Job` that reports progress and intermediate
layouts and can be cancelled, showing the PCA first on large data. Both reduce the data
to 50 principal components and compute one kNN graph per metric there (exact below a
size, approximate above, then measured again in the original space, its recall reported:
:func:`~tbnb.analysis.projection.neighbors.neighbor_graph`), which t-SNE's affinities and
UMAP's fuzzy graph share. The neighbours of a clicked point come from the original
vectors, exactly.

Examples
--------
>>> import numpy as np
>>> X = np.random.default_rng(0).normal(size=(200, 8)).astype(np.float32)
>>> p = Projection(X)
>>> p.layout("pca", {"dims": 2}).shape
(200, 2)
>>> job = p.start("umap", {"n_neighbors": 10, "n_epochs": 50})
>>> job.wait(120).shape, job.state
((200, 2), 'done')
>>> p.cached("umap", {"n_neighbors": 10, "n_epochs": 50}) is not None
True
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from tbnb.analysis.projection.extras import require
from tbnb.analysis.projection.jobs import Job, Progress
from tbnb.analysis.projection.kernels import ensure as ensure_kernels
from tbnb.analysis.projection.layout_tsne import TSNEOptimizer, neighbors_needed
from tbnb.analysis.projection.neighbors import (
    Graph,
    Metric,
    check_metric,
    nearest,
    neighbor_graph,
    reduce_for_neighbors,
)
from tbnb.analysis.projection.params import layout_params
from tbnb.analysis.projection.pca import PCAResult, pca, pca_sample
from tbnb.extras import installed

__all__ = ["CACHE_BYTES", "Projection", "warm_up"]

CACHE_BYTES = 1 << 30
"""Memory the cache of derived arrays (reduced points, kNN graphs, layouts) may hold."""

FIRST_PICTURE_POINTS = 20_000
"""From this many points on, t-SNE and UMAP show the PCA first (below, their first
layout comes within a second or two anyway)."""

CHUNK_SECONDS = 0.25
"""Target duration of one chunk of iterations between two reported layouts."""


class _Cache:
    """A thread-safe LRU of arrays, by key, within a byte budget."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self._items: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def _size(value: Any) -> int:
        if isinstance(value, tuple):
            return sum(_Cache._size(v) for v in value)
        return int(getattr(value, "nbytes", 64))

    def get(self, key: tuple[Any, ...]) -> Any:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: tuple[Any, ...], value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            total = sum(self._size(v) for v in self._items.values())
            while total > self.budget and len(self._items) > 1:
                _, old = self._items.popitem(last=False)
                total -= self._size(old)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


CACHE = _Cache(CACHE_BYTES)


class Projection:
    """The vectors of one embedding and everything derived from them.

    Parameters
    ----------
    vectors
        ``(n, d)`` float32, finite (see :func:`tbnb.analysis.projection.inputs.as_vectors`).
    """

    def __init__(self, vectors: np.ndarray) -> None:
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.n, self.dims = self.vectors.shape
        self._lock = threading.RLock()
        self._fingerprint: str | None = None
        self._pca: PCAResult | None = None
        self._norms: np.ndarray | None = None

    @property
    def fingerprint(self) -> str:
        """A hash of the vectors' bytes: the cache key of everything derived from them."""
        with self._lock:
            if self._fingerprint is None:
                digest = hashlib.blake2b(digest_size=16)
                digest.update(repr(self.vectors.shape).encode())
                digest.update(self.vectors.data)  # C-contiguous: its bytes, no copy
                self._fingerprint = digest.hexdigest()
            return self._fingerprint

    def pca(self) -> PCAResult:
        """The first three principal components, exactly (computed once)."""
        with self._lock:
            if self._pca is None or not self._pca.exact:
                self._pca = pca(self.vectors, 3, start=self._pca)
            return self._pca

    def pca_first(self) -> PCAResult:
        """The PCA to show at once: the exact one when ready or cheap, else a row sample's
        (:func:`~tbnb.analysis.projection.pca.pca_sample`; :meth:`pca` refines it)."""
        with self._lock:
            if self._pca is None:
                self._pca = pca_sample(self.vectors, 3)
            return self._pca

    # ----------------------------------------------------------------- layouts
    def cached(self, method: str, params: dict[str, Any] | None = None) -> np.ndarray | None:
        """The finished layout of ``method`` with ``params``, if it was computed."""
        checked = layout_params(method, params)
        if method == "pca" and (self._pca is None or not self._pca.exact):
            return None  # the exact PCA is computed by a job (or :meth:`layout`)
        if method in ("pca", "raw"):
            return self.layout(method, params)
        return CACHE.get((self.fingerprint, method, checked))  # type: ignore[no-any-return]

    def layout(
        self, method: str, params: dict[str, Any] | None = None, progress: Progress | None = None
    ) -> np.ndarray:
        """Compute ``method``'s layout now, in this thread (``(n, dims)`` float32)."""
        checked = layout_params(method, params)
        if method == "pca":
            if progress is not None and (self._pca is None or not self._pca.exact):
                progress.update("exact", 0, 1, "principal axes of every row")
            return np.ascontiguousarray(self.pca().coords[:, : checked.dims])
        if method == "raw":
            if self.dims > 3:
                raise ValueError(
                    f"raw vectors have {self.dims} dimensions; only vectors "
                    "of up to 3 are shown without reduction (use pca, tsne "
                    "or umap)"
                )
            out = np.zeros((self.n, checked.dims), dtype=np.float32)
            width = min(self.dims, checked.dims)
            out[:, :width] = self.vectors[:, :width]
            return out
        key = (self.fingerprint, method, checked)
        found = CACHE.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        progress = progress or Progress()
        if method == "umap":
            result = self._umap(checked, progress)
        else:
            result = self._tsne(checked, progress)
        CACHE.put(key, result)
        return result

    def start(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        on_update: Callable[[Progress, bool], None] | None = None,
        on_finish: Callable[[Job], None] | None = None,
    ) -> Job:
        """Compute ``method``'s layout in a background :class:`Job` (cached results at once)."""
        layout_params(method, params)  # bad parameters fail here, not in the thread

        def work(progress: Progress) -> np.ndarray:
            result = self.layout(method, params, progress)
            progress.update("done", 1, 1)
            progress.layout(result)
            return result

        return Job(method, work, on_update=on_update, on_finish=on_finish)

    # ----------------------------------------------------------------- pieces
    def reduced(self, metric: Metric, progress: Progress | None = None) -> np.ndarray:
        """The vectors reduced to 50 principal components (of unit rows for cosine)."""
        key = (self.fingerprint, "reduced", metric)
        found = CACHE.get(key)
        if found is None:
            if progress is not None:
                progress.update("reducing", 0, 1, "PCA to 50 dimensions")
            found = reduce_for_neighbors(self.vectors, metric)
            CACHE.put(key, found)
        return found  # type: ignore[no-any-return]

    def knn(self, metric: Metric, k: int, progress: Progress | None = None) -> Graph:
        """The kNN graph (``k`` neighbours, no self; see
        :func:`~tbnb.analysis.projection.neighbors.neighbor_graph`), computed once per
        metric and reused for any ``k`` up to the largest asked."""
        k = int(min(k, self.n - 1))
        key = (self.fingerprint, "knn", metric)
        found: Graph | None = CACHE.get(key)
        if found is None or found.indices.shape[1] < k:
            points = self.reduced(metric, progress)
            found = neighbor_graph(self.vectors, points, k, metric, progress=progress)
            CACHE.put(key, found)
        if progress is not None:
            progress.info["neighbours"] = found.describe()
            progress.info["recall"] = round(found.recall, 4)
        if found.indices.shape[1] == k:
            return found
        return replace(found, indices=found.indices[:, :k], distances=found.distances[:, :k])

    def nearest(
        self, index: int, k: int = 10, metric: str = "cosine"
    ) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` nearest points of ``index`` in the original space (exact)."""
        with self._lock:
            if self._norms is None:
                self._norms = np.sqrt(
                    np.einsum("ij,ij->i", self.vectors, self.vectors, dtype=np.float64)
                )
        return nearest(self.vectors, index, k, check_metric(metric), self._norms)

    def _first_picture(self, dims: int, progress: Progress) -> None:
        """Show the PCA at once, while the neighbours are found (t-SNE and UMAP start from
        the PCA: the layout then grows out of this picture)."""
        if self.n >= FIRST_PICTURE_POINTS:
            first = self.pca_first()
            if first.coords.shape[1] >= dims:
                progress.update("first picture", 0, 1, "PCA while the neighbours are found")
                progress.layout(np.ascontiguousarray(first.coords[:, :dims]))

    def _init(self, metric: Metric, dims: int) -> np.ndarray:
        return pca(self.reduced(metric), dims).coords

    def _umap(self, params: Any, progress: Progress) -> np.ndarray:
        if self.n < 3:
            raise ValueError(f"UMAP needs at least 3 points, got {self.n}")
        for module in ("numba", "scipy"):
            require(module, "UMAP")
        metric = params.metric
        self._first_picture(params.dims, progress)
        ensure_kernels(progress)
        knn = self.knn(metric, max(params.n_neighbors - 1, 1), progress)
        from tbnb.analysis.projection.layout_umap import UMAPOptimizer, fuzzy_graph

        progress.update("graph", 0, 1, "fuzzy simplicial set")
        graph = fuzzy_graph(knn.indices, knn.distances, params.n_neighbors)
        optimizer = UMAPOptimizer(
            graph,
            self._init(metric, params.dims),
            n_epochs=params.n_epochs,
            min_dist=params.min_dist,
            seed=params.seed,
        )
        return _run(
            optimizer,
            "epoch",
            optimizer.n_epochs,
            lambda: optimizer.epoch,
            first=2,
            progress=progress,
        )

    def _tsne(self, params: Any, progress: Progress) -> np.ndarray:
        for module in ("openTSNE", "numba"):
            require(module, "t-SNE")
        metric = params.metric
        k = neighbors_needed(params.perplexity, self.n)
        self._first_picture(params.dims, progress)
        ensure_kernels(progress)
        knn = self.knn(metric, k, progress)
        progress.update("affinities", 0, 1, f"perplexity {params.perplexity:g}")
        optimizer = TSNEOptimizer(
            knn.indices,
            knn.distances,
            self._init(metric, params.dims),
            perplexity=params.perplexity,
            learning_rate=params.learning_rate,
            iterations=params.iterations,
            dims=params.dims,
            seed=params.seed,
        )
        return _run(
            optimizer,
            "iteration",
            optimizer.iterations,
            lambda: optimizer.iteration,
            first=10,
            progress=progress,
        )


def _run(
    optimizer: Any,
    unit: str,
    total: int,
    position: Callable[[], int],
    *,
    first: int,
    progress: Progress,
) -> np.ndarray:
    """Step ``optimizer`` in chunks of about :data:`CHUNK_SECONDS`, reporting each layout."""
    chunk = first
    layout = None
    while not optimizer.done:
        progress.update("optimizing", position(), total, f"{unit} {position()} of {total}")
        started = time.monotonic()
        layout = optimizer.step(chunk)
        spent = max(time.monotonic() - started, 1e-3)
        progress.layout(layout)
        chunk = int(min(max(chunk * CHUNK_SECONDS / spent, 1), max(total // 4, 1), chunk * 4))
    assert layout is not None
    result: np.ndarray = layout
    return result


_warming: threading.Thread | None = None


def warm_up() -> threading.Thread:
    """Load the compiled kernels (and openTSNE) in a background thread, once per process.

    The kernels compile once per install in a detached process that this starts
    (:func:`~tbnb.analysis.projection.kernels.prepare`), then load from tbnb's cache; a
    view starts this once its PCA is shown, so the first t-SNE or UMAP click finds
    them ready.
    """
    global _warming  # noqa: PLW0603 - one warm-up per process
    if _warming is None:

        def work() -> None:
            if installed("scipy"):  # the projector extra; without it UMAP says so
                import scipy.optimize  # UMAP's curve fit
                import scipy.sparse  # noqa: F401

            from tbnb.analysis.projection.kernels import prepare

            prepare()
            with contextlib.suppress(ImportError):
                import openTSNE  # noqa: F401

        _warming = threading.Thread(target=work, name="tbnb-projector-warmup", daemon=True)
        _warming.start()
    return _warming
