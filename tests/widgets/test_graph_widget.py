"""The graph explorer's Python side: payload, defaults, expand/collapse, statistics,
requests, plotly, live reloads and bad input (the browser side: tests/ui/test_graph_ui.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tbnb
from tbnb.analysis.graph import ModelGraph
from tbnb.widgets.graphs import GraphWidget
from tbnb.widgets.graphs.prepare import graph_payload
from tests import writers_graphs


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("graph_widget")
    writers_graphs.write_all(str(root))
    return root


def _names_from_payload(payload: dict) -> list[str]:
    """Full node names as the browser rebuilds them (graph-data.js: nodeName)."""
    labels = payload["labels"]
    groups = payload["groups"]

    def path(g: int) -> str:
        while g > 0 and groups["kind"][g] == 1:
            g = int(groups["parent"][g])
        return labels[groups["key"][g]]

    out = []
    for code, parent in zip(payload["nodes"]["name"], payload["nodes"]["parent"], strict=True):
        own, scope = labels[code], path(int(parent))
        out.append(scope if not own else (f"{scope}/{own}" if scope else own))
    return out


def test_payload_is_binary_and_names_rebuild_exactly(logdir: Path) -> None:
    exp = tbnb.load(logdir, progress=False)
    for run in ("torch", "tf1", "keras/train"):
        graph = exp.graph(run)
        payload = graph_payload(graph)
        n = len(graph.nodes)
        for column in payload["nodes"].values():
            assert isinstance(column, np.ndarray)
            assert len(column) == n
        assert payload["edges"]["src"].dtype == np.int32
        assert _names_from_payload(payload) == graph.nodes["name"].tolist()
        labels = payload["labels"]
        assert len(labels) == len(set(labels))  # each string travels once
        assert [labels[c] for c in payload["nodes"]["op"]] == graph.nodes["op"].tolist()


def test_opens_on_the_first_graph_collapsed_with_the_model_open(logdir: Path) -> None:
    exp = tbnb.load(logdir, progress=False)
    w = tbnb.graph(exp, "torch")
    assert (w.run, w.tag) == ("torch", "graph_def")
    assert w.expanded == ["Net"]
    shown = w.visible
    groups = set(shown.loc[shown["kind"] != "node", "name"])
    assert groups == {"Net/Conv2d[stem]", "Net/Linear[head]", "Net/Sequential[blocks]"}
    assert set(shown["kind"]) <= {"node", "group", "series"}
    assert shown["nodes"].sum() == int((~w.graph.constants()).sum())  # every node drawn once
    assert [g["run"] for g in w.graphs][:2] == ["keras/train", "keras/train"]
    assert w.selected_runs == [
        "keras/train",
        "keras/train_keras2",
        "tbx",
        "tf1",
        "tf2_trace",
        "torch",
    ]
    assert set(w.run_colors) >= set(exp.runs)


def test_expand_collapse_and_series(logdir: Path) -> None:
    w = tbnb.graph(tbnb.load(logdir, progress=False), "torch")
    w.expand("Net/Sequential[blocks]/Block[1]")
    assert w.expanded == [
        "Net",
        "Net/Sequential[blocks]",
        "Net/Sequential[blocks]/Block[0-2]",
        "Net/Sequential[blocks]/Block[1]",
    ]
    names = set(w.visible["name"])
    assert any(n.startswith("Net/Sequential[blocks]/Block[1]/") for n in names)
    assert "Net/Sequential[blocks]/Block[0]" in names
    w.collapse("Net/Sequential[blocks]")
    assert "Net/Sequential[blocks]" in set(w.visible["name"])
    w.collapse()
    assert w.expanded == []
    assert set(w.visible["name"]) >= {"Net"}
    with pytest.raises(KeyError, match="no group 'Net/nope' in the graph of run 'torch'"):
        w.expand("Net/nope")


def test_statistics_compare_the_selected_runs(logdir: Path) -> None:
    exp = tbnb.load(logdir, progress=False)
    w = tbnb.graph(exp, "tf1")
    w.selected_runs = ["tf1", "torch"]
    table = w.op_stats()
    assert list(table.columns) == ["tf1", "torch"]
    for run in ("tf1", "torch"):
        counts = exp.graph(run).nodes["op"].value_counts()
        assert table[run][table[run] > 0].to_dict() == counts.to_dict()
    scopes = w.scope_stats()
    assert scopes.loc["dense", "nodes"] == 7


def test_node_request_gives_every_attribute(logdir: Path) -> None:
    w = tbnb.graph(tbnb.load(logdir, progress=False), "tf1")
    reply = w.answer({"type": "node", "id": "1", "name": "dense/MatMul"})
    assert reply is not None
    assert dict(reply["attributes"]) == {
        "T": "float32",
        "transpose_a": "False",
        "transpose_b": "False",
    }
    assert reply["output_shapes"] == "[?, 16]"
    bad = w.answer({"type": "node", "id": "2", "name": "nope"})
    assert bad is not None
    assert "no node 'nope'" in bad["error"]


def test_switching_runs_and_stats(logdir: Path) -> None:
    w = tbnb.graph(tbnb.load(logdir, progress=False), "tf2_trace")
    assert w.profiles == ["profiled"]
    assert w.stats_tag == "profiled"
    assert np.isfinite(w.nodes["compute_us"]).all()
    w.stats_tag = ""
    assert np.isnan(w.nodes["compute_us"]).all()
    w.run, w.tag = "keras/train", "keras"
    assert w.graph is not None
    assert w.graph.kind == "graph_keras_model"
    assert w.profiles == []


def test_to_plotly_draws_what_the_browser_drew(logdir: Path) -> None:
    w = tbnb.graph(tbnb.load(logdir, progress=False), "tf1")
    fig = w.to_plotly()
    nodes = fig.data[1]
    assert len(nodes.x) == len(w.visible)
    items = w.visible["item"].to_numpy(np.int32)
    xs = np.arange(len(items), dtype=np.float32) * 10
    w._view = {
        "graph": "tf1\u0000graph_def",
        "expanded": sorted(w.expanded),
        "ids": items,
        "x": xs,
        "y": xs + 1,
        "kind": np.zeros(len(items), np.uint8),
    }
    placed = w.to_plotly().data[1]
    assert list(placed.x) == xs.tolist()
    assert list(placed.y) == (xs + 1).tolist()


def test_a_model_graph_alone_and_bad_arguments() -> None:
    graph = ModelGraph.from_records(
        [{"name": "a/b", "op": "Op", "inputs": []}, {"name": "a/c", "op": "Op", "inputs": ["a/b"]}],
        run="mine",
        tag="g",
    )
    w = tbnb.graph(graph, color_by="device")
    assert (w.run, w.tag, w.color_by) == ("mine", "g", "device")
    assert w.expanded == ["a"]
    with pytest.raises(TypeError, match="did you mean 'color_by'"):
        tbnb.graph(graph, colour_by="op")  # type: ignore[call-arg]
    with pytest.raises(Exception, match="color_by must be one of"):
        tbnb.graph(graph, color_by="rainbow")
    with pytest.raises(TypeError, match="source must be an Experiment"):
        tbnb.graph(42)
    with pytest.raises(ValueError, match="refresh= needs a source"):
        tbnb.graph(graph, refresh=1)


def test_no_graph_says_why(tmp_path: Path) -> None:
    from tests.writers_histograms import write_histogram_runs

    write_histogram_runs(tmp_path)  # scalars and histograms, no graph
    exp = tbnb.load(tmp_path, progress=False)
    w = tbnb.graph(exp)
    assert w.graphs == []
    assert "no run of this experiment holds a graph" in w.message
    assert w._graph == {}
    with pytest.raises(KeyError, match="runs with graphs: \\[\\]"):
        tbnb.graph(exp, "lr=0.1")


def test_live_reload_brings_new_graphs(tmp_path: Path) -> None:
    writers_graphs.write_tf1_session(str(tmp_path / "first"))
    exp = tbnb.load(tmp_path, progress=False)
    w = tbnb.graph(exp)
    assert isinstance(w, GraphWidget)
    assert {g["run"] for g in w.graphs} == {"first"}
    writers_graphs.write_tf2_trace(str(tmp_path / "second"))
    assert w.refresh_now() >= 1
    assert {g["run"] for g in w.graphs} == {"first", "second"}
    assert "second" in w.selected_runs
    assert w.run == "first"  # the graph shown stays
    w.close()


def test_opens_on_a_graph_with_nodes_and_says_why_an_empty_one_is_empty(tmp_path: Path) -> None:
    """A run whose only graph is a ``trace_export`` of nothing (sorted first) does not open
    the view blank: it opens on the first graph with nodes, and the empty one says why."""
    from tests.writers_graphs import write_tf2_empty_trace, write_tf2_trace

    write_tf2_empty_trace(str(tmp_path / "a_untraced"))
    write_tf2_trace(str(tmp_path / "b_traced"))
    exp = tbnb.load(str(tmp_path), progress=False)
    w = tbnb.graph(exp)
    assert (w.run, w.tag) == ("b_traced", "trace")
    assert w.message == ""
    assert w._current is not None
    assert len(w._current.nodes) > 0
    w.run = "a_untraced"
    assert w.message == (
        "run 'a_untraced', tag 'trace': this graph is empty: tf.summary.trace_export wrote no "
        "function graph: no tf.function ran between tf.summary.trace_on and trace_export (or "
        "the traced call was not a graph)"
    )
    dash = tbnb.Dashboard(exp)
    assert dash.views["graphs"].run == "b_traced"
