"""Projections of embeddings: PCA, t-SNE and UMAP layouts, neighbours, background jobs.

:func:`~tbnb.analysis.projection.inputs.as_vectors` checks what a user gives;
:class:`~tbnb.analysis.projection.engine.Projection` computes and caches layouts
(:mod:`~tbnb.analysis.projection.pca`, :mod:`~tbnb.analysis.projection.layout_tsne`,
:mod:`~tbnb.analysis.projection.layout_umap`) over one exact kNN graph
(:mod:`~tbnb.analysis.projection.neighbors`), t-SNE and UMAP as background
:class:`~tbnb.analysis.projection.jobs.Job` s that stream intermediate layouts and can
be cancelled.
"""

from __future__ import annotations

from tbnb.analysis.projection.engine import Projection, warm_up
from tbnb.analysis.projection.inputs import as_metadata, as_vectors
from tbnb.analysis.projection.jobs import Cancelled, Job, Progress
from tbnb.analysis.projection.neighbors import METRICS, knn_graph, nearest
from tbnb.analysis.projection.params import METHODS, layout_params
from tbnb.analysis.projection.pca import PCAResult, pca

__all__ = [
    "METHODS",
    "METRICS",
    "Cancelled",
    "Job",
    "PCAResult",
    "Progress",
    "Projection",
    "as_metadata",
    "as_vectors",
    "knn_graph",
    "layout_params",
    "nearest",
    "pca",
    "warm_up",
]
