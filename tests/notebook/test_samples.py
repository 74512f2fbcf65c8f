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
    learning_rates=(1e-3, 1e-2),
    seeds=(0, 1),
    steps=60,
    val_every=20,
    hist_every=30,
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
        "text": {
            t: [e.tensor_proto.string_val[0] for e in ea.Tensors(t)]
            for t in tags["tensors"]
            if t.endswith("/text_summary")
        },
        "audio": [
            (e.step, e.sample_rate, e.length_frames) for t in tags["audio"] for e in ea.Audio(t)
        ],
        "pr_steps": {
            t: [e.step for e in ea.Tensors(t)] for t in tags["tensors"] if t.startswith("pr/")
        },
        "graph": ea.Graph() if tags["graph"] else None,
        "walls": [e.wall_time for t in tags["scalars"] for e in ea.Scalars(t)]
        + [e.wall_time for t in tags["tensors"] for e in ea.Tensors(t)],
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
    assert b"| learning rate | 0.001 |" in run["text"]["config/text_summary"][0]  # a table
    assert run["audio"] == [(0, 8000, 4000), (59, 8000, 4000)]
    assert run["pr_steps"] == {"pr/cat": [0, 59], "pr/dog": [0, 59]}
    assert "layer1/MatMul" in {node.name for node in run["graph"].node}
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
    assert len(subruns) == 1  # the add_hparams sub-run, named like its (simulated) timestamp
    assert float(subruns[0].name) == pytest.approx(samples._T0 + 3 * 3600 + 59 * 0.05 + 2)
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
    assert first.parent == tmp_path / "cache" / "samples"
    assert first.name.startswith(f"sweep-v{samples.SAMPLE_VERSION}-")
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


def test_every_tab_kind_has_sample_data(tmp_path: Path) -> None:
    """Each kind of the registry that has a dashboard tab has data in the sample."""
    import tbnb
    from tbnb.kinds import KINDS
    from tbnb.notebook.dashboard import TabSpec

    write_sample(tmp_path, SMALL)
    exp = tbnb.load(tmp_path, progress=False)
    with_tab = [TabSpec(kind) for kind in KINDS.values() if kind.tab is not None]
    assert len(with_tab) >= 12
    missing = [spec.title for spec in with_tab if not spec.shown_for(exp)]
    assert missing == [], f"the sample logdir has no data for these tabs: {missing}"


def test_wall_times_are_simulated(tmp_path: Path) -> None:
    """Every record, the file-version record and add_hparams' included, has a simulated time."""
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader

    import tbnb
    from tbnb.loader.overview import time_span

    names = write_sample(tmp_path, SMALL)
    start = samples._T0
    end = start + (len(names) - 1) * samples._RUN_SPACING + SMALL.steps * samples._STEP_SECONDS + 3
    files = sorted(tmp_path.rglob("events.out.tfevents.*"))
    assert len(files) == 2 * len(names)  # each run and its add_hparams sub-run
    for path in files:
        walls = [event.wall_time for event in EventFileLoader(str(path)).Load()]
        assert walls, path
        assert all(start <= w <= end for w in walls), path
    assert time_span(tbnb.load(tmp_path, progress=False)) == "2024-01-01 00:00 UTC, over 3 h 00 min"


def test_embedding_equals_tensorboard_projector(tmp_path: Path) -> None:
    """The sample's embedding reads as TensorBoard's projector plugin serves it."""
    import tbnb
    from tests.writers_embeddings import projector_reference

    write_sample(tmp_path, SMALL)
    exp = tbnb.load(tmp_path, progress=False)
    reference = projector_reference(tmp_path)
    assert sorted(ref["run"] for ref in reference) == ["lr=0.001,seed=0", "lr=0.01,seed=0"]
    for ref in reference:
        vectors, metadata = exp.embedding(ref["name"], run=ref["run"])
        np.testing.assert_array_equal(vectors, ref["tensor"])
        assert list(metadata.columns) == ["label", "predicted"]
        assert metadata.astype(str).values.tolist() == ref["metadata"].values.tolist()
        assert ref["sprite"] is not None
        assert ref["single_image_dim"] == [12, 12]


def test_default_sample_fits_the_budgets(
    sample_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default sample: a dashboard with every tab, its page well under 5 MB."""
    import tbnb
    from tbnb.notebook.dashboard import tabs
    from tbnb.notebook.export import render_html

    monkeypatch.setenv("TBNB_CACHE_DIR", str(sample_cache))  # written once per session
    dash = tbnb.Dashboard(sample_logdir())
    try:
        assert dash.titles == [spec.title for spec in tabs()]
        header = dash.header_text
        assert "9 runs" in header
        assert "over 8 h 01 min" in header
        assert len(render_html(dash).encode()) <= 5_000_000
    finally:
        dash.close()
