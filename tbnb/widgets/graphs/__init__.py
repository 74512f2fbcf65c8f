"""The model graph explorer: :func:`graph` builds a :class:`GraphWidget` (``tbnb.graph``)."""

from __future__ import annotations

from tbnb.widgets.graphs.factory import graph
from tbnb.widgets.graphs.widget import GraphWidget

__all__ = ["GraphWidget", "graph"]
