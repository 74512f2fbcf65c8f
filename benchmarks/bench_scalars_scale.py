"""Scalars at scale in Chromium: a 2,000-run sweep and one run of 10,000 tags.

For each logdir shape and each tbnb checkout (this one, and ``--before`` another, e.g. an
export of ``main``: the same pages built by both, measured in the same minutes), a
child process builds ``tbnb.scalars`` of a synthetic frame and exports it as a
self-contained page (``tbnb.notebook.export.to_html``: what a saved notebook holds, no
kernel); headless Chromium opens it and the script measures

- ``page_mb``: the exported page (the widget's state);
- ``first_chart_ms``: navigation start to the first drawn chart;
- ``longest_task_ms`` / ``blocked_ms``: the longest main-thread task, and the time spent
  in tasks over 50 ms, from navigation to 3 s after the first chart (``longtask``
  entries of a ``PerformanceObserver``);
- ``smoothing_ms``: median time from a smoothing change to the end of the frame that
  redraws the charts in view.

Goals (issue 28): first chart < 1.5 s, no task > 200 ms, a smoothing change < 50 ms.

``--profile`` builds this tree's pages with a readable (unminified) scalars bundle and
prints the functions with the most self time while the page loads and during smoothing
changes (Chromium's CPU profiler).

Usage::

    python benchmarks/bench_scalars_scale.py                       # both shapes, this tree
    python benchmarks/bench_scalars_scale.py --before /tmp/main    # side by side
    python benchmarks/bench_scalars_scale.py --repeat 5 --shapes sweep
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

SHAPES = {
    "sweep": {"runs": 2000, "tags": 5, "steps": 500},
    "tags": {"runs": 1, "tags": 10_000, "steps": 200},
}

BUILD = r"""
import json, sys, time
import numpy as np, pandas as pd
import tbnb
from tbnb.notebook.export import to_html
runs, tags, steps, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = np.random.default_rng(0)
n = runs * tags * steps
frame = pd.DataFrame({
    "run": pd.Categorical.from_codes(
        np.repeat(np.arange(runs), tags * steps),
        [f"lr={1e-4 * (i + 1):.4f},seed={i % 7}" for i in range(runs)],
    ),
    "tag": pd.Categorical.from_codes(np.tile(np.repeat(np.arange(tags), steps), runs),
                                     [f"layer{j // 100}/metric{j:05d}" for j in range(tags)]),
    "step": np.tile(np.arange(steps), runs * tags),
    "wall_time": 1.7e9 + np.tile(np.arange(steps), runs * tags) * 0.5,
    "value": np.cumsum(rng.normal(size=n)) / np.sqrt(steps),
})
import os
if os.environ.get("TBNB_BENCH_ESM"):
    from tbnb.widgets.scalars.widget import ScalarsWidget
    ScalarsWidget._esm = open(os.environ["TBNB_BENCH_ESM"], encoding="utf-8").read()
t0 = time.perf_counter()
w = tbnb.scalars(frame)
build = time.perf_counter() - t0
to_html(w, out)
print(json.dumps({"python_build_s": round(build, 2)}))
"""

OBSERVE_JS = """
window.__long = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
"""

SMOOTH_JS = """
async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  await frame();
  const t0 = performance.now();
  const e = document.querySelector("input.tbnb-smoothing");
  e.value = String(0.5 + Math.random() * 0.45);
  e.dispatchEvent(new Event("input"));
  await frame();
  await frame();
  return performance.now() - t0;
}
"""

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def readable_bundle(out: Path) -> Path:
    """The scalars widget's bundle, not minified (function names in the profile)."""
    script = (
        "import {build} from 'esbuild';"
        " const r = await build({entryPoints: ['src/widgets/scalars/index.js'], bundle: true,"
        " format: 'esm', write: false}); process.stdout.write(r.outputFiles[0].text);"
    )
    text = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        cwd=ROOT / "js",
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    out.write_text('"use strict";\n' + text, encoding="utf-8")  # a source, not a "//" URL
    return out


def self_times(profile: dict[str, Any], top: int = 20) -> list[tuple[float, str]]:
    """(ms, function) with the most self time in a CDP ``Profiler.stop`` profile."""
    import collections

    nodes = {n["id"]: n for n in profile["nodes"]}
    spent: collections.Counter[str] = collections.Counter()
    for node_id, dt in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[node_id]["callFrame"]
        spent[f"{frame['functionName'] or '(anonymous)'} :{frame['lineNumber'] + 1}"] += dt / 1000
    return [(ms, fn) for fn, ms in spent.most_common(top)]


