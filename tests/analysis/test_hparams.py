"""Hparams discovery on logdirs written by real writers (torch, tensorboardX, TensorBoard's
TF-free hparams helpers, a Lightning-style folder) and by hand."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import Any

import fsspec
import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb._proto import Event, HParamsPluginData, TensorProto
from tbnb.analysis.hparams import (
    HParamsSource,
    flatten_config,
    hparams_frame,
    parse_run_name,
    read_config_file,
)

# --------------------------------------------------------------------------- test double


def _records(path: Path) -> list[bytes]:
    """Payloads of a TFRecord file (plain framing, no CRC checks: the writers are trusted)."""
    data = path.read_bytes()
    out, pos = [], 0
    while pos + 12 <= len(data):
        (length,) = struct.unpack_from("<Q", data, pos)
        out.append(data[pos + 12 : pos + 12 + length])
        pos += 12 + length + 4
    return out


def _tensor_scalar(tensor: Any) -> float:
    if tensor.float_val:
        return float(tensor.float_val[0])
    if tensor.double_val:
        return float(tensor.double_val[0])
    dtype = "<f4" if tensor.dtype == 1 else "<f8"
    return float(np.frombuffer(tensor.tensor_content, dtype=dtype)[0])


class LogdirSource:
    """A small :class:`HParamsSource` reading a local logdir the way the loader does."""

    def __init__(self, logdir: Path) -> None:
        self.logdir = logdir
        self.fs = fsspec.filesystem("file")
        files: dict[str, list[Path]] = {}
        for directory, _dirs, names in os.walk(logdir):
            for name in names:
                if "tfevents" in name:
                    run = os.path.relpath(directory, logdir).replace(os.sep, "/")
                    files.setdefault(run, []).append(Path(directory) / name)
        self.all_runs = sorted(files)
        rows: list[tuple[str, str, int, float, float]] = []
        self.hparams_values: list[tuple[str, str, int, bytes]] = []
        for run in self.all_runs:
            plugins: dict[str, str] = {}
            for path in sorted(files[run]):
                for payload in _records(path):
                    event = Event.FromString(payload)
                    if not event.HasField("summary"):
                        continue
                    for value in event.summary.value:
                        if value.metadata.plugin_data.plugin_name:
                            plugins.setdefault(value.tag, value.metadata.plugin_data.plugin_name)
                        plugin = plugins.get(value.tag, "")
                        if plugin == "hparams":
                            content = value.metadata.plugin_data.content
                            self.hparams_values.append((run, value.tag, event.step, content))
                        elif value.WhichOneof("value") == "simple_value":
                            rows.append(
                                (run, value.tag, event.step, event.wall_time, value.simple_value)
                            )
                        elif plugin == "scalars" and value.HasField("tensor"):
                            rows.append(
                                (
                                    run,
                                    value.tag,
                                    event.step,
                                    event.wall_time,
                                    _tensor_scalar(value.tensor),
                                )
                            )
        self.scalars = pd.DataFrame(rows, columns=["run", "tag", "step", "wall_time", "value"])
        self.scalars = self.scalars.astype({"run": "category", "tag": "category"})

    def run_path(self, run: str) -> str:
        return str(self.logdir / run)


def _load(logdir: Path, **kwargs: Any) -> pd.DataFrame:
    source = LogdirSource(logdir)
    assert isinstance(source, HParamsSource)
    return hparams_frame(source, **kwargs)


# --------------------------------------------------------------------------- writers


def _tf2_writer(directory: Path) -> Any:
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    return EventFileWriter(str(directory))


def _tf2_write(directory: Path, summary: Any, step: int = 0) -> None:
    from tensorboard.compat.proto import event_pb2

    writer = _tf2_writer(directory)
    writer.add_event(event_pb2.Event(step=step, wall_time=1.7e9 + step, summary=summary))
    writer.close()


# --------------------------------------------------------------------------- torch


@pytest.fixture(scope="module")
def torch_sweep(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three runs, each with its own writer: curves, then ``add_hparams`` (timestamped sub-run)."""
    from torch.utils.tensorboard import SummaryWriter

    logdir = tmp_path_factory.mktemp("torch_sweep")
    grid = [(0.1, 32, "adam"), (0.01, 64, "sgd"), (0.001, 32, "sgd")]
    for i, (lr, bs, opt) in enumerate(grid):
        writer = SummaryWriter(str(logdir / f"run{i}"))
        for step in range(10):
            writer.add_scalar("train/loss", (i + 1) * (10 - step), step)
            writer.add_scalar("val/acc", 0.1 * step + i, step)
        writer.add_hparams(
            {"lr": lr, "bs": bs, "opt": opt, "dropout": None},
            {"hparam/acc": 0.9 + i / 100, "hparam/loss": float(i)},
        )
        writer.close()
    return logdir


