"""Filtering runs or tags never separates a run from its hparams."""

from __future__ import annotations

from pathlib import Path

import pytest

import tbnb


@pytest.fixture
def sweep(tmp_path: Path) -> Path:
    tbx = pytest.importorskip("tensorboardX")
    for lr, seed in [(0.1, 0), (0.1, 1), (0.01, 0)]:
        writer = tbx.SummaryWriter(str(tmp_path / f"lr={lr},seed={seed}"))
        for step in range(3):
            writer.add_scalar("train/loss", lr * step, step)
        writer.add_hparams({"lr": lr, "seed": seed}, {"hparam/final": lr * 10})
        writer.close()
    return tmp_path


def test_run_filter_keeps_the_add_hparams_subrun(sweep: Path) -> None:
    exp = tbnb.load(sweep, runs=r"seed=0$", progress=False)
    parents = ["lr=0.01,seed=0", "lr=0.1,seed=0"]
    assert exp.runs == parents  # add_hparams sub-runs belong to their parent
    assert len(exp.all_runs) == 4  # each parent with its timestamped add_hparams sub-run
    assert sorted(exp.subruns.values()) == parents
    table = exp.hparams
    assert sorted(table.index) == parents
    assert table.loc["lr=0.1,seed=0", "lr"] == pytest.approx(0.1)


def test_tag_filter_keeps_hparams(sweep: Path) -> None:
    exp = tbnb.load(sweep, tags=r"^train/", progress=False)
    assert set(exp.scalars["tag"]) == {"train/loss"}
    assert len(exp.hparams_values) > 0
    assert exp.hparams["seed"].notna().all()
