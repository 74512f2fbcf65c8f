"""The model graph explorer: a run's graph, collapsed to its name scopes, laid out in the browser.

Python side of ``js/src/widgets/graphs/`` (widget key ``"graphs"``). The chosen graph
goes to the browser once (``_graph``: binary columns, :mod:`.prepare`); the browser
expands and collapses groups, lays out only the expanded ones in a Web Worker, pans,
zooms, searches, colours and shows a node's details with no kernel round trip. Only the
full attributes of a node (``"node"`` request) and another run's graph need the kernel.
The op-statistics table compares the op counts of the selected runs' graphs (``_stats``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.analysis.graph import ModelGraph
from tbnb.analysis.graph.attrs import shapes_text
from tbnb.widgets.colors import RunColored, run_colors
from tbnb.widgets.graphs.prepare import (
    COLOR_MODES,
    default_expanded,
    empty_reason,
    first_drawn,
    graph_options,
    graph_payload,
    op_counts,
    visible_items,
)
from tbnb.widgets.graphs.source import GraphSource
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.serializers import tree_serialization

if TYPE_CHECKING:
    import plotly.graph_objects as go

__all__ = ["GraphWidget"]

_FULL_ATTR = 20_000


class GraphWidget(LiveWidget, RunColored):
    """A model graph explorer (build it with :func:`tbnb.graph`).

    Traits (synced with the browser)
    --------------------------------
    run, tag : str
        The graph shown (one of ``graphs``).
    graphs : list of dict
        Every graph that can be shown: ``run``, ``tag``, ``kind``, ``view``, ``label``.
    expanded : list of str
        Keys of the expanded groups (name-scope paths; a series: ``parent/label``).
    selected : str
        The selected node (its full name) or group (its key followed by ``/``: TF names an
        op and the scope of its inputs alike), shown in the details panel.
    color_by : str
        ``"op"``, ``"device"``, ``"compute"`` (time) or ``"memory"``.
    show_constants : bool
        Draw constant nodes (hidden by default: they clutter traced graphs).
    search : str
        Case-insensitive regex over node names and ops; matches are highlighted.
    stats_tag : str
        The ``RunMetadata`` whose step statistics are joined ("" for none).
    profiles : list of str
        The run's ``RunMetadata`` tags.
    selected_runs, run_filter, run_colors, palette
        The run selector (runs whose op counts the statistics table compares), the
        experiment's run colours.
    message : str
        Why nothing is drawn (no graph, or a graph that could not be read).
    """

    _widget_key = "graphs"
    #: A dashboard keeps ``selected_runs`` (runs whose step statistics are shown) its own.
    follows_run_selection = False

    graphs = t.List(t.Dict()).tag(sync=True)
    run = t.Unicode("").tag(sync=True)
    tag = t.Unicode("").tag(sync=True)
    expanded = t.List(t.Unicode()).tag(sync=True)
    selected = t.Unicode("").tag(sync=True)
    color_by = t.Unicode("op").tag(sync=True)
    show_constants = t.Bool(False).tag(sync=True)
    search = t.Unicode("").tag(sync=True)
    stats_tag = t.Unicode("").tag(sync=True)
    profiles = t.List(t.Unicode()).tag(sync=True)
    selected_runs = t.List(t.Unicode()).tag(sync=True)
    run_filter = t.Unicode("").tag(sync=True)
    height = t.Int(560).tag(sync=True)
    message = t.Unicode("").tag(sync=True)
    _graph = t.Dict().tag(sync=True, **tree_serialization)
    _stats = t.Dict().tag(sync=True, **tree_serialization)
    _view = t.Dict().tag(sync=True, **tree_serialization)

    _loading = True  # until __init__ is done: trait defaults set while building load nothing

    def __init__(self, **kwargs: Any) -> None:
        self._graphs = GraphSource(ModelGraph.from_records([]))
        self._current: ModelGraph | None = None
        super().__init__(**kwargs)
        self._loading = False

    # -------------------------------------------------------------- validation
    @t.validate("color_by")
    def _valid_color(self, proposal: Any) -> str:
        value = str(proposal["value"])
        if value not in COLOR_MODES:
            raise t.TraitError(f"color_by must be one of {list(COLOR_MODES)}, got {value!r}")
        return value

    def _recolor(self) -> None:
        self.run_colors = run_colors(self._graphs.runs, self.palette)

    @t.observe("run", "tag", "stats_tag")
    def _on_choice(self, change: Any) -> None:
        if not self._loading:
            self._show(keep_view=change["name"] == "stats_tag")

    @t.observe("selected_runs")
    def _on_runs(self, _change: Any) -> None:
        if not self._loading:
            self._send_stats()

    # ---------------------------------------------------------------- data
    def _set_source(self, graphs: GraphSource, run: str | None, tag: str | None) -> None:
        self._graphs = graphs
        self._loading = True
        try:
            self.run_colors = run_colors(graphs.runs, self.palette)
            self.graphs = graph_options(graphs.listing())
            first = next((g for g in self.graphs if run is None or g["run"] == run), None)
            if run is None and tag is None:  # open on a graph with something to draw
                first = first_drawn(self.graphs, self._graphs) or first
            if run is not None and first is None:
                have = sorted({g["run"] for g in self.graphs})
                raise KeyError(f"run {run!r} has no graph; runs with graphs: {have}")
            if first is not None:
                self.run = first["run"]
                matching = [
                    g
                    for g in self.graphs
                    if g["run"] == self.run and (tag is None or g["tag"] == tag)
                ]
                if not matching:
                    tags = [g["tag"] for g in self.graphs if g["run"] == self.run]
                    raise KeyError(f"run {self.run!r} has no graph tagged {tag!r}; it has {tags}")
                self.tag = matching[0]["tag"]
            self.selected_runs = list(dict.fromkeys(g["run"] for g in self.graphs))
        finally:
            self._loading = False
        self._show(keep_view=False)
        self._send_stats()

    def _show(self, *, keep_view: bool) -> None:
        """Send the chosen graph (and reset the view unless only statistics changed)."""
        self._loading = True
        try:
            self.profiles = self._graphs.profiles(self.run) if self.run else []
            if self.stats_tag and self.stats_tag not in self.profiles:
                self.stats_tag = ""
            stats: str | None = (self.stats_tag or None) if keep_view else "auto"
            graph, why = (
                self._graphs.try_graph(self.run, self.tag, stats)
                if self.run
                else (
                    None,
                    "no run of this experiment holds a graph "
                    "(add_graph, log_graph=True, tf.summary.graph, "
                    "trace_export or a Keras model summary)",
                )
            )
            self._current = graph
            self.message = why or (empty_reason(graph) if graph is not None else "")
            if graph is None:
                self._graph = {}
                return
            if not keep_view:
                self.stats_tag = graph.stats_tag
                self.expanded = default_expanded(graph.hierarchy())
                self.selected = ""
            self._graph = graph_payload(graph)
        finally:
            self._loading = False

    def _send_stats(self) -> None:
        runs = [r for r in self.selected_runs if any(g["run"] == r for g in self.graphs)]
        self._stats = op_counts(self._graphs.default_graphs(runs)) if runs else {}

    def _on_reload(self, _report: Any = None) -> None:
        with self._lock:
            before = (self.graphs, self._graphs._row_key(self.run, self.tag))
            options = graph_options(self._graphs.listing())
            if (options, self._graphs._row_key(self.run, self.tag)) == before:
                return
            self._loading = True
            try:
                known = {g["run"] for g in self.graphs}
                self.graphs = options
                new_runs = [g["run"] for g in options if g["run"] not in known]
                self.selected_runs = list(dict.fromkeys([*self.selected_runs, *new_runs]))
                self.run_colors = run_colors(self._graphs.runs, self.palette)
                if not self.run and options:
                    self.run, self.tag = options[0]["run"], options[0]["tag"]
            finally:
                self._loading = False
            expanded, selected = list(self.expanded), self.selected
            self._show(keep_view=False)
            if self._current is not None:
                keys = set(self._current.hierarchy().key)
                self.expanded = [k for k in expanded if k in keys] or self.expanded
                self.selected = selected
            self._send_stats()
            self._sent += 1

    # ---------------------------------------------------------------- public
    @property
    def graph(self) -> ModelGraph | None:
        """The graph shown (nodes, edges, ``to_networkx()``), or None."""
        return self._current

    @property
    def nodes(self) -> pd.DataFrame:
        """Nodes of the graph shown (``exp.graph(run).nodes``)."""
        return self._current.nodes if self._current is not None else pd.DataFrame()

    @property
    def edges(self) -> pd.DataFrame:
        """Edges of the graph shown."""
        return self._current.edges if self._current is not None else pd.DataFrame()

    def op_stats(self) -> pd.DataFrame:
        """What the statistics table shows: op count per selected run's graph (one column each)."""
        stats = self._stats
        if not stats:
            return pd.DataFrame()
        counts = np.asarray(stats["counts"]).reshape(len(stats["runs"]), len(stats["ops"]))
        return pd.DataFrame(
            counts.T, index=pd.Index(stats["ops"], name="op"), columns=list(stats["runs"])
        )

    def scope_stats(self) -> pd.DataFrame:
        """Nodes, parameters, compute and memory per name scope of the graph shown."""
        return self._current.scope_stats() if self._current is not None else pd.DataFrame()

    @property
    def visible(self) -> pd.DataFrame:
        """The items drawn: one row per node or collapsed group (``item``, ``kind``,
        ``name``, ``op``, ``nodes``) for the current expanded groups."""
        graph = self._current
        if graph is None:
            return pd.DataFrame(columns=["item", "kind", "name", "op", "nodes"])
        h = graph.hierarchy()
        hidden = graph.constants() & (not self.show_constants)
        collapsed, _open, rep = visible_items(h, self.expanded, hidden)
        n = len(graph.nodes)
        sizes = pd.Series(rep[rep >= 0]).value_counts()
        rows = [
            {
                "item": n + g,
                "kind": "series" if h.kind[g] else "group",
                "name": h.key[g],
                "op": "",
                "nodes": int(sizes.get(n + g, 0)),
            }
            for g in collapsed
        ]
        names, ops = graph.nodes["name"].tolist(), graph.nodes["op"].tolist()
        rows += [
            {"item": i, "kind": "node", "name": names[i], "op": ops[i], "nodes": 1}
            for i in np.flatnonzero(rep == np.arange(n)).tolist()
        ]
        return pd.DataFrame(rows, columns=["item", "kind", "name", "op", "nodes"])

    def expand(self, *keys: str) -> None:
        """Expand groups by key (and the groups holding them, so they show)."""
        if self._current is None:
            raise KeyError(f"no graph is shown ({self.message or 'nothing to show'})")
        h = self._current.hierarchy()
        index = {key: g for g, key in enumerate(h.key)}
        wanted = list(self.expanded)
        for key in keys:
            g = index.get(key)
            if g is None or g == 0:
                raise KeyError(f"no group {key!r} in the graph of run {self.run!r}")
            chain = []
            while g > 0:
                chain.append(h.key[g])
                g = int(h.parent[g])
            wanted += [k for k in reversed(chain) if k not in wanted]
        self.expanded = wanted

    def collapse(self, *keys: str) -> None:
        """Collapse groups by key (no keys: collapse everything)."""
        self.expanded = [] if not keys else [k for k in self.expanded if k not in keys]

    def _request_show(self, content: dict[str, Any]) -> dict[str, Any]:
        """Show another graph: ``{run, tag}`` (the browser asks; an exported page cannot)."""
        run, tag = str(content.get("run", "")), str(content.get("tag", ""))
        if not any(g["run"] == run and g["tag"] == tag for g in self.graphs):
            raise KeyError(f"no graph of run {run!r} tagged {tag!r}")
        with self.hold_trait_notifications():
            self._loading = True
            self.run, self.tag = run, tag
            self._loading = False
        self._show(keep_view=False)
        return {"run": run, "tag": tag}

    def _request_node(self, content: dict[str, Any]) -> dict[str, Any]:
        """Every attribute of one node, unabridged: ``{name}`` -> ``{name, attributes}``."""
        graph = self._current
        if graph is None:
            raise ValueError("no graph is shown")
        name = str(content.get("name", ""))
        rows = graph.nodes[graph.nodes["name"] == name]
        if not len(rows):
            raise KeyError(f"no node {name!r} in the graph of run {self.run!r}")
        row = rows.iloc[0]
        attributes = [[str(k), str(v)[:_FULL_ATTR]] for k, v in sorted(row["attributes"].items())]
        return {
            "name": name,
            "attributes": attributes,
            "output_shapes": shapes_text(row["output_shapes"]),
        }

    def to_plotly(self) -> go.Figure:
        """A plotly figure of what is drawn: the boxes and edges of the current view."""
        from tbnb.widgets.graphs.plotly import graph_figure

        return graph_figure(self)