def test_torch_add_hparams_merges_sub_run(torch_sweep: Path) -> None:
    source = LogdirSource(torch_sweep)
    assert len(source.all_runs) == 6  # three runs, three timestamped sub-runs
    df = hparams_frame(source)
    assert list(df.index) == ["run0", "run1", "run2"]
    assert df.index.name == "run"
    assert df.attrs["hparam_columns"] == ["lr", "bs", "opt"]
    assert df.attrs["metric_columns"] == [
        "hparam/acc.last",
        "hparam/loss.last",
        "train/loss.last",
        "val/acc.last",
    ]
    assert list(df.columns) == df.attrs["hparam_columns"] + df.attrs["metric_columns"]
    assert df["lr"].tolist() == [0.1, 0.01, 0.001]
    assert str(df["bs"].dtype) == "Int64"
    assert df["bs"].tolist() == [32, 64, 32]
    assert df["opt"].tolist() == ["adam", "sgd", "sgd"]
    np.testing.assert_allclose(df["hparam/acc.last"], [0.9, 0.91, 0.92], rtol=1e-6)
    np.testing.assert_allclose(df["train/loss.last"], [1, 2, 3])
    np.testing.assert_allclose(df["val/acc.last"], [0.9, 1.9, 2.9], rtol=1e-6)
    assert df.attrs["domains"]["lr"]["type"] == "float64"
    assert df.attrs["domains"]["opt"]["type"] == "string"
    assert df.attrs["declared_metrics"] == ["hparam/acc", "hparam/loss"]
    assert df.attrs["status"] == {"run0": "success", "run1": "success", "run2": "success"}
    assert df.attrs["sources"]["run1"] == ["events"]
    (sub,) = (run for run in source.all_runs if run.startswith("run1/"))
    assert df.attrs["members"]["run1"] == ["run1", sub]
    assert df.attrs["notes"] == []


def test_torch_single_run_logdir_merges_into_root(torch_sweep: Path) -> None:
    df = _load(torch_sweep / "run1", metrics=["last", "min", "max"])
    assert list(df.index) == ["."]
    assert df.loc[".", "opt"] == "sgd"
    assert df.loc[".", "train/loss.min"] == 2
    assert df.loc[".", "train/loss.max"] == 20
    assert df.loc[".", "train/loss.last"] == 2


