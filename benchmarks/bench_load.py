"""Whole-process load benchmark: tbnb vs tbparse vs a plain protobuf loop.

Every measurement runs in a fresh subprocess; the parent reads the child's CPU time
(user + sys) and peak RSS from ``os.wait4``. Each case runs ``--repeat`` times and the
median is reported. numba compiles once into its on-disk cache; the first-run
compile time is measured separately with an empty cache directory.

Cases
-----
- ``tbnb``: ``tbnb.load(logdir).scalars`` (the public API), whole logdir.
- ``kernels``: read each file + ``scan_records`` (CRCs verified) + ``decode_scalars``,
  whole logdir: the compiled fast path alone.
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
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CASES = ("tbnb", "kernels", "tbparse", "protobuf")


# --- child side ----------------------------------------------------------------------


def _event_files(logdir: str) -> list[str]:
    out = []
    for dirpath, _, names in os.walk(logdir, followlinks=True):
        out += [os.path.join(dirpath, n) for n in sorted(names) if "tfevents" in n]
    return sorted(out)


def child(case: str, logdir: str) -> dict[str, Any]:
    """Run one load in this process; return what the parent cannot see from outside."""
    t0 = time.perf_counter()
    df_bytes = None
    if case == "tbnb":
        import tbnb

        df = tbnb.load(logdir).scalars
        points = len(df)
        df_bytes = int(df.memory_usage(deep=True).sum())
    elif case == "kernels":
        import numpy as np

        from tbnb.decode.scalars import decode_scalars
        from tbnb.io.records import read_from, scan_records

        points = 0
        for path in _event_files(logdir):
            buf = np.frombuffer(read_from(path, 0), np.uint8)
            scan = scan_records(buf, compiled=True)
            out = decode_scalars(buf, scan.starts, scan.lengths, compiled=True)
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

        rows: dict[str, list[Any]] = {"run": [], "tag": [], "step": [], "wall_time": [],
                                      "value": []}
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
                        value = (t.float_val[0] if t.float_val else t.double_val[0]
                                 if t.double_val else struct.unpack(
                                     "<f" if t.dtype == 1 else "<d", t.tensor_content)[0])
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
    return {"points": points, "df_bytes": df_bytes, "inner_wall": time.perf_counter() - t0}


# --- parent side ---------------------------------------------------------------------


def measure(case: str, logdir: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """One fresh-process run of ``case``: CPU, wall, peak RSS and the child's own report."""
    with tempfile.NamedTemporaryFile("r", suffix=".json") as report:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, __file__, "--child", case, str(logdir), "--report", report.name],
            cwd=ROOT, env=env,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if status != 0:
            raise SystemExit(f"{case} failed with status {status}")
        result: dict[str, Any] = json.loads(Path(report.name).read_text())
    result.update(cpu=usage.ru_utime + usage.ru_stime, wall=wall,
                  peak_rss=usage.ru_maxrss * 1024)
    return result


def logdir_bytes(logdir: Path) -> int:
    return sum(os.path.getsize(p) for p in _event_files(str(logdir)))


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
    return {
        "case": case, "logdir": str(logdir.relative_to(ROOT) if logdir.is_relative_to(ROOT)
                                    else logdir),
        "points": points, "bytes": size, "repeats": len(runs),
        "cpu_s": med["cpu"], "wall_s": med["wall"], "peak_rss": med["peak_rss"],
        "us_per_point": med["cpu"] / points * 1e6, "mb_per_s": size / med["wall"] / 1e6,
        "df_bytes": df_bytes, "rss_over_df": med["peak_rss"] / df_bytes if df_bytes else None,
    }


def table(rows: list[dict[str, Any]]) -> str:
    base = next((r["us_per_point"] for r in rows if r["case"] == "tbparse"), None)
    lines = [
        "| case | points | CPU µs/point | wall s | MB/s | peak RSS MB | frame MB | RSS/frame "
        "| speed-up vs tbparse |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        frame = f"{r['df_bytes'] / 1e6:.0f}" if r["df_bytes"] else "-"
        ratio = f"{r['rss_over_df']:.2f}" if r["rss_over_df"] else "-"
        speed = f"{base / r['us_per_point']:.0f}x" if base else "-"
        lines.append(
            f"| {r['case']} | {r['points']:,} | {r['us_per_point']:.3f} | {r['wall_s']:.2f} "
            f"| {r['mb_per_s']:.0f} | {r['peak_rss'] / 1e6:.0f} | {frame} | {ratio} | {speed} |"
        )
    return "\n".join(lines)


def compile_time(logdir: Path) -> float:
    """Extra wall time of the kernels case with an empty numba cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = measure("kernels", logdir, env)["wall"]
    warm = measure("kernels", logdir)["wall"]
    return float(cold - warm)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--logdir", type=Path, default=HERE / "data" / "scalars")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--subset-runs", type=int, default=1,
                        help="runs of the logdir given to tbparse and the protobuf loop")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--child", nargs=2, metavar=("CASE", "LOGDIR"), help=argparse.SUPPRESS)
    parser.add_argument("--report", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(ROOT))
        Path(args.report).write_text(json.dumps(child(*args.child)))
        return
    logdir = args.logdir.resolve()
    if not logdir.exists():
        raise SystemExit(f"{logdir} missing: run benchmarks/make_logdir.py first")
    subset = make_subset(logdir, args.subset_runs, HERE / "data" / f"_subset_{logdir.name}")
    cases = args.cases.split(",")
    measure("kernels", subset)  # fill numba's cache outside the measurements
    rows = []
    for case in cases:
        target = subset if case in ("tbparse", "protobuf") else logdir
        runs = [measure(case, target) for _ in range(args.repeat)]
        rows.append(summarise(case, target, runs))
        print(f"{case}: {rows[-1]['us_per_point']:.3f} µs/point", file=sys.stderr)
    compile_s = compile_time(subset)
    text = table(rows) + f"\n\nFirst-run numba compile (empty cache): {compile_s:.1f} s\n"
    print(text)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (results / f"load-{logdir.name}-{stamp}.md").write_text(text)
    (results / f"load-{logdir.name}-{stamp}.json").write_text(
        json.dumps({"rows": rows, "compile_s": compile_s, "cpus": os.cpu_count()}, indent=1))


if __name__ == "__main__":
    main()
