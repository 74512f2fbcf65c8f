"""A small notebook's cost: a new kernel loads a small logdir and opens the scalars and PR
curves widgets, with the compiled kernels ready in the cache (the state after any earlier
large load or ``python -m tbnb.jit``).

Each measurement is a fresh process (``import tbnb`` + load + ``tbnb.scalars`` +
``tbnb.pr_curves``), measured from outside (``os.wait4``: CPU, peak RSS). Cases, side by
side in one run:

- ``tbnb``: this tree, the widgets' kernel groups (transforms, curves) compiled into the
  (private) cache first;
- ``tbnb TBNB_JIT=0``: the same with the compiled kernels turned off;
- with ``--baseline TREE`` (another checkout's directory holding ``tbnb/``, e.g. main's
  from ``git archive``), the same two cases for that tree.

The child reports whether numba was imported. Medians of ``--repeat`` runs; ratios are
each case's over ``tbnb TBNB_JIT=0`` of the same tree.

Usage::

    python benchmarks/bench_small_notebook.py
    git archive main | tar -x -C /tmp/main-tree
    python benchmarks/bench_small_notebook.py --baseline /tmp/main-tree --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _proc import ROOT, run_child

CHILD = """
import json, sys
import tbnb

exp = tbnb.load(sys.argv[1], progress=False)
tbnb.scalars(exp)
tbnb.pr_curves(exp)
with open(sys.argv[sys.argv.index("--report") + 1], "w") as f:
    json.dump({"numba": "numba" in sys.modules, "rows": len(exp.scalars)}, f)
"""


WRITE = """
import sys
from tbnb.notebook.samples import SampleSpec, write_sample

spec = SampleSpec(learning_rates=(1e-3, 1e-2), seeds=(0, 1), steps=1000, image_steps=(0, 999))
write_sample(sys.argv[1], spec)
"""


def make_logdir(path: Path) -> Path:
    """Four runs of the sample sweep, 1,000 steps each (about 1.5 MB), written by
    tensorboardX in another process (this one stays small: its children's peak RSS
    starts from it)."""
    if not path.exists():
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        subprocess.run([sys.executable, "-c", WRITE, str(path)], env=env, check=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", type=Path, help="another tree holding tbnb/")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--logdir", type=Path, default=ROOT / "benchmarks" / "data" / "notebook")
    args = parser.parse_args()
    logdir = make_logdir(args.logdir)
    size = sum(p.stat().st_size for p in logdir.rglob("*") if p.is_file())
    trees = {"tbnb": ROOT, **({"baseline": args.baseline.resolve()} if args.baseline else {})}
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "child.py"
        script.write_text(CHILD)
        base_env = {k: v for k, v in os.environ.items() if k not in ("TBNB_JIT", "PYTHONPATH")}
        for name, tree in trees.items():
            env = dict(base_env, PYTHONPATH=str(tree), TBNB_CACHE_DIR=cache)
            print(f"compiling every kernel group of {name} into the cache ...", flush=True)
            groups = ["--group", "transforms", "--group", "curves"]  # what the widgets use
            subprocess.run([sys.executable, "-m", "tbnb.jit", *groups], env=env, check=True)
        cases = {
            f"{name}{jit}": dict(
                base_env,
                PYTHONPATH=str(tree),
                TBNB_CACHE_DIR=cache,
                **({"TBNB_JIT": "0"} if jit else {}),
            )
            for name, tree in trees.items()
            for jit in ("", " TBNB_JIT=0")
        }
        runs: dict[str, list[dict[str, Any]]] = {case: [] for case in cases}
        for _ in range(args.repeat):  # interleaved, so load changes hit every case alike
            for case, env in cases.items():
                runs[case].append(run_child([str(script), str(logdir)], env=env))
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(
        f"\nlogdir {size / 1e3:.0f} KB, {runs['tbnb'][0]['rows']} scalar rows; "
        f"median of {args.repeat}; load average {' '.join(load)}"
    )
    print(f"{'case':<26} {'CPU s':>7} {'peak RSS MB':>12} {'numba':>6} {'CPU x':>6} {'RSS x':>6}")
    for case, results in runs.items():
        cpu = statistics.median(r["cpu"] for r in results)
        rss = statistics.median(r["peak_rss"] for r in results) / 2**20
        off = runs[case.split()[0] + " TBNB_JIT=0"]
        cpu0 = statistics.median(r["cpu"] for r in off)
        rss0 = statistics.median(r["peak_rss"] for r in off) / 2**20
        numba = any(r["numba"] for r in results)
        print(f"{case:<26} {cpu:7.2f} {rss:12.0f} {numba!s:>6} {cpu / cpu0:6.2f} {rss / rss0:6.2f}")
    print(json.dumps({case: [r["cpu"] for r in rs] for case, rs in runs.items()}))


if __name__ == "__main__":
    main()
