"""``exp.graph(run)`` equals what TensorBoard's graph plugin serves, for every writer.

The oracle is TensorBoard itself: its event multiplexer, data provider and
``GraphsPlugin`` (``graph_impl`` for op graphs, run graphs and Keras conceptual graphs,
``run_metadata_impl`` for step statistics, ``info_impl`` for what exists), over logs
written by torch's and tensorboardX's ``add_graph``, TF2's ``trace_export`` wire format,
the Keras callback's layout, a TF1 session and a real Lightning ``log_graph=True`` run.
"""

from __future__ import annotations

import math
import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tbnb
from tbnb.analysis.graph import SERIES, GraphParseError, ModelGraph, graph_list, model_graph
from tbnb.widgets.graphs.prepare import default_expanded
from tests import writers_graphs
from tests.writers import WALL0, write_events
from tests.writers_lightning import RUN as LIGHTNING_RUN
from tests.writers_lightning import cached_lightning

TYPES = {1: "float32", 2: "float64", 3: "int32", 9: "int64", 10: "bool", 20: "resource"}


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("graphs")
    writers_graphs.write_all(str(root))
    return root


class TensorBoardGraphs:
    """TensorBoard's graph plugin over a logdir (its own reader and data provider)."""

    def __init__(self, logdir: str) -> None:
        from tensorboard import context
        from tensorboard.backend.event_processing import data_provider
        from tensorboard.backend.event_processing import plugin_event_multiplexer as pem
        from tensorboard.plugins import base_plugin
        from tensorboard.plugins.graph import graphs_plugin

        mux = pem.EventMultiplexer()
        mux.AddRunsFromDirectory(logdir)
        mux.Reload()
        provider = data_provider.MultiplexerDataProvider(mux, logdir)
        self.plugin = graphs_plugin.GraphsPlugin(
            base_plugin.TBContext(data_provider=provider, logdir=logdir, multiplexer=mux)
        )
        self.ctx = context.RequestContext()

    def info(self) -> dict[str, Any]:
        return dict(self.plugin.info_impl(self.ctx, experiment=""))

    def graph(self, run: str, tag: str | None, conceptual: bool = False) -> Any:
        from google.protobuf import text_format
        from tensorboard.compat.proto import graph_pb2

        body, _ = self.plugin.graph_impl(self.ctx, run, tag, conceptual, experiment="")
        return text_format.Parse(body, graph_pb2.GraphDef())

    def run_metadata(self, run: str, tag: str) -> Any:
        from google.protobuf import text_format
        from tensorboard.compat.proto import config_pb2

        body, _ = self.plugin.run_metadata_impl(self.ctx, "", run, tag)
        return text_format.Parse(body, config_pb2.RunMetadata())


def _python(value: Any) -> Any:
    """TensorBoard's ``AttrValue`` as tbnb shows it, converted independently of tbnb."""
    which = value.WhichOneof("value")
    if which == "s":
        return value.s.decode()
    if which in ("i", "b"):
        return getattr(value, which)
    if which == "type":
        return TYPES[value.type]
    if which == "shape":
        return tuple(d.size if d.size >= 0 else None for d in value.shape.dim)
    if which == "list":
        return [tuple(d.size if d.size >= 0 else None for d in s.dim) for s in value.list.shape]
    raise AssertionError(f"attribute kind {which} not in these logs")


