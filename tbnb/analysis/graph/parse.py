"""The bytes of a graph row (``exp.graphs``) as node records, the way TensorBoard reads them.

By the row's ``kind`` (the event field or plugin that wrote it):

- ``graph_def``: a ``GraphDef`` (torch's ``add_graph``, Lightning's ``log_graph``,
  tensorboardX, TF's ``tf.summary.graph`` and the Keras callback's ``write_graph``);
- ``meta_graph_def``: the ``GraphDef`` inside a ``MetaGraphDef``;
- ``graph_run_metadata_graph`` and ``graph_run_metadata`` (TF2's
  ``tf.summary.trace_export``): a ``RunMetadata`` whose function graphs'
  pre-optimization graphs are merged as TensorBoard merges them (each under a
  ``graph_<i>`` scope when there are several);
- ``graph_keras_model``: a Keras model's JSON, as a conceptual graph
  (:mod:`tbnb.analysis.graph.keras`).

``tagged_run_metadata`` holds step statistics only (:mod:`tbnb.analysis.graph.stats`).

Examples
--------
>>> from tbnb._proto import GraphDef
>>> graph = GraphDef()
>>> node = graph.node.add(name="a/MatMul", op="MatMul", input=["x", "^init"])
>>> records = graph_records(graph.SerializeToString(), "graph_def")
>>> records[0]["name"], records[0]["inputs"]
('a/MatMul', ['x', '^init'])
"""

from __future__ import annotations

import json
from typing import Any

from google.protobuf.message import DecodeError

from tbnb._proto import GraphDef, MetaGraphDef, RunMetadata
from tbnb.analysis.graph.attrs import SHAPES_ATTR, attr_to_python
from tbnb.analysis.graph.keras import keras_nodes

__all__ = [
    "CONCEPTUAL",
    "OP_GRAPHS",
    "PROFILES",
    "GraphParseError",
    "graph_records",
    "run_metadata_of",
]

OP_GRAPHS = ("graph_def", "meta_graph_def", "graph_run_metadata_graph", "graph_run_metadata")
"""Kinds holding a graph of ops, in order of preference for a run's default graph."""

CONCEPTUAL = ("graph_keras_model",)
"""Kinds holding a conceptual graph (Keras layers)."""

PROFILES = ("tagged_run_metadata", "graph_run_metadata")
"""Kinds holding step statistics (compute time, memory, device per node)."""


class GraphParseError(ValueError):
    """The bytes of a graph row are not what its kind says they are."""


def _parse(message: Any, data: bytes, what: str) -> Any:
    try:
        return message.FromString(data)
    except DecodeError as error:
        raise GraphParseError(f"not a valid {what} ({len(data)} bytes): {error}") from None


def run_metadata_of(data: bytes) -> Any:
    """Parse a serialized ``RunMetadata`` (``GraphParseError`` if it is not one)."""
    return _parse(RunMetadata, data, "RunMetadata")


def _merged_function_graphs(run_metadata: Any) -> Any:
    """TensorBoard's ``merge_graph_defs`` of the function graphs' pre-optimization graphs."""
    graphs = [f.pre_optimization_graph for f in run_metadata.function_graphs]
    if len(graphs) == 1:
        return graphs[0]
    merged = GraphDef()
    for index, graph in enumerate(graphs, start=1):
        prefix = f"graph_{index}"
        for node in graph.node:
            copy = merged.node.add()
            copy.CopyFrom(node)
            copy.name = f"{prefix}/{node.name}"
            copy.input[:] = [f"{prefix}/{name}" for name in node.input]
    return merged


def _node_record(node: Any) -> dict[str, Any]:
    attributes: dict[str, Any] = {}
    shapes = None
    for key, value in node.attr.items():
        if key == SHAPES_ATTR:
            converted = attr_to_python(value)
            shapes = converted if isinstance(converted, list) else None
        else:
            attributes[key] = attr_to_python(value)
    return {
        "name": node.name,
        "op": node.op,
        "inputs": list(node.input),
        "device": node.device,
        "attributes": attributes,
        "output_shapes": shapes,
    }


def graph_records(data: bytes, kind: str) -> list[dict[str, Any]]:
    """Node records (``name``, ``op``, ``inputs``, ``device``, ``attributes``,
    ``output_shapes``) of the graph in ``data``, a row of ``exp.graphs`` of ``kind``.

    Raises
    ------
    GraphParseError
        When the bytes do not parse as ``kind`` says, or the kind holds no graph.
    """
    if kind == "graph_def":
        graph = _parse(GraphDef, data, "GraphDef")
    elif kind == "meta_graph_def":
        graph = _parse(MetaGraphDef, data, "MetaGraphDef").graph_def
    elif kind in ("graph_run_metadata_graph", "graph_run_metadata"):
        graph = _merged_function_graphs(run_metadata_of(data))
    elif kind == "graph_keras_model":
        try:
            model = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise GraphParseError(f"not a Keras model's JSON: {error}") from None
        try:
            return [{**record, "device": ""} for record in keras_nodes(model)]
        except ValueError as error:
            raise GraphParseError(str(error)) from None
    else:
        raise GraphParseError(f"{kind!r} holds no graph (it is step statistics only)")
    return [_node_record(node) for node in graph.node]
