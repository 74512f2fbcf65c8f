"""The PCA of large matrices: a row sample's axes first, then the exact ones (subspace
iteration from them), both against scikit-learn's full PCA; the projector shows the first
at once and the exact one after, through its layout job."""

from __future__ import annotations

import time

import numpy as np
import pytest

from tbnb.analysis.projection import Projection, pca
from tbnb.analysis.projection.pca import EXACT_FLOPS, _top_eigenvectors, pca_sample


def _decaying(n: int, d: int, seed: int = 0) -> np.ndarray:
    """Rows whose spectrum decays as embeddings' do, around a non-zero mean."""
    rng = np.random.default_rng(seed)
    scales = 4.0 / np.sqrt(1.0 + np.arange(d))
    return (rng.standard_normal((n, d)) * scales + 3.0).astype(np.float32)


@pytest.fixture(scope="module")
def wide() -> np.ndarray:
    data = _decaying(40_000, 400)
    assert data.shape[0] * data.shape[1] ** 2 > EXACT_FLOPS  # the iterative path
    return data


@pytest.fixture(scope="module")
def reference(wide: np.ndarray):  # type: ignore[no-untyped-def]
    from sklearn.decomposition import PCA

    return PCA(3, svd_solver="full").fit(wide.astype(np.float64))


def _same_axes(mine: np.ndarray, theirs: np.ndarray, at_least: float) -> None:
    for a, b in zip(mine, theirs, strict=True):
        assert abs(float(np.dot(a, b))) > at_least


@pytest.mark.parametrize("from_sample", [False, True])
def test_exact_pca_of_a_wide_matrix_equals_scikit_learn(wide, reference, from_sample) -> None:  # type: ignore[no-untyped-def]
    start = pca_sample(wide, 3, rows=2000) if from_sample else None
    got = pca(wide, 3, start=start)
    assert got.exact
    assert got.sampled == 0
    np.testing.assert_allclose(
        got.explained_variance_ratio, reference.explained_variance_ratio_, rtol=1e-4
    )
    _same_axes(got.components, reference.components_, 0.9999)
    coords = (wide - wide.mean(0)) @ got.components.T
    np.testing.assert_allclose(got.coords, coords, atol=1e-3 * float(np.abs(coords).max()))


def test_sample_pca_projects_every_row_on_a_sample_s_axes(wide, reference) -> None:  # type: ignore[no-untyped-def]
    quick = pca_sample(wide, 3, rows=2000)
    assert quick.sampled == 2000
    assert not quick.exact
    assert quick.coords.shape == (len(wide), 3)
    _same_axes(quick.components, reference.components_, 0.97)  # close, not exact
    coords = (wide - wide.mean(0)) @ quick.components.T  # every row, on those axes
    np.testing.assert_allclose(quick.coords, coords, atol=1e-3 * float(np.abs(coords).max()))
    np.testing.assert_allclose(
        quick.explained_variance_ratio, reference.explained_variance_ratio_, rtol=0.05
    )
    again = pca_sample(wide, 3, rows=2000)
    np.testing.assert_array_equal(quick.coords, again.coords)  # seeded: the same picture
    assert pca_sample(wide[:3000], 3, rows=2000).exact  # small data: the exact one at once


def test_leading_eigenvectors_of_a_flat_spectrum_fall_back_to_lapack() -> None:
    rng = np.random.default_rng(1)
    noise = rng.standard_normal((600, 300))
    matrix = noise.T @ noise  # no gap: the iteration cannot converge in its steps
    _values, vectors = np.linalg.eigh(matrix)
    got = _top_eigenvectors(matrix, 3)
    for j in range(3):
        assert abs(float(got[:, j] @ vectors[:, -1 - j])) > 0.9999


def test_projection_shows_the_sample_first_and_the_exact_pca_from_its_job(wide, reference) -> None:  # type: ignore[no-untyped-def]
    projection = Projection(wide)
    first = projection.pca_first()
    assert not first.exact
    assert projection.cached("pca", {"dims": 2}) is None  # the exact one is not there yet
    job = projection.start("pca", {"dims": 2})
    layout = job.wait(300)
    assert projection.pca().exact
    assert layout.shape == (len(wide), 2)
    np.testing.assert_array_equal(projection.cached("pca", {"dims": 2}), layout)
    _same_axes(projection.pca().components, reference.components_, 0.9999)


def test_projector_widget_streams_the_exact_pca_after_the_first_screen(wide, reference) -> None:  # type: ignore[no-untyped-def]
    import tbnb

    w = tbnb.projector(wide)
    assert w._positions["final"] is False  # a row sample's axes, shown at once
    assert len(w.coordinates) == len(wide)  # ... and already the current layout
    assert w.job is not None
    w.job.wait(300)
    assert w._positions["final"] is True
    deadline = time.monotonic() + 60  # the job's last status follows its result
    while w.status.get("state") != "done" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert w.status["state"] == "done"
    np.testing.assert_allclose(w.explained[:3], reference.explained_variance_ratio_, rtol=1e-4)
    exact = w.coordinates[["x", "y"]].to_numpy()
    np.testing.assert_allclose(exact, w._projection.pca().coords[:, :2])
