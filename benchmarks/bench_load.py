"""Whole-process load benchmark: tbnb vs tbparse vs TensorBoard's Rust data server.

Every measurement runs in a fresh subprocess; the parent reads the child's CPU time
(user + sys) and peak RSS from ``os.wait4``. Each case runs ``--repeat`` times and the
median is reported. The loader compiles nothing (its kernels are C, built with the
package; without them it decodes with numpy).

Cases
-----
- ``tbnb``: ``tbnb.load(logdir).scalars`` (the public API), whole logdir, the native
  kernels (:mod:`tbnb.native`); ``tbnb-numpy``: the same without them
  (``TBNB_NATIVE=0``): the numpy reference.
- ``tbnb-first``: the same on a fresh install (an empty tbnb cache): the native
  kernels, nothing compiles (``tbnb-first-numpy``: without them).
- ``tbnb-serial``: the same with one worker, measuring the CPU spent in run tasks and
  in the parallel copies into the frame; the rest is the serial part (imports,
  planning, loading the kernels, building the frame). From it, the wall time on N
  cores is extrapolated as ``serial + parallel / N``. ``tbnb-serial-numpy``: numpy's.
- ``kernels``: read each file + ``scan_records`` (CRCs verified) + ``decode_scalars``,
  whole logdir: the native fast path alone (``kernels-numpy``: numpy's).
- ``tensorboard``: TensorBoard's Rust data server (what ``tensorboard --load_fast``
  runs), whole logdir, every point kept, every record checksummed, until it logs the
  end of its first load cycle.
- ``tbparse``: ``tbparse.SummaryReader(subset).scalars`` on a subset of runs.
- ``protobuf``: a plain Python loop (struct framing, no CRC) over ``Event.FromString``
  building the same frame, on the subset.

Usage::

    python benchmarks/make_logdir.py                 # once: benchmarks/data/scalars
    python benchmarks/bench_load.py                  # table on stdout + benchmarks/results/
    python benchmarks/bench_load.py --logdir benchmarks/data/scalars_x0.1 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _proc import logdir_bytes, run_child, tensorboard_server, wait_for_background

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CASES = (
    "tbnb",
    "tbnb-numpy",
    "tbnb-first",
    "tbnb-first-numpy",
    "tbnb-serial",
    "tbnb-serial-numpy",
    "kernels",
    "kernels-numpy",
    "tensorboard",
    "tbparse",
    "protobuf",
)
"""A ``-numpy`` case runs without the native kernels (``TBNB_NATIVE=0``): numpy's."""
SUBSET_CASES = ("tbparse", "protobuf")


# --- child side ----------------------------------------------------------------------


def _event_files(logdir: str) -> list[str]:
    out = []
    for dirpath, _, names in os.walk(logdir, followlinks=True):
        out += [os.path.join(dirpath, n) for n in sorted(names) if "tfevents" in n]
    return sorted(out)


