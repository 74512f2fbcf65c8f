"""Write model graphs as real writers write them, for the graph explorer's tests.

- torch's ``SummaryWriter.add_graph`` and tensorboardX's (a small traced CNN with a
  stem, a Sequential of repeated residual blocks and a head): ``Event.graph_def`` plus
  a ``tagged_run_metadata`` without statistics, as both write it;
- TF2's ``tf.summary.trace_export`` wire format (TF-free: the summary TF's
  ``summary_ops_v2.run_metadata_graphs`` / ``run_metadata`` write, with TensorBoard's
  plugin names and content ``b"1"``): a ``RunMetadata`` whose function graph is a
  two-layer dense net traced by ``tf.function``, once without and once with step
  statistics (``profiler=True``);
- the Keras ``TensorBoard`` callback's layout (``write_graph=True``): the ``train`` run
  holding the train function's ``graph_def`` and the model's JSON (``graph_keras_model``,
  tag ``keras``), in Keras 3 form (a functional model with a nested Sequential and an
  ``Add`` merge) and, in a second run, Keras 2's list form;
- a TF1 session: ``graph_def``, ``meta_graph_def`` and a traced step's
  ``tagged_run_metadata`` with step statistics (``RunOptions.FULL_TRACE``).

Lightning's ``log_graph=True`` is in :mod:`tests.writers_lightning`.
"""

from __future__ import annotations

import json
import os
from typing import Any

from tests.writers import WALL0

CPU = "/job:localhost/replica:0/task:0/device:CPU:0"
GPU = "/job:localhost/replica:0/task:0/device:GPU:0"


def small_cnn() -> Any:
    """A traced-friendly CNN: stem, three residual blocks (two alike), pooled head."""
    import torch
    from torch import nn

    class Block(nn.Module):
        def __init__(self, channels: int) -> None:
            super().__init__()
            self.conv = nn.Conv2d(channels, channels, 3, padding=1)
            self.bn = nn.BatchNorm2d(channels)
            self.act = nn.ReLU()

        def forward(self, x: Any) -> Any:
            return self.act(self.bn(self.conv(x)) + x)

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Conv2d(3, 8, 3, padding=1)
            self.blocks = nn.Sequential(Block(8), Block(8), Block(8))
            self.head = nn.Linear(8, 10)

        def forward(self, x: Any) -> Any:
            return self.head(self.blocks(self.stem(x)).mean((2, 3)))

    torch.manual_seed(0)
    return Net().eval()


def write_torch_graph(logdir: str, module: str = "torch") -> None:
    """``add_graph`` of :func:`small_cnn` by torch's or tensorboardX's ``SummaryWriter``."""
    import importlib

    import torch

    writer_class: Any = importlib.import_module(
        "torch.utils.tensorboard" if module == "torch" else "tensorboardX"
    ).SummaryWriter
    writer = writer_class(logdir)
    writer.add_graph(small_cnn(), torch.zeros(1, 3, 8, 8))
    writer.add_scalar("loss", 0.5, 0)
    writer.close()


# ---------------------------------------------------------------- TF wire formats


def _node(
    graph: Any,
    name: str,
    op: str,
    inputs: list[str],
    device: str = "",
    shapes: list[list[int]] | None = None,
    **attrs: Any,
) -> Any:
    node = graph.node.add(name=name, op=op, input=inputs, device=device)
    for key, value in attrs.items():
        if isinstance(value, bool):
            node.attr[key].b = value
        elif isinstance(value, int):
            node.attr[key].i = value
        elif isinstance(value, str):
            node.attr[key].s = value.encode()
        elif isinstance(value, tuple) and value[0] == "type":
            node.attr[key].type = value[1]
        elif isinstance(value, tuple) and value[0] == "shape":
            for size in value[1]:
                node.attr[key].shape.dim.add(size=size)
    if shapes is not None:
        for shape in shapes:
            proto = node.attr["_output_shapes"].list.shape.add()
            for size in shape:
                proto.dim.add(size=size)
    return node


