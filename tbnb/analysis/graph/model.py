"""A model graph as two tidy frames: nodes and edges (``exp.graph(run)``).

``nodes``: one row per node (``name``, ``op``, ``scope``, ``inputs``, ``device``,
``attributes``, ``output_shapes``, then ``params``, ``compute_us`` and
``memory_bytes`` when known). ``edges``: one row per input of a node that names an
existing node (``source``, ``target``, ``source_output``, ``target_input``,
``control``); inputs naming no node (torch's traced module handles) are kept in
:attr:`ModelGraph.dangling`.

Examples
--------
>>> graph = ModelGraph.from_records([
...     {"name": "x", "op": "Placeholder", "inputs": []},
...     {"name": "dense/MatMul", "op": "MatMul", "inputs": ["x", "dense/w"]},
...     {"name": "dense/w", "op": "VariableV2", "inputs": [],
...      "attributes": {"shape": (784, 10)}}])
>>> graph.edges[["source", "target"]].values.tolist()
[['x', 'dense/MatMul'], ['dense/w', 'dense/MatMul']]
>>> float(graph.scope_stats().loc["dense", "params"])
7840.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from tbnb.analysis.graph.hierarchy import CONSTANT_OPS, Hierarchy, build_hierarchy

__all__ = ["NODE_COLUMNS", "PARAMETER_OPS", "ModelGraph"]

NODE_COLUMNS = (
    "name",
    "op",
    "scope",
    "inputs",
    "device",
    "attributes",
    "output_shapes",
    "params",
    "compute_us",
    "memory_bytes",
)
"""Columns of :attr:`ModelGraph.nodes`."""

EDGE_COLUMNS = ("source", "target", "source_output", "target_input", "control")
"""Columns of :attr:`ModelGraph.edges`."""

PARAMETER_OPS = frozenset({"VariableV2", "Variable", "VarHandleOp", "prim::GetAttr"})
"""Ops of nodes holding parameters (TF variables; torch's traced ``weight``/``bias``)."""


def _split_input(text: str) -> tuple[str, int, bool]:
    """``(node, output slot, control)`` of an input string (``^a``, ``a:1``, ``a``)."""
    control = text.startswith("^")
    name = text[1:] if control else text
    head, colon, tail = name.rpartition(":")
    if colon and tail.isdigit() and head:
        return head, int(tail), control
    return name, 0, control


def _params(op: str, attributes: Mapping[str, Any], shapes: Any) -> float:
    """Elements of a parameter node (NaN: not a parameter, or its shape is unknown)."""
    if op not in PARAMETER_OPS:
        return math.nan
    shape = attributes.get("shape")
    if not isinstance(shape, tuple) and shapes and isinstance(shapes[0], tuple):
        shape = shapes[0]
    if isinstance(shape, tuple) and all(isinstance(d, int) for d in shape):
        return float(np.prod(shape, dtype=np.float64))
    return math.nan


class ModelGraph:
    """Nodes and edges of one graph (build it with :meth:`from_records` or ``exp.graph``)."""

    def __init__(
        self,
        nodes: pd.DataFrame,
        edges: pd.DataFrame,
        dangling: pd.DataFrame,
        *,
        run: str = "",
        tag: str = "",
        kind: str = "",
    ) -> None:
        self.nodes = nodes
        self.edges = edges
        self.dangling = dangling
        self.run, self.tag, self.kind = run, tag, kind
        self.stats_tag = ""
        """Tag of the ``RunMetadata`` whose step statistics are joined in ("" if none)."""
        self._hierarchy: Hierarchy | None = None

    def __repr__(self) -> str:
        where = f" {self.run!r} {self.tag!r}" if self.run or self.tag else ""
        return (
            f"<tbnb.ModelGraph{where} ({self.kind or 'graph'}): {len(self.nodes)} nodes, "
            f"{len(self.edges)} edges>"
        )

    @classmethod
    def from_records(
        cls, records: Iterable[Mapping[str, Any]], *, run: str = "", tag: str = "", kind: str = ""
    ) -> ModelGraph:
        """Build from node records (``name``, ``op``, ``inputs`` and optionally ``device``,
        ``attributes``, ``output_shapes``). A later record of a name replaces an earlier one.
        """
        by_name: dict[str, Mapping[str, Any]] = {}
        for record in records:
            by_name[str(record["name"])] = record
        rows = []
        for name, record in by_name.items():
            attributes = dict(record.get("attributes") or {})
            shapes = record.get("output_shapes")
            op = str(record.get("op", ""))
            rows.append(
                {
                    "name": name,
                    "op": op,
                    "scope": name.rpartition("/")[0],
                    "inputs": list(record.get("inputs") or []),
                    "device": str(record.get("device") or ""),
                    "attributes": attributes,
                    "output_shapes": shapes,
                    "params": _params(op, attributes, shapes),
                    "compute_us": math.nan,
                    "memory_bytes": math.nan,
                }
            )
        nodes = pd.DataFrame(rows, columns=list(NODE_COLUMNS)).astype(
            {"params": np.float64, "compute_us": np.float64, "memory_bytes": np.float64}
        )
        edges, dangling = [], []
        for name, inputs in zip(nodes["name"], nodes["inputs"], strict=True):
            for position, text in enumerate(inputs):
                source, slot, control = _split_input(str(text))
                if source in by_name:
                    edges.append((source, name, slot, position, control))
                else:
                    dangling.append((name, str(text)))
        edge_frame = pd.DataFrame(edges, columns=list(EDGE_COLUMNS)).astype(
            {"source_output": np.int64, "target_input": np.int64, "control": bool}
        )
        return cls(
            nodes,
            edge_frame,
            pd.DataFrame(dangling, columns=["target", "input"]),
            run=run,
            tag=tag,
            kind=kind,
        )

    # ---------------------------------------------------------------- statistics
    def with_stats(self, stats: pd.DataFrame) -> ModelGraph:
        """A copy with ``compute_us``, ``memory_bytes`` (and an empty ``device`` filled)
        from step statistics (:func:`tbnb.analysis.graph.stats.step_stats`)."""
        nodes = self.nodes.copy()
        if len(stats):
            by_node = stats.set_index("node")
            nodes["compute_us"] = nodes["name"].map(by_node["compute_us"]).astype(np.float64)
            nodes["memory_bytes"] = nodes["name"].map(by_node["memory_bytes"]).astype(np.float64)
            ran_on = nodes["name"].map(by_node["device"])
            nodes["device"] = nodes["device"].where(nodes["device"] != "", ran_on.fillna(""))
        graph = ModelGraph(
            nodes, self.edges, self.dangling, run=self.run, tag=self.tag, kind=self.kind
        )
        graph._hierarchy = self._hierarchy
        graph.stats_tag = self.stats_tag
        return graph

    def op_stats(self) -> pd.DataFrame:
        """Count per op type (most frequent first), with parameters, compute and memory."""
        nodes = self.nodes
        grouped = nodes.groupby("op", sort=False)
        table = pd.DataFrame(
            {
                "count": grouped.size(),
                "params": grouped["params"].sum(min_count=1),
                "compute_us": grouped["compute_us"].sum(min_count=1),
                "memory_bytes": grouped["memory_bytes"].sum(min_count=1),
            }
        )
        table.index.name = "op"
        return table.sort_values("count", ascending=False, kind="stable")

    def scope_stats(self) -> pd.DataFrame:
        """Per name scope (every level): nodes, parameter tensors, parameters, compute, memory.

        ``params`` sums the known parameter sizes; ``param_tensors`` counts parameter
        nodes, known size or not (torch's traced graphs name their parameters without
        shapes).
        """
        h = self.hierarchy()
        scopes = [h.path(g) for g in range(len(h.key))]
        values = {
            "nodes": np.ones(len(self.nodes)),
            "param_tensors": self.nodes["op"].isin(PARAMETER_OPS).to_numpy(np.float64),
            "params": self.nodes["params"].to_numpy(np.float64),
            "compute_us": self.nodes["compute_us"].to_numpy(np.float64),
            "memory_bytes": self.nodes["memory_bytes"].to_numpy(np.float64),
        }
        totals = {name: _per_group(h, column) for name, column in values.items()}
        frame = pd.DataFrame(totals)
        frame.insert(0, "scope", scopes)
        frame = frame[np.asarray(h.kind) == 0].set_index("scope")
        frame.index = frame.index.where(frame.index != "", "(all)")
        frame["nodes"] = frame["nodes"].astype(np.int64)
        frame["param_tensors"] = frame["param_tensors"].astype(np.int64)
        return frame

    # ---------------------------------------------------------------- structure
    def hierarchy(self, *, series: bool = True) -> Hierarchy:
        """The name-scope hierarchy (see :mod:`tbnb.analysis.graph.hierarchy`)."""
        if self._hierarchy is not None and series:
            return self._hierarchy
        index = {name: i for i, name in enumerate(self.nodes["name"])}
        data = self.edges[~self.edges["control"]]
        src = data["source"].map(index).to_numpy(np.int64)
        dst = data["target"].map(index).to_numpy(np.int64)
        built = build_hierarchy(
            self.nodes["name"].tolist(), self.nodes["op"].tolist(), src, dst, series=series
        )
        if series:
            self._hierarchy = built
        return built

    def constants(self) -> np.ndarray:
        """Whether each node is a constant (op in :data:`~.hierarchy.CONSTANT_OPS`)."""
        return np.asarray(self.nodes["op"].isin(CONSTANT_OPS).to_numpy(), dtype=bool)

    def to_networkx(self) -> Any:
        """A ``networkx.MultiDiGraph``: node attributes are the node columns, one edge per input.

        Needs networkx (``pip install 'tbnb[graph]'``).
        """
        try:
            import networkx as nx
        except ImportError:
            raise ImportError(
                "to_networkx() needs networkx, which is not installed: pip install 'tbnb[graph]'"
            ) from None
        graph = nx.MultiDiGraph(run=self.run, tag=self.tag, kind=self.kind)
        for row in self.nodes.to_dict("records"):
            graph.add_node(row["name"], **{k: v for k, v in row.items() if k != "name"})
        for row in self.edges.to_dict("records"):
            graph.add_edge(
                row["source"],
                row["target"],
                output=row["source_output"],
                input=row["target_input"],
                control=row["control"],
            )
        return graph


def _per_group(h: Hierarchy, values: np.ndarray) -> np.ndarray:
    """Sum of ``values`` (NaN ignored; NaN when none known) over each group's subtree."""
    known = ~np.isnan(values)
    total = np.zeros(len(h.key))
    count = np.zeros(len(h.key))
    np.add.at(total, h.node_parent, np.where(known, values, 0.0))
    np.add.at(count, h.node_parent, known.astype(np.float64))
    for g in range(len(h.key) - 1, 0, -1):  # children come after their parents
        total[h.parent[g]] += total[g]
        count[h.parent[g]] += count[g]
    return np.where(count > 0, total, np.nan)
