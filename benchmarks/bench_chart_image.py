"""Chart image export benchmark: PNG and SVG of a scalars chart from its save button.

A scalars widget of ``--runs`` runs x one tag x ``--steps`` steps (a synthetic frame:
noisy decaying curves) is exported to an HTML page (``tbnb.notebook.export.to_html``: the
real bundle and state, no kernel) and opened in headless Chromium (``--disable-gpu``:
software canvas). For each format the page clicks the chart's menu item and waits for the
button's ``data-saved`` attribute (the blob made and handed to the download): medians of
``--repeat`` clicks of the wall time in the page (``performance.now``) and of the script
and main-thread task time the renderer spent (CDP ``Performance.getMetrics``
ScriptDuration and TaskDuration deltas; the PNG encoding of ``toBlob`` runs off the main
thread and shows in the wall time only). Beside them, the alternative a user has without
the button: the chart's three on-screen canvases composed and encoded with
``canvas.toBlob`` (device pixels, no title, legend or axis label, raster only). Sizes of
the files are reported too.

Run::

    .venv/bin/python benchmarks/bench_chart_image.py                 # 10 and 100 runs x 10k steps
    .venv/bin/python benchmarks/bench_chart_image.py --runs 100 --steps 10000 --repeat 7
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SAVE_JS = """async ([fmt]) => {
  const chart = document.querySelector('.tbnb-chart');
  const node = chart.querySelector('.tbnb-save-image');
  node.removeAttribute('data-saved');
  chart.querySelector('.tbnb-save-button').click();
  const t0 = performance.now();
  chart.querySelector(`.tbnb-save-menu [data-format="${fmt}"]`).click();
  while (!node.getAttribute('data-saved') && !node.getAttribute('data-error')) {
    await new Promise((r) => setTimeout(r, 0));
  }
  if (node.getAttribute('data-error')) throw new Error(node.getAttribute('data-error'));
  return [performance.now() - t0, node.getAttribute('data-saved')];
}"""

ALTERNATIVE_JS = """async () => {
  const layers = [...document.querySelector('.tbnb-chart').querySelectorAll('canvas')];
  const t0 = performance.now();
  const out = document.createElement('canvas');
  out.width = layers[0].width;
  out.height = layers[0].height;
  const ctx = out.getContext('2d');
  for (const c of layers) ctx.drawImage(c, 0, 0);
  const blob = await new Promise((r) => out.toBlob(r, 'image/png'));
  return [performance.now() - t0, `png ${out.width}x${out.height} ${blob.size} bytes`];
}"""


def frame(runs: int, steps: int) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    step = np.arange(steps, dtype=np.int64)
    parts = []
    for r in range(runs):
        value = (1 + r / runs) * np.exp(-step / (steps / 3)) + rng.normal(0, 0.05, steps)
        parts.append(
            pd.DataFrame(
                {
                    "run": f"run{r:03d}",
                    "tag": "train/loss",
                    "step": step,
                    "wall_time": 1.7e9 + step * 0.5,
                    "value": value,
                }
            )
        )
    return pd.concat(parts, ignore_index=True)


def main_thread_seconds(cdp: Any) -> tuple[float, float]:
    """(script, all tasks) seconds the renderer's main thread has spent so far."""
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return float(metrics["ScriptDuration"]), float(metrics["TaskDuration"])


def measure(page: Any, cdp: Any, js: str, args: list[Any], repeat: int) -> dict[str, Any]:
    walls, scripts, tasks, what = [], [], [], ""
    for _ in range(repeat):
        s0, t0 = main_thread_seconds(cdp)
        wall, what = page.evaluate(js, args) if args else page.evaluate(js)
        s1, t1 = main_thread_seconds(cdp)
        scripts.append((s1 - s0) * 1000)
        tasks.append((t1 - t0) * 1000)
        walls.append(wall)
    return {
        "wall_ms": round(statistics.median(walls), 1),
        "script_ms": round(statistics.median(scripts), 1),
        "main_thread_ms": round(statistics.median(tasks), 1),
        "result": what,
    }


def run_case(runs: int, steps: int, repeat: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    import tbnb
    from tbnb.notebook.export import to_html
    from tests.ui._chromium import Chromium

    widget = tbnb.scalars(frame(runs, steps), smoothing=0.6)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        path = to_html(widget, Path(tmp) / "chart.html")
        chromium = Chromium(pw, viewport=(1100, 900))
        try:
            page = chromium.page()
            page.goto(path.as_uri(), timeout=300_000)
            page.wait_for_function(
                "n => document.querySelector('.tbnb-chart')?.getAttribute('data-series-count')"
                " === String(n)",
                arg=runs,
                timeout=300_000,
            )
            page.wait_for_timeout(300)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Performance.enable")
            out: dict[str, Any] = {"runs": runs, "steps": steps}
            sizes = {}
            for fmt in ("png", "svg"):
                with page.expect_download() as info:
                    page.evaluate(SAVE_JS, [fmt])
                sizes[fmt] = os.path.getsize(info.value.path())
                out[fmt] = measure(page, cdp, SAVE_JS, [fmt], repeat)
                out[fmt]["bytes"] = sizes[fmt]
            out["canvas_toBlob"] = measure(page, cdp, ALTERNATIVE_JS, [], repeat)
            alt = out["canvas_toBlob"]["wall_ms"] or 1e-9
            out["png_vs_toBlob"] = round(out["png"]["wall_ms"] / alt, 2)
            out["svg_vs_toBlob"] = round(out["svg"]["wall_ms"] / alt, 2)
            assert not chromium.log.page_errors, chromium.log.page_errors
        finally:
            chromium.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()}")
    for runs in args.runs:
        print(json.dumps(run_case(runs, args.steps, args.repeat)))
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
