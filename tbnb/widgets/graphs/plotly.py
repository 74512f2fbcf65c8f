"""``GraphWidget.to_plotly()``: the graph as drawn (the same groups expanded) as a figure.

Positions are the browser's layout when the widget has been drawn (the view writes its
boxes to ``_view``); otherwise a plain layered layout is computed here (longest-path
layers, items in name order), so a script without a browser still gets a figure.

Examples
--------
>>> import tbnb
>>> from tbnb.analysis.graph import ModelGraph
>>> g = ModelGraph.from_records([{"name": "a", "op": "Op", "inputs": []},
...                              {"name": "b", "op": "Op", "inputs": ["a"]}])
>>> fig = tbnb.graph(g).to_plotly()
>>> [trace.name for trace in fig.data]
['edges', 'nodes']
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

import numpy as np

from tbnb.widgets.base import optional
from tbnb.widgets.colors import DEFAULT_PALETTE
from tbnb.widgets.graphs.prepare import visible_items

if TYPE_CHECKING:
    import plotly.graph_objects as go

    from tbnb.widgets.graphs.widget import GraphWidget

__all__ = ["fallback_layout", "graph_figure"]


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


def _positions(
    widget: GraphWidget, items: list[int], edges: set[tuple[int, int]]
) -> dict[int, tuple[float, float]]:
    view = widget._view or {}
    if view.get("graph") == f"{widget.run}\u0000{widget.tag}" and list(
        view.get("expanded", [])
    ) == sorted(widget.expanded):
        ids = np.asarray(view["ids"]).tolist()
        x, y = np.asarray(view["x"]).tolist(), np.asarray(view["y"]).tolist()
        placed = {int(i): (float(a), float(b)) for i, a, b in zip(ids, x, y, strict=True)}
        if all(i in placed for i in items):
            return placed
    return fallback_layout(items, edges)


def graph_figure(widget: GraphWidget) -> go.Figure:
    """A ``plotly.graph_objects.Figure``: boxes as markers, edges as lines (y down)."""
    go_ = optional("plotly.graph_objects", "plotly", "to_plotly()")
    graph = widget.graph
    fig = go_.Figure()
    if graph is None:
        fig.update_layout(title=widget.message or "no graph")
        return fig
    h = graph.hierarchy()
    hidden = graph.constants() & (not widget.show_constants)
    collapsed, _open, rep = visible_items(h, widget.expanded, hidden)
    n = len(graph.nodes)
    shown = np.flatnonzero(rep == np.arange(n)).tolist()
    items = [n + g for g in collapsed] + shown
    src = graph.edges["source"].map({m: i for i, m in enumerate(graph.nodes["name"])})
    dst = graph.edges["target"].map({m: i for i, m in enumerate(graph.nodes["name"])})
    edges = {
        (int(rep[a]), int(rep[b]))
        for a, b in zip(src, dst, strict=True)
        if rep[a] >= 0 and rep[b] >= 0 and rep[a] != rep[b]
    }
    where = _positions(widget, items, edges)
    ex: list[Any] = []
    ey: list[Any] = []
    for a, b in sorted(edges):
        if a in where and b in where:
            ex += [where[a][0], where[b][0], None]
            ey += [where[a][1], where[b][1], None]
    fig.add_trace(
        go_.Scatter(
            x=ex,
            y=ey,
            mode="lines",
            name="edges",
            hoverinfo="skip",
            line={"color": "#999", "width": 1},
        )
    )
    ops = graph.nodes["op"].tolist()
    names = graph.nodes["name"].tolist()
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
    fig.add_trace(
        go_.Scatter(
            x=[where[i][0] for i in items],
            y=[where[i][1] for i in items],
            mode="markers+text",
            name="nodes",
            text=labels,
            hovertext=hover,
            hoverinfo="text",
            textposition="top center",
            marker={
                "color": colors,
                "symbol": symbols,
                "size": 14,
                "line": {"color": "#555", "width": 1},
            },
        )
    )
    fig.update_yaxes(autorange="reversed", visible=False)
    fig.update_xaxes(visible=False)
    fig.update_layout(
        title=f"{widget.run} {widget.tag}",
        showlegend=False,
        template="plotly_white",
        height=max(400, widget.height),
    )
    return fig
