"""One reload coordinator per experiment: concurrent reloads lose and duplicate nothing."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

import tbnb
from tbnb.loader.coordinator import ReloadCoordinator

# A writer that appends scalar events to two runs, a few records per write, flushing
# after each write, so readers meet partial records and growing files all the time.
WRITER = r"""
import struct, sys, time
sys.path.insert(0, sys.argv[2])
from tbnb._proto import Event, Summary
from tbnb.io.crc32c import masked_crc32c

def frame(data):
    head = struct.pack("<Q", len(data))
    return head + struct.pack("<I", masked_crc32c(head)) + data + struct.pack(
        "<I", masked_crc32c(data))

logdir, steps = sys.argv[1], int(sys.argv[3])
files = [open(f"{logdir}/{run}/events.out.tfevents.1.host", "ab") for run in ("a", "b")]
for step in range(steps):
    for i, f in enumerate(files):
        event = Event(step=step, wall_time=1.7e9 + step, summary=Summary(value=[
            Summary.Value(tag=f"t{k}", simple_value=step * (i + 1) + k) for k in range(3)]))
        record = frame(event.SerializeToString())
        cut = len(record) // 2
        f.write(record[:cut]); f.flush()
        f.write(record[cut:]); f.flush()
    if step % 50 == 0:
        time.sleep(0.001)
for f in files:
    f.close()
"""

STEPS = 4000


def _points(frame: pd.DataFrame) -> Counter[tuple[str, str, int]]:
    return Counter(
        zip(frame["run"].astype(str), frame["tag"].astype(str), frame["step"].tolist(), strict=True)
    )


@pytest.fixture
def growing_logdir(tmp_path: Path) -> Path:
    for run in ("a", "b"):
        (tmp_path / run).mkdir()
        (tmp_path / run / "events.out.tfevents.1.host").write_bytes(b"")
    return tmp_path


def _write(logdir: Path) -> subprocess.Popen[bytes]:
    root = str(Path(tbnb.__file__).resolve().parents[1])
    return subprocess.Popen([sys.executable, "-c", WRITER, str(logdir), root, str(STEPS)])


def test_two_threads_reloading_while_a_writer_appends_lose_and_duplicate_nothing(
    growing_logdir: Path,
) -> None:
    exp = tbnb.load(growing_logdir, progress=False)
    writer = _write(growing_logdir)
    errors: list[BaseException] = []

    def reload_until_done() -> None:
        try:
            while writer.poll() is None:
                exp.reload()
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=reload_until_done) for _ in range(2)]
    with _no_warnings():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        exp.reload()
    assert writer.wait(timeout=60) == 0
    assert errors == []
    fresh = tbnb.load(growing_logdir, progress=False)
    expected = _points(fresh.scalars)
    assert sum(expected.values()) == 2 * 3 * STEPS
    got = _points(exp.scalars)
    assert got - expected == Counter()  # nothing duplicated
    assert expected - got == Counter()  # nothing lost


def test_two_live_widgets_share_one_poller_and_stay_exact(growing_logdir: Path) -> None:
    exp = tbnb.load(growing_logdir, progress=False)
    first = tbnb.scalars(exp, refresh=0.05)
    second = tbnb.scalars(exp, refresh=0.05)
    try:
        pollers = [t for t in threading.enumerate() if t.name == "tbnb-reload"]
        assert len(pollers) == 1
        writer = _write(growing_logdir)
        assert writer.wait(timeout=60) == 0
        deadline = time.monotonic() + 30
        fresh = _points(tbnb.load(growing_logdir, progress=False).scalars)
        while _points(exp.scalars) != fresh and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _points(exp.scalars) == fresh
        # The poller tells both widgets after the reload that brought the last points
        # in; on a busy machine that can lag the experiment's own frame.
        while time.monotonic() < deadline and any(
            sum(w._shown_len.values()) < 2 * 3 * STEPS for w in (first, second)
        ):
            time.sleep(0.05)
        per_series = Counter((run, tag) for run, tag, _ in fresh.elements())
        for widget in (first, second):
            assert widget._store is not None
            assert widget._shown_len == dict(per_series)
    finally:
        first.close()
        second.close()
    assert not exp.coordinator.polling or _poller_stops(exp)


def _poller_stops(exp: tbnb.Experiment) -> bool:
    poller = exp.coordinator._poller
    if poller is not None:
        poller.join(timeout=10)
    return not exp.coordinator.polling


class _no_warnings:  # noqa: N801 - a context manager read as a phrase
    """Fail on any tbnb warning (a false "bad length CRC" is what concurrent reads gave)."""

    def __enter__(self) -> None:
        import warnings

        self._catch = warnings.catch_warnings(record=True)
        self._caught = self._catch.__enter__()
        warnings.simplefilter("always")

    def __exit__(self, *exc: object) -> None:
        self._catch.__exit__(*exc)
        messages = [str(w.message) for w in self._caught if "tbnb" in str(w.message)]
        assert messages == []


def test_a_subscriber_hears_of_every_change_whoever_reloaded() -> None:
    reports = iter([1, 0, 2])
    coordinator: ReloadCoordinator[int] = ReloadCoordinator(lambda: next(reports), changed=bool)
    heard: list[int] = []
    coordinator.subscribe(heard.append)
    assert [coordinator.reload() for _ in range(3)] == [1, 0, 2]
    assert heard == [1, 2]


def test_a_failing_subscriber_does_not_stop_the_others() -> None:
    coordinator: ReloadCoordinator[int] = ReloadCoordinator(lambda: 1)
    heard: list[int] = []

    def broken(_report: int) -> None:
        raise RuntimeError("a broken view")

    coordinator.subscribe(broken)
    coordinator.subscribe(heard.append)
    coordinator.reload()
    assert heard == [1]


def test_watch_polls_at_the_shortest_interval_and_stops_with_the_last_watch() -> None:
    calls: list[float] = []
    coordinator: ReloadCoordinator[None] = ReloadCoordinator(lambda: calls.append(time.monotonic()))
    slow = coordinator.watch(3600)
    fast = coordinator.watch(0.02)
    deadline = time.monotonic() + 10
    while len(calls) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(calls) >= 3
    fast.stop()
    slow.stop()
    poller = coordinator._poller
    if poller is not None:
        poller.join(timeout=5)
    assert not coordinator.polling
    with pytest.raises(ValueError, match="refresh"):
        coordinator.watch(0)