def profile(playwright: Any, page_path: Path, tmp: Path) -> None:
    """Print the self time of the load and of five smoothing changes."""
    ctx = playwright.chromium.launch_persistent_context(
        str(tmp / f"profile-{time.monotonic_ns()}"),
        executable_path="/usr/bin/chromium",
        headless=True,
        args=ARGS,
        viewport={"width": 1400, "height": 1000},
    )
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        cdp.send("Profiler.start")
        page.goto(page_path.as_uri(), timeout=600_000)
        page.wait_for_selector(".tbnb-chart[data-points]", timeout=600_000)
        page.wait_for_timeout(2000)
        for label in ("load", "smoothing x5"):
            if label != "load":
                cdp.send("Profiler.start")
                for _ in range(5):
                    page.evaluate(SMOOTH_JS)
            prof = cdp.send("Profiler.stop")["profile"]
            print(f"-- {page_path.name}: {label}")
            for ms, fn in self_times(prof):
                print(f"{ms:9.1f} ms  {fn}")
    finally:
        ctx.close()


def build(root: Path, shape: dict[str, int], out: Path, esm: Path | None = None) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    if esm is not None:
        env["TBNB_BENCH_ESM"] = str(esm)
    args = [str(shape["runs"]), str(shape["tags"]), str(shape["steps"]), str(out)]
    done = subprocess.run(
        [sys.executable, "-c", BUILD, *args],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    if done.returncode:
        raise RuntimeError(f"building the page in {root} failed: {done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["page_mb"] = round(out.stat().st_size / 1e6, 2)
    return result


def measure(playwright: Any, page_path: Path, repeat: int, tmp: Path) -> dict[str, Any]:
    ctx = playwright.chromium.launch_persistent_context(
        str(tmp / f"profile-{time.monotonic_ns()}"),
        executable_path="/usr/bin/chromium",
        headless=True,
        args=ARGS,
        viewport={"width": 1400, "height": 1000},
    )
    try:
        page = ctx.new_page()
        page.add_init_script(OBSERVE_JS)
        page.goto(page_path.as_uri(), timeout=600_000)
        page.wait_for_selector(".tbnb-chart[data-points]", timeout=600_000)
        first = float(page.evaluate("() => performance.now()"))
        page.wait_for_timeout(3000)
        tasks = [t for t in page.evaluate("() => window.__long") if t[0] < first + 3000]
        smooth = [float(page.evaluate(SMOOTH_JS)) for _ in range(repeat)]
    finally:
        ctx.close()
    return {
        "first_chart_ms": round(first),
        "longest_task_ms": round(max((d for _, d in tasks), default=0.0)),
        "blocked_ms": round(sum(d for _, d in tasks)),
        "smoothing_ms": round(statistics.median(smooth), 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before", type=Path, help="another tbnb checkout, measured beside this one")
    ap.add_argument("--shapes", default="sweep,tags")
    ap.add_argument("--repeat", type=int, default=3, help="page loads per case (median)")
    ap.add_argument("--smoothing", type=int, default=7, help="smoothing changes per load")
    ap.add_argument("--profile", action="store_true", help="CPU profiles instead of timings")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    roots = {"this": ROOT}
    if args.before is not None:
        roots["before"] = args.before.resolve()
    rows = []
    with tempfile.TemporaryDirectory() as name, sync_playwright() as pw:
        tmp = Path(name)
        if args.profile:
            esm = readable_bundle(tmp / "scalars-readable.js")
            for shape_name in args.shapes.split(","):
                page_path = tmp / f"{shape_name}-profile.html"
                build(ROOT, SHAPES[shape_name], page_path, esm)
                profile(pw, page_path, tmp)
            return
        for shape_name in args.shapes.split(","):
            shape = SHAPES[shape_name]
            for label, root in roots.items():
                page_path = tmp / f"{shape_name}-{label}.html"
                built = build(root, shape, page_path)
                loads = [measure(pw, page_path, args.smoothing, tmp) for _ in range(args.repeat)]
                row = {
                    "shape": shape_name,
                    **shape,
                    "tbnb": label,
                    **built,
                    **{k: statistics.median(m[k] for m in loads) for k in loads[0]},
                    "loadavg": Path("/proc/loadavg").read_text().split()[:3],
                }
                rows.append(row)
                print(json.dumps(row), flush=True)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    out = results / f"scalars-scale-{time.strftime('%Y%m%d-%H%M%S')}.json"
    out.write_text(json.dumps(rows, indent=1))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
