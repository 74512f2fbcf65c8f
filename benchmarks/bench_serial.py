"""The loader's serial part, phase by phase, and its wall time with 1 and 2 workers.

Each measurement is a fresh process (``--repeat`` of them, medians). In the process,
the phases that do not run in parallel are timed (wall and this process's CPU):

- ``import``: numpy, pandas and tbnb's loader (the interpreter's start-up not counted);
- ``kernels``: loading the native library (``--kernels native``: ctypes, checking its
  source hash), or nothing (``--kernels numpy``, run with ``TBNB_NATIVE=0``: the numpy
  reference);
- ``plan``: finding the runs, sizing their files, choosing the backend;
- ``runs``: the run tasks on the worker threads (the parallel part), measured from the
  first task started to the last copy into the frame finished;
- ``frame``: building the DataFrame handed to the user (``exp.scalars``).

``serial = import + kernels + plan + frame`` (what the threads do not share), and the
wall time on N quiet cores is estimated by Amdahl's law from CPU seconds as
``serial + runs(1 worker) / N`` (on a shared machine wall time is inflated, CPU is not).

Usage::

    python benchmarks/make_logdir.py          # once: benchmarks/data/scalars
    python benchmarks/bench_serial.py --repeat 3                    # native and numpy
    python benchmarks/bench_serial.py --repeat 3 --kernels native
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

_CHILD = r"""
import json, sys, time
from concurrent.futures import ThreadPoolExecutor

def now():
    return time.perf_counter(), time.process_time()

def since(t):
    w, c = now()
    return [round(w - t[0], 4), round(c - t[1], 4)]

phases = {}
t = now()
import numpy, pandas, tbnb, tbnb.loader.experiment  # tbnb's own imports are lazy
phases["import"] = since(t)
t = now()
if sys.argv[3] == "native":
    from tbnb import native
    assert native.available(), native.problem()
phases["kernels"] = since(t)

from tbnb.loader import experiment, tasks
plan_time = [0.0, 0.0]
original_plan = experiment.Experiment._plan
def timed_plan(self, report):
    t = now()
    out = original_plan(self, report)
    d = since(t)
    plan_time[0] += d[0]; plan_time[1] += d[1]
    return out
experiment.Experiment._plan = timed_plan
original_choose = experiment.choose_backend_for
def timed_choose(task_list):
    t = now()
    out = original_choose(task_list)
    d = since(t)
    plan_time[0] += d[0]; plan_time[1] += d[1]
    return out
experiment.choose_backend_for = timed_choose

workers = int(sys.argv[2])
executor = ThreadPoolExecutor(workers) if workers else None
t = now()
exp = tbnb.load(sys.argv[1], progress=False, executor=executor)
load = since(t)
assert exp.last_report.decoders == {sys.argv[3]}
phases["plan"] = [round(v, 4) for v in plan_time]
phases["runs"] = [round(load[0] - plan_time[0], 4), round(load[1] - plan_time[1], 4)]
t = now()
df = exp.scalars
phases["frame"] = since(t)
print(json.dumps({"phases": phases, "points": len(df)}))
"""


def measure(logdir: str, workers: int, tbnb_root: Path, kernels: str) -> dict[str, Any]:
    env_path = str(tbnb_root)
    env = {**os.environ, "PYTHONPATH": env_path}
    if kernels == "numpy":
        env["TBNB_NATIVE"] = "0"
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, logdir, str(workers), kernels],
        check=True,
        capture_output=True,
        text=True,
        cwd=env_path,
        env=env,
    )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--logdir", type=Path, default=HERE / "data" / "scalars")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tbnb-root", type=Path, default=ROOT)
    parser.add_argument("--kernels", choices=("native", "numpy", "both"), default="native")
    args = parser.parse_args()
    for kernels in ("native", "numpy") if args.kernels == "both" else (args.kernels,):
        print(f"--- {kernels} kernels")
        report(args, kernels)
        print(f"load average: {os.getloadavg()[0]:.2f}")


def report(args: argparse.Namespace, kernels: str) -> None:
    """Measure and print the phases of ``kernels``' loads with 1 and 2 workers."""
    rows: dict[int, dict[str, list[float]]] = {}
    for workers in (1, 2):
        runs = [
            measure(str(args.logdir), workers, args.tbnb_root, kernels) for _ in range(args.repeat)
        ]
        rows[workers] = {
            name: [statistics.median(r["phases"][name][i] for r in runs) for i in (0, 1)]
            for name in runs[0]["phases"]
        }
        print(
            f"{workers} worker(s), median of {args.repeat}: "
            + ", ".join(
                f"{k} {w:.3f} s wall / {c:.3f} s CPU" for k, (w, c) in rows[workers].items()
            ),
            flush=True,
        )
    serial_wall = sum(rows[1][k][0] for k in ("import", "kernels", "plan", "frame"))
    serial_cpu = sum(rows[1][k][1] for k in ("import", "kernels", "plan", "frame"))
    parallel = rows[1]["runs"][1]  # CPU: a loaded machine inflates wall, not CPU
    print(f"serial part: {serial_wall:.3f} s wall, {serial_cpu:.3f} s CPU")
    print(
        f"runs with 1 / 2 workers: {rows[1]['runs'][0]:.3f} / {rows[2]['runs'][0]:.3f} s "
        f"wall (speed-up {rows[1]['runs'][0] / max(rows[2]['runs'][0], 1e-9):.2f}x)"
    )
    for cores in (2, 4, 8, 16):
        print(
            f"Amdahl estimate on {cores} cores (from CPU seconds): "
            f"{serial_cpu + parallel / cores:.2f} s"
        )


if __name__ == "__main__":
    main()
