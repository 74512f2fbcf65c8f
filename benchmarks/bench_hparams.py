"""Hparams benchmark: discovery on a large scalars frame, and brushing in Chromium.

1. ``hparams_frame`` on a synthetic 50 runs x 20 tags x 20,000 steps frame (20M
   points, categorical run/tag as ``Experiment.scalars`` gives them): CPU seconds of
   the call (median of ``--repeat``), for ``last`` and for ``last, min, max``.
2. The hparams widget's export page (real bundle and state, no kernel) with 1,000
   runs x 20 axes in headless Chromium: 40 brush moves dispatched on one axis, each
   followed by an animation frame; median / p90 / max milliseconds from the move to
   the next frame, and the time to commit a brush (pointerup: selection, table,
   scatter row). Chromium runs with ``--disable-gpu`` (software canvas), so a
   desktop browser is faster.

Run::

    .venv/bin/python benchmarks/bench_hparams.py
    .venv/bin/python benchmarks/bench_hparams.py --skip-browser --repeat 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import fsspec
import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tbnb.analysis.hparams.frame import hparams_frame  # noqa: E402

BRUSH_JS = """async () => {
  const track = document.querySelector('.tbnb-axis[data-column="h3"] .tbnb-axis-track');
  const r = track.getBoundingClientRect();
  const x = r.left + r.width / 2;
  const ev = (type, y) => track.dispatchEvent(new PointerEvent(type,
    {clientX: x, clientY: y, bubbles: true, pointerId: 1}));
  const frame = () => new Promise((res) => requestAnimationFrame(() => res()));
  ev('pointerdown', r.top + r.height * 0.1);
  const times = [];
  for (let k = 0; k < 40; k++) {
    const t0 = performance.now();
    ev('pointermove', r.top + r.height * (0.2 + k * 0.015));
    await frame();
    times.push(performance.now() - t0);
  }
  const t0 = performance.now();
  ev('pointerup', r.top + r.height * 0.8);
  const commit = performance.now() - t0;
  times.sort((a, b) => a - b);
  return {median: times[20], p90: times[36], max: times[39], commit};
}"""


class _Source:
    def __init__(self, scalars: pd.DataFrame, runs: list[str]) -> None:
        self.scalars = scalars
        self.runs = runs
        self.all_runs = runs
        self.hparams_values: list[tuple[str, str, int, bytes]] = []
        self.fs = fsspec.filesystem("memory")

    def run_path(self, run: str) -> str:
        return f"/bench-none/{run}"


def discovery(repeat: int) -> None:
    runs, tags, steps = 50, 20, 20_000
    n = runs * tags * steps
    names = [f"run{i}" for i in range(runs)]
    frame = pd.DataFrame(
        {
            "run": pd.Categorical.from_codes(np.repeat(np.arange(runs), tags * steps), names),
            "tag": pd.Categorical.from_codes(
                np.tile(np.repeat(np.arange(tags), steps), runs), [f"tag{i}" for i in range(tags)]
            ),
            "step": np.tile(np.arange(steps, dtype=np.int64), runs * tags),
            "wall_time": np.arange(n, dtype=np.float64),
            "value": np.random.default_rng(0).normal(size=n),
        }
    )
    source = _Source(frame, names)
    print(f"hparams_frame on {n / 1e6:.0f}M points ({runs} runs x {tags} tags x {steps} steps)")
    for metrics in (["last"], ["last", "min", "max"]):
        cpu = []
        for _ in range(repeat):
            t0 = time.process_time()
            out = hparams_frame(source, metrics=metrics)
            cpu.append(time.process_time() - t0)
        med = statistics.median(cpu)
        print(
            f"  metrics={metrics}: {out.shape[1]} columns, CPU {med:.2f} s median "
            f"({med / n * 1e9:.1f} ns/point)"
        )


def browser(repeat: int) -> None:
    from playwright.sync_api import sync_playwright

    from tests.ui._chromium import Chromium, missing_reason

    reason = missing_reason()
    if reason:
        print(f"browser part skipped: {reason}")
        return
    from tbnb.notebook.export import render_html
    from tbnb.widgets.hparams import hparams
    from tests.ui.test_hparams_ui import _sweep

    widget = hparams(_sweep(1000), metric="m0.last")
    with tempfile.TemporaryDirectory() as tmp:
        page_path = Path(tmp) / "hparams.html"
        page_path.write_text(render_html(widget), encoding="utf-8")
        with sync_playwright() as pw:
            chromium = Chromium(pw, viewport=(1400, 1400))
            try:
                page = chromium.page()
                page.goto(page_path.as_uri())
                page.wait_for_selector(".tbnb-w-hparams .tbnb-axis")
                results: list[dict[str, Any]] = [page.evaluate(BRUSH_JS) for _ in range(repeat)]
            finally:
                chromium.close()
    print("brushing 1,000 runs x 20 axes in headless Chromium (software canvas)")
    for key in ("median", "p90", "max", "commit"):
        values = [r[key] for r in results]
        print(
            f"  {key:>6}: {statistics.median(values):6.1f} ms (runs: "
            + ", ".join(f"{v:.1f}" for v in values)
            + ")"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-browser", action="store_true")
    args = parser.parse_args()
    discovery(args.repeat)
    if not args.skip_browser:
        browser(args.repeat)


if __name__ == "__main__":
    main()
