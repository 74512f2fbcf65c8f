"""Whole-process measurements shared by the load benchmarks.

:func:`run_child` runs one Python child and reads its CPU time (user + sys) and peak
RSS from ``os.wait4``; :func:`tensorboard_server` runs TensorBoard's Rust data server
(``tensorboard_data_server``, what ``tensorboard --load_fast=true`` starts) on a logdir
until it logs the end of its first load cycle, and measures it the same way.
"""

from __future__ import annotations

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


def run_child(
    argv: list[str], env: dict[str, str] | None = None, cwd: Path = ROOT
) -> dict[str, Any]:
    """Run ``python <argv> --report FILE``; return its report plus cpu, wall and peak_rss.

    The child writes a JSON object to the file named after ``--report``.
    """
    with tempfile.NamedTemporaryFile("r", suffix=".json") as report:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, *argv, "--report", report.name],
            cwd=cwd,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if status != 0:
            raise SystemExit(f"{argv} failed with status {status}:\n{err.decode()[-3000:]}")
        result: dict[str, Any] = json.loads(Path(report.name).read_text() or "{}")
    result.update(cpu=usage.ru_utime + usage.ru_stime, wall=wall, peak_rss=usage.ru_maxrss * 1024)
    return result


def tensorboard_server(logdir: Path, *, checksum: bool = True) -> dict[str, Any]:
    """One load of ``logdir`` by TensorBoard's Rust data server, every point kept.

    Wall time runs from the start of the process to its "Finished load cycle" log line;
    CPU and peak RSS are the whole process's at that moment (it is then stopped).
    """
    import tensorboard_data_server

    binary = tensorboard_data_server.server_binary()
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            binary,
            "--logdir",
            str(logdir),
            "--reload",
            "once",
            "--port",
            "0",
            "--port-file",
            os.path.join(tmp, "port"),
            "--samples-per-plugin",
            "scalars=all,histograms=all,images=all,audio=all,tensors=all",
            "-v",
        ]
        if checksum:
            args.append("--checksum")
        t0 = time.perf_counter()
        proc = subprocess.Popen(args, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        assert proc.stderr is not None
        for line in proc.stderr:
            if b"Finished load cycle" in line:
                break
        else:
            raise SystemExit(f"tensorboard data server exited early on {logdir}")
        wall = time.perf_counter() - t0
        with open(f"/proc/{proc.pid}/status") as status:
            hwm = next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmHWM"))
        proc.send_signal(signal.SIGKILL)
        _, _, usage = os.wait4(proc.pid, 0)
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "peak_rss": hwm}


def median_of(runs: list[dict[str, Any]], key: str) -> float:
    return float(statistics.median(r[key] for r in runs))


def event_files(logdir: str | Path) -> list[str]:
    out = []
    for dirpath, _, names in os.walk(logdir, followlinks=True):
        out += [os.path.join(dirpath, n) for n in sorted(names) if "tfevents" in n]
    return sorted(out)


def logdir_bytes(logdir: str | Path) -> int:
    return sum(os.path.getsize(p) for p in event_files(logdir))


def wait_for_background(cache: str, timeout: float = 600.0) -> None:
    """Wait until no process runs with ``TBNB_CACHE_DIR`` under ``cache`` (Linux): the
    compile a load left behind, which would otherwise compete with the next measurement."""
    deadline = time.monotonic() + timeout
    marker = f"TBNB_CACHE_DIR={cache}".encode()
    while time.monotonic() < deadline:
        busy = False
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    busy = any(v.startswith(marker) for v in f.read().split(b"\0"))
            except OSError:
                continue
            if busy:
                break
        if not busy:
            return
        time.sleep(0.2)
