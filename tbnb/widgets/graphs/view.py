"""The graph explorer as a spec: the visible boxes as points, their edges as lines (y down).

Examples
--------
>>> from tbnb.analysis.graph import ModelGraph
>>> g = ModelGraph.from_records([{"name": "a", "op": "Op", "inputs": []},
...                              {"name": "b", "op": "Op", "inputs": ["a"]}])
>>> [mark.name for mark in view_spec(g, []).panels[0].marks]
['edges', 'nodes']
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tbnb.analysis.graph import ModelGraph
from tbnb.widgets.colors import DEFAULT_PALETTE
from tbnb.widgets.graphs.prepare import visible_items
from tbnb.widgets.spec import Axis, Mark, Panel, ViewSpec

__all__ = ["fallback_layout", "view_spec"]


def fallback_layout(
    items: list[int], edges: set[tuple[int, int]]
) -> dict[int, tuple[float, float]]:
    """Centres of ``items``: longest-path layers top to bottom, 160 x 60 apart.

    Examples
    --------
    >>> fallback_layout([0, 1, 2], {(0, 1), (0, 2)})
    {0: (0.0, 0.0), 1: (0.0, 60.0), 2: (160.0, 60.0)}
    """
    succ: dict[int, list[int]] = defaultdict(list)
    indeg = dict.fromkeys(items, 0)
    for a, b in sorted(edges):
        if a in indeg and b in indeg:
            succ[a].append(b)
            indeg[b] += 1
    rank = dict.fromkeys(items, 0)
    queue = [i for i in items if indeg[i] == 0]
    seen = set()
    while queue:
        v = queue.pop(0)
        seen.add(v)
        for w in succ[v]:
            rank[w] = max(rank[w], rank[v] + 1)
            indeg[w] -= 1
            if indeg[w] == 0:
                queue.append(w)
    layers: dict[int, list[int]] = defaultdict(list)
    for item in items:  # items on a cycle keep the rank they reached
        layers[rank[item]].append(item)
    return {
        item: (160.0 * k, 60.0 * r)
        for r, members in layers.items()
        for k, item in enumerate(members)
    }


def view_spec(
    graph: ModelGraph,
    expanded: Sequence[str],
    *,
    show_constants: bool = False,
    placed: Mapping[int, tuple[float, float]] | None = None,
    title: str = "",
    height: int = 560,
) -> ViewSpec:
    """The boxes visible with ``expanded`` groups open, at ``placed`` (item -> centre, the
    browser's layout) when it holds them all, else in :func:`fallback_layout`'s layers."""
    h = graph.hierarchy()
    hidden = graph.constants() & (not show_constants)
    collapsed, _open, rep = visible_items(h, list(expanded), hidden)
    n = len(graph.nodes)
    shown = np.flatnonzero(rep == np.arange(n)).tolist()
    items = [n + g for g in collapsed] + shown
    index = {m: i for i, m in enumerate(graph.nodes["name"])}
    src, dst = graph.edges["source"].map(index), graph.edges["target"].map(index)
    edges = {
        (int(rep[a]), int(rep[b]))
        for a, b in zip(src, dst, strict=True)
        if rep[a] >= 0 and rep[b] >= 0 and rep[a] != rep[b]
    }
    where = (
        placed
        if placed is not None and all(i in placed for i in items)
        else fallback_layout(items, edges)
    )
    ex: list[Any] = []
    ey: list[Any] = []
    for a, b in sorted(edges):
        if a in where and b in where:
            ex += [where[a][0], where[b][0], None]
            ey += [where[a][1], where[b][1], None]
    lines = Mark(
        "line", {"x": ex, "y": ey}, name="edges", color="#999", hover=False, style={"width": 1}
    )
    ops, names = graph.nodes["op"].tolist(), graph.nodes["name"].tolist()
    order = {op: i for i, op in enumerate(graph.nodes["op"].value_counts().index)}
    labels, hover, colors, symbols = [], [], [], []
    for item in items:
        if item >= n:
            labels.append(h.label[item - n])
            hover.append(f"{h.key[item - n]} (group)")
            colors.append("#dddddd")
            symbols.append("square")
        else:
            labels.append(h.node_label[item])
            hover.append(f"{names[item]} ({ops[item]})")
            colors.append(DEFAULT_PALETTE[order.get(ops[item], 0) % len(DEFAULT_PALETTE)])
            symbols.append("circle")
    points = Mark(
        "points",
        {"x": [where[i][0] for i in items], "y": [where[i][1] for i in items], "text": hover},
        name="nodes",
        color=colors,
        style={"labels": labels, "symbols": symbols, "size": 14, "outline": 1},
    )
    hidden_axis = Axis(visible=False)
    panel = Panel(marks=[lines, points], x=hidden_axis, y=Axis(visible=False, reversed=True))
    return ViewSpec([panel], grid=False, title=title, legend=False, height=max(400, height))