def test_torch_domains_declared(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    with SummaryWriter(str(tmp_path / "a")) as writer:
        writer.add_scalar("loss", 1.0, 0)
        writer.add_hparams(
            {"opt": "adam", "layers": 2},
            {"m": 1.0},
            hparam_domain_discrete={"opt": ["adam", "sgd"], "layers": [2, 4]},
            run_name="hp",
        )
    df = _load(tmp_path)
    assert list(df.index) == ["a"]
    assert df.attrs["domains"]["opt"] == {"type": "string", "values": ["adam", "sgd"]}
    assert df.attrs["domains"]["layers"] == {"type": "float64", "values": [2.0, 4.0]}
    assert df.loc["a", "m.last"] == 1.0
    assert df.loc["a", "loss.last"] == 1.0


# --------------------------------------------------------------------------- tensorboardX


def test_tensorboardx_add_hparams_with_name(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    for i, aug in enumerate([True, False]):
        writer = SummaryWriter(str(tmp_path / f"exp{i}"))
        for step in range(5):
            writer.add_scalar("loss", 5 - step + i, step)
        writer.add_hparams(
            {"lr": 0.5 / (i + 1), "aug": aug, "act": "relu"}, {"best": 1.0 + i}, name="hparams"
        )
        writer.close()
    df = _load(tmp_path)
    assert list(df.index) == ["exp0", "exp1"]
    assert df["aug"].tolist() == [True, False]
    assert str(df["aug"].dtype) == "boolean"
    assert df["lr"].tolist() == [0.5, 0.25]
    assert df["best.last"].tolist() == [1.0, 2.0]
    assert df["loss.last"].tolist() == [1.0, 2.0]


def test_tensorboardx_one_writer_many_add_hparams(tmp_path: Path) -> None:
    """The documented sweep loop: one writer, add_hparams per trial; each trial is a row."""
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path)) as writer:
        writer.add_scalar("curve", 1.0, 0)
        for i in range(3):
            writer.add_hparams(
                {"lr": 0.1 * (i + 1), "bsize": i}, {"hparam/accuracy": 10.0 * i}, name=f"trial{i}"
            )
    df = _load(tmp_path)
    assert list(df.index) == [".", "trial0", "trial1", "trial2"]
    assert df.loc[".", "curve.last"] == 1.0
    assert pd.isna(df.loc[".", "lr"])
    np.testing.assert_allclose(df.loc[["trial0", "trial1", "trial2"], "lr"], [0.1, 0.2, 0.3])
    assert df.loc["trial2", "hparam/accuracy.last"] == 20.0
    assert any("3 add_hparams sub-runs" in note for note in df.attrs["notes"])


def test_repeated_add_hparams_with_same_values_merge(tmp_path: Path) -> None:
    """add_hparams called twice with the same hparams (start and end): one row, metrics merged."""
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "r")) as writer:
        writer.add_hparams({"lr": 0.1}, {"hp_metric": -1.0}, name="a", global_step=0)
        writer.add_scalar("loss", 3.0, 7)
        writer.add_hparams({"lr": 0.1}, {"hp_metric": 0.75}, name="b", global_step=7)
    df = _load(tmp_path, metrics=["last", "min"])
    assert list(df.index) == ["r"]
    assert df.loc["r", "hp_metric.last"] == 0.75
    assert df.loc["r", "hp_metric.min"] == -1.0
    assert df.loc["r", "loss.last"] == 3.0


# --------------------------------------------------------------------------- TF2 / Keras


@pytest.fixture(scope="module")
def keras_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """TF2 layout: experiment config at the top, a session per trial, train/ and validation/
    metric groups written with TF2 tensor scalars (what the Keras callbacks write)."""
    from tensorboard.compat.proto import summary_pb2
    from tensorboard.plugins.hparams import summary_v2 as hp
    from tensorboard.plugins.scalar import summary_v2 as scalar

    logdir = tmp_path_factory.mktemp("keras")
    lr = hp.HParam("lr", hp.RealInterval(1e-4, 1e-1))
    units = hp.HParam("units", hp.Discrete([16, 32]))
    opt = hp.HParam("optimizer", hp.Discrete(["adam", "sgd"]))
    _tf2_write(
        logdir,
        hp.hparams_config_pb(
            hparams=[lr, units, opt],
            metrics=[hp.Metric("epoch_loss", group="validation", display_name="val loss")],
        ),
    )
    trials = [(1e-3, 16, "adam"), (1e-2, 32, "sgd")]
    for i, (lr_value, units_value, opt_value) in enumerate(trials):
        session = logdir / f"run-{i}"
        session.mkdir()
        _tf2_write(
            session,
            hp.hparams_pb({lr: lr_value, units: units_value, opt: opt_value}, trial_id=f"t{i}"),
        )
        for group, offset in (("train", 0.0), ("validation", 0.5)):
            (session / group).mkdir()
            writer = _tf2_writer(session / group)
            from tensorboard.compat.proto import event_pb2

            for epoch in range(4):
                value = 1.0 / (epoch + 1) + offset + i
                summary = scalar.scalar_pb("epoch_loss", value)
                assert isinstance(summary, summary_pb2.Summary)
                writer.add_event(
                    event_pb2.Event(step=epoch, wall_time=1.7e9 + epoch, summary=summary)
                )
            writer.close()
    return logdir


