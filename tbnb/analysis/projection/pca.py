"""PCA fast enough to draw at once: 100k x 768 to 3 components in well under a second.

For a few components of a large, wide matrix, :func:`pca` runs subspace iteration on the
implicitly centred data (never copied): each iteration is two thin matrix products
(``A Q``, then ``A.T`` of that), the basis is re-orthonormalised on its small ``(d,
width)`` side, and a Rayleigh-Ritz step on the last product gives the components (Halko,
Martinsson & Tropp 2011). That replaces a full SVD (tens of seconds) or a ``d x d``
covariance (one ``n x d x d`` product); on embeddings, whose spectra decay, it gives the
leading components to float32 precision. Narrow or small data (up to :data:`EXACT_DIMS`
columns, or :data:`EXACT_FLOPS`) uses the covariance's exact eigendecomposition.

:func:`pca_sample` is the first screen of a large matrix: the exact covariance of
:data:`SAMPLE_ROWS` rows drawn with a seed gives the axes, and every row is projected
on them (a fraction of the full cost). Its axes also start :func:`pca`'s iteration
(``start=``), which then needs one power step instead of three. Signs are fixed (each
component's largest loading positive), so the same data always gives the same picture.
Where torch has a CUDA device, the exact covariance is computed there instead
(:mod:`~tbnb.analysis.projection.device`).

Examples
--------
>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> data = rng.normal(size=(500, 3)) * [10.0, 2.0, 0.1]
>>> result = pca(data, 2)
>>> result.coords.shape, result.explained_variance_ratio.round(2).tolist()
((500, 2), [0.96, 0.04])
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from tbnb.extras import installed

__all__ = ["EXACT_DIMS", "SAMPLE_ROWS", "PCAResult", "pca", "pca_sample"]

EXACT_DIMS = 128
"""Up to this many dimensions the covariance is decomposed exactly."""

EXACT_FLOPS = 6e9
"""Up to ``n * d * d`` of this (10k x 768), the covariance is decomposed exactly too."""

SAMPLE_ROWS = 4096
"""Rows whose covariance gives :func:`pca_sample`'s axes."""


@dataclass(frozen=True)
class PCAResult:
    """Projected coordinates and what they explain.

    Attributes
    ----------
    coords
        ``(n, k)`` float32: the centred data projected on the components.
    components
        ``(k, d)`` float32 unit vectors, by decreasing variance.
    mean
        ``(d,)`` float32 column means.
    explained_variance_ratio
        ``(k,)`` float64: each component's share of the total variance.
    sampled
        Rows the axes were computed from (0: all of them; see :func:`pca_sample`).
    """

    coords: np.ndarray
    components: np.ndarray
    mean: np.ndarray
    explained_variance_ratio: np.ndarray
    sampled: int = 0
    basis: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def exact(self) -> bool:
        """Whether the axes come from every row (not from a sample)."""
        return self.sampled == 0


