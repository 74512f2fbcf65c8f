"""Graphs: model graphs and run metadata written to event files (layer: kinds).

Event-level fields (``graph_def`` from torch's ``add_graph`` and TF, ``meta_graph_def``,
``tagged_run_metadata`` with step stats) and summary values of the
``graph_keras_model`` (Keras model JSON), ``graph_run_metadata`` and
``graph_run_metadata_graph`` plugins all become rows: which field or plugin wrote
it, its size, and a lazy :class:`~tbnb.kinds.blob.Blob` whose ``read()`` gives the
serialized bytes (a ``GraphDef``, ``MetaGraphDef``, ``RunMetadata`` or JSON text).
``exp.graph(run)`` parses one (:mod:`tbnb.analysis.graph`); the ``Graphs`` tab
(``tbnb.graph``) draws it.

Examples
--------
>>> from tbnb._proto import Summary, TensorProto
>>> value = Summary.Value(tag="keras", tensor=TensorProto(dtype=7, string_val=[b"{}"]))
>>> normalize(value, None)
b'{}'
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tbnb.decode.tensors import tensor_to_numpy
from tbnb.kinds.base import Analysis, RecordsKind, RowContext, Tab, TagMetadata
from tbnb.kinds.blob import Blob

KEY = "graphs"

EVENT_FIELDS = ("graph_def", "meta_graph_def", "tagged_run_metadata")
"""``Event`` fields that hold a graph or run metadata."""

DRAWABLE = (
    "graph_def",
    "meta_graph_def",
    "graph_keras_model",
    "graph_run_metadata",
    "graph_run_metadata_graph",
)
"""Row kinds holding a graph (``tagged_run_metadata`` holds step statistics only)."""


def has_graph(frame: Any) -> bool:
    """Whether a graphs frame holds a graph to draw (the ``Graphs`` tab is shown)."""
    return bool(len(frame)) and bool(frame["kind"].isin(list(DRAWABLE)).any())


def normalize(value: Any, meta: TagMetadata | None) -> bytes:
    """The serialized graph, model JSON or run metadata a summary value holds."""
    array = tensor_to_numpy(value.tensor)
    return bytes(array.reshape(-1)[0]) if array.size else b""


def rows(data: bytes, context: RowContext) -> list[dict[str, Any]]:
    """One row per graph: what wrote it, its size, and a lazy blob of its bytes."""
    plugin = context.meta.plugin_name if context.meta else "graph"
    assert context.where is not None
    return [
        {
            **context.base(),
            "kind": plugin,
            "nbytes": len(data),
            "blob": Blob.at(KEY, context.where, nbytes=len(data), format=plugin),
        }
    ]


def event_rows(payload: Any, context: RowContext) -> list[dict[str, Any]]:
    """The row of an event-level graph field (``context.where.field`` names it)."""
    assert context.where is not None
    field = context.where.field
    data = payload if isinstance(payload, bytes) else payload.run_metadata
    tag = getattr(payload, "tag", "") or field
    base = {**context.base(), "tag": tag}
    return [
        {
            **base,
            "kind": field,
            "nbytes": len(data),
            "blob": Blob.at(KEY, context.where, nbytes=len(data), format=field),
        }
    ]


MODEL_GRAPH = Analysis(
    "graph",
    "tbnb.analysis.graph:model_graph",
    "One model graph of a run: nodes and edges frames (``exp.graph(run, tag)``).",
)
"""A run's model graph, parsed from its row of the graphs frame."""

KIND = RecordsKind(
    key=KEY,
    doc="Graphs and run metadata: kind, size and a lazy ``blob`` of the serialized bytes.",
    plugins=("graph_keras_model", "graph_run_metadata", "graph_run_metadata_graph"),
    columns=("kind", "nbytes", "blob"),
    dtypes={"nbytes": np.int64},
    normalize=normalize,
    rows=rows,
    counted=True,
    tbparse=("tensors",),
    tab=Tab("Graphs", "tbnb.widgets.graphs:graph", shown=has_graph),
)
