"""Each hostile input of issue 25: time and peak RSS of a load that reads everything.

Every case of :mod:`tests.writers_hostile` (a FIFO or a link to ``/dev/zero`` where a
file is read, a config linked from outside the logdir or past its cap, projector files
that are FIFOs, a histogram of 10^7 buckets, a text tensor claiming 10^9 strings) is
made in a copy of one base logdir (two torch runs, an embedding with a sprite), then
loaded in a fresh child process that also reads ``exp.hparams``, ``exp.info`` and every
embedding with its sprite (``python tests/writers_hostile.py LOGDIR``), with a time
limit and an address-space cap (``RLIMIT_AS``). The table gives the status, the
child's wall time (median of ``--repeat``), the load's own time and the peak RSS
(``os.wait4``), with the load average beside each row: the machine may be shared.
``--tbnb-root`` measures another checkout (e.g. main, exported with ``git archive``)
on the same fixtures.

Run::

    .venv/bin/python benchmarks/bench_hostile.py
    .venv/bin/python benchmarks/bench_hostile.py --tbnb-root /tmp/tbnb-main --limit 60
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
FIXTURES = [sys.executable, "-m", "tests.writers_hostile"]
"""Fixtures are made and listed by a child: this process stays small, so the peak RSS
Linux reports for each load (which counts the parent's memory at fork) is the load's."""


def _fixtures(*args: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [*FIXTURES, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def run_once(root: Path, logdir: Path, limit: float, cap_gib: float) -> dict[str, Any]:
    """One child loading ``logdir`` with the tbnb of ``root``: status, times, peak RSS."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as report:
        argv = [sys.executable, str(ROOT / "tests" / "writers_hostile.py"), str(logdir)]
        argv += ["--report", report.name, "--cap-gib", str(cap_gib)]
        env = {**os.environ, "PYTHONPATH": str(root)}
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            argv, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        status, usage, timed_out = 0, None, False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() - t0 > limit:
                proc.send_signal(signal.SIGKILL)
                _, status, usage = os.wait4(proc.pid, 0)
                timed_out = True
                break
            time.sleep(0.05)
        wall = time.perf_counter() - t0
        err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        text = Path(report.name).read_text()
    out: dict[str, Any] = {"wall": wall, "peak_rss": usage.ru_maxrss * 1024 if usage else 0}
    if timed_out:
        out["status"] = f"killed at {limit:.0f} s"
    elif status != 0 or not text:
        last = (err.strip().splitlines() or ["?"])[-1]
        out["status"] = f"failed: {last[:60]}"
    else:
        result = json.loads(text)
        out.update(status="ok", load_s=result["load_s"], warnings=len(result["warnings"]))
        out["peak_rss"] = result.get("vm_hwm") or out["peak_rss"]  # the child's own VmHWM
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit", type=float, default=120.0, help="seconds a load may take")
    parser.add_argument("--cap-gib", type=float, default=4.0, help="address space of a child")
    parser.add_argument("--tbnb-root", default=str(ROOT), help="the checkout measured")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    args = parser.parse_args()
    cases: dict[str, str] = json.loads(_fixtures("--list"))
    names = [""] + (args.cases.split(",") if args.cases else list(cases))
    root = Path(args.tbnb_root).resolve()
    print(f"tbnb at {root}; limit {args.limit:.0f} s, address space {args.cap_gib:g} GiB")
    header = f"{'case':<46} {'status':<26} {'wall s':>7} {'load s':>7} {'peak RSS':>9}  loadavg"
    print(header)
    with tempfile.TemporaryDirectory(prefix="tbnb-bench-hostile-") as tmp:
        for name in names:
            logdir = Path(_fixtures("--make", name, str(Path(tmp) / f"case{names.index(name)}")))
            runs = []
            for _ in range(args.repeat):
                runs.append(run_once(root, logdir, args.limit, args.cap_gib))
                if runs[-1]["status"] != "ok":
                    break  # a hang or a failure: once is enough
            ok = [r for r in runs if r["status"] == "ok"]
            shown = ok or runs
            wall = statistics.median(r["wall"] for r in shown)
            load = f"{statistics.median(r['load_s'] for r in ok):7.2f}" if ok else f"{'-':>7}"
            rss = statistics.median(r["peak_rss"] for r in shown) / (1 << 20)
            where = cases[name] if name else ""
            label = f"{name or '(base logdir)'}" + (f" [{where}]" if where else "")
            status = runs[-1]["status"]
            now = os.getloadavg()[0]
            print(f"{label:<46} {status:<26} {wall:7.2f} {load} {rss:7.0f} MB  {now:.2f}")


if __name__ == "__main__":
    main()