def test_tf2_sessions_and_metric_groups(keras_logdir: Path) -> None:
    source = LogdirSource(keras_logdir)
    assert source.all_runs == [
        ".",
        "run-0",
        "run-0/train",
        "run-0/validation",
        "run-1",
        "run-1/train",
        "run-1/validation",
    ]
    df = hparams_frame(source, metrics=["last", "min"])
    assert list(df.index) == ["run-0", "run-1"]  # "." holds only the experiment config
    assert df.attrs["hparam_columns"] == ["lr", "units", "optimizer"]
    assert df.attrs["metric_columns"] == [
        "train/epoch_loss.last",
        "train/epoch_loss.min",
        "validation/epoch_loss.last",
        "validation/epoch_loss.min",
    ]
    assert df["lr"].tolist() == pytest.approx([1e-3, 1e-2])
    assert df["units"].tolist() == [16, 32]
    assert df["optimizer"].tolist() == ["adam", "sgd"]
    np.testing.assert_allclose(df["validation/epoch_loss.last"], [0.75, 1.75])
    np.testing.assert_allclose(df["train/epoch_loss.min"], [0.25, 1.25])
    domains = df.attrs["domains"]
    assert domains["lr"] == {"type": "float64", "interval": [1e-4, 1e-1]}
    assert domains["units"] == {"type": "float64", "values": [16.0, 32.0]}
    assert domains["optimizer"] == {"type": "string", "values": ["adam", "sgd"]}
    assert df.attrs["declared_metrics"] == ["validation/epoch_loss"]
    assert df.attrs["members"] == {
        "run-0": ["run-0", "run-0/train", "run-0/validation"],
        "run-1": ["run-1", "run-1/train", "run-1/validation"],
    }


def test_metric_tags_select_by_name_and_pattern(keras_logdir: Path) -> None:
    df = _load(keras_logdir, metric_tags=["validation/*"])
    assert df.attrs["metric_columns"] == ["validation/epoch_loss.last"]
    df = _load(keras_logdir, metric_tags=["epoch_loss"])  # the bare tag matches every group
    assert df.attrs["metric_columns"] == ["train/epoch_loss.last", "validation/epoch_loss.last"]
    df = _load(keras_logdir, metric_tags="nothing")
    assert df.attrs["metric_columns"] == []
    assert list(df.columns) == ["lr", "units", "optimizer"]


def test_unknown_reduction_is_rejected(keras_logdir: Path) -> None:
    with pytest.raises(ValueError, match="unknown metric reductions"):
        _load(keras_logdir, metrics=["median"])
    with pytest.raises(ValueError, match="at least one"):
        _load(keras_logdir, metrics=[])


# --------------------------------------------------------------------------- Lightning