def child(case: str, logdir: str) -> dict[str, Any]:
    """Run one load in this process; return what the parent cannot see from outside."""
    case = case.removesuffix("-numpy")  # the parent set TBNB_NATIVE=0 for those
    t0 = time.perf_counter()
    df_bytes = None
    extra: dict[str, Any] = {}
    if case in ("tbnb", "tbnb-first"):
        import tbnb

        exp = tbnb.load(logdir)
        df = exp.scalars
        points = len(df)
        df_bytes = int(df.memory_usage(deep=True).sum())
        extra["decoders"] = sorted(getattr(exp.last_report, "decoders", ()))  # a before
    elif case == "tbnb-serial":
        import threading
        from concurrent.futures import ThreadPoolExecutor

        import tbnb.loader.scalar_store as store_module
        import tbnb.loader.tasks as tasks_module

        spent = [0.0]
        lock = threading.Lock()

        def timed(function: Any) -> Any:
            def run(*args: Any, **kwargs: Any) -> Any:
                start = time.thread_time()
                try:
                    return function(*args, **kwargs)
                finally:
                    with lock:
                        spent[0] += time.thread_time() - start

            return run

        tasks_module.load_run = timed(tasks_module.load_run)
        store_module._fill = timed(store_module._fill)
        import tbnb

        exp = tbnb.load(logdir, executor=ThreadPoolExecutor(1))
        df = exp.scalars
        extra["decoders"] = sorted(exp.last_report.decoders)
        points = len(df)
        df_bytes = int(df.memory_usage(deep=True).sum())
        extra["parallel_cpu"] = spent[0]
    elif case == "kernels":
        import numpy as np

        from tbnb.decode.scalars import decode_scalars
        from tbnb.io.records import read_from, scan_records
        from tbnb.native import available

        kernels = "native" if available() else "numpy"
        extra["decoders"] = [kernels]
        points = 0
        for path in _event_files(logdir):
            buf = np.frombuffer(read_from(path, 0), np.uint8)
            scan = scan_records(buf, kernels=kernels)
            out = decode_scalars(buf, scan.starts, scan.lengths, kernels=kernels)
            points += len(out.value)
    elif case == "tbparse":
        from tbparse import SummaryReader

        df = SummaryReader(logdir).scalars
        points = len(df)
        df_bytes = int(df.memory_usage(deep=True).sum())
    elif case == "protobuf":
        import struct

        import pandas as pd

        from tbnb._proto import Event

        rows: dict[str, list[Any]] = {
            "run": [],
            "tag": [],
            "step": [],
            "wall_time": [],
            "value": [],
        }
        for path in _event_files(logdir):
            run = os.path.relpath(os.path.dirname(path), logdir)
            with open(path, "rb") as f:
                data = f.read()
            pos = 0
            while pos + 12 <= len(data):
                (n,) = struct.unpack_from("<Q", data, pos)
                event = Event.FromString(data[pos + 12 : pos + 12 + n])
                pos += n + 16
                for v in event.summary.value:
                    kind = v.WhichOneof("value")
                    if kind == "simple_value":
                        value = v.simple_value
                    elif kind == "tensor" and v.tensor.dtype in (1, 2):  # TF2 scalars
                        t = v.tensor
                        value = (
                            t.float_val[0]
                            if t.float_val
                            else t.double_val[0]
                            if t.double_val
                            else struct.unpack("<f" if t.dtype == 1 else "<d", t.tensor_content)[0]
                        )
                    else:
                        continue
                    rows["run"].append(run)
                    rows["tag"].append(v.tag)
                    rows["step"].append(event.step)
                    rows["wall_time"].append(event.wall_time)
                    rows["value"].append(value)
        df = pd.DataFrame(rows).astype({"run": "category", "tag": "category"})
        points = len(df)
        df_bytes = int(df.memory_usage(deep=True).sum())
    else:
        raise SystemExit(f"unknown case {case!r}")
    return {"points": points, "df_bytes": df_bytes, "inner_wall": time.perf_counter() - t0, **extra}


# --- parent side ---------------------------------------------------------------------


TBNB_ROOT = ROOT
"""The checkout whose tbnb the children import (``--tbnb-root``: e.g. main, for a before)."""