def assert_same_graph(ours: ModelGraph, theirs: Any, *, conceptual: bool = False) -> None:
    nodes = ours.nodes
    assert nodes["name"].tolist() == [n.name for n in theirs.node]
    assert nodes["inputs"].tolist() == [list(n.input) for n in theirs.node]
    assert nodes["device"].tolist() == [n.device for n in theirs.node]
    for row, node in zip(nodes.itertuples(index=False), theirs.node, strict=True):
        if conceptual:  # TensorBoard's conceptual nodes carry the Keras class as an attribute
            assert row.op == node.attr["keras_class"].s.decode()
            if "dtype" in node.attr:
                assert row.attributes["dtype"] == TYPES[node.attr["dtype"].type]
            else:
                assert "dtype" not in row.attributes
            continue
        assert row.op == node.op
        attrs = {k: v for k, v in node.attr.items() if k != "_output_shapes"}
        assert set(row.attributes) == set(attrs), row.name
        for key, value in attrs.items():
            assert row.attributes[key] == _python(value), (row.name, key)
        if "_output_shapes" in node.attr:
            assert row.output_shapes == _python(node.attr["_output_shapes"]), row.name
        else:
            assert row.output_shapes is None
    names = {n.name for n in theirs.node}
    expected = [
        (i.lstrip("^").split(":")[0], n.name)
        for n in theirs.node
        for i in n.input
        if i.lstrip("^").split(":")[0] in names
    ]
    assert list(zip(ours.edges["source"], ours.edges["target"], strict=True)) == expected


@pytest.mark.parametrize("writer", ["torch", "tensorboardX", "tf2", "keras", "tf1"])
def test_every_graph_equals_tensorboards(logdir: Path, writer: str) -> None:
    tb = TensorBoardGraphs(str(logdir))
    exp = tbnb.load(logdir, progress=False)
    run = {
        "torch": "torch",
        "tensorboardX": "tbx",
        "tf2": "tf2_trace",
        "keras": "keras/train",
        "tf1": "tf1",
    }[writer]
    info = tb.info()[run]
    compared = 0
    if info["run_graph"]:
        assert_same_graph(exp.graph(run, "graph_def", stats=None), tb.graph(run, None))
        compared += 1
    for tag, what in info["tags"].items():
        if what["op_graph"]:
            assert_same_graph(exp.graph(run, tag, stats=None), tb.graph(run, tag))
            compared += 1
        if what["conceptual_graph"]:
            assert_same_graph(exp.graph(run, tag), tb.graph(run, tag, True), conceptual=True)
            compared += 1
    assert compared >= 1
    listed = graph_list(exp)
    assert set(listed.loc[listed["run"] == run, "tag"]) >= {
        t for t, w in info["tags"].items() if w["op_graph"] or w["conceptual_graph"]
    }


def test_lightning_log_graph_equals_tensorboards() -> None:
    written = cached_lightning()
    tb = TensorBoardGraphs(written.logdir)
    exp = tbnb.load(written.logdir, progress=False)
    graph = exp.graph(LIGHTNING_RUN)
    assert graph.kind == "graph_def"
    assert_same_graph(graph, tb.graph(LIGHTNING_RUN, None))
    ops = set(graph.nodes["op"])
    assert {"aten::linear", "aten::relu"} <= ops  # the traced Sequential(Linear, ReLU, Linear)


@pytest.mark.parametrize(("run", "tag"), [("tf1", "step_5"), ("tf2_trace", "profiled")])
def test_step_statistics_equal_tensorboards_run_metadata(logdir: Path, run: str, tag: str) -> None:
    tb = TensorBoardGraphs(str(logdir))
    meta = tb.run_metadata(run, tag)
    expected: dict[str, tuple[float, float, str]] = {}
    for device in meta.step_stats.dev_stats:
        for stat in device.node_stats:
            compute, memory, dev = expected.get(stat.node_name, (0.0, 0.0, device.device))
            expected[stat.node_name] = (
                compute + stat.all_end_rel_micros,
                memory + sum(m.total_bytes for m in stat.memory),
                dev,
            )
    exp = tbnb.load(logdir, progress=False)
    graph = exp.graph(run, stats=tag)
    assert graph.stats_tag == tag
    nodes = graph.nodes.set_index("name")
    assert set(expected) == set(nodes.index)
    for name, (compute, memory, device) in expected.items():
        assert nodes.loc[name, "compute_us"] == compute
        assert nodes.loc[name, "memory_bytes"] == memory
        assert nodes.loc[name, "device"] == device
    assert math.isnan(exp.graph(run, stats=None).nodes["compute_us"].iloc[0])