def test_lightning_style_folder(tmp_path: Path) -> None:
    """Lightning's TensorBoardLogger: hparams summaries in the run's own file (keys flattened
    with '/') and the nested dict in hparams.yaml beside it."""
    from torch.utils.tensorboard import SummaryWriter
    from torch.utils.tensorboard.summary import hparams

    for version, (lr, layers) in enumerate([(0.01, [64, 64]), (0.1, [128])]):
        run = tmp_path / "lightning_logs" / f"version_{version}"
        writer = SummaryWriter(str(run))
        params = {"model/lr": lr, "model/name": "mlp", "seed": version}
        file_writer: Any = writer._get_file_writer()  # type: ignore[no-untyped-call]
        for summary in hparams(params, {"hp_metric": -1}):  # type: ignore[no-untyped-call]
            file_writer.add_summary(summary)
        writer.add_scalar("hp_metric", -1, 0)
        for step in range(3):
            writer.add_scalar("val_loss", 1.0 - lr * step, step)
        writer.add_scalar("hp_metric", 0.5 + version, 3)
        writer.close()
        (run / "hparams.yaml").write_text(
            f"model:\n  lr: {lr}\n  name: mlp\n  layers: {layers}\nseed: {version}\n"
            "data:\n  batch_size: 32\n  path: !!python/object/apply:pathlib.PosixPath\n"
            "  - /\n  - data\n  act: !!python/name:torch.nn.ReLU ''\n"
        )
    df = _load(tmp_path / "lightning_logs")
    assert list(df.index) == ["version_0", "version_1"]
    assert df.attrs["hparam_columns"] == [
        "model/lr",
        "model/name",
        "seed",
        "model.layers",
        "data.batch_size",
        "data.path",
        "data.act",
    ]
    assert df["model/lr"].tolist() == [0.01, 0.1]
    assert df["model.layers"].tolist() == ["[64, 64]", "[128]"]
    assert df["data.batch_size"].tolist() == [32, 32]
    assert df["data.path"].tolist() == ["/data", "/data"]
    assert df["data.act"].tolist() == ["torch.nn.ReLU", "torch.nn.ReLU"]
    assert df["hp_metric.last"].tolist() == [0.5, 1.5]
    assert df["val_loss.last"].tolist() == pytest.approx([0.98, 0.8])
    assert df.attrs["sources"]["version_0"] == ["events", "config"]


# --------------------------------------------------------------------------- config files


def _write_scalar_run(directory: Path, values: list[float], tag: str = "loss") -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(directory)) as writer:
        for step, value in enumerate(values):
            writer.add_scalar(tag, value, step)


def test_config_files_beside_event_files(tmp_path: Path) -> None:
    _write_scalar_run(tmp_path / "a", [3.0, 2.0])
    (tmp_path / "a" / "config.json").write_text(
        json.dumps({"optimizer": {"name": "adam", "betas": [0.9, 0.99]}, "epochs": 3})
    )
    (tmp_path / "a" / "args.json").write_text(json.dumps({"epochs": 99, "seed": 0}))
    _write_scalar_run(tmp_path / "b", [1.0])
    (tmp_path / "b" / "config.yaml").write_text("optimizer:\n  name: sgd\nuse_amp: true\n")
    _write_scalar_run(tmp_path / "c", [5.0])
    (tmp_path / "c" / ".hydra").mkdir()
    (tmp_path / "c" / ".hydra" / "config.yaml").write_text("optimizer:\n  name: lamb\n")
    _write_scalar_run(tmp_path / "d", [4.0])
    (tmp_path / "d" / "hparams.yaml").write_text("a: [unclosed\n")
    df = _load(tmp_path)
    assert list(df.index) == ["a", "b", "c", "d"]
    assert df["optimizer.name"].tolist()[:3] == ["adam", "sgd", "lamb"]
    assert pd.isna(df.loc["d", "optimizer.name"])
    assert df.loc["a", "optimizer.betas"] == "[0.9, 0.99]"
    assert df["epochs"].tolist()[0] == 3  # config.json comes before args.json
    assert pd.isna(df.loc["b", "epochs"])
    assert str(df["use_amp"].dtype) == "boolean"
    assert pd.isna(df.loc["a", "use_amp"])
    assert df.loc["b", "use_amp"]
    assert df["loss.last"].tolist() == [2.0, 1.0, 5.0, 4.0]
    (note,) = df.attrs["notes"]
    assert note.startswith("run 'd': hparams.yaml not read (hparams.yaml: while parsing")
    assert "\n" not in note
    assert df.attrs["sources"]["d"] == []


