"""Peak memory of a load: its frames, plus about one window per worker.

A child process loads one large run (scalars and histograms, windows decoded ahead on
four helper threads) and reports its resident set after imports, at its peak
(``VmHWM``) and the bytes its frames hold. The peak may exceed the frames only by the
windows in flight (read buffer and decoded columns, a few windows' worth per worker),
the run's scalar points while they are copied into the frame (``RUN_COPY``: the frames
are not yet built in place) and a fixed allowance for the interpreter's own churn; a
load that decodes windows ahead without bound fails it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tbnb import native
from tbnb._proto import Event, HistogramProto, Summary
from tests import writers

pytestmark = pytest.mark.skipif(
    not (native.available() and sys.platform.startswith("linux")),
    reason="native kernels and /proc/self/status (Linux) needed",
)

WINDOW = 1 << 20
HELPERS = 4
PER_WINDOW = 5 * WINDOW
"""A window in flight: its bytes, its records' decoded columns and rows (bound)."""
RUN_COPY = 0.7
"""What a run holds beside its frames while they are built, as a share of them: its
scalar points until they are copied into the frame's columns (measured: 0.6 with no
helper threads)."""
SLACK = 8 << 20

_CHILD = """
import json, sys, warnings
import numpy as np
from tbnb.loader import run, tasks
from tbnb.loader.experiment import Experiment

def status(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) * 1024

run.WINDOW = int(sys.argv[2])
tasks.os.cpu_count = lambda: int(sys.argv[3])
base = status("VmRSS")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    exp = Experiment(sys.argv[1], progress=False, decoder="native")
frames = {kind: exp.frame(kind) for kind in ("scalars", "histograms")}
held = 0
for frame in frames.values():
    for column in frame.columns:
        values = frame[column]
        if values.dtype != object:
            held += values.memory_usage(index=False, deep=False)
            continue
        bases = {}
        for cell in values.tolist():
            held += sys.getsizeof(cell)
            owner = cell.base if cell.base is not None else cell
            bases[id(owner)] = owner.nbytes
        held += sum(bases.values()) + 8 * len(values)
print(json.dumps({"base": base, "peak": status("VmHWM"), "held": held,
                  "rows": {k: len(f) for k, f in frames.items()},
                  "ahead": exp.last_report.backend.name if exp.last_report.backend else ""}))
"""


def _write_run(path: Path, steps: int) -> None:
    rng = np.random.default_rng(0)
    path.parent.mkdir(parents=True)
    with path.open("wb") as out:
        head = Event(wall_time=1.0, file_version="brain.Event:2").SerializeToString()
        out.write(writers.frame_record(head))
        for step in range(steps):
            chunk = []
            for tag in ("loss", "lr"):
                event = Event(step=step, wall_time=1.0 + step)
                event.summary.value.add(tag=tag, simple_value=float(rng.random()))
                chunk.append(event.SerializeToString())
            if step % 20 == 0:
                counts = rng.integers(1, 5, 30).astype(float).tolist()
                histo = HistogramProto(min=-1.0, max=1.0, num=30.0, bucket=counts,
                                       bucket_limit=np.linspace(-1, 1, 30).tolist())  # fmt: skip
                chunk.append(Event(step=step, summary=Summary(value=[
                    Summary.Value(tag="w", histo=histo)])).SerializeToString())  # fmt: skip
            out.write(b"".join(writers.frame_record(c) for c in chunk))


def test_peak_is_the_frames_plus_a_window_per_worker(tmp_path: Path) -> None:
    path = tmp_path / "logdir" / "run" / "events.out.tfevents.1.host"
    _write_run(path, 300_000)
    assert path.stat().st_size > 8 * WINDOW
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, str(path.parents[1]), str(WINDOW), str(HELPERS)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=600,
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["rows"] == {"scalars": 600_000, "histograms": 15_000}
    grown = got["peak"] - got["base"]
    cap = (1 + RUN_COPY) * got["held"] + (HELPERS + 2) * PER_WINDOW + SLACK
    assert grown <= cap, (
        f"peak {grown / 2**20:.0f} MiB above the start, frames {got['held'] / 2**20:.0f} MiB, "
        f"cap {cap / 2**20:.0f} MiB"
    )
