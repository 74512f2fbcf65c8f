"""Where a graph widget's graphs come from: an experiment's runs, or one :class:`ModelGraph`.

Parsed graphs are cached by run, tag, statistics and the row they came from (its step
and size), so switching runs back and forth parses each graph once, and a reload that
brings a newer graph of a run parses it again.

Examples
--------
>>> from tbnb.analysis.graph import ModelGraph
>>> source = GraphSource(ModelGraph.from_records([{"name": "a", "op": "Op", "inputs": []}],
...                                               run="r", tag="t", kind="graph_def"))
>>> source.listing()[["run", "tag"]].values.tolist()
[['r', 't']]
>>> len(source.graph("r", "t").nodes)
1
"""

from __future__ import annotations

import warnings
from typing import Any

import pandas as pd

from tbnb.analysis.graph import GraphParseError, ModelGraph, graph_list, model_graph
from tbnb.analysis.graph.catalog import LIST_COLUMNS, profile_list
from tbnb.warnings import DataWarning

__all__ = ["GraphSource"]


class GraphSource:
    """The graphs a widget can show, parsed on demand and cached."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self._cache: dict[tuple[Any, ...], ModelGraph] = {}
        self._failed: dict[tuple[Any, ...], str] = {}

    @property
    def experiment(self) -> Any:
        """The experiment (None for a single graph)."""
        return None if isinstance(self.source, ModelGraph) else self.source

    @property
    def runs(self) -> list[str]:
        """Every run of the experiment, in its order (for run colours)."""
        if isinstance(self.source, ModelGraph):
            return [self.source.run or "graph"]
        return [str(r) for r in self.source.runs]

    def listing(self) -> pd.DataFrame:
        """Drawable graphs: run, tag, kind, view, step, nbytes."""
        if isinstance(self.source, ModelGraph):
            graph = self.source
            view = "conceptual" if graph.kind == "graph_keras_model" else "op graph"
            return pd.DataFrame(
                [[graph.run or "graph", graph.tag or "graph", graph.kind or "graph", view, 0, 0]],
                columns=list(LIST_COLUMNS),
            )
        return graph_list(self.source)

    def profiles(self, run: str) -> list[str]:
        """Tags of the run's ``RunMetadata`` (step statistics it can be coloured by)."""
        if isinstance(self.source, ModelGraph):
            return [self.source.stats_tag] if self.source.stats_tag else []
        return [str(t) for t in profile_list(self.source, run)["tag"]]

    def row_key(self, run: str, tag: str) -> tuple[Any, ...]:
        """What identifies the graph of ``run`` and ``tag`` now (it changes when a newer
        graph is logged under the same tag)."""
        listing = self.listing()
        rows = listing[(listing["run"] == run) & (listing["tag"] == tag)]
        if not len(rows):
            return (run, tag)
        row = rows.iloc[-1]
        return (run, tag, str(row["kind"]), int(row["step"]), int(row["nbytes"]))

    def graph(self, run: str, tag: str, stats: str | None = "auto") -> ModelGraph:
        """The graph of ``run`` tagged ``tag`` (with ``stats``, as ``exp.graph`` takes them).

        Raises ``KeyError`` or :class:`~tbnb.analysis.graph.GraphParseError` naming the run
        and tag.
        """
        if isinstance(self.source, ModelGraph):
            return self.source
        key = (*self.row_key(run, tag), stats)
        cached = self._cache.get(key)
        if cached is None:
            cached = self._cache[key] = model_graph(self.source, run, tag, stats=stats)
        return cached

    def try_graph(
        self, run: str, tag: str, stats: str | None = "auto"
    ) -> tuple[ModelGraph | None, str]:
        """``(graph, "")``, or ``(None, why)`` with one ``DataWarning`` per broken graph."""
        try:
            return self.graph(run, tag, stats), ""
        except (KeyError, GraphParseError) as error:
            message = str(error.args[0]) if isinstance(error, KeyError) else str(error)
            key = self.row_key(run, tag)
            if key not in self._failed:
                self._failed[key] = message
                warnings.warn(
                    f"tbnb: graph of {message}"
                    if not message.startswith("run ")
                    else f"tbnb: {message}",
                    DataWarning,
                    stacklevel=3,
                )
            return None, message

    def default_graphs(self, runs: list[str]) -> dict[str, ModelGraph]:
        """Each run's default graph (runs whose graph is missing or broken left out)."""
        listing = self.listing()
        out: dict[str, ModelGraph] = {}
        for run in runs:
            rows = listing[listing["run"] == run]
            if not len(rows):
                continue
            graph, _ = self.try_graph(run, str(rows.iloc[0]["tag"]), None)
            if graph is not None:
                out[run] = graph
        return out