def test_mixed_types_fall_back_to_string(tmp_path: Path) -> None:
    for name, lr in (("a", "0.1"), ("b", '"auto"'), ("c", "null"), ("d", "1")):
        _write_scalar_run(tmp_path / name, [1.0])
        (tmp_path / name / "hparams.yaml").write_text(f"lr: {lr}\nbs: 8\n")
    df = _load(tmp_path)
    assert str(df["lr"].dtype) == "string"
    assert df["lr"].tolist()[:2] == ["0.1", "auto"]
    assert pd.isna(df.loc["c", "lr"])
    assert df.loc["d", "lr"] == "1"
    assert str(df["bs"].dtype) == "Int64"
    assert any("'lr' mixes float, int, str" in note for note in df.attrs["notes"])


def test_int_and_float_mix_stays_numeric(tmp_path: Path) -> None:
    for name, lr in (("a", "1"), ("b", "0.5")):
        _write_scalar_run(tmp_path / name, [1.0])
        (tmp_path / name / "args.json").write_text(f'{{"lr": {lr}}}')
    df = _load(tmp_path)
    assert df["lr"].dtype == np.float64
    assert df["lr"].tolist() == [1.0, 0.5]
    assert df.attrs["notes"] == []


def test_event_hparams_win_over_config(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "r")) as writer:
        writer.add_scalar("loss", 1.0, 0)
        writer.add_hparams({"lr": 0.1}, {}, name="hp")
    (tmp_path / "r" / "config.yaml").write_text("lr: 0.5\nwd: 0.01\n")
    df = _load(tmp_path)
    assert df.loc["r", "lr"] == 0.1
    assert df.loc["r", "wd"] == 0.01


def test_read_config_file_and_flatten() -> None:
    assert read_config_file("", "config.yaml") == {}
    assert read_config_file('{"a": {"b": {"c": 1}}, "e": {}}', "config.json") == {
        "a.b.c": 1,
        "e": None,
    }
    with pytest.raises(ValueError, match="not a mapping"):
        read_config_file("[1, 2]", "config.yaml")
    with pytest.raises(ValueError, match=r"args\.json"):
        read_config_file("{", "args.json")
    namespace = "!!python/object:argparse.Namespace\nlr: 0.1\nname: x\n"
    assert read_config_file(namespace, "hparams.yaml") == {"lr": 0.1, "name": "x"}
    assert flatten_config({"x": np.float32(0.5), "y": (1, 2), "z": object}) == {
        "x": 0.5,
        "y": "[1, 2]",
        "z": "<class 'object'>",
    }


# --------------------------------------------------------------------------- run names


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("lr=0.001,bs=32", {"lr": 0.001, "bs": 32}),
        ("lr=0.001, bs=32; opt=adam", {"lr": 0.001, "bs": 32, "opt": "adam"}),
        ("lr=1e-3_bs=32", {"lr": 0.001, "bs": 32}),
        ("lr=1e-3-bs=32", {"lr": 0.001, "bs": 32}),
        ("learning_rate=0.1-weight_decay=0", {"learning_rate": 0.1, "weight_decay": 0}),
        ("opt=adam_bs=8", {"opt": "adam", "bs": 8}),
        ("amp=true_bs=8", {"amp": True, "bs": 8}),
        ("wd=-0.5,x=.5", {"wd": -0.5, "x": 0.5}),
        ("sweep/lr=0.1/seed=3", {"lr": 0.1, "seed": 3}),
        ("lr=0.1/lr=0.2", {"lr": 0.2}),
        ("run_7", {}),
        ("lr=0.1,bs=32,extra", {"lr": 0.1, "bs": 32}),
        ("name=resnet_50", {"name": "resnet_50"}),
    ],
)
def test_parse_run_name(name: str, expected: dict[str, Any]) -> None:
    parsed, notes = parse_run_name(name)
    assert parsed == expected
    assert all(type(parsed[k]) is type(v) for k, v in expected.items())
    assert notes == []


