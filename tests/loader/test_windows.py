"""Windows of one file decoded ahead on helper threads give what a read in order gives.

The loads here cut their files into windows of a few hundred bytes (``run.WINDOW``
made small), so that window boundaries fall in every part of a record (its header,
payload, footer) and in every kind's values; each is loaded with helper threads and
without, and every frame, warning and file state must be the same. Corrupt records,
a record larger than a window, a file still being written and reloads send the rest of
a file to the read in order, which must not change anything either. The real writers'
files (torch, tensorboardX, TF2, Keras) are compared the same way.
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tbnb import native
from tbnb._proto import Event, HistogramProto, Summary
from tbnb.loader import run, tasks
from tbnb.loader.experiment import Experiment
from tests import writers
from tests.fuzz_values import summary_event

pytestmark = pytest.mark.skipif(
    not native.available(), reason=f"native kernels not available: {native.problem()}"
)

KINDS = ("scalars", "histograms", "images", "audio", "text", "pr_curves", "tensors", "graphs")


def _load(logdir: Path, cores: int, monkeypatch: pytest.MonkeyPatch) -> Experiment:
    monkeypatch.setattr(tasks.os, "cpu_count", lambda: cores)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exp = Experiment(str(logdir), progress=False, decoder="native")
    exp.caught = sorted(str(w.message) for w in caught)  # type: ignore[attr-defined]
    return exp


def assert_same_loads(
    logdir: Path, monkeypatch: pytest.MonkeyPatch, window: int, cores: int = 3
) -> tuple[Experiment, Experiment]:
    monkeypatch.setattr(run, "WINDOW", window)
    ahead = _load(logdir, cores, monkeypatch)
    in_order = _load(logdir, 1, monkeypatch)
    for kind in KINDS:
        writers.assert_frames_identical(ahead.frame(kind), in_order.frame(kind))
    assert ahead.caught == in_order.caught  # type: ignore[attr-defined]
    assert ahead.last_report.problems == in_order.last_report.problems
    for a, b in zip(ahead.state.files.values(), in_order.state.files.values(), strict=True):
        for x, y in zip(a, b, strict=True):
            assert (x.offset, x.pending, x.records, x.corrupt_records, x.head) == (
                y.offset, y.pending, y.records, y.corrupt_records, y.head
            )  # fmt: skip
    return ahead, in_order


def _scalar(tag: str, step: int, value: float) -> bytes:
    event = Event(step=step, wall_time=1.0 + step)
    event.summary.value.add(tag=tag, simple_value=value)
    return event.SerializeToString()


def _mixed_payloads(steps: int) -> list[bytes]:
    """Scalars, histograms, text and a TF2 tensor scalar, interleaved, of many sizes."""
    rng = np.random.default_rng(1)
    out = [Event(wall_time=0.5, file_version="brain.Event:2").SerializeToString()]
    for step in range(steps):
        out.append(_scalar("loss", step, float(rng.random())))
        if step % 3 == 0:
            k = int(rng.integers(1, 40))
            histo = HistogramProto(min=-1.0, max=1.0, num=float(k),
                                   bucket_limit=np.linspace(-1, 1, k).tolist(),
                                   bucket=rng.integers(0, 5, k).astype(float).tolist())  # fmt: skip
            out.append(Event(step=step, summary=Summary(value=[
                Summary.Value(tag="w", histo=histo)])).SerializeToString())  # fmt: skip
        if step % 5 == 0:
            event = Event(step=step, wall_time=2.0)
            value = event.summary.value.add(tag="note")
            value.metadata.plugin_data.plugin_name = "text"
            value.tensor.dtype = 7
            value.tensor.string_val.append(("x" * int(rng.integers(0, 300))).encode())
            out.append(event.SerializeToString())
    return out


def _write(path: Path, payloads: list[bytes]) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = b"".join(writers.frame_record(p) for p in payloads)
    path.write_bytes(data)
    return data


@pytest.mark.parametrize("window", [97, 128, 200, 333, 1024, 4096])
def test_every_window_size_gives_the_same_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, window: int
) -> None:
    _write(tmp_path / "run" / "events.out.tfevents.1.host", _mixed_payloads(300))
    ahead, _ = assert_same_loads(tmp_path, monkeypatch, window)
    assert len(ahead.scalars) == 300
    assert len(ahead.histograms) == 100


def test_windows_are_used_and_the_helpers_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The windows ahead are really taken (no fallback on a clean file), and their
    threads end with the load."""
    import threading

    _write(tmp_path / "run" / "events.out.tfevents.1.host", _mixed_payloads(200))
    monkeypatch.setattr(run, "WINDOW", 512)
    taken = []
    read_in_order = run._read_in_order

    def spy(state, acc, problems, undecodable):  # type: ignore[no-untyped-def]
        taken.append(state.offset)
        return read_in_order(state, acc, problems, undecodable)

    monkeypatch.setattr(run, "_read_in_order", spy)
    _load(tmp_path, 4, monkeypatch)
    assert taken == []  # every window decoded ahead was used
    assert not [t for t in threading.enumerate() if t.name.startswith("tbnb-window")]


