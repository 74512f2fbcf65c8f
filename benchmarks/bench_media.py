"""Images dashboard benchmark: first cards, slider frames and saved state, beside TensorBoard.

On the logdir of ``make_media_logdir.py`` (8 runs x 4 tags x 500 steps of 256x256 PNG), in
an isolated JupyterLab (``tests/ui/_lab.py``) and headless Chromium (1400x1000):

- ``first_card_ms``: executing ``tbnb.images(exp)`` (the experiment loaded in a cell
  before) to the first card drawn; ``view_ready_ms``: to every card in the viewport drawn;
  ``build_ms``: the Python part (index, colours, saved items);
- ``cold_first_card_s``: executing ``tbnb.images(LOGDIR)`` (load included) to the first card;
- ``step_work_ms``: main-thread work of one global-step change over prefetched steps (the
  slider's input handler and the widget's draw in the next frame), median and p95;
  ``frame_interval_ms``: from that frame to the next one (16.7 ms when nothing is dropped);
  ``ready``: share of those frames where every card in view showed its new step;
- ``saved_state_kb``: the images widget's entry in the notebook JupyterLab saves (widget
  state saved), buffers included, without ``embed="all"``.

Beside it, TensorBoard 2.x: its server started on the same logdir, the images dashboard
opened in the same Chromium, to the first image shown (``tb_first_image_s``, from starting
the server; the tbnb figure to compare is ``cold_first_card_s`` plus starting nothing), and
the Python load of the logdir by ``tbnb.load`` and by TensorBoard's ``EventMultiplexer``
with the server's own size guidance (``tb_load_default``: a reservoir of 10 images per
card, TensorBoard issues #2233 and #4889; tbnb indexes every step) and keeping every image
(``tb_load_all``), each in a fresh process, with the images each one holds.

Medians of ``--repeat`` runs in the browser (default 3) and of ``--load-repeat`` fresh
processes per Python load and TensorBoard start (default 1: TensorBoard's reader takes
minutes on 1.5 GB); results in ``benchmarks/results/`` (git-ignored), each phase's
figures written as soon as they exist.

Usage::

    .venv/bin/python benchmarks/make_media_logdir.py        # once (~1.5 GB, ~90 s)
    .venv/bin/python benchmarks/bench_media.py
    .venv/bin/python benchmarks/bench_media.py --repeat 5 --no-tensorboard
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from _media_drag import prefetched_drag, settle  # noqa: E402

from tests.ui._chromium import Chromium, missing_reason  # noqa: E402
from tests.ui._lab import LabServer, free_port  # noqa: E402

NB = "bench_media.ipynb"
VENV_BIN = Path(sys.executable).parent

KERNEL_IDLE_JS = """nb => { const w = window.jupyterapp.shell.currentWidget;
  return !!(w && w.context && w.context.path === nb && w.sessionContext &&
    w.sessionContext.session && w.sessionContext.session.kernel &&
    w.sessionContext.session.kernel.status === 'idle'); }"""

# Runs in the page: starts the clock, runs cell `index`, and records the first card drawn
# and the moment every card in the viewport is drawn (checked once per animation frame).
START_JS = """
(index) => {
  const t0 = performance.now();
  window.__bench = { t0, first: null, ready: null };
  const inView = (c) => { const r = c.getBoundingClientRect();
    return !c.hidden && r.height > 0 && r.bottom > 0 && r.top < innerHeight; };
  const tick = () => {
    const b = window.__bench;
    const cards = [...document.querySelectorAll('.tbnb-w-images .tbnb-card')].filter(inView);
    const ready = cards.filter((c) => c.dataset.state === 'ready').length;
    if (b.first === null && ready > 0) b.first = performance.now();
    if (cards.length && ready === cards.length) { b.ready = performance.now(); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const panel = window.jupyterapp.shell.currentWidget;
  panel.content.activeCellIndex = index;
  window.jupyterapp.commands.execute('notebook:run-cell');
}
"""

# One global-step change per frame over steps already prefetched: the handler's time, the
# widget's draw in the next frame (between a callback registered before it and one after
# it), the interval to the frame after, and whether every card in view shows its new step.
STEP_JS = """
async (steps) => {
  const root = document.querySelector('.tbnb-w-images');
  const range = root.querySelector('.tbnb-global-step input[type=range]');
  const frame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
  const inView = (c) => { const r = c.getBoundingClientRect();
    return !c.hidden && r.height > 0 && r.bottom > 0 && r.top < innerHeight; };
  const out = [];
  for (let i = 0; i < steps; i++) {
    await frame();
    let before = 0;
    requestAnimationFrame(() => { before = performance.now(); });
    const t0 = performance.now();
    range.value = String(Number(range.value) - 1);
    range.dispatchEvent(new Event('input', { bubbles: true }));
    const handler = performance.now() - t0;
    const after = await frame();
    const next = await frame();
    const want = root.querySelector('.tbnb-global-step input[type=number]').value;
    const cards = [...root.querySelectorAll('.tbnb-card')].filter(inView);
    out.push({ work: handler + (after - before), interval: next - before,
               ready: cards.every((c) => c.dataset.state === 'ready' && c.dataset.step === want) });
  }
  return out;
}
"""


# Intervals between animation frames of the page doing nothing: what this Chromium and
# machine give at best (16.7 ms on an idle machine), beside the intervals while stepping.
IDLE_JS = """
async (n) => { const frame = () => new Promise((r) => requestAnimationFrame(r));
  const out = []; let last = await frame();
  for (let i = 0; i < n; i++) { const t = await frame(); out.push(t - last); last = t; }
  return out; }
"""


def notebook(logdir: Path, bundle: Path | None = None) -> Any:
    from nbformat.v4 import new_code_cell, new_notebook

    nb: Any = new_notebook()  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    cells = [
        f"import json, time, tbnb\nLOGDIR = {str(logdir)!r}\n"
        "exp = tbnb.load(LOGDIR, progress=False)",
        "_t = time.perf_counter(); w = tbnb.images(exp)\n"
        "print('BUILD', time.perf_counter() - _t)\n"
        + (f"w._esm = open({str(bundle)!r}, encoding='utf-8').read()\n" if bundle else "")
        + "w",
        "cold = tbnb.images(LOGDIR)\ncold",
    ]
    for source in cells:
        nb.cells.append(new_code_cell(source))  # type: ignore[no-untyped-call]
    return nb


def run_cell(page: Any, index: int, timeout_ms: int) -> None:
    page.evaluate(
        """(i) => { const p = window.jupyterapp.shell.currentWidget;
        p.content.activeCellIndex = i;
        return window.jupyterapp.commands.execute('notebook:run-cell'); }""",
        index,
    )
    page.wait_for_timeout(200)
    page.wait_for_function(KERNEL_IDLE_JS, arg=NB, timeout=timeout_ms)


def clear(page: Any) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")


def timed_cell(page: Any, index: int, timeout_ms: int) -> dict[str, float]:
    page.evaluate(START_JS, index)
    page.wait_for_function("() => window.__bench.ready !== null", timeout=timeout_ms, polling=50)
    b = page.evaluate("() => window.__bench")
    page.wait_for_function(KERNEL_IDLE_JS, arg=NB, timeout=timeout_ms)
    return {"first": b["first"] - b["t0"], "ready": b["ready"] - b["t0"]}


def in_lab(
    logdir: Path,
    repeat: int,
    cycles: int,
    timeout_ms: int,
    drag_span: int = 16,
    bundle: Path | None = None,
) -> dict[str, Any]:
    import nbformat
    from playwright.sync_api import sync_playwright

    firsts, readies, builds, colds, steps, idle = [], [], [], [], [], []
    with tempfile.TemporaryDirectory(prefix="tbnb-bench-media-") as tmp:
        root = Path(tmp)
        nbformat.write(notebook(logdir, bundle), root / NB)  # type: ignore[no-untyped-call]
        with LabServer(root) as lab, sync_playwright() as pw:
            browser = Chromium(pw, viewport=(1400, 1000))
            try:
                page = browser.page()
                page.set_default_timeout(timeout_ms)
                page.goto(lab.url(f"/lab/tree/{NB}"))
                page.wait_for_function("() => window.jupyterapp !== undefined")
                page.evaluate("() => window.jupyterapp.restored")
                page.wait_for_function(KERNEL_IDLE_JS, arg=NB, timeout=timeout_ms)
                run_cell(page, 0, timeout_ms)
                for i in range(repeat):
                    clear(page)
                    cold = timed_cell(page, 2, timeout_ms)
                    colds.append(cold["first"] / 1000)
                    clear(page)
                    got = timed_cell(page, 1, timeout_ms)
                    out = page.locator(".jp-Cell").nth(1).locator(".jp-OutputArea-output")
                    build = float((out.first.text_content() or "").split("BUILD", 1)[1].split()[0])
                    firsts.append(got["first"])
                    readies.append(got["ready"])
                    builds.append(build * 1000)
                    print(
                        f"run {i + 1}: first card {got['first']:.0f} ms, view {got['ready']:.0f}"
                        f" ms, build {build * 1000:.0f} ms, cold {cold['first'] / 1000:.2f} s",
                        file=sys.stderr,
                    )
                page.locator(".tbnb-w-images").scroll_into_view_if_needed()
                for _ in range(cycles):
                    settle(page, timeout_ms)
                    idle += page.evaluate(IDLE_JS, 5)
                    steps += page.evaluate(STEP_JS, 5)
                settle(page, timeout_ms)
                drag = prefetched_drag(page, drag_span, timeout_ms)
                page.screenshot(path=str(ROOT / "tests" / "ui" / "out" / "bench_media_drag.png"))
                clear(page)
                run_cell(page, 1, timeout_ms)
                settle(page, timeout_ms)
                page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
                page.wait_for_function(
                    "() => !window.jupyterapp.shell.currentWidget.context.model.dirty"
                )
                saved = json.loads((root / NB).read_text(encoding="utf-8"))
                errors = browser.log.console_errors + browser.log.page_errors
            finally:
                browser.close()
    state = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    entry = next(e for e in state.values() if "_held" in e.get("state", {}))
    held = entry["state"]["_held"]
    works = sorted(s["work"] for s in steps)
    intervals = sorted(s["interval"] for s in steps)
    return {
        "first_card_ms": statistics.median(firsts),
        "view_ready_ms": statistics.median(readies),
        "build_ms": statistics.median(builds),
        "cold_first_card_s": statistics.median(colds),
        "step_work_ms": statistics.median(works),
        "step_work_p95_ms": works[int(0.95 * len(works))],
        "frame_interval_ms": statistics.median(intervals),
        "frame_interval_p95_ms": intervals[int(0.95 * len(intervals))],
        "idle_frame_interval_ms": statistics.median(idle),
        "ready": sum(s["ready"] for s in steps) / max(len(steps), 1),
        "step_samples": len(steps),
        "saved_state_kb": len(json.dumps(entry)) / 1000,
        "saved_items": len(held),
        "embedded": entry["state"]["embedded"],
        "errors": errors,
        "drag": drag,
    }


LOAD_TBNB = """
import json, sys, time, tbnb
t = time.perf_counter(); exp = tbnb.load(sys.argv[1], progress=False)
print(json.dumps({"s": time.perf_counter() - t, "images": len(exp.images)}))
"""

LOAD_TB = """
import json, sys, time
from tensorboard.backend.event_processing import plugin_event_multiplexer as pem
t = time.perf_counter()
from tensorboard.backend.event_processing.data_ingester import DEFAULT_TENSOR_SIZE_GUIDANCE
guidance = dict(DEFAULT_TENSOR_SIZE_GUIDANCE)  # what `tensorboard --logdir` keeps
if sys.argv[2] == "all":
    guidance["images"] = 0
mux = pem.EventMultiplexer(tensor_size_guidance=guidance)
mux.AddRunsFromDirectory(sys.argv[1]); mux.Reload()
cards = [(run, tag) for run, tags in mux.PluginRunToTagToContent("images").items() for tag in tags]
n = sum(len(mux.Tensors(run, tag)) for run, tag in cards)
print(json.dumps({"s": time.perf_counter() - t, "images": n, "cards": len(cards)}))
"""


def python_loads(logdir: Path, repeat: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, script, extra in (
        ("tbnb_load", LOAD_TBNB, []),
        ("tb_load_default", LOAD_TB, ["default"]),
        ("tb_load_all", LOAD_TB, ["all"]),
    ):
        runs = []
        for _ in range(repeat):
            text = subprocess.run(
                [sys.executable, "-c", script, str(logdir), *extra],
                check=True,
                capture_output=True,
                text=True,
                cwd=ROOT,
            ).stdout
            runs.append(json.loads(text.strip().splitlines()[-1]))
        out[f"{name}_s"] = statistics.median(r["s"] for r in runs)
        out[f"{name}_images"] = runs[0]["images"]
        if "cards" in runs[0]:
            out[f"{name}_cards"] = runs[0]["cards"]
    return out


FIRST_IMAGE_JS = """() => { let n = 0;
  const walk = (root) => { for (const el of root.querySelectorAll('*')) {
  if (el.tagName === 'IMG' && el.naturalWidth > 0 && el.getBoundingClientRect().width > 0) n++;
  if (el.shadowRoot) walk(el.shadowRoot); } }; walk(document); return n > 0; }"""


def tensorboard_first_image(logdir: Path, repeat: int, timeout_ms: int) -> float:
    """Median seconds from starting ``tensorboard --logdir`` to its first image shown."""
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as pw:
        browser = Chromium(pw, viewport=(1400, 1000))
        try:
            for _ in range(repeat):
                port = free_port()
                t0 = time.perf_counter()
                proc = subprocess.Popen(
                    [
                        str(VENV_BIN / "tensorboard"),
                        "--logdir",
                        str(logdir),
                        "--port",
                        str(port),
                        "--host",
                        "127.0.0.1",
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,
                )
                try:
                    while True:
                        try:
                            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
                            break
                        except OSError:
                            time.sleep(0.05)
                    page = browser.context.new_page()
                    page.goto(f"http://127.0.0.1:{port}/#images")
                    page.wait_for_function(FIRST_IMAGE_JS, timeout=timeout_ms, polling=50)
                    times.append(time.perf_counter() - t0)
                    page.close()
                finally:
                    os.killpg(proc.pid, signal.SIGTERM)  # the session this script started
                    proc.wait(30)
        finally:
            browser.close()
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--logdir", type=Path, default=HERE / "data" / "media")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cycles", type=int, default=12, help="5 prefetched steps per cycle")
    ap.add_argument(
        "--drag-span",
        type=int,
        default=16,
        help="prefetched steps the mouse drag goes over (four passes)",
    )
    ap.add_argument(
        "--bundle",
        type=Path,
        help="another build of the images front end for the measured widget (e.g. "
        "`git show REV:tbnb/static/images.js > old.js`), to compare",
    )
    ap.add_argument("--no-tensorboard", action="store_true")
    ap.add_argument("--no-loads", action="store_true", help="skip the Python loads")
    ap.add_argument("--no-lab", action="store_true", help="skip the JupyterLab part")
    ap.add_argument(
        "--load-repeat",
        type=int,
        default=1,
        help="fresh processes per Python load (TensorBoard's takes minutes)",
    )
    ap.add_argument("--timeout", type=float, default=300, help="seconds per wait")
    args = ap.parse_args()
    reason = missing_reason()
    if reason:
        sys.exit(reason)
    logdir = args.logdir.resolve()
    if not logdir.is_dir():
        sys.exit(f"no logdir {logdir}: run .venv/bin/python benchmarks/make_media_logdir.py")
    timeout_ms = int(args.timeout * 1000)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    partial = results / f"media-{stamp}.json"

    def keep(result: dict[str, Any]) -> None:  # each phase's figures, as soon as they exist
        partial.write_text(json.dumps(result, indent=1, default=str))
        print(json.dumps(result, default=str), file=sys.stderr)

    result: dict[str, Any] = {}
    if not args.no_lab:
        result.update(
            in_lab(
                logdir,
                args.repeat,
                args.cycles,
                timeout_ms,
                args.drag_span,
                args.bundle.resolve() if args.bundle else None,
            )
        )
        keep(result)
    if not args.no_loads:
        result.update(python_loads(logdir, args.load_repeat))
        keep(result)
    if not args.no_tensorboard:
        result["tb_first_image_s"] = tensorboard_first_image(logdir, args.load_repeat, timeout_ms)
        keep(result)
    if not args.no_lab:
        text = report(result, logdir)
        print(text)
        (results / f"media-{stamp}.md").write_text(text)


def report(r: dict[str, Any], logdir: Path) -> str:
    size = sum(f.stat().st_size for f in logdir.rglob("*tfevents*")) / 1e9
    lines = [
        f"# Images dashboard: {logdir.name} ({size:.2f} GB of event files)",
        "",
        "| measure | tbnb | target / TensorBoard |",
        "|---|---:|---|",
        f"| first card on screen (exp loaded) | {r['first_card_ms']:.0f} ms | < 1000 ms |",
        f"| every card in view | {r['view_ready_ms']:.0f} ms | |",
        f"| of which Python build | {r['build_ms']:.0f} ms | |",
        f"| step change over prefetched steps: work | {r['step_work_ms']:.1f} ms "
        f"(p95 {r['step_work_p95_ms']:.1f}) | < 16 ms |",
        f"| frame interval while stepping | {r['frame_interval_ms']:.1f} ms "
        f"(p95 {r['frame_interval_p95_ms']:.1f}) | 16.7 ms = no frame dropped |",
        f"| frame interval of the idle page | {r['idle_frame_interval_ms']:.1f} ms | "
        "what this machine gives at best |",
        f"| frames with every card at its new step | {100 * r['ready']:.0f}% of "
        f"{r['step_samples']} | |",
        f"| saved widget state (no embed='all') | {r['saved_state_kb']:.0f} KB, "
        f"{r['saved_items']} images | <= 1000 KB |",
        f"| cold start to first card (`tbnb.images(LOGDIR)`) | {r['cold_first_card_s']:.2f} s | |",
    ]
    if "tbnb_load_s" in r:
        lines.append(
            f"| load logdir in Python | {r['tbnb_load_s']:.2f} s, "
            f"{r['tbnb_load_images']} images | TensorBoard {r['tb_load_default_s']:.2f} s "
            f"keeping {r['tb_load_default_images']}; {r['tb_load_all_s']:.2f} s keeping "
            f"all ({r['tb_load_all_s'] / r['tbnb_load_s']:.1f}x tbnb) |"
        )
    if "tb_first_image_s" in r:
        lines.append(
            f"| TensorBoard server start to first image | | {r['tb_first_image_s']:.2f} s "
            f"({r['tb_first_image_s'] / r['cold_first_card_s']:.1f}x tbnb's cold start) |"
        )
    if r["errors"]:
        lines.append(f"\nconsole errors: {r['errors']}")
    lines += ["", "rerun: `.venv/bin/python benchmarks/bench_media.py`", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
