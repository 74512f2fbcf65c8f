"""Pure functions: a :class:`~tbnb.analysis.graph.ModelGraph` -> what the browser draws.

The whole graph goes to the browser once, as binary columns: nodes (a code into one
string table for each of their name, on-screen label, op, device, output shapes and
attribute text; the index of their group; flags; compute time, memory, parameters),
edges (node indices) and the group hierarchy (key, label, parent, kind). The browser
lays out only the groups that are expanded. Strings are dictionary-encoded: each
distinct string travels once.

Examples
--------
>>> from tbnb.analysis.graph import ModelGraph
>>> graph = ModelGraph.from_records([
...     {"name": "net/conv", "op": "Conv2D", "inputs": ["x"]},
...     {"name": "net/relu", "op": "Relu", "inputs": ["net/conv"]},
...     {"name": "x", "op": "Placeholder", "inputs": []}])
>>> payload = graph_payload(graph)
>>> payload["groups"]["parent"].tolist(), payload["nodes"]["parent"].tolist()
([-1, 0], [1, 1, 0])
>>> [payload["labels"][c] for c in payload["nodes"]["op"]]
['Conv2D', 'Relu', 'Placeholder']
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from tbnb.analysis.graph import CONSTANT_OPS, PARAMETER_OPS, SERIES, Hierarchy, ModelGraph
from tbnb.analysis.graph.attrs import attr_text, shapes_text

__all__ = [
    "COLOR_MODES",
    "FLAG_CONSTANT",
    "FLAG_PARAM",
    "Strings",
    "default_expanded",
    "graph_options",
    "graph_payload",
    "op_counts",
]

FLAG_CONSTANT, FLAG_PARAM = 1, 2
"""Node flags: a constant (hidden unless constants are shown), a parameter."""

COLOR_MODES = ("op", "device", "compute", "memory")
"""What node colours can show."""

_EXPAND_SHARE = 0.8


class Strings:
    """One string table: :meth:`code` gives each distinct string one index."""

    def __init__(self) -> None:
        self.labels: list[str] = []
        self._index: dict[str, int] = {}

    def code(self, text: str) -> int:
        """The index of ``text`` (added on first use)."""
        found = self._index.get(text)
        if found is None:
            found = self._index[text] = len(self.labels)
            self.labels.append(text)
        return found

    def codes(self, texts: Iterable[str]) -> np.ndarray:
        """Codes of many strings, as int32."""
        return np.fromiter((self.code(t) for t in texts), dtype=np.int32)


def _suffix(name: str, path: str) -> str:
    """``name`` after its scope's ``path`` ("" when the node is named like its scope)."""
    if not path:
        return name
    if name == path:
        return ""
    return name[len(path) + 1 :] if name.startswith(path + "/") else name


def _number(values: pd.Series) -> np.ndarray:
    return np.asarray(values.to_numpy(dtype=np.float32, na_value=np.nan), dtype=np.float32)


