"""``exp.hparams`` on runs with many metric-like scalar tags, before and after.

Choosing the default metric columns compared every column with every chosen one
(``default_metrics``) and building the metric columns scanned the whole reduced frame
once per tag: quadratic in the number of tags (4,000 tags took minutes). Each case
builds, in a fresh child process, a scalars frame of ``--runs`` runs x N tags x
``--steps`` steps (tags ``val/loss_<i>``: every one looks like a metric; values
distinct per tag, the worst case for the deduplication) and times ``hparams_frame`` on
it (what ``exp.hparams``, ``exp.info``, the HParams and Runs tabs and
``Dashboard.to_html`` call). Medians of ``--repeat`` children, CPU seconds of the call,
side by side for this checkout and ``--before-root`` (another checkout, e.g. main
exported with ``git archive main | tar -x -C /tmp/tbnb-main``).

Run::

    .venv/bin/python benchmarks/bench_hparams_tags.py --before-root /tmp/tbnb-main
    .venv/bin/python benchmarks/bench_hparams_tags.py --tags 1000,10000 --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def child(root: str, runs: int, tags: int, steps: int) -> dict[str, Any]:
    """Time one ``hparams_frame`` call of the tbnb in ``root``."""
    sys.path.insert(0, root)
    import numpy as np
    import pandas as pd

    from tbnb.analysis.hparams.frame import hparams_frame

    names = [f"run{i}" for i in range(runs)]
    n = runs * tags * steps
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "run": pd.Categorical.from_codes(np.repeat(np.arange(runs), tags * steps), names),
            "tag": pd.Categorical.from_codes(
                np.tile(np.repeat(np.arange(tags), steps), runs),
                [f"val/loss_{i}" for i in range(tags)],
            ),
            "step": np.tile(np.arange(steps, dtype=np.int64), runs * tags),
            "wall_time": np.arange(n, dtype=np.float64),
            "value": rng.normal(size=n),
        }
    )

    class Source:
        scalars = frame
        all_runs = names

        def __init__(self) -> None:
            import fsspec

            self.fs = fsspec.filesystem("memory")
            self.hparams_values: list[tuple[str, str, int, bytes]] = []

        def run_path(self, run: str) -> str:
            return f"/bench-none/{run}"

    source = Source()
    wall, cpu = time.perf_counter(), time.process_time()
    table = hparams_frame(source)
    return {
        "cpu": time.process_time() - cpu,
        "wall": time.perf_counter() - wall,
        "columns": table.shape[1],
        "defaults": len(table.attrs["default_metrics"]),
    }


def run_case(root: str, runs: int, tags: int, steps: int, limit: float) -> dict[str, Any] | None:
    """One child; None if it ran past ``limit`` seconds."""
    import subprocess

    argv = [sys.executable, __file__, "--child", root, str(runs), str(tags), str(steps)]
    try:
        proc = subprocess.run(
            argv, capture_output=True, text=True, timeout=limit, check=True, cwd=ROOT
        )
    except subprocess.TimeoutExpired:
        return None
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tags", default="1000,4000,10000", help="comma-separated tag counts")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before-root", help="another checkout, measured side by side")
    parser.add_argument(
        "--limit", type=float, default=600.0, help="seconds a child may run (then: > limit)"
    )
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        root, runs, tags, steps = args.child
        print(json.dumps(child(root, int(runs), int(tags), int(steps))))
        return
    roots = {"after": str(ROOT)}
    if args.before_root:
        roots["before"] = args.before_root
    print(f"hparams_frame, {args.runs} runs x N tags x {args.steps} steps; CPU s of the call")
    print(f"{'tags':>7} {'case':>7} {'median':>9} {'runs':>30} {'defaults':>9}  loadavg")
    for tags in (int(t) for t in args.tags.split(",")):
        medians: dict[str, float] = {}
        for case, root in roots.items():
            results = []
            for _ in range(args.repeat):
                out = run_case(root, args.runs, tags, args.steps, args.limit)
                results.append(out)
                if out is None:
                    break  # past the limit: once is enough
            load = f"{os.getloadavg()[0]:.2f}"
            if any(r is None for r in results):
                past = f">{args.limit:.0f}"
                print(f"{tags:>7} {case:>7} {past:>9} {'':>30} {'':>9}  {load}")
                medians[case] = float("inf")
                continue
            cpu = [r["cpu"] for r in results if r]
            medians[case] = statistics.median(cpu)
            shown = ", ".join(f"{c:.3f}" for c in cpu)
            defaults = results[0]["defaults"] if results[0] else 0
            print(f"{tags:>7} {case:>7} {medians[case]:>9.3f} {shown:>30} {defaults:>9}  {load}")
        if "before" in medians:
            print(
                f"{'':>7} {'ratio':>7} {medians['before'] / medians['after']:>9.1f}x before/after"
            )


if __name__ == "__main__":
    main()
