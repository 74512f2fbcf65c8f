"""The name-scope hierarchy of a graph, with repeated blocks grouped into series.

Node names are paths (``ResNet/Sequential[layer1]/Bottleneck[0]/Conv2d[conv1]/input.3``):
every proper prefix is a *group* (a name scope, a module), as TensorBoard draws them.
Siblings named alike with consecutive numbers (``Bottleneck[1]``, ``Bottleneck[2]``;
``layer.0`` .. ``layer.11``; ``dense_1``, ``dense_2``) that have the same structure
(the same ops, constants aside) and form a chain (each feeds the next), or run side
by side (three or more fed alike, none feeding another), become a *series* group:
one box ``Bottleneck[1-2]`` until it is expanded.

Groups are numbered parents first (root ``0``, key ``""``); a group's *key* is its
path (a series: its parent's path and its label), which is what a view's expanded
set holds.

Examples
--------
>>> names = ["net/block.0/conv", "net/block.0/relu", "net/block.1/conv", "net/block.1/relu"]
>>> ops = ["Conv", "Relu", "Conv", "Relu"]
>>> h = build_hierarchy(names, ops, src=[0, 1, 2], dst=[1, 2, 3])
>>> h.key
['', 'net', 'net/block.[0-1]', 'net/block.0', 'net/block.1']
>>> h.kind.tolist(), h.parent.tolist()
([0, 0, 1, 0, 0], [-1, 0, 1, 2, 2])
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

__all__ = ["CONSTANT_OPS", "SCOPE", "SERIES", "Hierarchy", "build_hierarchy"]

SCOPE, SERIES = 0, 1
"""Group kinds."""

CONSTANT_OPS = frozenset(
    {
        "Const",
        "HostConst",
        "prim::Constant",
        "prim::ListConstruct",
        "prim::TupleConstruct",
        "onnx::Constant",
    }
)
"""Ops of constant nodes (left out of structure comparisons; hidden by default in views)."""

_NUMBERED = re.compile(r"^(.*?)(\d+)(\D*)$")
_REMOVED = -2


@dataclass
class Hierarchy:
    """Groups (parents first) and where each node sits."""

    key: list[str]
    label: list[str]
    parent: np.ndarray
    kind: np.ndarray
    node_parent: np.ndarray
    node_label: list[str]

    def path(self, group: int) -> str:
        """The name-scope path of a group (a series has its parent's)."""
        while self.kind[group] == SERIES:
            group = int(self.parent[group])
        return self.key[group]

    def depth(self) -> np.ndarray:
        """Depth of each group (root 0)."""
        depth = np.zeros(len(self.key), dtype=np.int32)
        for g in range(1, len(self.key)):
            depth[g] = depth[self.parent[g]] + 1
        return depth


def _scopes(names: Sequence[str]) -> tuple[dict[str, int], list[int], list[int], list[str]]:
    index: dict[str, int] = {"": 0}
    parent = [-1]
    node_parent: list[int] = []
    node_label: list[str] = []
    for name in names:
        parts = name.split("/")
        current, path = 0, ""
        for part in parts[:-1]:
            path = f"{path}/{part}" if path else part
            found = index.get(path)
            if found is None:
                found = index[path] = len(parent)
                parent.append(current)
            current = found
        node_parent.append(current)
        node_label.append(parts[-1])
    for i, name in enumerate(names):  # a node named like a scope sits inside that scope
        own = index.get(name)
        if own is not None:
            node_parent[i] = own
    return index, parent, node_parent, node_label


class _Builder:
    def __init__(
        self, names: Sequence[str], ops: Sequence[str], src: Any, dst: Any, min_parallel: int
    ) -> None:
        index, self.parent, self.node_parent, self.node_label = _scopes(names)
        self.key = [""] * len(index)
        for path, g in index.items():
            self.key[g] = path
        self.label = [k.rsplit("/", 1)[-1] for k in self.key]
        self.kind = [SCOPE] * len(self.key)
        self._flatten_single_nodes()
        self.ops = ops
        self.min_parallel = min_parallel
        self.chains = self._chains()
        self.child_edges = self._child_edges(np.asarray(src, np.int64), np.asarray(dst, np.int64))
        self.signature = self._signatures()

    def _flatten_single_nodes(self) -> None:
        """A scope holding one node and nothing else is that node, named like the scope
        (torch's ``weight/weight.11`` shows as ``weight``)."""
        groups = Counter(self.parent[1:])
        nodes: dict[int, list[int]] = defaultdict(list)
        for i, p in enumerate(self.node_parent):
            nodes[p].append(i)
        for g, members in nodes.items():
            if g and len(members) == 1 and not groups.get(g):
                (i,) = members
                self.node_parent[i] = self.parent[g]
                self.node_label[i] = self.label[g]
                self.parent[g] = _REMOVED

    def _chains(self) -> list[tuple[int, ...]]:
        chains: list[tuple[int, ...]] = [(0,)]
        for g in range(1, len(self.parent)):  # parents come before children here
            parent = self.parent[g]
            chains.append((*chains[parent], g) if parent >= 0 else ())
        return chains

    def _child_edges(self, src: np.ndarray, dst: np.ndarray) -> dict[int, set[tuple[int, int]]]:
        """For each group, the edges between its children (nodes as ``-1 - index``)."""
        out: dict[int, set[tuple[int, int]]] = defaultdict(set)
        for u, v in zip(src.tolist(), dst.tolist(), strict=True):
            cu, cv = self.chains[self.node_parent[u]], self.chains[self.node_parent[v]]
            d = 0
            n = min(len(cu), len(cv))
            while d < n and cu[d] == cv[d]:
                d += 1
            a = cu[d] if d < len(cu) else -1 - u
            b = cv[d] if d < len(cv) else -1 - v
            if a != b:
                out[cu[d - 1]].add((a, b))
        return out

    def _signatures(self) -> list[str]:
        counts: list[Counter[str]] = [Counter() for _ in self.key]
        for i, op in enumerate(self.ops):
            if op in CONSTANT_OPS:
                continue
            for g in self.chains[self.node_parent[i]]:
                counts[g][op] += 1
        children = Counter(self.parent[1:])
        return [
            f"{children.get(g, 0)}|" + ",".join(f"{k}:{v}" for k, v in sorted(c.items()))
            for g, c in enumerate(counts)
        ]

    def _children(self) -> dict[int, list[int]]:
        out: dict[int, list[int]] = defaultdict(list)
        for g in range(1, len(self.key)):
            if self.parent[g] >= 0:
                out[self.parent[g]].append(g)
        for i, p in enumerate(self.node_parent):
            out[p].append(-1 - i)
        return out

    def _name(self, child: int) -> str:
        return self.label[child] if child >= 0 else self.node_label[-1 - child]

    def _sig(self, child: int) -> str:
        return self.signature[child] if child >= 0 else "op:" + self.ops[-1 - child]

    def add_series(self) -> None:
        for group, children in list(self._children().items()):
            candidates: dict[tuple[str, str, str], list[tuple[int, int]]] = defaultdict(list)
            for child in children:
                match = _NUMBERED.match(self._name(child))
                if match and not (child < 0 and self.ops[-1 - child] in CONSTANT_OPS):
                    prefix, number, suffix = match.groups()
                    candidates[(prefix, suffix, self._sig(child))].append((int(number), child))
            for (prefix, suffix, _sig), members in candidates.items():
                members.sort()
                for run in _consecutive(members):
                    if len(run) >= 2 and self._forms_series(group, [c for _, c in run]):
                        self._make_series(group, prefix, suffix, run)

    def _forms_series(self, group: int, members: list[int]) -> bool:
        edges = self.child_edges.get(group, set())
        if all((a, b) in edges for a, b in pairwise(members)):
            return True  # a chain: each feeds the next
        inside = set(members)
        touching = any(a in inside and b in inside for a, b in edges)
        return len(members) >= self.min_parallel and not touching

    def _make_series(
        self, group: int, prefix: str, suffix: str, run: list[tuple[int, int]]
    ) -> None:
        first, last = run[0][0], run[-1][0]
        if suffix.startswith("]") and "[" in prefix:  # Block[0]..Block[2]; LayerNorm[ln1]..
            label = f"{prefix}{first}-{last}{suffix}"
        else:
            label = f"{prefix}[{first}-{last}]{suffix}"
        series = len(self.key)
        self.key.append(f"{self.key[group]}/{label}" if group else label)
        self.label.append(label)
        self.parent.append(group)
        self.kind.append(SERIES)
        for _, child in run:
            if child >= 0:
                self.parent[child] = series
            else:
                self.node_parent[-1 - child] = series

    def finish(self) -> Hierarchy:
        """Renumber groups parents first (breadth first, children in name order)."""
        kids: dict[int, list[int]] = defaultdict(list)
        for g in range(1, len(self.key)):
            if self.parent[g] >= 0:
                kids[self.parent[g]].append(g)
        order, queue = [], [0]
        while queue:
            g = queue.pop(0)
            order.append(g)
            queue.extend(sorted(kids.get(g, []), key=lambda c: self.key[c]))
        new = np.full(len(self.key), -1, dtype=np.int64)
        new[np.asarray(order, dtype=np.int64)] = np.arange(len(order))
        parent = np.array(
            [-1 if g == 0 else int(new[self.parent[g]]) for g in order], dtype=np.int32
        )
        return Hierarchy(
            key=[self.key[g] for g in order],
            label=[self.label[g] for g in order],
            parent=parent,
            kind=np.array([self.kind[g] for g in order], np.uint8),
            node_parent=new[np.asarray(self.node_parent, np.int64)].astype(np.int32)
            if self.node_parent
            else np.zeros(0, np.int32),
            node_label=self.node_label,
        )


def _consecutive(members: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    runs: list[list[tuple[int, int]]] = []
    for number, child in members:
        if runs and number == runs[-1][-1][0] + 1:
            runs[-1].append((number, child))
        else:
            runs.append([(number, child)])
    return runs


def build_hierarchy(
    names: Sequence[str],
    ops: Sequence[str],
    src: Any,
    dst: Any,
    *,
    series: bool = True,
    min_parallel: int = 3,
) -> Hierarchy:
    """The scope hierarchy of nodes ``names`` (with ``ops``) and data edges ``src -> dst``.

    Parameters
    ----------
    names, ops
        Node names (paths) and ops, one per node.
    src, dst
        Node indices of the data edges (control edges left out).
    series
        Group repeated blocks into series groups.
    min_parallel
        Fewest side-by-side members that make a series (a chain needs two).
    """
    builder = _Builder(names, ops, src, dst, min_parallel)
    if series:
        builder.add_series()
    return builder.finish()