def test_keras2_json_keeps_the_edges_tensorboard_drops(logdir: Path) -> None:
    tb = TensorBoardGraphs(str(logdir))
    theirs = tb.graph("keras/train_keras2", "keras", True)
    assert [list(n.input) for n in theirs.node] == [[], [], []]  # TensorBoard: no edges
    ours = tbnb.load(logdir, progress=False).graph("keras/train_keras2")
    assert ours.nodes["name"].tolist() == [n.name for n in theirs.node]
    assert ours.edges[["source", "target"]].values.tolist() == [
        ["model/input_1", "model/dense"],
        ["model/dense", "model/dense_1"],
    ]
    assert ours.nodes.loc[0, "output_shapes"] == [(None, 8)]


def test_several_function_graphs_merge_as_tensorboard_merges(tmp_path: Path) -> None:
    from tensorboard.compat.proto import config_pb2
    from tensorboard.plugins.graph import graph_util

    first = writers_graphs.dense_net_graph()
    second = writers_graphs.dense_net_graph(device=writers_graphs.GPU)
    traced = config_pb2.RunMetadata()
    for graph in (first, second):
        traced.function_graphs.add().pre_optimization_graph.CopyFrom(graph)
    write_events(
        str(tmp_path / "events.out.tfevents.1.host"),
        [
            writers_graphs._summary_event(
                "trace", "graph_run_metadata_graph", traced.SerializeToString(), 0
            )
        ],
    )
    merged = graph_util.merge_graph_defs([first, second])
    ours = tbnb.load(tmp_path, progress=False).graph(".")
    assert_same_graph(ours, merged)
    assert {s.split("/")[0] for s in ours.nodes["name"]} == {"graph_1", "graph_2"}


def test_repeated_blocks_form_a_series_and_the_model_opens(logdir: Path) -> None:
    graph = tbnb.load(logdir, progress=False).graph("torch")
    h = graph.hierarchy()
    series = [k for k, kind in zip(h.key, h.kind, strict=True) if kind == SERIES]
    assert series == ["Net/Sequential[blocks]/Block[0-2]"]
    members = [h.key[g] for g in range(len(h.key)) if h.parent[g] == h.key.index(series[0])]
    assert members == [f"Net/Sequential[blocks]/Block[{i}]" for i in range(3)]
    assert default_expanded(h) == ["Net"]
    # torch's parameter handles are single-node scopes: drawn as the node, named "weight"
    weight = graph.nodes.index[graph.nodes["name"] == "Net/Conv2d[stem]/weight/weight"]
    if len(weight):
        assert h.node_label[int(weight[0])] == "weight"


def test_series_label_keeps_a_bracketed_prefix_whole() -> None:
    from tbnb.analysis.graph.hierarchy import build_hierarchy

    names = [f"m/LayerNorm[ln{i}]/{op}" for i in (1, 2, 3) for op in ("mean", "sub")]
    ops = ["Mean", "Sub"] * 3
    h = build_hierarchy(names, ops, src=[0, 1, 2, 3, 4], dst=[1, 2, 3, 4, 5])
    series = [k for k, kind in zip(h.key, h.kind, strict=True) if kind == SERIES]
    assert series == ["m/LayerNorm[ln1-3]"]


def test_to_networkx_holds_every_node_and_edge(logdir: Path) -> None:
    graph = tbnb.load(logdir, progress=False).graph("tf1")
    nx_graph = graph.to_networkx()
    assert nx_graph.number_of_nodes() == len(graph.nodes)
    assert nx_graph.number_of_edges() == len(graph.edges)
    assert nx_graph.nodes["dense/MatMul"]["op"] == "MatMul"
    controls = [d["control"] for _, _, d in nx_graph.edges(data=True)]
    assert sum(controls) == int(graph.edges["control"].sum()) == 3


