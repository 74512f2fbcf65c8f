"""Which graphs an experiment holds, and one of them as a :class:`ModelGraph`.

``exp.graphs`` lists every graph row (bytes left in the files); :func:`graph_list`
says which can be drawn (op graphs and Keras conceptual graphs, the last one written
per run and tag) and which hold step statistics; :func:`model_graph` reads and
parses one (``exp.graph(run)``), with the statistics of a ``RunMetadata`` joined in
when the run has them.

Examples
--------
>>> import tbnb
>>> exp = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
>>> len(graph_list(exp))                 # the sample logs its model's graph in every run
9
>>> model_graph(exp, "lr=0.001,seed=0")
<tbnb.ModelGraph 'lr=0.001,seed=0' 'graph_def' (graph_def): 19 nodes, 18 edges>
>>> model_graph(exp, "lr=0.001,seed=0/1704067301.950000")   # add_hparams' sub-run
Traceback (most recent call last):
...
KeyError: "run 'lr=0.001,seed=0/1704067301.950000' has no graph (runs with graphs: ..."
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from tbnb.analysis.graph.model import ModelGraph
from tbnb.analysis.graph.parse import (
    CONCEPTUAL,
    OP_GRAPHS,
    PROFILES,
    GraphParseError,
    graph_records,
    run_metadata_of,
)
from tbnb.analysis.graph.stats import step_stats

__all__ = ["LIST_COLUMNS", "graph_list", "model_graph", "profile_list"]

LIST_COLUMNS = ("run", "tag", "kind", "view", "step", "nbytes")
"""Columns of :func:`graph_list`."""

_PREFERENCE = {kind: i for i, kind in enumerate((*OP_GRAPHS, *CONCEPTUAL))}


def _rows(exp: Any) -> pd.DataFrame:
    frame = exp.graphs
    return frame.assign(run=frame["run"].astype(str), tag=frame["tag"].astype(str))


def graph_list(exp: Any) -> pd.DataFrame:
    """The graphs that can be drawn: one row per (run, tag, kind), the last one written.

    ``view`` is ``"op graph"`` (a ``GraphDef`` of ops) or ``"conceptual"`` (Keras
    layers). Runs come in the experiment's order, each run's default graph first.
    """
    frame = _rows(exp)
    drawable = frame[frame["kind"].isin(list(_PREFERENCE))]
    if not len(drawable):
        return pd.DataFrame(columns=list(LIST_COLUMNS))
    last = drawable.drop_duplicates(["run", "tag", "kind"], keep="last")
    order = {run: i for i, run in enumerate(getattr(exp, "runs", []))}
    last = last.assign(
        view=["conceptual" if k in CONCEPTUAL else "op graph" for k in last["kind"]],
        _run=[order.get(r, len(order)) for r in last["run"]],
        _kind=[_PREFERENCE[k] for k in last["kind"]],
    )
    last = last.sort_values(["_run", "run", "_kind", "tag"], kind="stable")
    return last[list(LIST_COLUMNS)].reset_index(drop=True)


def profile_list(exp: Any, run: str | None = None) -> pd.DataFrame:
    """``RunMetadata`` rows that may hold step statistics (run, tag, kind, step)."""
    frame = _rows(exp)
    rows = frame[frame["kind"].isin(list(PROFILES))]
    if run is not None:
        rows = rows[rows["run"] == run]
    return (
        rows[["run", "tag", "kind", "step"]]
        .drop_duplicates(["run", "tag"], keep="last")
        .reset_index(drop=True)
    )


def _pick(frame: pd.DataFrame, run: str, tag: str | None, runs_with: list[str]) -> Any:
    rows = frame[frame["run"] == run]
    drawable = rows[rows["kind"].isin(list(_PREFERENCE))]
    if not len(drawable):
        have = (
            f"runs with graphs: {', '.join(map(repr, runs_with))}"
            if runs_with
            else "no run of this experiment has one"
        )
        raise KeyError(f"run {run!r} has no graph ({have})")
    if tag is not None:
        drawable = drawable[drawable["tag"] == tag]
        if not len(drawable):
            tags = sorted(set(rows.loc[rows["kind"].isin(list(_PREFERENCE)), "tag"]))
            raise KeyError(
                f"run {run!r} has no graph tagged {tag!r}; its graphs: {', '.join(map(repr, tags))}"
            )
    best = min(drawable["kind"], key=_PREFERENCE.__getitem__)
    return drawable[drawable["kind"] == best].iloc[-1]


def _stats_row(frame: pd.DataFrame, run: str, chosen: Any, stats: str | None) -> Any:
    if stats is None:
        return None
    profiles = frame[(frame["run"] == run) & frame["kind"].isin(list(PROFILES))]
    if stats != "auto":
        match = profiles[profiles["tag"] == stats]
        if not len(match):
            tags = sorted(set(profiles["tag"]))
            raise KeyError(
                f"run {run!r} has no run metadata tagged {stats!r}; it has "
                f"{', '.join(map(repr, tags)) or 'none'}"
            )
        return match.iloc[-1]
    if chosen["kind"] in PROFILES:
        return chosen
    return profiles.iloc[-1] if len(profiles) else None


def model_graph(
    exp: Any, run: str, tag: str | None = None, *, stats: str | None = "auto"
) -> ModelGraph:
    """One graph of ``run`` as nodes and edges frames.

    Parameters
    ----------
    exp
        An experiment (anything with a ``graphs`` frame).
    run
        The run.
    tag
        Which graph (``exp.graphs["tag"]``): default the run's op graph (``graph_def``,
        then ``meta_graph_def``, then TF2 trace graphs), else its Keras model.
    stats
        The ``RunMetadata`` whose step statistics fill ``compute_us``, ``memory_bytes``
        and empty devices: ``"auto"`` (the graph's own, else the run's last one),
        a tag, or ``None``.

    Raises
    ------
    KeyError
        When the run has no such graph (the message lists what it has).
    GraphParseError
        When the graph's bytes do not parse (the message names the run and tag).
    """
    frame = _rows(exp)
    runs_with = list(dict.fromkeys(graph_list(exp)["run"]))
    row = _pick(frame, str(run), tag, runs_with)
    where = f"run {row['run']!r} tag {row['tag']!r} ({row['kind']}, step {row['step']})"
    try:
        records = graph_records(row["blob"].read(), row["kind"])
    except GraphParseError as error:
        raise GraphParseError(f"{where}: {error}") from None
    graph = ModelGraph.from_records(records, run=row["run"], tag=row["tag"], kind=row["kind"])
    stats_row = _stats_row(frame, str(run), row, stats)
    if stats_row is not None:
        try:
            table = step_stats(run_metadata_of(stats_row["blob"].read()))
        except GraphParseError as error:
            raise GraphParseError(
                f"run {run!r} run metadata {stats_row['tag']!r}: {error}"
            ) from None
        graph = graph.with_stats(table)
        graph.stats_tag = str(stats_row["tag"]) if len(table) else ""
    return graph