def test_parse_run_name_ambiguous() -> None:
    parsed, notes = parse_run_name("lr=0.1,opt=adam_w_warm_up=5")
    assert parsed == {"lr": 0.1}
    assert len(notes) == 1
    assert "adam_w_warm_up" in notes[0]


def test_run_names_are_opt_in(tmp_path: Path) -> None:
    for lr, bs in ((0.1, 32), (0.01, 64)):
        _write_scalar_run(tmp_path / f"lr={lr},bs={bs}", [1.0, bs / 100])
    (tmp_path / "lr=0.1,bs=32" / "args.json").write_text('{"bs": 16}')
    assert _load(tmp_path).attrs["hparam_columns"] == ["bs"]
    df = _load(tmp_path, parse_run_names=True)
    assert list(df.index) == ["lr=0.01,bs=64", "lr=0.1,bs=32"]
    assert df["bs"].tolist() == [64, 16]  # the config file wins over the name
    assert df["lr"].tolist() == [0.01, 0.1]
    assert df.attrs["sources"]["lr=0.1,bs=32"] == ["config", "run name"]


# --------------------------------------------------------------------------- metrics


def test_last_is_at_largest_step_and_keeps_nan(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "r")) as writer:
        writer.add_scalar("loss", 1.0, 5)
        writer.add_scalar("loss", 2.0, 9)
        writer.add_scalar("loss", 3.0, 7)  # written later, smaller step
        writer.add_scalar("diverged", 1.0, 0)
        writer.add_scalar("diverged", float("nan"), 1)
        writer.add_scalar("tie", 1.0, 4)
        writer.add_scalar("tie", 6.0, 4)
    df = _load(tmp_path, metrics=["last", "min", "max", "mean"])
    row = df.loc["r"]
    assert row["loss.last"] == 2.0
    assert (row["loss.min"], row["loss.max"], row["loss.mean"]) == (1.0, 3.0, 2.0)
    assert np.isnan(row["diverged.last"])
    assert row["diverged.max"] == 1.0
    assert row["tie.last"] == 6.0


def test_runs_without_hparams_are_rows_with_missing_values(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "with")) as writer:
        writer.add_scalar("acc", 0.5, 0)
        writer.add_hparams({"lr": 0.1, "opt": "adam"}, {}, name="hp")
    _write_scalar_run(tmp_path / "without", [0.25], tag="acc")
    _write_scalar_run(tmp_path / "other", [7.0], tag="other")
    df = _load(tmp_path)
    assert list(df.index) == ["other", "with", "without"]
    assert pd.isna(df.loc["without", "lr"])
    assert pd.isna(df.loc["without", "opt"])
    assert np.isnan(df.loc["other", "acc.last"])
    assert df.loc["without", "acc.last"] == 0.25


def test_undecodable_plugin_data_is_noted(tmp_path: Path) -> None:
    good = HParamsPluginData()
    good.session_start_info.hparams["lr"].number_value = 0.5
    source = _FakeSource(
        runs=["a", "b"],
        hparams_values=[
            ("a", "_hparams_/session_start_info", 0, good.SerializeToString()),
            ("b", "_hparams_/session_start_info", 0, b"\xff\xff\xff"),
        ],
        base=tmp_path,
    )
    df = hparams_frame(source)
    assert df["lr"].tolist()[0] == 0.5
    assert pd.isna(df.loc["b", "lr"])
    assert df.attrs["notes"] == ["run 'b': undecodable hparams plugin data skipped"]