def test_parameters_per_scope_from_variable_shapes() -> None:
    graph = ModelGraph.from_records(
        [
            {"name": "x", "op": "Placeholder", "inputs": []},
            {"name": "enc/w", "op": "VariableV2", "inputs": [], "attributes": {"shape": (8, 4)}},
            {"name": "enc/b", "op": "VarHandleOp", "inputs": [], "attributes": {"shape": (4,)}},
            {"name": "enc/mm", "op": "MatMul", "inputs": ["x", "enc/w"]},
            {"name": "dec/w", "op": "prim::GetAttr", "inputs": [], "output_shapes": [(4, 2)]},
            {"name": "dec/p", "op": "prim::GetAttr", "inputs": []},
        ]
    )
    scopes = graph.scope_stats()
    assert scopes.loc["enc", "params"] == 36
    assert scopes.loc["dec", "params"] == 8  # the shape of one of its two parameters is known
    assert scopes.loc["dec", "param_tensors"] == 2
    assert scopes.loc["(all)", "params"] == 44
    ops = graph.op_stats()
    assert ops.loc["prim::GetAttr", "count"] == 2


def test_missing_and_broken_graphs_say_which_run_and_tag(logdir: Path, tmp_path: Path) -> None:
    exp = tbnb.load(logdir, progress=False)
    with pytest.raises(KeyError, match=r"run 'nope' has no graph \(runs with graphs: 'keras"):
        exp.graph("nope")
    with pytest.raises(
        KeyError,
        match=r"run 'torch' has no graph tagged 'x'; its graphs: "
        r"'graph_def'",
    ):
        exp.graph("torch", "x")
    from tbnb._proto import Event

    broken = tmp_path / "broken"
    broken.mkdir()
    write_events(
        str(broken / "events.out.tfevents.1.host"),
        [Event(step=0, wall_time=WALL0, graph_def=b"\x0a\xff\xff garbage")],
    )
    good = tmp_path / "good"
    writers_graphs.write_tf1_session(str(good))
    exp = tbnb.load(tmp_path, progress=False)
    with pytest.raises(
        GraphParseError,
        match=r"run 'broken' tag 'graph_def' \(graph_def, "
        r"step 0\): not a valid GraphDef",
    ):
        model_graph(exp, "broken")
    assert len(exp.graph("good").nodes) == 16  # the good run around it is intact
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        widget = tbnb.graph(exp, "broken")
    assert "not a valid GraphDef" in widget.message
    assert any("run 'broken'" in str(w.message) for w in caught)
    assert [(g["run"], g["tag"]) for g in widget.graphs] == [
        ("broken", "graph_def"),
        ("good", "graph_def"),
        ("good", "meta_graph_def"),
    ]
    widget.run, widget.tag = "good", "graph_def"
    assert widget.message == ""
    assert len(widget.nodes) == 16


def test_graph_rows_are_kept_per_step_and_the_last_one_is_drawn(tmp_path: Path) -> None:
    from tensorboard.compat.proto import event_pb2
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    writer = EventFileWriter(str(tmp_path))
    small = writers_graphs.dense_net_graph()
    bigger = writers_graphs.dense_net_graph()
    bigger.node.add(name="extra", op="NoOp")
    for step, graph in enumerate((small, bigger)):
        writer.add_event(
            event_pb2.Event(wall_time=WALL0 + step, step=step, graph_def=graph.SerializeToString())
        )
    writer.close()
    exp = tbnb.load(tmp_path, progress=False)
    assert len(exp.graphs) == 2
    assert len(exp.graph(".").nodes) == len(bigger.node)
    assert np.all(exp.graphs["nbytes"] > 0)
    assert os.path.basename(exp.graphs["blob"].iloc[-1].path).startswith("events.out")
