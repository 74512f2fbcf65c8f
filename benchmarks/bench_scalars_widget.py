"""Scalars widget benchmark: Python build time and Chromium redraw after a smoothing change.

A synthetic experiment of ``runs x tags x steps`` points (default 100 x 20 x 10,000 =
20M) goes through ``tbnb.scalars`` (store, downsampling, binary state); the widget is
exported as a self-contained page (``tbnb.export.to_html``) and opened in headless
Chromium, where the script measures

- ``first_chart_ms``: navigation start to the first drawn chart;
- ``smoothing_redraw_ms``: from setting the smoothing slider to the end of the
  animation frame that redraws the visible charts (median of ``--repeat`` changes);
- ``toggle_redraw_ms``: the same for switching one run off.

Usage::

    python benchmarks/bench_scalars_widget.py                    # 100 x 20 x 10k
    python benchmarks/bench_scalars_widget.py --runs 10 --steps 1000
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd


def make_frame(runs: int, tags: int, steps: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    n = runs * tags * steps
    run = pd.Categorical.from_codes(np.repeat(np.arange(runs), tags * steps),
                                    [f"run{i:03d}" for i in range(runs)])
    tag = pd.Categorical.from_codes(np.tile(np.repeat(np.arange(tags), steps), runs),
                                    [f"group{j % 4}/tag{j:02d}" for j in range(tags)])
    step = np.tile(np.arange(steps), runs * tags)
    value = np.cumsum(rng.normal(size=n)) / np.sqrt(steps)
    return pd.DataFrame({"run": run, "tag": tag, "step": step,
                         "wall_time": 1.7e9 + step * 0.5, "value": value})


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
  return performance.now() - t0;
}
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--tags", type=int, default=20)
    ap.add_argument("--steps", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=9)
    args = ap.parse_args()

    import tbnb
    from tbnb.export import to_html

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
                str(Path(tmp) / "profile"), executable_path="/usr/bin/chromium", headless=True,
                args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                      "--disable-background-networking", "--disable-component-update",
                      "--disable-sync", "--disable-dev-shm-usage"],
                viewport={"width": 1400, "height": 1000})
            page = ctx.new_page()
            page.goto(page_path.as_uri(), timeout=300_000)
            page.wait_for_selector(".tbnb-chart canvas[width]", timeout=300_000)
            first_ms = page.evaluate("() => performance.now()")  # clock starts at navigation
            smooth_ms = [page.evaluate(REDRAW_JS, ["", "smoothing"])
                         for _ in range(args.repeat)]
            toggle_ms = [page.evaluate(REDRAW_JS, [".tbnb-run-toggle", "toggle"])
                         for _ in range(args.repeat)]
            ctx.close()
    result = {
        "points": len(df), "runs": args.runs, "tags": args.tags, "steps": args.steps,
        "python_build_s": round(build_s, 2), "page_mb": round(size_mb, 1),
        "first_chart_ms": round(first_ms),
        "smoothing_redraw_ms": round(statistics.median(smooth_ms), 1),
        "toggle_redraw_ms": round(statistics.median(toggle_ms), 1),
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
