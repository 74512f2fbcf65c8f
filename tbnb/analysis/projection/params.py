"""The parameters of each layout method, checked once, hashable for the cache.

Examples
--------
>>> layout_params("umap", {"n_neighbors": 30, "dims": 3})
UMAPParams(n_neighbors=30, min_dist=0.1, metric='euclidean', dims=3, seed=0, n_epochs=None)
>>> layout_params("tsne", {"perplexity": "x"})
Traceback (most recent call last):
...
ValueError: tsne perplexity must be a number, got 'x'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from tbnb.analysis.projection.neighbors import METRICS

__all__ = ["METHODS", "LayoutParams", "PCAParams", "TSNEParams", "UMAPParams", "layout_params"]

METHODS = ("pca", "tsne", "umap", "raw")
"""Layout methods: PCA, t-SNE, UMAP, and the vectors themselves (up to 3 dimensions)."""


@dataclass(frozen=True)
class PCAParams:
    """PCA: the first ``dims`` principal components."""

    dims: int = 2


@dataclass(frozen=True)
class RawParams:
    """The vectors as they are (1 to 3 dimensions; a missing axis is 0)."""

    dims: int = 2


@dataclass(frozen=True)
class TSNEParams:
    """t-SNE (openTSNE's defaults)."""

    perplexity: float = 30.0
    learning_rate: float | str = "auto"
    iterations: int = 750
    metric: str = "euclidean"
    dims: int = 2
    seed: int = 0


@dataclass(frozen=True)
class UMAPParams:
    """UMAP (umap-learn's defaults; ``n_epochs=None``: 500 up to 10k points, else 200)."""

    n_neighbors: int = 15
    min_dist: float = 0.1
    metric: str = "euclidean"
    dims: int = 2
    seed: int = 0
    n_epochs: int | None = None


LayoutParams = PCAParams | RawParams | TSNEParams | UMAPParams

_CLASSES: dict[str, type[Any]] = {
    "pca": PCAParams,
    "raw": RawParams,
    "tsne": TSNEParams,
    "umap": UMAPParams,
}


def layout_params(method: str, given: dict[str, Any] | None = None) -> Any:
    """The checked parameters of ``method`` (defaults for what is not given).

    Raises ``ValueError`` naming the method and parameter for an unknown name or a bad
    value.
    """
    if method not in _CLASSES:
        raise ValueError(f"method must be one of {list(METHODS)}, got {method!r}")
    cls = _CLASSES[method]
    names = {f.name for f in fields(cls)}
    values = dict(given or {})
    unknown = sorted(set(values) - names)
    if unknown:
        raise ValueError(f"{method} takes {sorted(names)}; unknown: {unknown}")
    out = {}
    for f in fields(cls):
        if f.name not in values:
            continue
        out[f.name] = _check(method, f.name, values[f.name])
    return cls(**out)


def _check(method: str, name: str, value: Any) -> Any:
    def number(lo: float, hi: float, integer: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            try:
                parsed = float(value)
            except (TypeError, ValueError):
                raise ValueError(f"{method} {name} must be a number, got {value!r}") from None
        else:
            parsed = float(value)
        if not lo <= parsed <= hi or (integer and parsed != int(parsed)):
            kind = "an integer" if integer else "a number"
            raise ValueError(f"{method} {name} must be {kind} in [{lo:g}, {hi:g}], got {value!r}")
        return int(parsed) if integer else parsed

    if name == "dims":
        if value not in (1, 2, 3) if method == "raw" else value not in (2, 3):
            raise ValueError(f"{method} dims must be 2 or 3, got {value!r}")
        return int(value)
    if name == "metric":
        if value not in METRICS:
            raise ValueError(f"{method} metric must be one of {list(METRICS)}, got {value!r}")
        return str(value)
    if name == "learning_rate":
        return "auto" if value in ("auto", None) else number(1e-3, 1e7)
    if name == "n_epochs":
        return None if value is None else int(number(1, 100_000, integer=True))
    limits = {
        "perplexity": (1.0, 500.0, False),
        "iterations": (1, 100_000, True),
        "seed": (0, 2**31 - 1, True),
        "n_neighbors": (2, 500, True),
        "min_dist": (0.0, 1.0, False),
    }
    lo, hi, integer = limits[name]
    return number(lo, hi, integer)


def params_dict(params: Any) -> dict[str, Any]:
    """The parameters as a plain dict (what a widget shows and syncs)."""
    return asdict(params)
