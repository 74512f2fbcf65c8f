"""``exp.info``: what the logs tell about each run, checked against TensorBoard's own reader.

Writer and file version, first and last wall time, last step, file sizes and counts are
compared with what TensorBoard's event file loader reads from the same files
(``LegacyEventFileLoader`` and ``EventAccumulator``), for torch, tensorboardX, TF2 and a
real Lightning run; config files, environment dumps, run metadata and the diff of runs
with what was written.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.analysis.runinfo import diff_runs, looks_like_environment, text_pairs
from tbnb.warnings import DataWarning
from tests import writers, writers_graphs
from tests.writers_lightning import RUN as LIGHTNING_RUN
from tests.writers_lightning import cached_lightning

ENV = "python: 3.11.4\ntorch: 2.3.0\ncuda: 12.1\n| gpu | NVIDIA A100 |\ngit: 1a2b3c4"


def tensorboard_facts(run_dir: str) -> dict[str, Any]:
    """Wall times, last step, writer and file version of a run, read by TensorBoard."""
    from tensorboard.backend.event_processing import event_accumulator, event_file_loader

    walls, steps, writer_names, versions = [], [], set(), set()
    paths = sorted(os.path.join(run_dir, f) for f in os.listdir(run_dir) if "tfevents" in f)
    for path in paths:
        for event in event_file_loader.LegacyEventFileLoader(path).Load():
            walls.append(event.wall_time)
            if event.HasField("source_metadata") and event.source_metadata.writer:
                writer_names.add(event.source_metadata.writer)
            if event.WhichOneof("what") == "file_version":
                versions.add(event.file_version)
            elif event.WhichOneof("what") not in (None, "session_log", "log_message"):
                steps.append(event.step)
    acc = event_accumulator.EventAccumulator(run_dir)
    acc.Reload()
    return {
        "first": min(walls),
        "first_event": acc.FirstEventTimestamp(),
        "last": max(walls),
        "last_step": max(steps),
        "writer": ", ".join(sorted(writer_names)),
        "version": ", ".join(sorted(versions)),
        "bytes": sum(os.path.getsize(p) for p in paths),
    }


@pytest.mark.parametrize("name", ["torch", "tensorboardX", "tf2", "lightning"])
def test_run_section_equals_tensorboards_reader(name: str) -> None:
    written = cached_lightning() if name == "lightning" else writers.cached(name)
    exp = tbnb.load(written.logdir, progress=False)
    run = LIGHTNING_RUN if name == "lightning" else "."
    facts = tensorboard_facts(exp.run_path(run))
    info = exp.info.loc[run, "run"]
    assert info["first_wall_time"] == facts["first"]  # the earliest wall time of any event:
    assert info["first_wall_time"] <= facts["first_event"]  # writers may date values earlier
    assert info["last_wall_time"] == facts["last"]
    assert info["duration"] == pytest.approx(facts["last"] - facts["first"])
    assert info["last_step"] == facts["last_step"]
    assert info["source_writer"] == facts["writer"]
    assert info["file_version"] == facts["version"]
    assert info["file_bytes"] == facts["bytes"]
    assert exp.info.loc[run, ("counts", "scalars")] == int((exp.scalars["run"] == run).sum())


def test_lightning_hparams_yaml_and_source_writer() -> None:
    exp = tbnb.load(cached_lightning().logdir, progress=False)
    info = exp.info.loc[LIGHTNING_RUN]
    assert info[("config", "hparams.yaml")] == "hidden, lr, optimizer"
    assert info[("config", "hparams.yaml: lr")] == 0.05
    assert info[("hparams", "optimizer")] == "sgd"
    assert info[("run", "source_writer")] == "tensorboard.summary.writer.event_file_writer"
    assert info[("run", "writer")] == "PyTorch Lightning (torch.utils.tensorboard)"
    assert info[("graphs", "graphs")] == "graph_def (graph_def)"


def test_environment_dumps_and_run_metadata(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    with SummaryWriter(str(tmp_path / "a")) as w:
        w.add_text("environment", ENV, 0)
        w.add_text("notes", "the loss went down", 0)
        w.add_scalar("loss", 1.0, 3)
    with SummaryWriter(str(tmp_path / "b")) as w:
        w.add_text("setup/versions", ENV.replace("2.3.0", "2.4.1"), 0)
        w.add_scalar("loss", 2.0, 3)
    writers_graphs.write_tf1_session(str(tmp_path / "tf1"))
    exp = tbnb.load(tmp_path, progress=False)
    env = exp.info["environment"]
    assert env.loc["a", "torch"] == "2.3.0"
    assert env.loc["b", "torch"] == "2.4.1"
    assert env.loc["a", "gpu"] == "NVIDIA A100"
    assert "notes" not in env.columns
    assert "the loss went down" not in env.to_numpy()
    meta = exp.info.loc["tf1", "run_metadata"]
    assert meta["step_5: nodes timed"] == 16
    assert meta["step_5: step"] == 5
    assert meta["step_5: compute (ms)"] == pytest.approx(sum(3 + 2 * k for k in range(16)) / 1000)
    assert meta["step_5: devices"] == writers_graphs.GPU
    diff = diff_runs(exp.info, ["a", "b"])
    assert ("environment", "torch") in diff.index
    assert ("environment", "python") not in diff.index  # equal in both: not a difference
    assert diff.loc[("environment", "torch"), "differs"]


def test_environment_detection() -> None:
    assert looks_like_environment("env", "anything at all")
    assert looks_like_environment("text", "Python: 3.10\nCUDA: 11.8\nGPU: T4")
    assert not looks_like_environment("config", "lr: 0.1\nbatch: 32\nepochs: 10")
    assert not looks_like_environment("env", "   ")
    assert text_pairs("numpy==1.26.4\n- os = linux") == {"numpy": "1.26.4", "os": "linux"}


def test_a_bad_config_file_warns_and_keeps_the_rest(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    for run in ("good", "bad"):
        with SummaryWriter(str(tmp_path / run)) as w:
            w.add_scalar("loss", 1.0, 0)
    (tmp_path / "good" / "hparams.yaml").write_text("lr: 0.1\n")
    (tmp_path / "bad" / "hparams.yaml").write_text("lr: [0.1\n")
    (tmp_path / "bad" / "config.json").write_text('{"seed": 3}')
    exp = tbnb.load(tmp_path, progress=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        info = exp.info
    messages = [str(w.message) for w in caught if issubclass(w.category, DataWarning)]
    assert any("run 'bad'" in m and "hparams.yaml" in m for m in messages), messages
    assert info.loc["bad", ("config", "config.json: seed")] == 3  # the good file beside it
    assert info.loc["good", ("config", "hparams.yaml: lr")] == 0.1


def test_diff_runs_side_by_side() -> None:
    info = pd.DataFrame(
        {
            ("hparams", "lr"): [0.1, 0.1, 0.01],
            ("hparams", "opt"): ["a", "a", "a"],
            ("run", "host"): ["h1", np.nan, "h1"],
        },
        index=pd.Index(["x", "y", "z"], name="run"),
    )
    both = diff_runs(info, ["x", "y"], only_different=False)
    assert both["differs"].tolist() == [False, False, True]
    assert diff_runs(info, ["x", "z"]).index.tolist() == [("hparams", "lr")]
    with pytest.raises(KeyError, match="no run 'w'"):
        diff_runs(info, ["x", "w"])


def test_info_follows_reloads(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(tmp_path / "r"))
    writer.add_scalar("loss", 1.0, 1)
    writer.flush()
    exp = tbnb.load(tmp_path, progress=False)
    assert exp.info.loc["r", ("run", "last_step")] == 1
    writer.add_scalar("loss", 0.5, 7)
    writer.close()
    exp.reload()
    assert exp.info.loc["r", ("run", "last_step")] == 7
    assert exp.metadata.loc["r", "last_step"] == 7