def dense_net_graph(device: str = CPU, shapes: bool = True) -> Any:
    """The pre-optimization graph of ``tf.function`` over a two-layer dense net."""
    from tensorboard.compat.proto import graph_pb2

    graph = graph_pb2.GraphDef()
    graph.versions.producer = 1645
    f32, res = ("type", 1), ("type", 20)
    _node(
        graph,
        "x",
        "Placeholder",
        [],
        device,
        [[-1, 4]] if shapes else None,
        dtype=f32,
        shape=("shape", [-1, 4]),
        _user_specified_name="x",
    )
    previous = "x"
    for layer, width in (("dense", 16), ("dense_1", 3)):
        for part, op in (("MatMul", "MatMul"), ("BiasAdd", "BiasAdd")):
            handle = f"{layer}/{part}/ReadVariableOp/resource"
            _node(graph, handle, "Placeholder", [], device, dtype=res, shape=("shape", []))
            _node(
                graph,
                f"{layer}/{part}/ReadVariableOp",
                "ReadVariableOp",
                [handle],
                device,
                dtype=f32,
            )
            extra = (
                {"transpose_a": False, "transpose_b": False}
                if op == "MatMul"
                else {"data_format": "NHWC"}
            )
            _node(
                graph,
                f"{layer}/{part}",
                op,
                [previous, f"{layer}/{part}/ReadVariableOp"],
                device,
                [[-1, width]] if shapes else None,
                T=f32,
                **extra,
            )
            previous = f"{layer}/{part}"
        if layer == "dense":
            _node(
                graph,
                "dense/Relu",
                "Relu",
                [previous],
                device,
                [[-1, width]] if shapes else None,
                T=f32,
            )
            previous = "dense/Relu"
    _node(
        graph,
        "NoOp",
        "NoOp",
        ["^dense/MatMul/ReadVariableOp", "^dense_1/MatMul/ReadVariableOp"],
        device,
    )
    _node(
        graph,
        "Identity",
        "Identity",
        [previous, "^NoOp"],
        device,
        [[-1, 3]] if shapes else None,
        T=f32,
    )
    return graph


def step_stats_for(graph: Any, device: str = CPU) -> Any:
    """A ``RunMetadata`` with one ``NodeExecStats`` per node (times and memory made up,
    as a profiler records them), on ``device``."""
    from tensorboard.compat.proto import config_pb2

    meta = config_pb2.RunMetadata()
    dev = meta.step_stats.dev_stats.add(device=device)
    for k, node in enumerate(graph.node):
        stat = dev.node_stats.add(
            node_name=node.name,
            all_start_micros=1_000_000 + 10 * k,
            op_start_rel_micros=1,
            op_end_rel_micros=2 + k,
            all_end_rel_micros=3 + 2 * k,
            thread_id=1,
        )
        memory = stat.memory.add(
            allocator_name="cpu", total_bytes=256 * (k + 1), peak_bytes=256 * (k + 1)
        )
        assert memory.total_bytes
    return meta


def _summary_event(tag: str, plugin: str, data: bytes, step: int) -> Any:
    from tensorboard.compat.proto import event_pb2, summary_pb2
    from tensorboard.util import tensor_util

    meta = summary_pb2.SummaryMetadata()
    meta.plugin_data.plugin_name = plugin
    meta.plugin_data.content = b"1"
    value = summary_pb2.Summary.Value(
        tag=tag, metadata=meta, tensor=tensor_util.make_tensor_proto(data)
    )
    return event_pb2.Event(
        wall_time=WALL0 + step, step=step, summary=summary_pb2.Summary(value=[value])
    )


def write_tf2_trace(logdir: str) -> None:
    """``tf.summary.trace_export`` of a traced function, without and with the profiler."""
    from tensorboard.compat.proto import config_pb2
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    writer = EventFileWriter(logdir, filename_suffix=".v2")
    graph = dense_net_graph(shapes=False)
    traced = config_pb2.RunMetadata()
    traced.function_graphs.add().pre_optimization_graph.CopyFrom(graph)
    writer.add_event(
        _summary_event("trace", "graph_run_metadata_graph", traced.SerializeToString(), 0)
    )
    profiled = step_stats_for(graph)
    profiled.function_graphs.add().pre_optimization_graph.CopyFrom(graph)
    writer.add_event(
        _summary_event("profiled", "graph_run_metadata", profiled.SerializeToString(), 1)
    )
    writer.close()


def write_tf2_empty_trace(logdir: str) -> None:
    """``tf.summary.trace_export`` with nothing traced (no ``tf.function`` ran after
    ``trace_on``): a RunMetadata without function graphs, serialized to no bytes."""
    from tensorboard.compat.proto import config_pb2
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    writer = EventFileWriter(logdir, filename_suffix=".v2")
    untraced = config_pb2.RunMetadata()
    writer.add_event(
        _summary_event("trace", "graph_run_metadata_graph", untraced.SerializeToString(), 0)
    )
    writer.close()


