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

import os
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.analysis.graph import ModelGraph
from tbnb.widgets.base import check_kwargs
from tbnb.widgets.graphs.source import GraphSource
from tbnb.widgets.graphs.widget import GraphWidget

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
    if isinstance(source, (str, os.PathLike)):
        from tbnb.loader import load

        source = load(os.fspath(source))
    if not isinstance(source, ModelGraph) and not hasattr(source, "graphs"):
        raise TypeError(
            "source must be an Experiment, a logdir path or a ModelGraph "
            f"(exp.graph(run)); got {type(source).__name__}"
        )
    widget = GraphWidget(
        color_by=kw.get("color_by", "op"),
        show_constants=bool(kw.get("show_constants", False)),
        palette=kw.get("palette", "default"),
        height=int(kw.get("height", 560)),
    )
    reloadable = source if callable(getattr(source, "reload", None)) else None
    if reloadable is not None:
        widget.follow(reloadable)
    widget._set_source(GraphSource(source), run, tag)
    if "expanded" in kw:
        widget.expanded = list(kw["expanded"])
    if refresh is not None:
        if reloadable is None:
            raise ValueError("refresh= needs a source with .reload() (an Experiment or a logdir)")
        widget.start_refresh(float(refresh))
    return widget
