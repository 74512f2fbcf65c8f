"""PR-curves benchmark: 20 runs x 10 tags x 200 steps x 127 thresholds (40,000 curves).

1. A logdir whose records are what ``torch.utils.tensorboard`` writes for
   ``add_pr_curve`` (its own ``pr_curve_raw`` summary, 127 thresholds, the cap torch
   puts on ``num_thresholds``), framed with tbnb's CRC32C, written once into
   ``benchmarks/data/prcurves_<runs>x<tags>x<steps>/`` (git-ignored; ~40 s, 122 MB at
   the default size) and reused.
2. In this process, medians of ``--repeat``: ``tbnb.load`` of the logdir, then
   ``tbnb.pr_curves(exp)`` (curve index, every step's areas, the payload); beside them
   TensorBoard's own path to the same charts: its ``EventMultiplexer`` with the
   ``pr_curves`` size guidance TensorBoard uses (a reservoir of 100 curves per series)
   and the plugin's ``pr_curves`` route for every tag (what the dashboard fetches to draw
   its first charts). Ratios are TensorBoard / tbnb.
3. In headless Chromium (``--disable-gpu``: software canvas) on the widget's exported
   page (real bundle and state, no kernel): navigation to the first chart drawn, and the
   redraw after moving the global step slider (every chart in view) and one chart's
   slider: from the input event to the end of the animation frame that redraws
   (``*_redraw_ms``) and to the start of the next one (``*_frame_ms``: rasterisation
   included). Medians of ``--moves``, each after the previous move's table update (the
   areas table follows the slider 100 ms after it rests). Then a mouse drag of each slider
   (real input events at 60 Hz, two passes over ``--drag-span`` steps) under a Chromium
   trace (``_frames.py``): the renderer main thread's CPU time per move by category
   (script, style and layout, paint and commit), which machine load barely changes, and
   the animation-frame intervals during the drag.

Run::

    .venv/bin/python benchmarks/bench_prcurves.py                # 20 x 10 x 200 x 127
    .venv/bin/python benchmarks/bench_prcurves.py --runs 5 --steps 50 --repeat 5
    .venv/bin/python benchmarks/bench_prcurves.py --skip-browser
    .venv/bin/python benchmarks/bench_prcurves.py --skip-tensorboard   # ~2 min less
    git show REV:tbnb/static/pr_curves.js > /tmp/old.js   # an earlier front end beside this one
    .venv/bin/python benchmarks/bench_prcurves.py --skip-tensorboard --compare-bundle /tmp/old.js
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import struct
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from _frames import drag_frames  # noqa: E402

from tbnb.io.crc32c import masked_crc32c  # noqa: E402

THRESHOLDS = 127


def _frame(data: bytes) -> bytes:
    head = struct.pack("<Q", len(data))
    return (
        head
        + struct.pack("<I", masked_crc32c(head))
        + data
        + struct.pack("<I", masked_crc32c(data))
    )


def _curve(rng: np.random.Generator, quality: float) -> np.ndarray:
    """A ``[6, 127]`` curve as torch computes it, of 500 random labels and scores."""
    labels = rng.integers(0, 2, 500)
    scores = np.clip(rng.normal(0.5 + (labels - 0.5) * quality, 0.25), 0, 1)
    bucket = np.floor(scores * (THRESHOLDS - 1)).astype(int)
    tp = np.cumsum(np.bincount(bucket, labels, THRESHOLDS)[::-1])[::-1]
    fp = np.cumsum(np.bincount(bucket, 1 - labels, THRESHOLDS)[::-1])[::-1]
    tn, fn = fp[0] - fp, tp[0] - tp
    return np.stack(
        [tp, fp, tn, fn, tp / np.maximum(1e-7, tp + fp), tp / np.maximum(1e-7, tp + fn)]
    )


def make_logdir(root: Path, runs: int, tags: int, steps: int) -> None:
    """One event file per run, records as torch's ``add_pr_curve`` writes them."""
    from tensorboard.compat.proto import event_pb2
    from torch.utils.tensorboard.summary import pr_curve_raw

    rng = np.random.default_rng(0)
    for r in range(runs):
        run = root / f"run{r:02d}"
        run.mkdir(parents=True)
        out = bytearray(
            _frame(
                event_pb2.Event(wall_time=1.7e9, file_version="brain.Event:2").SerializeToString()
            )
        )
        for step in range(steps):
            for t in range(tags):
                curve = _curve(rng, 0.2 + 0.6 * step / steps + 0.02 * t)
                summary = pr_curve_raw(f"class_{t:02d}/pr", *curve, THRESHOLDS)
                event = event_pb2.Event(wall_time=1.7e9 + step, step=step * 10, summary=summary)
                out += _frame(event.SerializeToString())
        (run / "events.out.tfevents.1700000000.bench").write_bytes(bytes(out))