def graph_payload(graph: ModelGraph, hierarchy: Hierarchy | None = None) -> dict[str, Any]:
    """The ``_graph`` trait: nodes, edges and groups as binary columns (see the module)."""
    h = hierarchy if hierarchy is not None else graph.hierarchy()
    nodes, edges = graph.nodes, graph.edges
    strings = Strings()
    paths = [h.path(int(p)) for p in h.node_parent]
    names = nodes["name"].tolist()
    flags = (
        nodes["op"].isin(CONSTANT_OPS).to_numpy(np.uint8) * FLAG_CONSTANT
        | nodes["op"].isin(PARAMETER_OPS).to_numpy(np.uint8) * FLAG_PARAM
    )
    index = {name: i for i, name in enumerate(names)}
    payload: dict[str, Any] = {
        "nodes": {
            "name": strings.codes(_suffix(n, p) for n, p in zip(names, paths, strict=True)),
            "label": strings.codes(h.node_label),
            "op": strings.codes(nodes["op"]),
            "device": strings.codes(nodes["device"]),
            "shape": strings.codes(shapes_text(s) for s in nodes["output_shapes"]),
            "attr": strings.codes(attr_text(a) for a in nodes["attributes"]),
            "parent": np.asarray(h.node_parent, dtype=np.int32),
            "flags": flags.astype(np.uint8),
            "compute": _number(nodes["compute_us"]),
            "memory": _number(nodes["memory_bytes"]),
            "params": _number(nodes["params"]),
        },
        "edges": {
            "src": edges["source"].map(index).to_numpy(np.int32),
            "dst": edges["target"].map(index).to_numpy(np.int32),
            "control": edges["control"].to_numpy(np.uint8),
        },
        "groups": {
            "key": strings.codes(h.key),
            "label": strings.codes(h.label),
            "parent": np.asarray(h.parent, dtype=np.int32),
            "kind": np.asarray(h.kind, dtype=np.uint8),
        },
        "info": {
            "run": graph.run,
            "tag": graph.tag,
            "kind": graph.kind,
            "nodes": len(nodes),
            "edges": len(edges),
            "dangling": len(graph.dangling),
            "stats_tag": graph.stats_tag,
        },
    }
    payload["labels"] = strings.labels
    return payload


def default_expanded(h: Hierarchy, counts: np.ndarray | None = None) -> list[str]:
    """Groups to expand at first: the chain of groups each holding most of the graph.

    TensorBoard shows a graph collapsed to its top level; a traced model has one
    top-level group (``ResNet``) holding almost everything, so it is opened, and the
    group inside it holding most nodes, while one does (share > 80 %).
    """
    total = np.zeros(len(h.key))
    if counts is None:
        np.add.at(total, h.node_parent, 1.0)
    else:
        total += counts
    for g in range(len(h.key) - 1, 0, -1):
        total[h.parent[g]] += total[g]
    children: dict[int, list[int]] = {}
    for g in range(1, len(h.key)):
        children.setdefault(int(h.parent[g]), []).append(g)
    out: list[str] = []
    at = 0
    while True:
        best = max(children.get(at, []), key=lambda c: total[c], default=None)
        if best is None or total[best] <= _EXPAND_SHARE * total[at] or h.kind[best] == SERIES:
            return out
        out.append(h.key[best])
        at = best


def op_counts(graphs: dict[str, ModelGraph]) -> dict[str, Any]:
    """The ``_stats`` trait: count per op type for each run's graph (ops by total count)."""
    runs = list(graphs)
    tables = [graphs[r].nodes["op"].value_counts() for r in runs]
    totals: dict[str, int] = {}
    for table in tables:
        for op, count in table.items():
            totals[str(op)] = totals.get(str(op), 0) + int(count)
    ops = sorted(totals, key=lambda op: (-totals[op], op))
    counts = np.zeros((len(runs), len(ops)), dtype=np.int32)
    position = {op: i for i, op in enumerate(ops)}
    for r, table in enumerate(tables):
        for op, count in table.items():
            counts[r, position[str(op)]] = int(count)
    return {"runs": runs, "ops": ops, "counts": counts}


#: Why a graph of each kind can hold no node.
_EMPTY = {
    "graph_run_metadata_graph": (
        "tf.summary.trace_export wrote no function graph: no tf.function ran between "
        "tf.summary.trace_on and trace_export (or the traced call was not a graph)"
    ),
    "graph_run_metadata": (
        "the profiled trace holds no function graph: no tf.function ran between "
        "tf.summary.trace_on(profiler=True) and trace_export"
    ),
    "graph_def": "the writer logged a GraphDef without nodes",
    "meta_graph_def": "the MetaGraphDef's graph has no nodes",
}

#: Graphs tried, in order, for one that has nodes to open on.
FIRST_TRIES = 20


