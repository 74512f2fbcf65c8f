"""The Runs tab's ``writer``: the library that wrote each run, from what its files tell."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

import tbnb
from tests import writers
from tests.writers import WALL0, write_events


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("torch", "torch.utils.tensorboard"),
        ("tensorboardX", "tensorboardX"),
        ("tf2", "tensorboard EventFileWriter"),  # TF2's tensors through TensorBoard's writer
    ],
)
def test_each_real_writer_is_named(name: str, expected: str) -> None:
    exp = tbnb.load(writers.cached(name).logdir, progress=False)
    assert set(exp.metadata["writer"]) == {expected}


def test_lightning_runs_are_named() -> None:
    from tests.writers_lightning import RUN as LIGHTNING_RUN
    from tests.writers_lightning import cached_lightning

    exp = tbnb.load(cached_lightning().logdir, progress=False)
    assert (
        exp.metadata.loc[LIGHTNING_RUN, "writer"] == "PyTorch Lightning (torch.utils.tensorboard)"
    )


def _tensorflow_file(directory: Path, name: str, graph: bool) -> None:
    """Events as TensorFlow's C++ writer frames them: a file version, no source metadata."""
    from tensorboard.compat.proto import event_pb2, graph_pb2, summary_pb2

    directory.mkdir(parents=True)
    events = [event_pb2.Event(wall_time=WALL0, file_version="brain.Event:2")]
    if graph:
        events.append(
            event_pb2.Event(
                wall_time=WALL0,
                graph_def=graph_pb2.GraphDef(node=[{"name": "x"}]).SerializeToString(),
            )
        )
    value = summary_pb2.Summary.Value(tag="loss", simple_value=0.5)
    events.append(
        event_pb2.Event(wall_time=WALL0, step=1, summary=summary_pb2.Summary(value=[value]))
    )
    write_events(str(directory / name), events)


def test_tensorflow_files_named_by_their_naming_and_records(tmp_path: Path) -> None:
    host = socket.gethostname()
    # TF2's tf.summary file writer and the Keras callback: <time>.<host>.<pid>.<n>.v2
    _tensorflow_file(
        tmp_path / "keras" / "train",
        f"events.out.tfevents.1700000000.{host}.{os.getpid()}.0.v2",
        False,
    )
    # TF1's FileWriter / Estimator: <time>.<host>, a graph logged
    _tensorflow_file(tmp_path / "estimator", f"events.out.tfevents.1700000000.{host}", True)
    # a file named by nothing known
    _tensorflow_file(tmp_path / "other", "run.tfevents.bin", False)
    meta = tbnb.load(str(tmp_path), progress=False).metadata
    assert meta.loc["keras/train", "writer"] == "TensorFlow 2"
    assert meta.loc["estimator", "writer"] == "TensorFlow 1"
    assert meta.loc["other", "writer"] == "unknown"
    assert set(meta["source_writer"]) == {""}