def _median(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def tensorboard_first_charts(logdir: Path) -> int:
    """TensorBoard's multiplexer load and the ``pr_curves`` route for every tag."""
    from tensorboard import context
    from tensorboard.backend.event_processing import data_provider
    from tensorboard.backend.event_processing import plugin_event_multiplexer as mux
    from tensorboard.plugins import base_plugin
    from tensorboard.plugins.pr_curve import pr_curves_plugin

    multiplexer = mux.EventMultiplexer(tensor_size_guidance={"pr_curves": 100})
    multiplexer.AddRunsFromDirectory(str(logdir))
    multiplexer.Reload()
    provider = data_provider.MultiplexerDataProvider(multiplexer, str(logdir))
    plugin = pr_curves_plugin.PrCurvesPlugin(base_plugin.TBContext(data_provider=provider))
    ctx = context.RequestContext()
    tags = plugin.tags_impl(ctx, "")
    runs = sorted(tags)
    served = 0
    for tag in sorted({t for by_run in tags.values() for t in by_run}):
        served += sum(len(v) for v in plugin.pr_curves_impl(ctx, "", runs, tag).values())
    return served


SLIDER_JS = """async ([selector, value]) => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  await new Promise((r) => setTimeout(r, 250));  // the table of the last move has updated
  await frame();
  const input = document.querySelector(selector);
  const t0 = performance.now();
  input.value = String(value);
  input.dispatchEvent(new Event("input"));
  await frame();
  const drawn = performance.now() - t0;
  await frame();
  return [drawn, performance.now() - t0];
}"""

VISIBLE_JS = """() => [...document.querySelectorAll('.tbnb-pr-chart')].filter((c) => {
  const r = c.getBoundingClientRect();
  return r.bottom > 0 && r.top < innerHeight && r.height > 0;
}).length"""


def browser(widget: Any, moves: int, drag_span: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from tbnb.notebook.export import to_html
    from tests.ui._chromium import Chromium, missing_reason

    reason = missing_reason()
    if reason:
        return {"browser": f"skipped: {reason}"}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        page_path = to_html(widget, Path(tmp) / "pr.html")
        chromium = Chromium(pw, viewport=(1400, 1000))
        try:
            page = chromium.page()
            page.goto(page_path.as_uri(), timeout=300_000)
            page.wait_for_function(
                "() => { const c = document.querySelector("
                "'.tbnb-pr-chart canvas'); return c && c.width > 0; }",
                timeout=300_000,
            )
            first_ms = page.evaluate("() => performance.now()")
            page.wait_for_timeout(500)
            visible = page.evaluate(VISIBLE_JS)
            n_global = int(
                page.locator(".tbnb-pr-global-step input.tbnb-step-range").get_attribute("max") or 0
            )
            rng = np.random.default_rng(1)
            global_ms = [
                page.evaluate(
                    SLIDER_JS,
                    [".tbnb-pr-global-step input.tbnb-step-range", int(rng.integers(0, n_global))],
                )
                for _ in range(moves)
            ]
            chart_ms = [
                page.evaluate(
                    SLIDER_JS,
                    [".tbnb-pr-chart input.tbnb-step-range", int(rng.integers(0, n_global))],
                )
                for _ in range(moves)
            ]
            drags = {
                "global_drag": drag_frames(
                    page, ".tbnb-pr-global-step input.tbnb-step-range", span=drag_span
                ),
                "chart_drag": drag_frames(
                    page, ".tbnb-pr-chart input.tbnb-step-range", span=drag_span
                ),
            }
            errors = chromium.log.console_errors + chromium.log.page_errors
        finally:
            chromium.close()
        size = page_path.stat().st_size
    return {
        "page_mb": round(size / 1e6, 1),
        "first_chart_ms": round(first_ms),
        "charts_visible": visible,
        "global_slider_redraw_ms": round(statistics.median(m[0] for m in global_ms), 1),
        "global_slider_frame_ms": round(statistics.median(m[1] for m in global_ms), 1),
        "chart_slider_redraw_ms": round(statistics.median(m[0] for m in chart_ms), 1),
        "chart_slider_frame_ms": round(statistics.median(m[1] for m in chart_ms), 1),
        **drags,
        "errors": errors,
    }


DRAG_FIGURES = (
    "main_cpu_ms_per_move",
    "script_cpu_ms_per_move",
    "render_cpu_ms_per_move",
    "paint_cpu_ms_per_move",
    "raster_cpu_ms_per_move",
    "main_ms_per_move",
    "frame_interval_ms",
    "frame_interval_p95_ms",
    "frames_over_20ms",
)


def compare_bundles(widget: Any, args: argparse.Namespace) -> dict[str, Any]:
    """The browser part with the current bundle and with ``--compare-bundle`` in turn."""
    bundles = {"current": widget._esm, "compared": args.compare_bundle.read_text("utf-8")}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in bundles}
    for _ in range(args.rounds):
        for name, esm in bundles.items():
            widget._esm = esm
            runs[name].append(browser(widget, args.moves, args.drag_span))
    widget._esm = bundles["current"]
    out: dict[str, Any] = {}
    for name, results in runs.items():
        figures: dict[str, Any] = {}
        for key in ("first_chart_ms", "global_slider_redraw_ms", "chart_slider_redraw_ms"):
            figures[key] = statistics.median(r[key] for r in results)
        for drag in ("global_drag", "chart_drag"):
            figures[drag] = {
                k: statistics.median(r[drag][k] for r in results) for k in DRAG_FIGURES
            }
        figures["errors"] = [e for r in results for e in r["errors"]]
        out[name] = figures
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--tags", type=int, default=10)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--moves", type=int, default=15)
    parser.add_argument(
        "--drag-span",
        type=int,
        default=60,
        help="slider values one drag pass goes over (two passes per drag)",
    )
    parser.add_argument(
        "--tb-repeat",
        type=int,
        default=1,
        help="TensorBoard runs (about a minute each at the default size)",
    )
    parser.add_argument(
        "--compare-bundle",
        type=Path,
        help="another build of the widget's front end (e.g. `git show "
        "REV:tbnb/static/pr_curves.js > old.js`): the browser part runs "
        "with it and with the current one in turn, --rounds times",
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--max-curves",
        type=int,
        default=2000,
        help="curves the page holds (the widget's default 2000; 40000: every "
        "step exact, as with a kernel that sends the rest)",
    )
    parser.add_argument("--skip-browser", action="store_true")
    parser.add_argument("--skip-tensorboard", action="store_true")
    args = parser.parse_args()

    import tbnb

    logdir = REPO / "benchmarks" / "data" / f"prcurves_{args.runs}x{args.tags}x{args.steps}"
    if not logdir.exists():
        t0 = time.perf_counter()
        partial = logdir.with_name(logdir.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        make_logdir(partial, args.runs, args.tags, args.steps)
        partial.rename(logdir)
        print(
            f"wrote {args.runs * args.tags * args.steps} curves in "
            f"{time.perf_counter() - t0:.1f} s to {logdir}"
        )
    tbnb.pr_curves(tbnb.load(logdir, progress=False))  # imports, numba cache

    def load() -> Any:
        exp = tbnb.load(logdir, progress=False)
        _ = exp.pr_curves  # built on first access
        return exp

    load_s, exp = _median(load, args.repeat)
    build_s, widget = _median(lambda: tbnb.pr_curves(exp, max_curves=args.max_curves), args.repeat)
    result: dict[str, Any] = {
        "curves": len(exp.pr_curves),
        "thresholds": THRESHOLDS,
        "logdir_mb": round(sum(p.stat().st_size for p in logdir.rglob("*tfevents*")) / 1e6),
        "tbnb_load_s": round(load_s, 2),
        "tbnb_widget_s": round(build_s, 2),
        "tbnb_first_charts_python_s": round(load_s + build_s, 2),
        "curves_sent": widget._data["sent"],
    }
    if not args.skip_tensorboard:
        tb_s, served = _median(lambda: tensorboard_first_charts(logdir), args.tb_repeat)
        result.update(
            {
                "tensorboard_first_charts_s": round(tb_s, 2),
                "tensorboard_curves_served": served,
                "ratio_tensorboard_over_tbnb": round(tb_s / (load_s + build_s), 1),
            }
        )
    if not args.skip_browser and args.compare_bundle:
        result.update(compare_bundles(widget, args))
    elif not args.skip_browser:
        result.update(browser(widget, args.moves, args.drag_span))
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