def measure(case: str, logdir: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """One fresh-process run of ``case``: CPU, wall, peak RSS and the child's own report."""
    argv = [__file__, "--child", case, str(logdir), "--tbnb-root", str(TBNB_ROOT)]
    if case == "tensorboard":
        return {**tensorboard_server(logdir), "points": None, "df_bytes": None}
    if case.endswith("-numpy"):
        env = dict(env or os.environ, TBNB_NATIVE="0")
    if case.removesuffix("-numpy") == "tbnb-first":
        with tempfile.TemporaryDirectory(prefix="tbnb-bench-fresh-") as cache:
            env = dict(env or os.environ, TBNB_CACHE_DIR=cache)
            result = run_child(argv, env=env)
            wait_for_background(cache)
        return result
    return run_child(argv, env=env)


def make_subset(logdir: Path, runs: int, out: Path) -> Path:
    """A logdir of the first ``runs`` runs (symlinked files)."""
    if out.exists():
        shutil.rmtree(out)
    run_dirs = sorted(p for p in logdir.iterdir() if p.is_dir())[:runs]
    for run in run_dirs:
        (out / run.name).mkdir(parents=True)
        for f in run.iterdir():
            (out / run.name / f.name).symlink_to(f.resolve())
    return out


def summarise(case: str, logdir: Path, runs: list[dict[str, Any]]) -> dict[str, Any]:
    med = {k: statistics.median(r[k] for r in runs) for k in ("cpu", "wall", "peak_rss")}
    points = runs[0]["points"]
    size = logdir_bytes(logdir)
    df_bytes = runs[0]["df_bytes"]
    row = {
        "case": case,
        "logdir": str(logdir.relative_to(ROOT) if logdir.is_relative_to(ROOT) else logdir),
        "points": points,
        "bytes": size,
        "repeats": len(runs),
        "cpu_s": med["cpu"],
        "wall_s": med["wall"],
        "peak_rss": med["peak_rss"],
        "us_per_point": med["cpu"] / points * 1e6 if points else None,
        "mb_per_s": size / med["wall"] / 1e6,
        "df_bytes": df_bytes,
        "rss_over_df": med["peak_rss"] / df_bytes if df_bytes else None,
        "decoders": runs[0].get("decoders"),
    }
    if case.startswith("tbnb-serial"):
        parallel = statistics.median(r["parallel_cpu"] for r in runs)
        row.update(parallel_cpu_s=parallel, serial_cpu_s=med["cpu"] - parallel)
    return row


def table(rows: list[dict[str, Any]]) -> str:
    base = next((r for r in rows if r["case"] == "tbparse"), None)
    board = next((r for r in rows if r["case"] == "tensorboard"), None)
    lines = [
        "| case | points | CPU s | CPU µs/point | wall s | MB/s | peak RSS MB | frame MB "
        "| RSS/frame | CPU/point vs tbparse | wall vs TensorBoard | RSS vs TensorBoard |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        points = f"{r['points']:,}" if r["points"] else "(whole logdir)"
        per_point = f"{r['us_per_point']:.3f}" if r["us_per_point"] else "-"
        frame = f"{r['df_bytes'] / 1e6:.0f}" if r["df_bytes"] else "-"
        ratio = f"{r['rss_over_df']:.2f}" if r["rss_over_df"] else "-"
        speed = (
            f"{base['us_per_point'] / r['us_per_point']:.0f}x less"
            if base and r["us_per_point"]
            else "-"
        )
        same = board and r["logdir"] == board["logdir"] and r["case"] != "tensorboard"
        wall = f"{r['wall_s'] / board['wall_s']:.2f}" if same and board else "-"
        rss = f"{r['peak_rss'] / board['peak_rss']:.2f}" if same and board else "-"
        name = r["case"] + (f" ({','.join(r['decoders'])})" if r.get("decoders") else "")
        lines.append(
            f"| {name} | {points} | {r['cpu_s']:.2f} | {per_point} | {r['wall_s']:.2f} "
            f"| {r['mb_per_s']:.0f} | {r['peak_rss'] / 1e6:.0f} | {frame} | {ratio} | {speed} "
            f"| {wall} | {rss} |"
        )
    for serial in (r for r in rows if r["case"].startswith("tbnb-serial")):
        s, p = serial["serial_cpu_s"], serial["parallel_cpu_s"]
        lines.append(
            f"\nSerial part ({serial['case']}, one worker): {s:.2f} s CPU outside run tasks "
            "and copies, "
            f"{p:.2f} s in them. Extrapolated wall (serial + parallel / N): "
            + ", ".join(f"{n} cores {s + p / n:.2f} s" for n in (2, 4, 8, 16))
            + "."
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--logdir", type=Path, default=HERE / "data" / "scalars")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--subset-runs",
        type=int,
        default=1,
        help="runs of the logdir given to tbparse and the protobuf loop",
    )
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument(
        "--tbnb-root",
        type=Path,
        default=ROOT,
        help="the checkout whose tbnb is measured (default: this one)",
    )
    parser.add_argument("--child", nargs=2, metavar=("CASE", "LOGDIR"), help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(args.tbnb_root))
        Path(args.report).write_text(json.dumps(child(*args.child)))
        return
    global TBNB_ROOT  # noqa: PLW0603 - the children's checkout, set once from the command line
    TBNB_ROOT = args.tbnb_root.resolve()
    logdir = args.logdir.resolve()
    if not logdir.exists():
        raise SystemExit(f"{logdir} missing: run benchmarks/make_logdir.py first")
    subset = make_subset(logdir, args.subset_runs, HERE / "data" / f"_subset_{logdir.name}")
    cases = args.cases.split(",")
    if TBNB_ROOT != ROOT and "tbnb" in cases:
        measure("tbnb", logdir)  # that checkout may compile into its own cache first
    rows = []
    for case in cases:
        target = subset if case in SUBSET_CASES else logdir
        runs = [measure(case, target) for _ in range(args.repeat)]
        rows.append(summarise(case, target, runs))
        print(
            f"{case}: {rows[-1]['cpu_s']:.2f} s CPU, {rows[-1]['wall_s']:.2f} s wall",
            file=sys.stderr,
        )
    text = table(rows) + "\n\n"
    text += f"{os.cpu_count()} CPUs; medians of {args.repeat} runs; tbnb from {TBNB_ROOT}.\n"
    print(text)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (results / f"load-{logdir.name}-{stamp}.md").write_text(text)
    (results / f"load-{logdir.name}-{stamp}.json").write_text(
        json.dumps({"rows": rows, "cpus": os.cpu_count()}, indent=1)
    )


if __name__ == "__main__":
    main()