def pca(
    data: np.ndarray,
    n_components: int = 3,
    *,
    seed: int = 0,
    power_iterations: int = 3,
    row_scale: np.ndarray | None = None,
    start: PCAResult | None = None,
) -> PCAResult:
    """Principal components of ``data`` (rows are points).

    Parameters
    ----------
    data
        ``(n, d)`` array (float32 is kept; other dtypes are converted).
    n_components
        How many components (at most ``min(n, d)``).
    seed
        Seed of the random test matrix (the result is the same for the same seed).
    power_iterations
        Power steps of the iteration from a random start (more: sharper on flat spectra).
    row_scale
        ``(n,)`` factors: the PCA of ``data * row_scale[:, None]`` without making that
        copy (``1 / norms`` gives the PCA of unit vectors, for cosine geometry).
    start
        :func:`pca_sample`'s result on the same data: its axes start the iteration, which
        then takes one power step.

    Examples
    --------
    >>> import numpy as np
    >>> pca(np.array([[0.0, 0.0], [2.0, 0.0], [4.0, 0.0]]), 1).coords.ravel().tolist()
    [-2.0, 0.0, 2.0]
    """
    from tbnb.analysis.projection.device import device, pca_on

    n, d = np.shape(data)
    where = device(n, d, float(n) * d * d)
    if where is not None:  # a GPU: the exact covariance there
        coords, components, mean, total = pca_on(
            data, int(min(n_components, n, d)), where, row_scale=row_scale
        )
        signs = _signs(components)
        ratio = np.einsum("ij,ij->j", coords, coords, dtype=np.float64) / max(total, 1e-300)
        return PCAResult(coords * signs, components * signs[:, None], mean, ratio)
    data, rows, total = _prepare(data, row_scale)
    k = int(min(n_components, n, d))
    if d <= EXACT_DIMS or k * 4 >= d or n * d * d <= EXACT_FLOPS:
        components = _exact(rows, k)
    elif start is not None and start.basis is not None:
        components = _subspace(rows, k, seed, 1, start.basis)
    else:
        components = _subspace(rows, k, seed, power_iterations)
    return _result(rows, components, total, 0)


