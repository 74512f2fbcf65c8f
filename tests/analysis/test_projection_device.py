"""PCA and the kNN graph through torch, as they run on a CUDA device, checked on the CPU.

This machine has no GPU: the torch code runs here on torch's CPU device and must give
what the numpy/numba path gives (to float32 tolerance); the routing (a device only when
torch is already imported and reports CUDA, never with ``TBNB_DEVICE=cpu``) is checked
with a stand-in for ``torch.cuda``. The CUDA path itself is not run by these tests.
"""

from __future__ import annotations

import sys
from types import SimpleNamespace

import numpy as np
import pytest

from tbnb.analysis.projection import device as device_module
from tbnb.analysis.projection.neighbors import knn_graph, neighbor_graph, reduce_for_neighbors
from tbnb.analysis.projection.pca import pca
from tests.projector_data import clusters

torch = pytest.importorskip("torch")


def test_pca_through_torch_equals_the_cpu_path(monkeypatch: pytest.MonkeyPatch) -> None:
    X, _ = clusters(4000, 96, k=5, seed=2)
    cpu = pca(X, 3)
    monkeypatch.setattr(device_module, "device", lambda n, d, work: "cpu")
    routed = pca(X, 3)  # pca() takes the device path
    np.testing.assert_allclose(routed.components, cpu.components, atol=2e-4)
    np.testing.assert_allclose(routed.coords, cpu.coords, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(
        routed.explained_variance_ratio, cpu.explained_variance_ratio, rtol=1e-4
    )
    scale = (1.0 / np.linalg.norm(X, axis=1)).astype(np.float32)
    monkeypatch.undo()
    np.testing.assert_allclose(
        np.abs(device_module.pca_on(X, 2, "cpu", row_scale=scale)[1]),
        np.abs(pca(X, 2, row_scale=scale).components),
        atol=2e-4,
    )


def test_knn_through_torch_is_the_exact_graph() -> None:
    X, _ = clusters(3000, 48, k=4, seed=1)
    exact_i, exact_d = knn_graph(X, 10)
    idx, dist = device_module.knn_on(X, 10, "cpu", block_bytes=1 << 20)  # several blocks
    assert (idx == exact_i).mean() > 0.999  # ties may order differently
    np.testing.assert_allclose(dist, exact_d, rtol=1e-4, atol=1e-5)
    scale = (1.0 / np.linalg.norm(X, axis=1)).astype(np.float32)
    unit_i, _ = knn_graph(X * scale[:, None], 10)
    cos_i, _ = device_module.knn_on(X, 10, "cpu", scale=scale)
    assert (cos_i == unit_i).mean() > 0.999


def test_a_device_is_used_only_when_torch_is_there_and_has_cuda(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    work = 1e12
    fake = SimpleNamespace(
        cuda=SimpleNamespace(is_available=lambda: True, mem_get_info=lambda: (8 << 30, 16 << 30))
    )
    monkeypatch.setitem(sys.modules, "torch", fake)
    monkeypatch.delenv("TBNB_DEVICE", raising=False)
    assert device_module.device(100_000, 768, work) == "cuda"
    assert device_module.device(100_000, 768, 1e6) is None  # too little work
    assert device_module.device(10_000_000, 768, work) is None  # does not fit
    monkeypatch.setenv("TBNB_DEVICE", "cpu")
    assert device_module.device(100_000, 768, work) is None
    monkeypatch.delenv("TBNB_DEVICE")
    fake.cuda.is_available = lambda: False
    assert device_module.device(100_000, 768, work) is None
    monkeypatch.delitem(sys.modules, "torch")
    assert device_module.device(100_000, 768, work) is None  # never imported here


def test_the_graph_on_a_device_is_exact_in_the_original_space(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    X, _ = clusters(2500, 128, k=5, seed=4)
    monkeypatch.setattr(device_module, "device", lambda n, d, work: "cpu")
    graph = neighbor_graph(X, reduce_for_neighbors(X), 12)
    assert graph.method == "exact (cpu)"
    assert graph.recall == 1.0
    exact_i, _ = knn_graph(X, 12)
    assert (graph.indices == exact_i).mean() > 0.999
