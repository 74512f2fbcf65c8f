"""PCA and the kNN graph on a CUDA device, when torch and one are present.

On a machine with a GPU (a training box, Colab) the two heavy steps before a layout are
matrix products that a GPU does in a fraction of the CPU's time: the covariance of
:func:`pca_on` (``X.T X`` in blocks, its eigenvectors in float64) and the exact kNN graph
of :func:`knn_on` (every pair measured, in the original space, blocks of queries
against all points). torch is not a dependency: :func:`device` finds one only where torch
is already imported and ``torch.cuda.is_available()``, and the vectors fit in its free
memory; everything else runs on the CPU (:mod:`~tbnb.analysis.projection.pca`,
:mod:`~tbnb.analysis.projection.descent`). ``TBNB_DEVICE=cpu`` turns it off. The
functions take any torch device (the tests run them on ``"cpu"`` against the numpy
path: this machine has no GPU).

Results equal the CPU ones to float32 tolerance (products are float32 with TF32 off).

Examples
--------
>>> import numpy as np
>>> torch = __import__("pytest").importorskip("torch")
>>> X = np.random.default_rng(0).normal(size=(200, 8)).astype(np.float32)
>>> idx, dist = knn_on(X, 3, "cpu")
>>> idx.shape, bool((idx != np.arange(200)[:, None]).all())
((200, 3), True)
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

__all__ = ["MIN_WORK", "device", "knn_on", "pca_on"]

MIN_WORK = 2e10
"""Below this many multiply-adds (``n * n * d`` for the graph), the CPU path is as fast
as moving the data to a device and back."""


def device(n: int, d: int, work: float) -> str | None:
    """``"cuda"`` for ``work`` multiply-adds on ``n x d`` float32, or None (the CPU path).

    A device is used only when torch is already imported (tbnb never imports it: that
    alone takes seconds), ``torch.cuda.is_available()``, the work is at least
    :data:`MIN_WORK` and the vectors fit in the device's free memory; never when the
    environment variable ``TBNB_DEVICE`` is ``cpu``.

    Examples
    --------
    >>> device(10, 4, 1e3) is None  # too little work for any device
    True
    """
    if os.environ.get("TBNB_DEVICE", "") == "cpu" or work < MIN_WORK:
        return None
    torch = sys.modules.get("torch")
    if torch is None or not torch.cuda.is_available():
        return None
    free, _total = torch.cuda.mem_get_info()
    if n * d * 4 * 1.5 > free:  # the vectors and room to work
        return None
    return "cuda"


def _tensor(data: np.ndarray, where: str) -> Any:
    import torch

    torch.backends.cuda.matmul.allow_tf32 = False  # float32 products, as on the CPU
    return torch.from_numpy(np.ascontiguousarray(data, dtype=np.float32)).to(where)


def pca_on(
    data: np.ndarray,
    n_components: int,
    where: str,
    *,
    row_scale: np.ndarray | None = None,
    block: int = 65536,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """``(coords, components, mean, total)`` of ``data``'s PCA (rows times ``row_scale``
    when given), computed on ``where``: the covariance's eigenvectors (rows of
    ``components``, largest variance first; signs as they come), every row projected,
    and the total variance times ``n``."""
    import torch

    x = _tensor(data, where)
    if row_scale is not None:
        x = x * _tensor(row_scale, where)[:, None]
    n, d = x.shape
    mean = x.mean(dim=0, dtype=torch.float64).to(torch.float32)
    cov = torch.zeros((d, d), dtype=torch.float64, device=where)
    for start in range(0, n, block):
        part = x[start : start + block] - mean
        cov += (part.T @ part).to(torch.float64)
    values, vectors = torch.linalg.eigh(cov)
    order = torch.argsort(values, descending=True)[:n_components]
    components = vectors[:, order].T.to(torch.float32)
    coords = torch.cat([(x[s : s + block] - mean) @ components.T for s in range(0, n, block)])
    return (
        coords.cpu().numpy(),
        components.cpu().numpy(),
        mean.cpu().numpy(),
        float(torch.trace(cov)),
    )


def knn_on(
    data: np.ndarray,
    k: int,
    where: str,
    *,
    scale: np.ndarray | None = None,
    block_bytes: int = 1 << 30,
) -> tuple[np.ndarray, np.ndarray]:
    """The exact ``k`` nearest other rows of every row (euclidean; rows times ``scale``
    for cosine), measured on ``where``: ``(n, k)`` int32 and float32, nearest first."""
    import torch

    x = _tensor(data, where)
    if scale is not None:
        x = x * _tensor(scale, where)[:, None]
    n = x.shape[0]
    k = int(min(k, n - 1))
    sq = (x * x).sum(dim=1)
    rows = int(max(1, min(n, block_bytes // (4 * max(n, 1)))))
    out_i = np.empty((n, k), dtype=np.int32)
    out_d = np.empty((n, k), dtype=np.float32)
    for start in range(0, n, rows):
        q = x[start : start + rows]
        dist = sq[start : start + rows, None] + sq[None, :] - 2.0 * (q @ x.T)
        local = torch.arange(start, start + len(q), device=where)
        dist[torch.arange(len(q), device=where), local] = float("inf")  # not itself
        # one more than asked: close points are ordered again from exact differences
        near, chosen = torch.topk(dist, min(k + 1, n - 1), dim=1, largest=False)
        exact = ((x[chosen] - q[:, None, :]) ** 2).sum(dim=2)
        exact = torch.where(torch.isinf(near), near, exact)
        order = torch.argsort(exact, dim=1, stable=True)[:, :k]
        out_i[start : start + len(q)] = torch.gather(chosen, 1, order).cpu().numpy()
        out_d[start : start + len(q)] = torch.gather(exact, 1, order).sqrt().cpu().numpy()
    return out_i, out_d
