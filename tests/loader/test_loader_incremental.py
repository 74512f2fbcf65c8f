"""Experiment.reload: only new bytes, new files and new runs; reports; frames stay put."""

from __future__ import annotations

import os
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb._proto import Event, Summary
from tbnb.loader.experiment import Experiment
from tests import writers


def _next_second() -> None:
    """Writers name files by the second; make the next file sort after the last."""
    time.sleep(1.05 - time.time() % 1)


def _tbx(logdir: Path, steps: range, tag: str = "loss", hist: bool = False) -> None:
    from tensorboardX import SummaryWriter

    w = SummaryWriter(str(logdir))
    for step in steps:
        w.add_scalar(tag, step / 10, step, walltime=writers.WALL0 + step)
        if hist:
            w.add_histogram("h", np.arange(4.0) + step, step)
    w.close()


def _quiet_reload(exp: Experiment) -> tbnb.loader.experiment.ReloadReport:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return exp.reload()


def test_reload_reads_only_appended_records(tmp_path: Path) -> None:
    from tensorboard.compat.proto import event_pb2, summary_pb2
    from tensorboard.summary.writer.event_file_writer import EventFileWriter

    w = EventFileWriter(str(tmp_path))

    def add(step: int) -> None:
        summary = summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag="x", simple_value=step)])
        w.add_event(event_pb2.Event(step=step, wall_time=1.0, summary=summary))

    for step in range(5):
        add(step)
    w.flush()
    exp = tbnb.load(tmp_path, progress=False)
    assert exp.scalars["step"].tolist() == list(range(5))
    size = os.path.getsize(writers.event_files(str(tmp_path))[0])
    for step in range(5, 8):
        add(step)
    w.flush()
    report = _quiet_reload(exp)
    new_size = os.path.getsize(writers.event_files(str(tmp_path))[0])
    assert report.bytes_read == new_size - size
    assert report.scalars_added == 3
    assert report.new_files == []
    assert exp.scalars["step"].tolist() == list(range(8))
    w.close()
    nothing = _quiet_reload(exp)
    assert not nothing.changed
    assert nothing.bytes_read == 0
    assert str(nothing).startswith("read 0 bytes")


def test_reload_picks_up_new_files_and_runs_and_says_so(tmp_path: Path) -> None:
    _tbx(tmp_path / "a", range(3))
    exp = tbnb.load(tmp_path, progress=False)
    assert exp.last_report.new_runs == ["a"]
    _next_second()
    _tbx(tmp_path / "a", range(3, 5))  # a second file in run a
    _tbx(tmp_path / "b" / "c", range(2), hist=True)  # a new nested run
    report = _quiet_reload(exp)
    assert report.new_runs == ["b/c"]
    assert sorted(report.new_files) == writers.event_files(str(tmp_path))[1:]
    assert report.scalars_added == 4
    assert report.values_added == {"histograms": 2}
    assert report.changed
    assert "4 scalar points" in str(report)
    assert "1 new run," in str(report)
    assert exp.runs == ["a", "b/c"]
    s = exp.scalars
    assert s[s["run"] == "a"]["step"].tolist() == list(range(5))
    assert exp.metadata.loc["a", "files"] == 2
    assert exp.histograms["run"].tolist() == ["b/c", "b/c"]
    assert exp.last_report is report


def test_reload_respects_run_filter(tmp_path: Path) -> None:
    _tbx(tmp_path / "keep1", range(2))
    exp = tbnb.load(tmp_path, runs="^keep", progress=False)
    _tbx(tmp_path / "skip", range(2))
    _tbx(tmp_path / "keep2", range(2))
    report = _quiet_reload(exp)
    assert report.new_runs == ["keep2"]
    assert exp.runs == ["keep1", "keep2"]


def test_frames_handed_out_are_not_changed_by_reload(tmp_path: Path) -> None:
    _tbx(tmp_path / "a", range(4), hist=True)
    exp = tbnb.load(tmp_path, progress=False)
    frames = {
        kind: getattr(exp, kind)
        for kind in ("scalars", "histograms", "tags", "metadata", "distributions")
    }
    copies = {kind: f.copy(deep=True) for kind, f in frames.items()}
    _next_second()
    # many more points than the first load's capacity estimate: the store grows
    _tbx(tmp_path / "a", range(4, 3000), hist=True)
    _tbx(tmp_path / "b", range(50))
    report = _quiet_reload(exp)
    assert report.scalars_added == 2996 + 50
    for kind, frame in frames.items():
        pd.testing.assert_frame_equal(frame, copies[kind], obj=kind)
    assert len(exp.scalars) == 4 + 2996 + 50
    assert len(exp.histograms) == 3000


def test_frames_handed_out_survive_appends_within_capacity(tmp_path: Path) -> None:
    path = tmp_path / "events.out.tfevents.1.h"
    events = [
        Event(
            step=s,
            wall_time=1.0,
            summary=Summary(value=[Summary.Value(tag="x", simple_value=float(s))]),
        )
        for s in range(6)
    ]
    data = b"".join(writers.frame_record(e.SerializeToString()) for e in events)
    half = len(data) // 2 + 3
    path.write_bytes(data[:half])
    exp = tbnb.load(tmp_path, progress=False)
    store = exp.state.store
    assert store is not None
    capacity = store.capacity
    first = exp.scalars
    copy = first.copy(deep=True)
    with path.open("ab") as f:
        f.write(data[half:])
    assert _quiet_reload(exp).scalars_added == 6 - len(copy)
    assert store.capacity == capacity  # the points were written past the old frame's end
    pd.testing.assert_frame_equal(first, copy)
    assert exp.scalars["value"].tolist() == [float(s) for s in range(6)]


