"""Whole-process benchmark: one logdir vs the same runs as several logdirs in one experiment.

The runs of one logdir are split into ``--parts`` logdirs (folders of links to the runs,
as users gather runs to compare; nothing copied) and loaded as
``tbnb.load({"part0": ..., "part1": ...})``; beside it, the whole logdir loaded alone and
each part loaded alone in its own process. Every measurement is a fresh child process
(CPU = user + sys and peak RSS from ``os.wait4``), the median of ``--repeat`` runs.

Cases
-----
- ``one``: ``tbnb.load(folder).scalars``, a folder of links to every run (links are
  followed as in the parts, so both cases pay for them alike).
- ``several``: ``tbnb.load({part: folder, ...}).scalars``: the same points.
- ``parts``: each part alone (``tbnb.load(folder).scalars``), one process each, summed.

Usage::

    python benchmarks/make_logdir.py --scale 0.05          # once: benchmarks/data/...
    python benchmarks/bench_multilogdir.py --logdir benchmarks/data/scalars_x0.05
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _proc import run_child

HERE = Path(__file__).resolve().parent


def child(spec: str) -> dict[str, Any]:
    """Load ``spec`` (a path, or a JSON ``{name: path}``) in this process."""
    import tbnb

    t0 = time.perf_counter()
    logdir = json.loads(spec) if spec.startswith("{") else spec
    exp = tbnb.load(logdir, progress=False)
    points = len(exp.scalars)
    return {"points": points, "runs": len(exp.runs), "inner_wall": time.perf_counter() - t0}


def split(logdir: Path, parts: int, into: Path) -> dict[str, str]:
    """Folders of links to the runs of ``logdir``, ``parts`` of them, runs dealt in order."""
    runs = sorted(p for p in logdir.iterdir() if p.is_dir())
    out = {}
    for i in range(parts):
        folder = into / f"part{i}"
        folder.mkdir(parents=True)
        for run in runs[i::parts]:
            (folder / run.name).symlink_to(run.resolve())
        out[f"part{i}"] = str(folder)
    return out


def measure(spec: str, repeat: int) -> dict[str, float]:
    runs = [run_child([__file__, "--child", spec]) for _ in range(repeat)]
    return {
        "wall": statistics.median(r["wall"] for r in runs),
        "cpu": statistics.median(r["cpu"] for r in runs),
        "peak_rss": statistics.median(r["peak_rss"] for r in runs),
        "points": runs[0]["points"],
        "runs": runs[0]["runs"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logdir", default=str(HERE / "data" / "scalars_x0.05"))
    parser.add_argument("--parts", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child")
    parser.add_argument("--report")
    args = parser.parse_args()
    if args.child is not None:
        Path(args.report).write_text(json.dumps(child(args.child)))
        return
    with tempfile.TemporaryDirectory(prefix="tbnb-bench-multilogdir-") as tmp:
        named = split(Path(args.logdir), args.parts, Path(tmp) / "parts")
        whole = split(Path(args.logdir), 1, Path(tmp) / "whole")["part0"]
        one = measure(whole, args.repeat)
        several = measure(json.dumps(named), args.repeat)
        alone = [measure(path, args.repeat) for path in named.values()]
    load = Path("/proc/loadavg").read_text().split()[:3] if os.path.exists("/proc/loadavg") else []
    assert several["points"] == one["points"] == sum(a["points"] for a in alone)
    rows = [
        ("one", one),
        ("several", several),
        ("parts (sum)", {k: sum(a[k] for a in alone) for k in ("wall", "cpu", "points", "runs")}),
    ]
    print(f"logdir {args.logdir}: {one['runs']} runs, {one['points']:,} points, "
          f"{args.parts} parts, median of {args.repeat}, loadavg {' '.join(load)}")  # fmt: skip
    print(f"{'case':<12} {'wall s':>8} {'cpu s':>8} {'peak MB':>8}")
    for name, row in rows:
        rss = f"{row['peak_rss'] / 2**20:8.0f}" if "peak_rss" in row else f"{'':>8}"
        print(f"{name:<12} {row['wall']:8.3f} {row['cpu']:8.3f} {rss}")
    print(
        f"several / one: wall {several['wall'] / one['wall']:.2f}x, "
        f"cpu {several['cpu'] / one['cpu']:.2f}x, "
        f"peak RSS {several['peak_rss'] / one['peak_rss']:.2f}x"
    )


if __name__ == "__main__":
    main()
