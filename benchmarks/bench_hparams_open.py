"""Time to open the HParams view: ``tbnb.hparams(exp)`` call to the widget returned.

The view used to compute parameter importance (scikit-learn's random forest; its import
alone takes seconds) before the constructor returned; now the importance is computed in a
background thread and the widget returns first. Each measurement is a fresh child process
(imports paid as in a new kernel): it loads the sample logdir
(:func:`tbnb.notebook.samples.sample_logdir`, made once beforehand), then times the
``tbnb.hparams(exp)`` call, then the wait until the importance is in the widget
(``wait_ready``, where the checkout has it). Medians of ``--repeat`` children for this
checkout and, with ``--before-root``, another one (e.g. main exported with
``git archive main | tar -x -C DIR``), the children of both interleaved, with the 1-minute
load average beside each figure (the machine may be shared).

Run::

    .venv/bin/python benchmarks/bench_hparams_open.py --before-root DIR --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def child(root: str, logdir: str) -> dict[str, Any]:
    """Load ``logdir`` with the tbnb in ``root``; time ``tbnb.hparams(exp)``."""
    sys.path.insert(0, root)
    import tbnb

    exp = tbnb.load(logdir, progress=False)
    _ = exp.hparams  # the table is the loader's work, not the view's
    t0 = time.perf_counter()
    widget = tbnb.hparams(exp)
    built = time.perf_counter() - t0
    wait = getattr(widget, "wait_ready", None)
    if callable(wait):
        wait(600.0)
    ready = time.perf_counter() - t0
    return {
        "built": built,
        "ready": ready,
        "importance": sorted(widget._importance),
        "sklearn_at_return": "sklearn" in sys.modules,
    }


def run_case(root: str, logdir: str) -> dict[str, Any]:
    argv = [sys.executable, __file__, "--child", root, logdir]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run(argv, capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["load"] = os.getloadavg()[0]
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before-root", help="another checkout, measured side by side")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    sys.path.insert(0, str(ROOT))
    from tbnb.notebook.samples import sample_logdir

    logdir = str(sample_logdir())
    roots = {"after": str(ROOT)}
    if args.before_root:
        roots["before"] = args.before_root
    results: dict[str, list[dict[str, Any]]] = {case: [] for case in roots}
    for _ in range(args.repeat):
        for case, root in roots.items():  # interleaved: both see the same load
            results[case].append(run_case(root, logdir))
    print(f"tbnb.hparams(exp) on the sample logdir, {args.repeat} fresh processes each")
    print(f"{'case':>7} {'built s':>8} {'ready s':>8}  {'built (each)':<34} loadavg")
    medians = {}
    for case, runs in results.items():
        built = [r["built"] for r in runs]
        ready = [r["ready"] for r in runs]
        medians[case] = statistics.median(built)
        each = ", ".join(f"{b:.2f}" for b in built)
        loads = ", ".join(f"{r['load']:.1f}" for r in runs)
        print(
            f"{case:>7} {medians[case]:>8.3f} {statistics.median(ready):>8.3f}  {each:<34} {loads}"
        )
    if "before" in medians:
        ratio = medians["before"] / medians["after"]
        print(f"  ratio: built {ratio:.1f}x sooner (before/after medians)")


if __name__ == "__main__":
    main()