def test_editing_a_returned_frame_does_not_change_the_next(tmp_path: Path) -> None:
    _tbx(tmp_path, range(5), hist=True)
    exp = tbnb.load(tmp_path, progress=False)
    for kind in ("scalars", "histograms", "tags", "metadata", "hparams", "distributions"):
        before = getattr(exp, kind).copy(deep=True)
        edited = getattr(exp, kind)
        if len(edited):
            numeric = edited.select_dtypes("number").columns[0]
            edited.iloc[0, edited.columns.get_loc(numeric)] = -12345
            edited[numeric] = edited[numeric] * 2
        edited["extra"] = 1
        del edited[edited.columns[0]]
        pd.testing.assert_frame_equal(getattr(exp, kind), before, obj=kind)
    scalars = exp.scalars
    with pytest.raises(ValueError, match="read-only"):
        scalars["value"].to_numpy()[0] = 7.0  # views of the store cannot be written
    assert exp.scalars["value"].iloc[0] == 0.0


def test_arrays_inside_cells_cannot_be_edited_in_place(tmp_path: Path) -> None:
    _tbx(tmp_path, range(2), hist=True)
    exp = tbnb.load(tmp_path, progress=False)
    edges = exp.histograms["edges"].iloc[0]
    before = edges.copy()
    with pytest.raises(ValueError, match="read-only"):
        edges[0] = 1e9
    np.testing.assert_array_equal(exp.histograms["edges"].iloc[0], before)


def test_restart_purge_is_reported(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    w = SummaryWriter(str(tmp_path))
    for step in range(10):
        w.add_scalar("x", step, step)
    w.close()
    exp = tbnb.load(tmp_path, progress=False)
    _next_second()
    w = SummaryWriter(str(tmp_path), purge_step=4)
    w.add_scalar("x", -4.0, 4)
    w.close()
    report = _quiet_reload(exp)
    assert report.points_purged == 6
    assert report.scalars_added == 1
    assert "6 points dropped by restarts" in str(report)
    assert exp.scalars["value"].tolist() == [0.0, 1.0, 2.0, 3.0, -4.0]


def test_hparams_subrun_appearing_later_is_merged(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    w = SummaryWriter(str(tmp_path))
    w.add_scalar("loss", 1.0, 0)
    w.flush()
    exp = tbnb.load(tmp_path, progress=False)
    assert "lr" not in exp.hparams.columns
    w.add_hparams({"lr": 0.5}, {"hp/m": 2.0})
    w.close()
    report = _quiet_reload(exp)
    assert len(report.new_runs) == 1
    assert exp.hparams.loc[".", "lr"] == 0.5


def test_hparams_appended_to_a_known_file_show_up_on_reload(tmp_path: Path) -> None:
    from tensorboard.compat.proto import event_pb2
    from tensorboard.plugins.hparams import summary_v2 as hp
    from tensorboard.plugins.scalar.summary_v2 import scalar_pb

    path = tmp_path / "events.out.tfevents.1.h.v2"
    writers.write_events(
        str(path), [event_pb2.Event(step=0, wall_time=1.0, summary=scalar_pb("acc", 0.5))]
    )
    exp = tbnb.load(tmp_path, progress=False)
    assert "lr" not in exp.hparams.columns
    with path.open("ab") as f:
        f.write(
            writers.frame_record(
                event_pb2.Event(
                    step=0, wall_time=2.0, summary=hp.hparams_pb({"lr": 0.1})
                ).SerializeToString()
            )
        )
    report = _quiet_reload(exp)
    assert len(exp.hparams_values) == 1
    assert report.changed
    assert exp.hparams.loc[".", "lr"] == 0.1


def test_reload_past_127_tags_and_runs_widens_codes(tmp_path: Path) -> None:
    def write(run: str, tags: range) -> None:
        path = tmp_path / run / "events.out.tfevents.1.h"
        path.parent.mkdir(exist_ok=True)
        events = [
            Event(
                step=i,
                wall_time=1.0,
                summary=Summary(value=[Summary.Value(tag=f"t{i}", simple_value=float(i))]),
            )
            for i in tags
        ]
        with path.open("ab") as f:
            f.write(b"".join(writers.frame_record(e.SerializeToString()) for e in events))

    write("r000", range(100))
    exp = tbnb.load(tmp_path, progress=False)
    first = exp.scalars
    copy = first.copy(deep=True)
    write("r000", range(100, 300))
    for r in range(1, 140):
        write(f"r{r:03d}", range(r, r + 1))
    report = _quiet_reload(exp)
    assert report.scalars_added == 200 + 139
    pd.testing.assert_frame_equal(first, copy)
    s = exp.scalars
    assert s["tag"].astype(str).tolist() == [f"t{i}" for i in range(300)] + [
        f"t{r}" for r in range(1, 140)
    ]
    assert s["value"].tolist() == [float(i) for i in range(300)] + [float(r) for r in range(1, 140)]
    assert s["run"].astype(str).tolist() == ["r000"] * 300 + [f"r{r:03d}" for r in range(1, 140)]
