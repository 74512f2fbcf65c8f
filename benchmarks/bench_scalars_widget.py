"""Scalars widget benchmark: Python build time and Chromium redraw after a smoothing change.

A synthetic experiment of ``runs x tags x steps`` points (default 100 x 20 x 10,000 =
20M) goes through ``tbnb.scalars`` (store, downsampling, binary state); the widget is
exported as a self-contained page (``tbnb.notebook.export.to_html``) and opened in headless
Chromium, where the script measures

- ``first_chart_ms``: navigation start to the first drawn chart;
- ``smoothing_redraw_ms``: from setting the smoothing slider to the end of the
  animation frame that redraws the visible charts (median of ``--repeat`` changes);
- ``toggle_redraw_ms``: the same for switching one run off;
- ``*_frame_ms``: the same two, up to the start of the following frame, so that the
  rasterisation of the redrawn canvases (which Chromium may defer past the script) is
  counted too;
- ``charts_visible``: how many charts the viewport shows (the ones a change redraws at
  once; the others are redrawn when scrolled into view).

``--profile`` also records Chromium's CPU profiles of the changes (with a
readable, unminified bundle) and prints the functions with the most self time; the
``.cpuprofile`` goes to ``benchmarks/results/`` (open it in Chromium's DevTools).

Usage::

    python benchmarks/bench_scalars_widget.py                    # 100 x 20 x 10k
    python benchmarks/bench_scalars_widget.py --runs 10 --steps 1000
    python benchmarks/bench_scalars_widget.py --profile
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd


def make_frame(runs: int, tags: int, steps: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = runs * tags * steps
    run = pd.Categorical.from_codes(
        np.repeat(np.arange(runs), tags * steps), [f"run{i:03d}" for i in range(runs)]
    )
    tag = pd.Categorical.from_codes(
        np.tile(np.repeat(np.arange(tags), steps), runs),
        [f"group{j % 4}/tag{j:02d}" for j in range(tags)],
    )
    step = np.tile(np.arange(steps), runs * tags)
    value = np.cumsum(rng.normal(size=n)) / np.sqrt(steps)
    return pd.DataFrame(
        {"run": run, "tag": tag, "step": step, "wall_time": 1.7e9 + step * 0.5, "value": value}
    )


HERE = Path(__file__).resolve().parent

REDRAW_JS = """
async ([selector, action]) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  await frame();
  const t0 = performance.now();
  if (action === "smoothing") {
    const e = document.querySelector("input.tbnb-smoothing");
    e.value = String(0.5 + Math.random() * 0.45);
    e.dispatchEvent(new Event("input"));
  } else {
    document.querySelector(selector).click();
  }
  await frame();  // the widget's own frame callback (registered first) draws
  const drawn = performance.now() - t0;
  await frame();  // the next frame starts once the previous one was rasterised
  return [drawn, performance.now() - t0];
}
"""

VISIBLE_JS = """() => [...document.querySelectorAll('.tbnb-chart')].filter((c) => {
  const r = c.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight && r.height > 0;
}).length"""


def readable_bundle() -> str:
    """The scalars front end bundled without minification (names in the profile)."""
    js = HERE.parent / "js"
    script = (
        "import {build} from 'esbuild';"
        " const r = await build({entryPoints: ['src/scalars.js'], bundle: true,"
        " format: 'esm', write: false}); process.stdout.write(r.outputFiles[0].text);"
    )
    text = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        cwd=js,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return '"use strict";\n' + text  # a module source, not a "//..." URL


def self_times(profile: dict[str, Any], top: int = 25) -> list[tuple[float, str]]:
    """(ms, function) with the most self time in a CDP ``Profiler.stop`` profile."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    spent: collections.Counter[str] = collections.Counter()
    for node_id, dt in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = nodes[node_id]["callFrame"]
        name = f"{frame['functionName'] or '(anonymous)'} :{frame['lineNumber'] + 1}"
        spent[name] += dt / 1000
    return [(ms, name) for name, ms in spent.most_common(top)]


def _measure(page: Any, cdp: Any, action: list[str], repeat: int, name: str) -> list[Any]:
    """``repeat`` timings of one action; with a CDP session, its CPU profile too."""
    if cdp is not None:
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 100})
        cdp.send("Profiler.start")
    times = [page.evaluate(REDRAW_JS, action) for _ in range(repeat)]
    if cdp is not None:
        profile = cdp.send("Profiler.stop")["profile"]
        results = HERE / "results"
        results.mkdir(exist_ok=True)
        out = results / f"scalars-{name}-{time.strftime('%Y%m%d-%H%M%S')}.cpuprofile"
        out.write_text(json.dumps(profile))
        print(f"profile of {name}: {out}")
        for ms, fn in self_times(profile, 15):
            print(f"{ms / repeat:8.2f} ms/change  {fn}")
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--tags", type=int, default=20)
    ap.add_argument("--steps", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument(
        "--profile",
        action="store_true",
        help="record Chromium's CPU profile of the smoothing changes",
    )
    args = ap.parse_args()

    import tbnb
    from tbnb.notebook.export import to_html
    from tbnb.widgets.scalars.widget import ScalarsWidget

    if args.profile:
        ScalarsWidget._esm = readable_bundle()

    df = make_frame(args.runs, args.tags, args.steps)
    tbnb.scalars(df.head(1000))  # warm numba's on-disk cache and imports
    t0 = time.perf_counter()
    widget = tbnb.scalars(df)
    build_s = time.perf_counter() - t0
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        page_path = to_html(widget, Path(tmp) / "bench.html")
        size_mb = page_path.stat().st_size / 1e6
        with sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(
                str(Path(tmp) / "profile"),
                executable_path="/usr/bin/chromium",
                headless=True,
                args=[
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-dev-shm-usage",
                ],
                viewport={"width": 1400, "height": 1000},
            )
            page = ctx.new_page()
            page.goto(page_path.as_uri(), timeout=300_000)
            page.wait_for_selector(".tbnb-chart canvas[width]", timeout=300_000)
            first_ms = page.evaluate("() => performance.now()")  # clock starts at navigation
            page.wait_for_timeout(500)  # let charts in view finish their first draw
            visible = page.evaluate(VISIBLE_JS)
            cdp = page.context.new_cdp_session(page) if args.profile else None
            smooth_ms = _measure(page, cdp, ["", "smoothing"], args.repeat, "smoothing")
            toggle_ms = _measure(page, cdp, [".tbnb-run-toggle", "toggle"], args.repeat, "toggle")
            ctx.close()
    result = {
        "points": len(df),
        "runs": args.runs,
        "tags": args.tags,
        "steps": args.steps,
        "python_build_s": round(build_s, 2),
        "page_mb": round(size_mb, 1),
        "first_chart_ms": round(first_ms),
        "charts_visible": visible,
        "smoothing_redraw_ms": round(statistics.median(m[0] for m in smooth_ms), 1),
        "smoothing_frame_ms": round(statistics.median(m[1] for m in smooth_ms), 1),
        "toggle_redraw_ms": round(statistics.median(m[0] for m in toggle_ms), 1),
        "toggle_frame_ms": round(statistics.median(m[1] for m in toggle_ms), 1),
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
