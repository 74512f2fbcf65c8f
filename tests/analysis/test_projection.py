"""The projection engine against the references: scikit-learn's PCA, brute-force
neighbours, umap-learn's fuzzy graph and curve, and reproducible, cancellable jobs."""

from __future__ import annotations

import threading

import numpy as np
import pandas as pd
import pytest

from tbnb.analysis.projection import (
    Projection,
    as_vectors,
    knn_graph,
    layout_params,
    nearest,
    pca,
)
from tbnb.analysis.projection.layout_umap import UMAPOptimizer, ab_params, fuzzy_graph


def _blobs(n: int = 600, d: int = 20, centres: int = 4, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    centre = rng.normal(size=(centres, d)) * 6
    return (centre[np.arange(n) % centres] + rng.normal(size=(n, d))).astype(np.float32)


@pytest.mark.parametrize("d", [12, 300])  # the exact and the randomized path
def test_pca_equals_scikit_learn(d: int) -> None:
    from sklearn.decomposition import PCA

    X = _blobs(2000, d)
    got = pca(X, 3)
    ref = PCA(3, svd_solver="full").fit(X.astype(np.float64))
    np.testing.assert_allclose(
        got.explained_variance_ratio, ref.explained_variance_ratio_, rtol=1e-3
    )
    for mine, theirs in zip(got.components, ref.components_, strict=True):
        assert abs(float(np.dot(mine, theirs))) > 0.999  # the same axes, up to sign
    coords = (X - X.mean(0)) @ got.components.T
    np.testing.assert_allclose(got.coords, coords, atol=1e-3 * float(np.abs(coords).max()))


def test_knn_graph_is_exact() -> None:
    X = _blobs(500, 10)
    idx, dist = knn_graph(X, 7)
    full = np.linalg.norm(X[:, None, :].astype(np.float64) - X[None, :, :], axis=2)
    np.fill_diagonal(full, np.inf)
    ref_idx = np.argsort(full, axis=1, kind="stable")[:, :7]
    np.testing.assert_allclose(dist, np.take_along_axis(full, ref_idx, 1), rtol=1e-4, atol=1e-4)
    assert (idx != np.arange(500)[:, None]).all()  # a point is never its own neighbour
    agree = np.mean([len(set(a) & set(b)) / 7 for a, b in zip(idx, ref_idx, strict=True)])
    assert agree > 0.999  # only float ties may swap


@pytest.mark.parametrize("metric", ["cosine", "euclidean"])
def test_nearest_in_the_original_space(metric: str) -> None:
    X = _blobs(300, 16)
    idx, dist = nearest(X, 5, 8, metric)  # type: ignore[arg-type]
    x = X.astype(np.float64)
    if metric == "cosine":
        unit = x / np.linalg.norm(x, axis=1, keepdims=True)
        full = 1.0 - unit @ unit[5]
    else:
        full = np.linalg.norm(x - x[5], axis=1)
    full[5] = np.inf
    order = np.argsort(full, kind="stable")[:8]
    assert idx.tolist() == order.tolist()
    np.testing.assert_allclose(dist, full[order], rtol=1e-4, atol=1e-5)


def test_fuzzy_graph_and_curve_equal_umap_learn() -> None:
    umap_ = pytest.importorskip("umap.umap_")
    X = _blobs(400, 8)
    idx, dist = knn_graph(X, 14)
    mine = fuzzy_graph(idx, dist, 15)
    self_i = np.hstack([np.arange(400)[:, None], idx]).astype(np.int64)
    self_d = np.hstack([np.zeros((400, 1)), dist]).astype(np.float32)
    theirs, _, _ = umap_.fuzzy_simplicial_set(
        X, 15, 0, "euclidean", knn_indices=self_i, knn_dists=self_d
    )
    difference = abs(mine - theirs.tocsr())
    assert difference.max() < 1e-4
    assert mine.nnz == theirs.nnz
    for min_dist in (0.0, 0.1, 0.5):
        np.testing.assert_allclose(
            ab_params(1.0, min_dist), umap_.find_ab_params(1.0, min_dist), rtol=1e-4
        )


@pytest.mark.parametrize(
    ("method", "params"),
    [("umap", {"n_epochs": 60}), ("tsne", {"iterations": 300, "perplexity": 20})],
)
def test_layouts_separate_clusters_reproducibly(method: str, params: dict[str, object]) -> None:
    X = _blobs(400, 20)
    first = Projection(X).layout(method, {**params, "seed": 3})
    from tbnb.analysis.projection import engine

    engine.CACHE.clear()
    again = Projection(X).layout(method, {**params, "seed": 3})
    np.testing.assert_array_equal(first, again)
    assert first.dtype == np.float32
    assert first.shape == (400, 2)
    labels = np.arange(400) % 4
    centres = np.stack([first[labels == c].mean(0) for c in range(4)])
    spread = max(float(first[labels == c].std(0).max()) for c in range(4))
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2)[np.triu_indices(4, 1)]
    assert gaps.min() > 2 * spread  # the four blobs stay apart


def test_job_streams_layouts_and_cancels() -> None:
    X = _blobs(3000, 30, seed=1)
    projection = Projection(X)
    layouts: list[int] = []
    seen = threading.Event()

    def update(progress: object, has_layout: bool) -> None:
        if has_layout:
            layouts.append(1)
            seen.set()

    job = projection.start("umap", {"n_epochs": 5000, "seed": 9}, on_update=update)
    assert seen.wait(120), job
    job.cancel()
    with pytest.raises(RuntimeError, match="cancelled"):
        job.wait(120)
    assert job.state == "cancelled"
    assert layouts
    assert projection.cached("umap", {"n_epochs": 5000, "seed": 9}) is None  # never cached


def test_bad_input_gets_clear_errors() -> None:
    with pytest.raises(ValueError, match="must be 2-D"):
        as_vectors(np.zeros(5))
    with pytest.raises(TypeError, match="strings and labels belong in metadata"):
        as_vectors(np.array([["a", "b"], ["c", "d"]]))
    bad = np.ones((5, 3))
    bad[[1, 3], 0] = np.nan
    with pytest.raises(ValueError, match=r"2 of 5 rows hold NaN.*rows 1, 3"):
        as_vectors(bad)
    with pytest.raises(ValueError, match=r"5.*4|4.*5"):
        as_vectors(np.ones((5, 3)), pd.DataFrame({"a": range(4)}))
    with pytest.raises(ValueError, match="perplexity"):
        layout_params("tsne", {"perplexity": -1})
    with pytest.raises(ValueError, match="metric"):
        layout_params("umap", {"metric": "manhattan"})


def test_umap_epochs_on_two_threads_give_the_one_thread_layout() -> None:
    from tbnb.analysis.projection.layout_umap import PARTS

    rng = np.random.default_rng(3)
    X = np.vstack([rng.normal(c, 1, (400, 6)) for c in (0, 6, 12)]).astype(np.float32)
    idx, dist = knn_graph(X, 10)
    graph = fuzzy_graph(idx, dist)
    one = UMAPOptimizer(graph, X[:, :2], n_epochs=60, seed=2, workers=1)
    two = UMAPOptimizer(graph, X[:, :2], n_epochs=60, seed=2, workers=2)
    assert len(two.parts) == PARTS + 1
    assert sum(len(p) for p in two.parts) == len(two.head)  # every edge in one part
    np.testing.assert_array_equal(one.step(60), two.step(60))
