"""Files replaced, truncated or deleted under a live reload, and dead tails.

tensorboardX names event files by the second: a writer restarted within the same second
truncates the earlier file and writes it anew. After each change ``exp.reload()`` must
equal a fresh load (and TensorBoard's own reader loading the logdir afresh): a replaced
or shrunk file is read again, a deleted one's values are dropped with a warning, and no
row is ever doubled. (TensorBoard's reloading multiplexer keeps the values read before
the change in all three cases; tbnb does not.) A file ending in a cut record followed by
a newer file is final: warned about once, never read again.
"""

from __future__ import annotations

import os
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from tbnb._proto import Event
from tbnb.loader.experiment import Experiment
from tests import writers


def _write(directory: Path, steps: int, sign: float, **extra: bool) -> Path:
    from tensorboardX import SummaryWriter

    w = SummaryWriter(str(directory))
    for step in range(steps):
        w.add_scalar("loss", sign * step, step, walltime=writers.WALL0 + step)
        if extra.get("histograms"):
            w.add_histogram("w", np.arange(5.0) * sign + step, step, walltime=writers.WALL0)
        if extra.get("text"):
            w.add_text("note", f"{sign}:{step}", step, walltime=writers.WALL0)
    w.close()
    (path,) = directory.glob("*tfevents*")
    return path


def _tensorboard_scalars(logdir: Path) -> list[tuple[str, int, float]]:
    from tensorboard.backend.event_processing import plugin_event_multiplexer as pem
    from tensorboard.util import tensor_util

    mux = pem.EventMultiplexer()
    mux.AddRunsFromDirectory(str(logdir))
    mux.Reload()
    out = []
    for run, tags in mux.Runs().items():
        for tag in tags.get("tensors", []):
            if mux.SummaryMetadata(run, tag).plugin_data.plugin_name != "scalars":
                continue
            for e in mux.Tensors(run, tag):
                out.append((run, e.step, float(tensor_util.make_ndarray(e.tensor_proto))))
    return sorted(out)


def _scalars(exp: Experiment) -> list[tuple[str, int, float]]:
    frame = exp.scalars
    return sorted(zip(frame["run"].astype(str), frame["step"], frame["value"], strict=True))


def _same_as_fresh(exp: Experiment, logdir: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fresh = Experiment(str(logdir), progress=False, decoder=exp._options.decoder)
    for kind in ("scalars", "histograms", "text"):
        writers.assert_frames_identical(
            exp.frame(kind)
            .sort_values(["run", "tag", "step"], kind="stable")
            .reset_index(drop=True),
            fresh.frame(kind)
            .sort_values(["run", "tag", "step"], kind="stable")
            .reset_index(drop=True),
        )
    assert _scalars(exp) == _tensorboard_scalars(logdir)


@pytest.fixture
def written(tmp_path: Path) -> tuple[Path, Path]:
    """Two writer sessions' files: ten steps, then five of other values."""
    first = _write(tmp_path / "first", 10, 1.0, histograms=True, text=True)
    second = _write(tmp_path / "second", 5, -1.0, histograms=True, text=True)
    return first, second


@pytest.mark.parametrize("decoder", ["native", "numpy"])
def test_a_file_rewritten_in_the_same_second(
    tmp_path: Path, written: tuple[Path, Path], decoder: str
) -> None:
    first, second = written
    logdir = tmp_path / "logdir"
    target = logdir / "run" / "events.out.tfevents.1700000000.host"
    target.parent.mkdir(parents=True)
    other = logdir / "other" / first.name
    other.parent.mkdir()
    shutil.copy(first, other)  # a run nothing happens to
    shutil.copy(first, target)
    exp = Experiment(str(logdir), progress=False, decoder=decoder)
    assert len(exp.scalars) == 20
    shutil.copy(second, target)  # truncated and written again, five steps
    with pytest.warns(UserWarning, match=r"run .run.: .*(shrank|was replaced).*read again from"):
        report = exp.reload()
    assert report.changed
    assert len(exp.scalars) == 15
    _same_as_fresh(exp, logdir)
    # the new writer goes on appending: read as usual, nothing doubled
    event = Event(step=5, wall_time=writers.WALL0 + 5)
    event.summary.value.add(tag="loss", simple_value=-5.0)
    with open(target, "ab") as f:
        f.write(writers.frame_record(event.SerializeToString()))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert exp.reload().scalars_added == 1
    _same_as_fresh(exp, logdir)


@pytest.mark.parametrize("decoder", ["native", "numpy"])
def test_a_file_replaced_by_a_longer_one(
    tmp_path: Path, written: tuple[Path, Path], decoder: str
) -> None:
    short, long = sorted(written, key=lambda p: p.stat().st_size)
    logdir = tmp_path / "logdir"
    target = logdir / "run" / "events.out.tfevents.1700000000.host"
    target.parent.mkdir(parents=True)
    shutil.copy(short, target)
    exp = Experiment(str(logdir), progress=False, decoder=decoder)
    shutil.copy(long, target)  # longer than what was read: not a tail to append
    with pytest.warns(UserWarning, match="was replaced"):
        exp.reload()
    _same_as_fresh(exp, logdir)


@pytest.mark.parametrize("decoder", ["native", "numpy"])
def test_a_file_truncated_then_deleted(
    tmp_path: Path, written: tuple[Path, Path], decoder: str
) -> None:
    first, second = written
    logdir = tmp_path / "logdir"
    run = logdir / "run"
    run.mkdir(parents=True)
    older = run / "events.out.tfevents.1600000000.host"
    newer = run / "events.out.tfevents.1700000000.host"
    shutil.copy(first, older)
    shutil.copy(second, newer)
    exp = Experiment(str(logdir), progress=False, decoder=decoder)
    assert len(exp.scalars) == 15
    spans = writers.record_spans(first.read_bytes())
    keep = spans[4][1]  # the first four records (file version and three steps' values)
    os.truncate(older, keep)
    with pytest.warns(UserWarning, match="shrank"):
        exp.reload()
    _same_as_fresh(exp, logdir)
    older.unlink()
    with pytest.warns(UserWarning, match=r"was deleted \(its values are dropped\)"):
        report = exp.reload()
    assert report.points_purged > 0
    assert len(exp.scalars) == 5
    assert exp._files["run"][0].path.endswith(newer.name)
    _same_as_fresh(exp, logdir)


@pytest.mark.parametrize("decoder", ["native", "numpy"])
def test_a_dead_tail_is_reported_once_and_never_read_again(
    tmp_path: Path, written: tuple[Path, Path], decoder: str
) -> None:
    first, second = written
    run = tmp_path / "logdir" / "run"
    run.mkdir(parents=True)
    data = first.read_bytes()
    (run / "events.out.tfevents.1600000000.host").write_bytes(data[:-40])  # killed mid-record
    shutil.copy(second, run / "events.out.tfevents.1700000000.host")
    with pytest.warns(UserWarning, match="record cut short, and a newer file"):
        exp = Experiment(str(tmp_path / "logdir"), progress=False, decoder=decoder)
    for _ in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            report = exp.reload()
        assert report.bytes_read == 0
        assert not report.changed
        assert str(report).startswith("read 0 bytes")
