"""Model graphs: the bytes of ``exp.graphs`` as nodes and edges frames (``exp.graph(run)``).

:func:`model_graph` reads one graph of a run (torch's ``add_graph``, Lightning's
``log_graph``, tensorboardX, TF ``graph_def`` and ``meta_graph_def``, TF2
``trace_export``, a Keras model's JSON as a conceptual graph) into a
:class:`ModelGraph`, joining the step statistics of a ``RunMetadata`` when there
are some. :func:`graph_list` says which graphs there are.
"""

from __future__ import annotations

from tbnb.analysis.graph.catalog import graph_list, model_graph, profile_list
from tbnb.analysis.graph.hierarchy import CONSTANT_OPS, SCOPE, SERIES, Hierarchy, build_hierarchy
from tbnb.analysis.graph.model import NODE_COLUMNS, PARAMETER_OPS, ModelGraph
from tbnb.analysis.graph.parse import GraphParseError, graph_records
from tbnb.analysis.graph.stats import step_stats

__all__ = [
    "CONSTANT_OPS",
    "NODE_COLUMNS",
    "PARAMETER_OPS",
    "SCOPE",
    "SERIES",
    "GraphParseError",
    "Hierarchy",
    "ModelGraph",
    "build_hierarchy",
    "graph_list",
    "graph_records",
    "model_graph",
    "profile_list",
    "step_stats",
]
