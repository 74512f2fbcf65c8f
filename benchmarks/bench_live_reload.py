"""What one reload costs a live widget: one new value on top of a large logdir.

A logdir of many values of one kind (histograms: ``make_histograms.py``'s writer, 50,000
histograms by default; scalars: 2M points; images and text: thousands of steps) is loaded,
a widget (or none) follows the experiment, then one new value is written into a new event
file of one run and ``exp.reload()`` is timed: the reload itself and every subscribed
widget's update (the coordinator tells subscribers before ``reload()`` returns). Each case
runs in a fresh process (``--repeat`` times, median), the "none" row beside the widget
rows, so the cost a widget adds is the difference. A reload's cost should follow what is
new, not what is shown (issue 28).

Usage::

    python benchmarks/bench_live_reload.py                    # every kind
    python benchmarks/bench_live_reload.py --kinds histograms --repeat 5
    python benchmarks/bench_live_reload.py --before /path/to/another/checkout
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

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: kind -> (how to write the logdir, how to write one more value, widgets to follow it)
CASES: dict[str, dict[str, Any]] = {
    "histograms": {"widgets": ["none", "histograms", "histograms+distributions"]},
    "scalars": {"widgets": ["none", "scalars"]},
    "images": {"widgets": ["none", "images"]},
    "text": {"widgets": ["none", "text"]},
}

WRITE = r"""
import sys
from pathlib import Path
import numpy as np
kind, out, n = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
sys.path.insert(0, sys.argv[4])
if kind == "histograms":
    import make_histograms
    make_histograms.make_logdir(out, runs=5, tags=10, steps=n // 50)
else:
    from tensorboardX import SummaryWriter
    for r in range(4):
        w = SummaryWriter(str(out / f"run_{r}"))
        for step in range(n // 4 if kind == "scalars" else n):
            if kind == "scalars":
                w.add_scalar(f"g{step % 5}/loss", 1.0 / (step + 1), step // 5)
            elif kind == "images":
                w.add_image("img", np.full((3, 8, 8), step % 255, np.uint8), step)
            else:
                w.add_text("notes", f"step {step}: **bold** text", step)
        w.close()
print("written")
"""

MEASURE = r"""
import json, sys, time, warnings
from pathlib import Path
import numpy as np
warnings.simplefilter("ignore")
import tbnb
kind, logdir, widgets = sys.argv[1], Path(sys.argv[2]), sys.argv[3]
exp = tbnb.load(str(logdir))
shown = []
for name in widgets.split("+"):
    if name != "none":
        shown.append(getattr(tbnb, name)(exp))
        getattr(exp, name if name != "distributions" else "histograms")  # the frame built
from tensorboardX import SummaryWriter
w = SummaryWriter(str(logdir / "run_0"), filename_suffix=".more")
if kind == "histograms":
    w.add_histogram_raw("layer00/weight", -1.0, 1.0, 10, 0.0, 1.0, [0.0, 1.0], [5, 5], 10**6)
elif kind == "scalars":
    w.add_scalar("g0/loss", 0.5, 10**6)
elif kind == "images":
    w.add_image("img", np.zeros((3, 8, 8), np.uint8), 10**6)
else:
    w.add_text("notes", "one more", 10**6)
w.close()
t0 = time.perf_counter()
report = exp.reload()
seconds = time.perf_counter() - t0
assert report.changed, report
print(json.dumps({"reload_s": round(seconds, 3)}))
"""


def run(code: str, args: list[str], root: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=3600,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-3000:])
    return done.stdout.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kinds", default=",".join(CASES))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--histograms", type=int, default=50_000)
    ap.add_argument("--scalars", type=int, default=2_000_000)
    ap.add_argument("--images", type=int, default=2_000, help="steps per run")
    ap.add_argument("--text", type=int, default=5_000, help="steps per run")
    ap.add_argument("--before", type=Path, help="another tbnb checkout, measured beside this one")
    args = ap.parse_args()
    roots = {"this": ROOT}
    if args.before is not None:
        roots["before"] = args.before.resolve()
    rows = []
    with tempfile.TemporaryDirectory() as name:
        for kind in args.kinds.split(","):
            logdir = Path(name) / kind
            run(WRITE, [kind, str(logdir), str(getattr(args, kind)), str(HERE)], ROOT)
            for widgets in CASES[kind]["widgets"]:
                for label, root in roots.items():
                    if widgets == "none" and label != "this":
                        continue
                    times = []
                    for _ in range(args.repeat):
                        copy = Path(name) / f"{kind}-copy"
                        subprocess.run(["rm", "-rf", str(copy)], check=True)
                        subprocess.run(["cp", "-r", str(logdir), str(copy)], check=True)
                        times.append(json.loads(run(MEASURE, [kind, str(copy), widgets], root)))
                    row = {
                        "kind": kind,
                        "values": getattr(args, kind),
                        "widgets": widgets,
                        "tbnb": label,
                        "reload_s": statistics.median(t["reload_s"] for t in times),
                        "loadavg": Path("/proc/loadavg").read_text().split()[:3],
                    }
                    rows.append(row)
                    print(json.dumps(row), flush=True)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    import time

    out = results / f"live-reload-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(rows, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