@pytest.mark.parametrize("where", [0.1, 0.5, 0.93])
def test_corrupt_bytes_send_the_rest_of_the_file_to_the_read_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: float
) -> None:
    path = tmp_path / "run" / "events.out.tfevents.1.host"
    data = bytearray(_write(path, _mixed_payloads(200)))
    for at in (int(len(data) * where), int(len(data) * where) + 7):
        data[at] ^= 0x55
    path.write_bytes(bytes(data))
    ahead, _ = assert_same_loads(tmp_path, monkeypatch, 700)
    assert ahead.last_report.problems


def test_a_record_larger_than_a_window(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    payloads = _mixed_payloads(60)
    big = Event(step=7, wall_time=3.0)
    value = big.summary.value.add(tag="big")
    value.tensor.dtype = 2
    value.tensor.tensor_shape.dim.add(size=600)
    value.tensor.tensor_content = np.arange(600, dtype="<f8").tobytes()
    payloads[30:30] = [big.SerializeToString()]
    _write(tmp_path / "run" / "events.out.tfevents.1.host", payloads)
    ahead, _ = assert_same_loads(tmp_path, monkeypatch, 1000)
    assert ahead.tensors["shape"].tolist() == [(600,)]


def test_a_file_still_being_written_and_reloaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cut last record waits for its bytes; the reload reads on from there, the same
    with helpers and without."""
    path = tmp_path / "run" / "events.out.tfevents.1.host"
    data = _write(path, _mixed_payloads(150))
    cut = len(data) - 5
    path.write_bytes(data[:cut])
    monkeypatch.setattr(run, "WINDOW", 256)
    exps = [_load(tmp_path, cores, monkeypatch) for cores in (3, 1)]
    path.write_bytes(data + b"".join(writers.frame_record(p) for p in _mixed_payloads(40)))
    for exp in exps:
        monkeypatch.setattr(tasks.os, "cpu_count", lambda exp=exp: 3 if exp is exps[0] else 1)
        exp.reload()
    for kind in KINDS:
        writers.assert_frames_identical(exps[0].frame(kind), exps[1].frame(kind))
    assert len(exps[0].scalars) == 190


@pytest.mark.parametrize("name", sorted(writers.WRITERS))
def test_real_writers_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    logdir = tmp_path / "logdir"
    shutil.copytree(writers.cached(name).logdir, logdir)
    for window in (300, 2048):
        assert_same_loads(logdir, monkeypatch, window)


def _described_first(events: list[bytes]) -> bool:
    """Whether every tag described by metadata is described on its first value.

    A value written before its tag's metadata gets the metadata if both are in one
    window of the read in order, and not otherwise (the windows decide); windows read
    ahead are cut elsewhere, so such files are left out here (no writer writes them).
    """
    first: dict[str, bool] = {}
    for raw in events:
        try:
            event = Event.FromString(raw)
        except Exception:
            return True  # not parsed: no metadata learnt from it
        for value in event.summary.value:
            tag = value.tag or value.node_name
            described = value.HasField("metadata")
            if tag not in first:
                first[tag] = described
            elif described and not first[tag]:
                return False
    return True


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(summary_event(), min_size=4, max_size=30),
    st.integers(40, 400),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=2),
)
def test_fuzzed_events_and_windows(
    tmp_path_factory: pytest.TempPathFactory,
    events: list[bytes],
    window: int,
    flips: list[tuple[int, int]],
) -> None:
    assume(_described_first(events))
    logdir = tmp_path_factory.mktemp("windows")
    path = logdir / "run" / "events.out.tfevents.1.host"
    data = bytearray(_write(path, events))
    for at, value in flips:
        data[at % len(data)] = value
    path.write_bytes(bytes(data))
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert_same_loads(logdir, monkeypatch, window)