def keras3_model() -> dict[str, Any]:
    """``model.to_json()`` of a Keras 3 functional model: an input, a dense layer, a nested
    Sequential, an ``Add`` of both branches and an output layer."""

    def tensor(layer: str) -> dict[str, Any]:
        return {
            "class_name": "__keras_tensor__",
            "config": {"shape": [None, 16], "dtype": "float32", "keras_history": [layer, 0, 0]},
        }

    def dense(name: str, units: int, inputs: Any) -> dict[str, Any]:
        return {
            "module": "keras.layers",
            "class_name": "Dense",
            "name": name,
            "config": {
                "name": name,
                "trainable": True,
                "units": units,
                "activation": "relu",
                "use_bias": True,
                "dtype": {
                    "module": "keras",
                    "class_name": "DTypePolicy",
                    "config": {"name": "float32"},
                },
                "kernel_initializer": {"class_name": "GlorotUniform", "config": {"seed": None}},
            },
            "inbound_nodes": [] if inputs is None else [{"args": [inputs], "kwargs": {}}],
        }

    inner = {
        "module": "keras",
        "class_name": "Sequential",
        "name": "block",
        "config": {
            "name": "block",
            "layers": [
                {"class_name": "Dense", "config": {"name": "inner_a", "units": 16}},
                {"class_name": "Dropout", "config": {"name": "inner_drop", "rate": 0.1}},
            ],
        },
        "inbound_nodes": [{"args": [tensor("dense")], "kwargs": {}}],
    }
    layers = [
        {
            "module": "keras.layers",
            "class_name": "InputLayer",
            "name": "features",
            "config": {"batch_shape": [None, 8], "dtype": "float32", "name": "features"},
            "inbound_nodes": [],
        },
        dense("dense", 16, tensor("features")),
        inner,
        {
            "module": "keras.layers",
            "class_name": "Add",
            "name": "add",
            "config": {"name": "add", "dtype": "float32"},
            "inbound_nodes": [{"args": [[tensor("dense"), tensor("block")]], "kwargs": {}}],
        },
        dense("logits", 3, tensor("add")),
    ]
    return {
        "module": "keras",
        "class_name": "Functional",
        "config": {
            "name": "classifier",
            "trainable": True,
            "layers": layers,
            "input_layers": [["features", 0, 0]],
            "output_layers": [["logits", 0, 0]],
        },
    }


def keras2_model() -> dict[str, Any]:
    """``model.to_json()`` of a Keras 2 functional model (list-form ``inbound_nodes``)."""
    layers = [
        {
            "class_name": "InputLayer",
            "name": "input_1",
            "config": {"batch_input_shape": [None, 8], "dtype": "float32", "name": "input_1"},
            "inbound_nodes": [],
        },
        {
            "class_name": "Dense",
            "name": "dense",
            "config": {"name": "dense", "units": 4, "dtype": "float32"},
            "inbound_nodes": [[["input_1", 0, 0, {}]]],
        },
        {
            "class_name": "Dense",
            "name": "dense_1",
            "config": {"name": "dense_1", "units": 2, "dtype": "float32"},
            "inbound_nodes": [[["dense", 0, 0, {}]]],
        },
    ]
    return {
        "class_name": "Functional",
        "config": {
            "name": "model",
            "layers": layers,
            "input_layers": [["input_1", 0, 0]],
            "output_layers": [["dense_1", 0, 0]],
        },
        "keras_version": "2.15.0",
        "backend": "tensorflow",
    }


def write_keras_callback(logdir: str) -> None:
    """The Keras callback's ``train`` run: train function ``graph_def`` and model JSON;
    a second run ``train_keras2`` with a Keras 2 model's JSON."""
    from tensorboard.compat.proto import event_pb2
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    writer = EventFileWriter(os.path.join(logdir, "train"), filename_suffix=".v2")
    writer.add_event(
        event_pb2.Event(wall_time=WALL0, step=0, graph_def=dense_net_graph().SerializeToString())
    )
    writer.add_event(
        _summary_event("keras", "graph_keras_model", json.dumps(keras3_model()).encode(), 0)
    )
    writer.close()
    writer = EventFileWriter(os.path.join(logdir, "train_keras2"), filename_suffix=".v2")
    writer.add_event(
        _summary_event("keras", "graph_keras_model", json.dumps(keras2_model()).encode(), 0)
    )
    writer.close()


def write_tf1_session(logdir: str) -> None:
    """A TF1 session's events: its graph, its meta graph and a traced step's statistics."""
    from tensorboard.compat.proto import event_pb2, meta_graph_pb2
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    graph = dense_net_graph(device=GPU)
    meta_graph = meta_graph_pb2.MetaGraphDef()
    meta_graph.graph_def.CopyFrom(graph)
    meta_graph.meta_info_def.tensorflow_version = "1.15.5"
    traced = step_stats_for(graph, device=GPU)
    writer = EventFileWriter(logdir)
    writer.add_event(event_pb2.Event(wall_time=WALL0, step=0, graph_def=graph.SerializeToString()))
    writer.add_event(
        event_pb2.Event(wall_time=WALL0, step=0, meta_graph_def=meta_graph.SerializeToString())
    )
    writer.add_event(
        event_pb2.Event(
            wall_time=WALL0 + 5,
            step=5,
            tagged_run_metadata={"tag": "step_5", "run_metadata": traced.SerializeToString()},
        )
    )
    writer.close()


def write_all(logdir: str) -> dict[str, str]:
    """Every graph writer, one run directory each; returns ``{writer: run}``."""
    runs = {
        "torch": "torch",
        "tensorboardX": "tbx",
        "tf2": "tf2_trace",
        "keras": "keras",
        "tf1": "tf1",
    }
    write_torch_graph(os.path.join(logdir, runs["torch"]), "torch")
    write_torch_graph(os.path.join(logdir, runs["tensorboardX"]), "tensorboardX")
    write_tf2_trace(os.path.join(logdir, runs["tf2"]))
    write_keras_callback(os.path.join(logdir, runs["keras"]))
    write_tf1_session(os.path.join(logdir, runs["tf1"]))
    return runs
