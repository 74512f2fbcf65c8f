"""The bundled sample logdir: written by tensorboardX, deterministic, cached."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tbnb.notebook import samples
from tbnb.notebook.samples import SampleSpec, sample_logdir, write_sample

pytest.importorskip("tensorboardX")

SMALL = SampleSpec(
    learning_rates=(1e-3, 1e-2), seeds=(0, 1), steps=60, val_every=20, hist_every=30,
    image_steps=(0, 59),
)


def _read_run(run_dir: Path) -> dict[str, Any]:
    """Read one run with TensorBoard's own EventAccumulator (an independent reader)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    ea = EventAccumulator(
        str(run_dir), size_guidance={"scalars": 0, "histograms": 0, "images": 0, "tensors": 0}
    )
    ea.Reload()
    tags = ea.Tags()
    return {
        "tags": tags,
        "scalars": {
            t: [(e.step, e.wall_time, e.value) for e in ea.Scalars(t)] for t in tags["scalars"]
        },
        "hist_steps": {t: [e.step for e in ea.Histograms(t)] for t in tags["histograms"]},
        "images": [(e.step, e.width, e.height) for t in tags["images"] for e in ea.Images(t)],
        "text": {t: [e.tensor_proto.string_val[0] for e in ea.Tensors(t)] for t in tags["tensors"]},
    }


def test_write_sample_contents(tmp_path: Path) -> None:
    names = write_sample(tmp_path, SMALL)
    assert names == ["lr=0.001,seed=0", "lr=0.001,seed=1", "lr=0.01,seed=0", "lr=0.01,seed=1"]
    run = _read_run(tmp_path / names[0])
    expected = ["lr", "train/acc", "train/loss", "val/acc", "val/loss"]
    assert sorted(run["tags"]["scalars"]) == expected
    scalars = run["scalars"]
    assert [s for s, _, _ in scalars["train/loss"]] == list(range(60))
    assert [s for s, _, _ in scalars["val/loss"]] == [0, 20, 40, 59]  # last step always validated
    assert run["hist_steps"] == {"weights/layer1": [0, 30, 59], "weights/layer2": [0, 30, 59]}
    assert run["images"] == [(0, 64, 64), (59, 64, 64)]
    assert b"seed**: 0" in run["text"]["config/text_summary"][0]
    # losses fall, the schedule warms up then decays
    loss = np.array([v for _, _, v in scalars["train/loss"]])
    assert loss[-10:].mean() < loss[:10].mean()
    lr = np.array([v for _, _, v in scalars["lr"]])
    assert lr.argmax() not in (0, len(lr) - 1)
    # wall times are the simulated ones (fixed start, 0.05 s per step)
    assert scalars["train/loss"][1][1] - scalars["train/loss"][0][1] == pytest.approx(0.05)


def test_hparams_written_by_add_hparams(tmp_path: Path) -> None:
    names = write_sample(tmp_path, SMALL)
    subruns = [p for p in (tmp_path / names[-1]).iterdir() if p.is_dir()]
    assert len(subruns) == 1  # tensorboardX's sub-run, named like its timestamp
    float(subruns[0].name)
    sub = _read_run(subruns[0])
    assert sorted(sub["tags"]["scalars"]) == ["hparam/val_acc", "hparam/val_loss"]
    parent = _read_run(tmp_path / names[-1])
    assert sub["scalars"]["hparam/val_loss"][0][2] == pytest.approx(
        parent["scalars"]["val/loss"][-1][2]
    )


def test_deterministic(tmp_path: Path) -> None:
    write_sample(tmp_path / "a", SMALL)
    write_sample(tmp_path / "b", SMALL)
    for name in SMALL.run_names():
        a, b = _read_run(tmp_path / "a" / name), _read_run(tmp_path / "b" / name)
        assert a["scalars"] == b["scalars"]
        assert a["text"] == b["text"]


def test_runs_differ_by_lr_and_seed(tmp_path: Path) -> None:
    names = write_sample(tmp_path, SMALL)
    finals = {n: _read_run(tmp_path / n)["scalars"]["train/loss"][-1][2] for n in names}
    assert len(set(finals.values())) == len(names)


def test_sample_logdir_cached_and_refuses_foreign_dirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(samples, "DEFAULT_SPEC", SMALL)
    monkeypatch.setenv("TBNB_CACHE_DIR", str(tmp_path / "cache"))
    first = sample_logdir()
    assert first == tmp_path / "cache" / "samples" / f"sweep-v{samples.SAMPLE_VERSION}"
    marker = first / "lr=0.001,seed=0"
    mtime = marker.stat().st_mtime_ns
    assert sample_logdir() == first  # reused, not regenerated
    assert marker.stat().st_mtime_ns == mtime
    assert not [p for p in first.parent.iterdir() if p.name.startswith(".")]  # no temp leftovers

    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(FileExistsError, match="not a tbnb sample"):
        sample_logdir(foreign)
    assert (foreign / "notes.txt").read_text() == "keep me"

    empty = tmp_path / "empty"
    empty.mkdir()
    assert sample_logdir(empty) == empty
    assert sorted(p.name for p in empty.iterdir() if p.is_dir()) == SMALL.run_names()


def test_cache_dir_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TBNB_CACHE_DIR", str(tmp_path))
    assert samples.cache_dir() == tmp_path
    monkeypatch.delenv("TBNB_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert samples.cache_dir() == tmp_path / "xdg" / "tbnb"


def test_loads_with_tbnb(tmp_path: Path) -> None:
    import tbnb

    names = write_sample(tmp_path, SMALL)
    exp = tbnb.load(tmp_path)
    scalars = exp.scalars
    assert set(scalars["run"].astype(str)) >= set(names)
    train = scalars[(scalars["run"] == names[0]) & (scalars["tag"] == "train/loss")]
    assert len(train) == SMALL.steps
    hp = exp.hparams  # add_hparams' sub-run merged into its run
    assert sorted(hp.index.astype(str)) == sorted(names)
    assert sorted(hp["lr"].unique()) == [1e-3, 1e-2]