def empty_reason(graph: Any) -> str:
    """Why ``graph`` shows nothing, naming its run and tag ("" when it has nodes).

    Examples
    --------
    >>> from tbnb.analysis.graph import ModelGraph
    >>> empty_reason(ModelGraph.from_records([], run="a", tag="t", kind="graph_def"))
    "run 'a', tag 't': this graph is empty: the writer logged a GraphDef without nodes"
    """
    if len(graph.nodes):
        return ""
    why = _EMPTY.get(graph.kind, "it has no nodes")
    return f"run {graph.run!r}, tag {graph.tag!r}: this graph is empty: {why}"


def first_drawn(options: list[dict[str, Any]], source: Any) -> dict[str, Any] | None:
    """The first of ``options`` whose graph has nodes (of the first ``FIRST_TRIES``), else
    None: a run whose only graph is an empty trace does not open the view blank."""
    for option in options[:FIRST_TRIES]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a broken graph warns when it is shown
            graph, _ = source.try_graph(option["run"], option["tag"])
        if graph is not None and len(graph.nodes):
            return option
    return None


def graph_options(listing: pd.DataFrame) -> list[dict[str, Any]]:
    """The ``graphs`` trait: one entry per drawable graph (run, tag, kind, view, label)."""
    out = []
    for row in listing.itertuples(index=False):
        what = (
            "Keras model"
            if row.view == "conceptual"
            else {
                "graph_def": "op graph",
                "meta_graph_def": "meta graph",
                "graph_run_metadata_graph": "traced function",
                "graph_run_metadata": "traced function (profiled)",
            }.get(str(row.kind), str(row.kind))
        )
        label = what if str(row.tag) == str(row.kind) else f"{row.tag} ({what})"
        step = int(row.step) if not (isinstance(row.step, float) and math.isnan(row.step)) else 0
        out.append(
            {
                "run": str(row.run),
                "tag": str(row.tag),
                "kind": str(row.kind),
                "view": str(row.view),
                "label": label,
                "step": step,
            }
        )
    return out


def visible_items(
    h: Hierarchy, expanded: Iterable[str], hidden: np.ndarray
) -> tuple[list[int], list[int], np.ndarray]:
    """What is drawn for a set of expanded group keys (the browser's rule, in Python).

    Returns ``(collapsed groups, expanded groups, rep)``: ``rep[i]`` is the item drawn
    for node ``i``: ``i`` itself, ``n + g`` for the collapsed group ``g`` holding it, or
    ``-1`` when it is hidden (``hidden[i]``: a constant while constants are hidden).

    Examples
    --------
    >>> from tbnb.analysis.graph import build_hierarchy
    >>> h = build_hierarchy(["a/x", "a/y", "b"], ["Op", "Op", "Op"], [0], [1])
    >>> visible_items(h, [], np.zeros(3, bool))[2].tolist()
    [4, 4, 2]
    >>> visible_items(h, ["a"], np.zeros(3, bool))[2].tolist()
    [0, 1, 2]
    """
    n = len(h.node_parent)
    wanted = set(expanded)
    shown = np.zeros(len(h.key))
    np.add.at(shown, h.node_parent, (~hidden).astype(np.float64))
    for g in range(len(h.key) - 1, 0, -1):
        shown[h.parent[g]] += shown[g]
    state = np.zeros(len(h.key), dtype=np.int8)
    state[0] = 2
    rep_group = np.full(len(h.key), -1, dtype=np.int64)
    for g in range(1, len(h.key)):
        p = int(h.parent[g])
        if state[p] < 0 or shown[g] == 0:
            state[g] = -1
        elif state[p] == 2:
            state[g] = 2 if h.key[g] in wanted else 1
            rep_group[g] = n + g if state[g] == 1 else -1
        else:
            state[g] = 0
            rep_group[g] = rep_group[p]
    rep = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        p = int(h.node_parent[i])
        if hidden[i] or state[p] < 0:
            continue
        rep[i] = i if state[p] == 2 else rep_group[p]
    collapsed = [g for g in range(1, len(h.key)) if state[g] == 1]
    open_groups = [g for g in range(1, len(h.key)) if state[g] == 2]
    return collapsed, open_groups, rep
