"""The embedding projector: PCA, t-SNE and UMAP of many points in WebGL, selection back.

``tbnb.projector(...)`` (:mod:`~tbnb.widgets.embeddings.factory`) builds a
:class:`~tbnb.widgets.embeddings.widget.ProjectorWidget` from an experiment's
``add_embedding`` embeddings or from any matrix; the computation lives in
:mod:`tbnb.analysis.projection`. Its front end is ``js/src/widgets/embeddings/``.
"""

from __future__ import annotations

from tbnb.widgets.embeddings.factory import ProjectorOptions, projector
from tbnb.widgets.embeddings.widget import ProjectorWidget

__all__ = ["ProjectorOptions", "ProjectorWidget", "projector"]
