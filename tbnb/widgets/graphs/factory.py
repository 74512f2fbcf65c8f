"""``tbnb.graph(...)``: build a graph explorer from an experiment, a logdir or a ModelGraph.

Examples
--------
>>> import tbnb
>>> from tbnb.analysis.graph import ModelGraph
>>> g = ModelGraph.from_records([{"name": "net/fc", "op": "Linear", "inputs": ["x"]},
...                              {"name": "net/relu", "op": "Relu", "inputs": ["net/fc"]},
...                              {"name": "x", "op": "Input", "inputs": []}], run="r")
>>> w = tbnb.graph(g)
>>> w.run, len(w.nodes), w.visible["kind"].tolist()
('r', 3, ['group', 'node'])
>>> w.expand("net"); w.visible["name"].tolist()
['net/fc', 'net/relu', 'x']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.analysis.graph import ModelGraph
from tbnb.widgets.base import check_kwargs
from tbnb.widgets.graphs.source import GraphSource
from tbnb.widgets.graphs.widget import GraphWidget
from tbnb.widgets.source import Source, experiment_of, source_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["GraphOptions", "graph"]


class GraphOptions(TypedDict, total=False):
    """Keyword arguments of :func:`graph` beyond the documented ones."""

    color_by: str
    show_constants: bool
    palette: str
    height: int
    expanded: list[str]


def graph(
    source: Any,
    run: str | None = None,
    tag: str | None = None,
    *,
    refresh: float | None = None,
    **kw: Unpack[GraphOptions],
) -> GraphWidget:
    """An interactive model graph: name scopes collapsed, expand, search, details, statistics.

    Parameters
    ----------
    source
        An ``Experiment``, a logdir path/URL, or a :class:`~tbnb.analysis.graph.ModelGraph`
        (``exp.graph(run)``).
    run, tag
        The graph shown first (default: the first run with a graph, its op graph).
    refresh
        Reload the experiment every so many seconds; new graphs and runs appear.
    **kw
        ``color_by`` (``"op"``, ``"device"``, ``"compute"``, ``"memory"``),
        ``show_constants`` (default False), ``palette`` (run colours: ``"default"`` or
        ``"colorblind"``), ``height`` (pixels of the graph view), ``expanded`` (group
        keys to open instead of the default). Anything else raises ``TypeError``.

    Raises
    ------
    KeyError
        When ``run`` or ``tag`` names no graph (the message lists what there is).
    """
    check_kwargs("graph", dict(kw), GraphOptions.__annotations__)
    given = experiment_of(source)
    if isinstance(given, ModelGraph):
        shown = Source(GraphSource(given), name="the ModelGraph")
    else:
        shown = source_of(
            given,
            "graphs",
            expected="a ModelGraph (exp.graph(run))",
            read=lambda experiment: (
                GraphSource(experiment) if hasattr(experiment, "graphs") else None
            ),
            frame_type=GraphSource,
        )
    traits: dict[str, Any] = {k: v for k, v in kw.items() if k != "expanded"}
    return GraphWidget(
        source=shown,
        run=run,
        tag=tag,
        expanded=kw.get("expanded"),
        refresh=refresh,
        **traits,
    )