def test_struct_and_list_values(tmp_path: Path) -> None:
    data = HParamsPluginData()
    hparams = data.session_start_info.hparams
    hparams["layers"].list_value.values.add().number_value = 3  # noqa: PD011
    hparams["opt"].struct_value.fields["name"].string_value = "adam"
    hparams["unset"].SetInParent()
    source = _FakeSource(
        runs=["a"],
        hparams_values=[("a", "_hparams_/session_start_info", 0, data.SerializeToString())],
        base=tmp_path,
    )
    df = hparams_frame(source)
    assert df.loc["a", "layers"] == "[3.0]"
    assert df.loc["a", "opt"] == '{"name": "adam"}'
    assert pd.isna(df.loc["a", "unset"])


def test_empty_source(tmp_path: Path) -> None:
    df = hparams_frame(_FakeSource(runs=[], hparams_values=[], base=tmp_path))
    assert df.empty
    assert df.index.name == "run"
    assert df.attrs["hparam_columns"] == []
    assert df.attrs["metric_columns"] == []


def test_tensor_type_is_float_for_hand_built_frames() -> None:
    # The test double reads TF2 tensor scalars from float_val and tensor_content alike.
    tensor = TensorProto(dtype=2, tensor_content=np.float64(2.5).tobytes())
    assert _tensor_scalar(tensor) == 2.5


class _FakeSource:
    """Hand-built plugin data with no event files (and no scalars)."""

    def __init__(
        self, runs: list[str], hparams_values: list[tuple[str, str, int, bytes]], base: Path
    ) -> None:
        self.all_runs = runs
        self.hparams_values = hparams_values
        self.scalars = pd.DataFrame(
            {"run": [], "tag": [], "step": [], "wall_time": [], "value": []}
        )
        self.fs = fsspec.filesystem("file")
        self.base = base

    def run_path(self, run: str) -> str:
        return str(self.base / run)


# --------------------------------------------------------------------------- the loader


@pytest.mark.parametrize("fixture", ["torch_sweep", "keras_logdir"])
def test_experiment_gives_the_same_frame(fixture: str, request: pytest.FixtureRequest) -> None:
    """tbnb.load implements HParamsSource: exp.hparams equals the frame from the test double."""
    import tbnb

    logdir = request.getfixturevalue(fixture)
    exp = tbnb.load(logdir, progress=False)
    own = exp.hparams
    assert isinstance(exp, HParamsSource)
    expected = _load(logdir, metrics=["last", "min", "max"])
    got = hparams_frame(exp, metrics=["last", "min", "max"])
    pd.testing.assert_frame_equal(got, expected)
    assert got.attrs == expected.attrs
    pd.testing.assert_frame_equal(own, _load(logdir))


def test_plain_string_run_and_tag_columns(torch_sweep: Path) -> None:
    """A scalars frame with plain (not categorical) run/tag columns gives the same frame."""
    source = LogdirSource(torch_sweep)
    expected = hparams_frame(source, metrics=["last", "min", "max", "mean"])
    source.scalars = source.scalars.astype({"run": object, "tag": object})
    got = hparams_frame(source, metrics=["last", "min", "max", "mean"])
    pd.testing.assert_frame_equal(got, expected)


def test_default_metrics_are_declared_then_metric_like_without_duplicates(
    sample_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """lr.last is opt-in; hparam/val_acc.last and val/acc.last (same values) show once."""
    monkeypatch.setenv("TBNB_CACHE_DIR", str(sample_cache))  # written once per session
    exp = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
    table = exp.hparams
    defaults = table.attrs["default_metrics"]
    assert "lr.last" in table.attrs["metric_columns"]
    assert "lr.last" not in defaults
    assert defaults[:2] == ["hparam/val_loss.last", "hparam/val_acc.last"]  # as declared
    assert "train/loss.last" in defaults
    for kept in defaults:
        for other in defaults:
            if kept != other:
                assert not table[kept].equals(table[other])
    assert "val/acc.last" not in defaults or not table["val/acc.last"].equals(
        table["hparam/val_acc.last"]
    )
