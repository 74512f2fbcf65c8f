"""The kNN graph at scale: approximate above a size, its recall measured and reported.

Recall is checked against an independent computation (brute force over every point, in
the original space: ``tests/projector_data.exact_neighbors``), on the benchmark's data
(low-rank groups of uneven sizes in 768 dimensions, where 50 principal components do
not hold every group's spread).
"""

from __future__ import annotations

import numpy as np
import pytest

from tbnb.analysis.projection import Projection, descent
from tbnb.analysis.projection import engine as engine_module
from tbnb.analysis.projection.jobs import Cancelled, Progress
from tbnb.analysis.projection.neighbors import knn_graph, neighbor_graph, reduce_for_neighbors
from tests.projector_data import clusters, exact_neighbors


def _recall(found: np.ndarray, truth: np.ndarray, rows: np.ndarray) -> float:
    kept = [len(set(a) & set(b)) for a, b in zip(found[rows].tolist(), truth.tolist(), strict=True)]
    return float(np.mean(kept)) / truth.shape[1]


@pytest.fixture(scope="module")
def data() -> tuple[np.ndarray, np.ndarray]:
    X, _ = clusters(30_000, 768, seed=3)
    return X, reduce_for_neighbors(X)


@pytest.fixture(scope="module")
def truth(data: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """A fixed sample of points and their exact 10 nearest neighbours (brute force)."""
    rows = np.random.default_rng(7).choice(len(data[0]), 300, replace=False)
    return rows, exact_neighbors(data[0], rows, 10)


def test_the_approximate_graph_finds_nine_in_ten_of_the_exact_neighbours(
    data: tuple[np.ndarray, np.ndarray], truth: tuple[np.ndarray, np.ndarray]
) -> None:
    X, reduced = data
    rows, exact = truth
    assert len(X) > descent.EXACT_POINTS  # the approximate path
    progress = Progress()
    phases: list[str] = []
    progress._listeners.append(lambda p, _layout: phases.append(p.message))
    graph = neighbor_graph(X, reduced, 15, progress=progress)
    assert graph.method == "approximate"
    assert graph.indices.shape == (len(X), 15)
    assert graph.indices.dtype == np.int32
    assert (graph.indices != np.arange(len(X))[:, None]).all()  # never itself
    assert (np.diff(graph.distances, axis=1) >= 0).all()  # nearest first
    measured = _recall(graph.indices[:, :10], exact, rows)
    assert measured >= 0.9, measured
    assert abs(graph.recall - measured) < 0.05, (graph.recall, measured)  # what the status says
    # distances are the original space's, exactly, for the neighbours found
    some = rows[:20]
    measured_d = np.linalg.norm(X[some, None, :] - X[graph.indices[some]], axis=2)
    np.testing.assert_allclose(graph.distances[some], measured_d, rtol=1e-4, atol=1e-4)
    assert any("random-projection tree" in m for m in phases)
    assert any("neighbour descent" in m for m in phases)
    assert "recall@10" in graph.describe()
    # why candidates are measured again in the full space: on this data the exact graph
    # of the 50 principal components alone keeps fewer of the true neighbours
    reduced_only = exact_neighbors(reduced, rows, 10)
    assert measured > _recall(reduced_only, exact, np.arange(len(rows))) + 0.05


def test_the_graph_is_the_same_for_one_thread_or_two() -> None:
    X, _ = clusters(6000, 32, k=6, seed=1)
    one = descent.approximate_knn(X, 12, workers=1, seed=4)
    two = descent.approximate_knn(X, 12, workers=2, seed=4)
    np.testing.assert_array_equal(one[0], two[0])
    np.testing.assert_array_equal(one[1], two[1])
    exact, _ = knn_graph(X, 12)
    rows = np.arange(0, 6000, 7)
    assert _recall(one[0], exact[rows], rows) > 0.95


def test_trees_split_every_point_into_one_leaf() -> None:
    from tbnb.analysis.projection.compiled.knn import rp_tree

    points = np.random.default_rng(0).normal(size=(5000, 6)).astype(np.float32)
    points[:300] = 0.0  # duplicates: a split with everything on one side
    perm = np.empty(5000, np.int32)
    leaves = np.empty((200, 2), np.int64)
    count = rp_tree(points, 64, 3, perm, leaves)
    spans = leaves[:count]
    assert (spans[:, 1] - spans[:, 0] <= 64).all()
    assert sorted(perm.tolist()) == list(range(5000))
    assert sorted(i for lo, hi in spans for i in range(lo, hi)) == list(range(5000))


def test_rerank_keeps_the_nearest_candidates_in_the_full_space() -> None:
    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 40)).astype(np.float32)
    candidates = np.stack(
        [rng.choice(np.delete(np.arange(300), i), 25, replace=False) for i in range(300)]
    )
    candidates[:, -3:] = -1  # empty slots
    idx, dist = descent.rerank(X, None, candidates.astype(np.int32), 5)
    for i in (0, 17, 299):
        pool = candidates[i][candidates[i] >= 0]
        d = np.linalg.norm(X[pool] - X[i], axis=1)
        np.testing.assert_array_equal(idx[i], pool[np.argsort(d, kind="stable")[:5]])
        np.testing.assert_allclose(dist[i], np.sort(d)[:5], rtol=1e-5)
    scale = (1.0 / np.linalg.norm(X, axis=1)).astype(np.float32)  # cosine: unit rows
    idx_c, _ = descent.rerank(X, scale, candidates.astype(np.int32), 5)
    unit = X * scale[:, None]
    pool = candidates[5][candidates[5] >= 0]
    np.testing.assert_array_equal(idx_c[5], pool[np.argsort(-(unit[pool] @ unit[5]))[:5]])


def test_umap_shows_the_pca_first_and_reports_the_graph_recall(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(descent, "EXACT_POINTS", 1000)  # the approximate path, small data
    monkeypatch.setattr(engine_module, "FIRST_PICTURE_POINTS", 1000)
    X, _ = clusters(3000, 96, k=5, seed=5)
    projection = Projection(X)
    first_pca = projection.pca_first().coords[:, :2].copy()
    layouts: list[np.ndarray] = []
    statuses: list[dict[str, object]] = []

    def listen(progress: Progress, has_layout: bool) -> None:
        statuses.append(progress.as_dict())
        if has_layout and progress.latest is not None:
            layouts.append(progress.latest.copy())

    job = projection.start("umap", {"n_epochs": 30}, on_update=listen)
    result = job.wait(600)
    assert result.shape == (3000, 2)
    np.testing.assert_array_equal(layouts[0], first_pca)  # the first picture: the PCA
    assert statuses[-1]["neighbours"].startswith("approximate kNN, recall@10")  # type: ignore[union-attr]
    assert float(statuses[-1]["recall"]) >= 0.9  # type: ignore[arg-type]


def test_cancelling_stops_the_neighbour_search(monkeypatch: pytest.MonkeyPatch) -> None:
    X, _ = clusters(3000, 16, k=4)
    progress = Progress()
    progress._cancel.set()
    with pytest.raises(Cancelled):
        descent.approximate_knn(X, 10, progress=progress)