def pca_sample(
    data: np.ndarray,
    n_components: int = 3,
    *,
    rows: int = SAMPLE_ROWS,
    seed: int = 0,
    row_scale: np.ndarray | None = None,
) -> PCAResult:
    """PCA with the axes of ``rows`` rows drawn with ``seed``: every row projected on them.

    The first screen of a large matrix (a fraction of :func:`pca`'s cost; data of at
    most ``2 * rows`` rows gets the exact :func:`pca`). ``result.sampled`` says how many
    rows gave the axes; pass the result as ``pca(..., start=result)`` for the exact one.

    Examples
    --------
    >>> import numpy as np
    >>> data = np.random.default_rng(0).normal(size=(5000, 3)) * [10.0, 2.0, 0.1]
    >>> quick = pca_sample(data, 1, rows=500)
    >>> quick.sampled, bool(abs(quick.components[0, 0]) > 0.99)
    (500, True)
    """
    if len(data) <= 2 * rows:
        return pca(data, n_components, seed=seed, row_scale=row_scale)
    data, centred, total = _prepare(data, row_scale)
    n, d = data.shape
    k = int(min(n_components, d))
    picked = np.sort(np.random.default_rng(seed).choice(n, rows, replace=False))
    scale = None if centred.scale is None else centred.scale[picked]
    sample = _Rows(data[picked], centred.mean, scale)
    axes = _exact(sample, k, min(d, k + max(30, k // 2)))
    basis = np.ascontiguousarray(axes.T)
    return _result(centred, axes[:k], total, rows, basis)


def _prepare(data: np.ndarray, row_scale: np.ndarray | None) -> tuple[np.ndarray, _Rows, float]:
    """float32 data, its implicitly centred rows, and the total variance (times n)."""
    data = np.asarray(data)
    if data.dtype != np.float32:
        data = data.astype(np.float32)
    n = len(data)
    scale = None if row_scale is None else np.asarray(row_scale, np.float32).reshape(-1, 1)
    if scale is None:
        mean = data.mean(axis=0, dtype=np.float64).astype(np.float32)
    else:
        mean = (data.T @ scale).ravel() / np.float32(n)
    return data, _Rows(data, mean, scale), _total_variance(data, mean, scale)


def _result(
    rows: _Rows, components: np.ndarray, total: float, sampled: int, basis: np.ndarray | None = None
) -> PCAResult:
    components = _fix_signs(components)
    coords = rows.times(components.T)
    explained = np.einsum("ij,ij->j", coords, coords, dtype=np.float64)
    ratio = explained / total if total > 0 else np.zeros(len(components))
    order = np.argsort(-ratio, kind="stable")
    return PCAResult(
        coords=np.ascontiguousarray(coords[:, order]),
        components=np.ascontiguousarray(components[order]),
        mean=rows.mean,
        explained_variance_ratio=ratio[order],
        sampled=sampled,
        basis=basis,
    )


class _Rows:
    """The centred (and row-scaled) data ``A = data * scale - mean``, never built."""

    def __init__(self, data: np.ndarray, mean: np.ndarray, scale: np.ndarray | None) -> None:
        self.data, self.mean, self.scale = data, mean, scale

    def times(self, m: np.ndarray) -> np.ndarray:
        """``A @ m``."""
        out: np.ndarray = self.data @ m
        if self.scale is not None:
            out *= self.scale
        out -= self.mean @ m
        return out

    def times_t(self, m: np.ndarray) -> np.ndarray:
        """``A.T @ m``."""
        out: np.ndarray = self.data.T @ (m if self.scale is None else m * self.scale)
        out -= np.outer(self.mean, m.sum(axis=0))
        return out


def _exact(rows: _Rows, k: int, width: int = 0) -> np.ndarray:
    """The covariance's ``k`` leading eigenvectors as rows (``max(k, width)`` rows: the
    first ``k`` exact, the rest a basis to start an iteration from)."""
    cov = _covariance(rows)
    with one_blas_thread():
        top = _top_eigenvectors(cov, k, width)
    return np.ascontiguousarray(top.T, dtype=np.float32)


def _covariance(rows: _Rows, block: int = 16384) -> np.ndarray:
    """``A.T @ A`` in float64, from centred blocks of rows (float32 products).

    Centring before the product, not after (``X.T X - n m m.T``), keeps the precision
    when the mean is large beside the spread, as it often is for embeddings.
    """
    data = rows.data
    cov = np.zeros((data.shape[1], data.shape[1]))
    for start in range(0, len(data), block):
        part = data[start : start + block]
        if rows.scale is not None:
            part = part * rows.scale[start : start + block]
        part = part - rows.mean
        cov += (part.T @ part).astype(np.float64)
    return cov


FEW = 8
"""Up to this many components, :func:`_top_eigenvectors` iterates instead of LAPACK."""


def _top_eigenvectors(
    matrix: np.ndarray, k: int, width: int = 0, *, tolerance: float = 1e-9, most: int = 30
) -> np.ndarray:
    """The ``k`` leading eigenvectors (columns) of a symmetric PSD ``(d, d)`` matrix.

    A few (up to :data:`FEW`) of a wide matrix come from block iteration with
    Rayleigh-Ritz (each step one ``(d, d) x (d, width)`` product: milliseconds) once
    every wanted residual ``|M v - l v|`` is below ``tolerance`` times the largest
    eigenvalue; otherwise (more wanted, or a spectrum too flat to converge in ``most``
    steps) LAPACK computes just the wanted ones (full ``eigh`` costs a second for
    d = 768 on two busy cores). ``width`` asks for that many columns: the rest of the
    iterated basis after the ``k`` exact ones.
    """
    d = len(matrix)
    wanted = min(max(k, width), d)
    if d <= EXACT_DIMS or wanted * 2 >= d:
        values, vectors = np.linalg.eigh(matrix)
        return vectors[:, np.argsort(values)[::-1][:wanted]]
    if k <= FEW:
        q = _gram_orthonormal(
            np.random.default_rng(0).standard_normal((d, max(wanted, 2 * k + 16)))
        )
        for _ in range(most):
            product = matrix @ q
            values, small = np.linalg.eigh(q.T @ product)
            order = np.argsort(values)[::-1]
            values, small = values[order], small[:, order]
            ritz: np.ndarray = q @ small
            residual = np.linalg.norm(product @ small[:, :k] - ritz[:, :k] * values[:k], axis=0)
            if residual.max() <= tolerance * max(float(values[0]), 1e-300):
                return ritz[:, :wanted]
            q = _gram_orthonormal(product @ small)
    if not installed("scipy"):  # the core install: every eigenpair, then the top ones
        values, vectors = np.linalg.eigh(matrix)
        return vectors[:, np.argsort(values)[::-1][:wanted]]
    import scipy.linalg

    values, vectors = scipy.linalg.eigh(matrix, subset_by_index=[d - wanted, d - 1], driver="evr")
    top: np.ndarray = vectors[:, np.argsort(values)[::-1]]
    return top


def _subspace(
    rows: _Rows, k: int, seed: int, power_steps: int, start: np.ndarray | None = None
) -> np.ndarray:
    """Top-``k`` right singular vectors of the centred data by subspace iteration.

    ``power_steps`` products with the covariance ``A.T A`` (two thin passes each,
    the ``(d, width)`` result re-orthonormalised), then one more whose Rayleigh-Ritz
    matrix ``Q.T (A.T A Q)`` gives the components.
    """
    d = rows.data.shape[1]
    width = min(d, k + max(30, k // 2))
    if start is not None and start.shape[1] >= width:
        q = _orthonormal(start[:, :width])
    else:
        q = _orthonormal(np.random.default_rng(seed).standard_normal((d, width)))
    for _ in range(power_steps):
        q = _orthonormal(rows.times_t(rows.times(q)))
    z = rows.times_t(rows.times(q)).astype(np.float64)
    with one_blas_thread():
        ritz = q.astype(np.float64).T @ z
        values, vectors = np.linalg.eigh((ritz + ritz.T) / 2)
    top = np.argsort(values)[::-1][:k]
    return np.ascontiguousarray((q.astype(np.float64) @ vectors[:, top]).T, dtype=np.float32)


def _orthonormal(y: np.ndarray) -> np.ndarray:
    """An orthonormal basis of the columns of a small ``(d, width)`` ``y`` (float32).

    Gram matrix, its eigendecomposition, twice (Cholesky QR's stable variant): LAPACK's
    QR takes most of a second on a ``768 x 33`` matrix when OpenBLAS's threads wait for
    a busy core. Directions with no energy are dropped.
    """
    with one_blas_thread():
        return _gram_orthonormal(np.asarray(y, dtype=np.float64)).astype(np.float32)


def _gram_orthonormal(y: np.ndarray) -> np.ndarray:
    for _ in range(2):
        values, vectors = np.linalg.eigh(y.T @ y)
        keep = values > values.max() * 1e-12
        if not keep.any():
            return y[:, :0]
        y = y @ (vectors[:, keep] / np.sqrt(values[keep]))
    return y


def _total_variance(
    data: np.ndarray, mean: np.ndarray, scale: np.ndarray | None, rows: int = 16384
) -> float:
    """Sum of the columns' variances times n, in blocks (no float64 copy of data)."""
    total = 0.0
    for start in range(0, len(data), rows):
        block = data[start : start + rows]
        if scale is not None:
            block = block * scale[start : start + rows]
        block = block - mean
        total += float(np.vdot(block, block))
    return total


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Small matrices (``d x width``, ``d x d``) on one BLAS thread.

    OpenBLAS parallelises even a ``768 x 33`` product; on a busy machine its second
    thread waits for a core and a millisecond's work takes a tenth of a second. The
    tall passes over the data keep every thread.
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - scikit-learn brings it
        yield
        return
    with threadpool_limits(1, user_api="blas"):
        yield


def _signs(components: np.ndarray) -> np.ndarray:
    """Per component: the sign that makes its largest loading positive (float32)."""
    biggest = np.argmax(np.abs(components), axis=1)
    signs: np.ndarray = np.sign(components[np.arange(len(components)), biggest])
    signs[signs == 0] = 1
    return signs.astype(np.float32)


def _fix_signs(components: np.ndarray) -> np.ndarray:
    fixed: np.ndarray = components * _signs(components)[:, None]
    return fixed
