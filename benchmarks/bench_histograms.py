"""Histograms dashboard benchmark in real JupyterLab + headless Chromium.

The logdir of ``make_histograms.py`` (default 4 runs x 200 tags x 1,000 steps x 30
buckets, 800,000 histograms) is loaded in the kernel by a first cell; the measured cell
is ``w = tbnb.histograms(exp); w``. Per run (fresh kernel, fresh page) the script reports

- ``first_chart_s``: executing the measured cell to the first chart with drawn pixels
  (what a user waits for once the logdir is loaded; scale target < 2 s);
- ``build_s``: ``tbnb.histograms(exp)`` in the kernel (part of ``first_chart_s``);
- ``exact_s``: executing the cell to the first chart drawn from the exact data the view
  asks the kernel for (the first chart is drawn earlier from the saved preview);
- ``state_mb``: the widget's saved state (JSON + binary buffers; target <= 2 MB);
- ``load_s``: ``tbnb.load`` + ``exp.histograms`` in the first cell (not in the above);
- ``mode_redraw_ms`` / ``bins_redraw_ms``: a mode switch (offset, overlay, heatmap,
  distribution in turn) or a bin-count change (30 <-> 64), from the input event to the
  end of the animation frame that redraws the charts in view (target < 50 ms), median of
  ``--changes``; ``*_frame_ms``: to the start of the next frame (rasterisation counted);
- ``bins_exact_ms``: after a bin-count change, until the first chart in view holds the
  kernel's exact data again (a round trip through the request channel);
- CPU beside the wall times (a shared machine inflates wall time): ``build_cpu_s`` (the
  kernel's process time of ``tbnb.histograms(exp)``), and the renderer's main-thread task
  time from Chromium's own counters (CDP ``Performance.getMetrics``: ``TaskDuration``,
  ``ScriptDuration``) over the cell run to the first chart (``first_chart_task_s``) and
  over each change to the end of its redraw frame (``mode_task_ms``, ``mode_script_ms``,
  ``bins_task_ms``).

Medians of ``--repeat`` runs (default 3) in a table on stdout; ``.md`` and ``.json`` in
``benchmarks/results/`` (git-ignored).

Usage::

    .venv/bin/python benchmarks/make_histograms.py          # once: 4 x 200 x 1,000
    .venv/bin/python benchmarks/bench_histograms.py
    .venv/bin/python benchmarks/bench_histograms.py --logdir benchmarks/data/histograms_4x200x100
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from tests.ui._chromium import Chromium, missing_reason  # noqa: E402
from tests.ui._lab import LabServer  # noqa: E402

NB = "bench_histograms.ipynb"

LOAD = """\
import time as _time, json as _json
from ipywidgets.widgets.widget import _remove_buffers as _rb
import tbnb
_t = _time.perf_counter()
exp = tbnb.load(LOGDIR, progress=False)
_n = len(exp.histograms)
_T = {"load_s": _time.perf_counter() - _t, "histograms": _n}"""

MEASURED = """\
_t, _c = _time.perf_counter(), _time.process_time()
w = tbnb.histograms(exp)
_T["build_s"], _T["build_cpu_s"] = _time.perf_counter() - _t, _time.process_time() - _c
w"""

READOUT = """\
_s, _p, _b = _rb(w.get_state())
_T["state_mb"] = (len(_json.dumps(_s)) + sum(memoryview(b).nbytes for b in _b)) / 1e6
print("TIMINGS " + _json.dumps(_T))"""

DRAWN_JS = """(c) => {
    if (!c.width || !c.height) return false;
    const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  }"""

START_JS = (
    """
(index) => {
  const drawn = """
    + DRAWN_JS
    + """;
  const t0 = performance.now();
  window.__bench = { t0, drawn: null, exact: null };
  const tick = () => {
    const b = window.__bench;
    if (b.drawn === null) {
      for (const c of document.querySelectorAll(".tbnb-w-histograms .tbnb-chart canvas")) {
        if (drawn(c)) { b.drawn = performance.now(); break; }
      }
    }
    if (b.exact === null && document.querySelector(
        ".tbnb-w-histograms .tbnb-chart[data-state='exact']")) b.exact = performance.now();
    if (b.drawn === null || b.exact === null) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const panel = window.jupyterapp.shell.currentWidget;
  panel.content.activeCellIndex = index;
  window.jupyterapp.commands.execute("notebook:run-cell");
}
"""
)

# One change in three steps, so Chromium's main-thread counters can be read around the
# change alone: note the first chart in view and its pixels; set the control, dispatch its
# event (the view schedules its redraw in a frame callback) and wait for that frame; wait
# for the next frame and compare the pixels (and, for bins, wait for the exact data).
CHANGE_PREPARE_JS = """
async () => {
  const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
  const root = document.querySelector(".tbnb-w-histograms");
  const inView = [...root.querySelectorAll(".tbnb-chart:not(.tbnb-hidden)")].find((c) => {
    const r = c.getBoundingClientRect();
    return r.bottom > 0 && r.top < window.innerHeight && r.height > 0;
  });
  const sig = () => [...inView.querySelectorAll("canvas")].map((c) => c.toDataURL()).join();
  window.__change = { frame, root, inView, sig, before: sig() };
  await frame();
}
"""

CHANGE_JS = """
async ([kind, value]) => {
  const c = window.__change;
  c.t0 = performance.now();
  const input = c.root.querySelector(kind === "mode" ? "select.tbnb-mode" : "input.tbnb-bins");
  input.value = value;
  input.dispatchEvent(new Event("change"));
  await c.frame();
  c.drawn = performance.now() - c.t0;
}
"""

CHANGE_FINISH_JS = """
async (kind) => {
  const c = window.__change;
  await c.frame();
  const framed = performance.now() - c.t0;
  const changed = c.sig() !== c.before;
  let exact = null;
  if (kind === "bins") {
    const deadline = c.t0 + 60000;
    while (c.inView.getAttribute("data-state") !== "exact" && performance.now() < deadline) {
      await c.frame();
    }
    exact = performance.now() - c.t0;
  }
  return { drawn: c.drawn, framed, changed, exact };
}
"""


def main_thread(cdp: Any) -> dict[str, float]:
    """Chromium's cumulative main-thread counters of the page, in seconds."""
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return {
        m["name"]: float(m["value"])
        for m in metrics
        if m["name"] in ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
    }


def change(page: Any, cdp: Any, kind: str, value: str) -> dict[str, Any]:
    """One control change: wall times, pixels changed, main-thread time of the redraw."""
    page.evaluate(CHANGE_PREPARE_JS)
    before = main_thread(cdp)
    page.evaluate(CHANGE_JS, [kind, value])
    after = main_thread(cdp)
    out: dict[str, Any] = page.evaluate(CHANGE_FINISH_JS, kind)
    out["task"] = (after["TaskDuration"] - before["TaskDuration"]) * 1000
    out["script"] = (after["ScriptDuration"] - before["ScriptDuration"]) * 1000
    out["layout"] = (
        sum(after[k] - before[k] for k in ("LayoutDuration", "RecalcStyleDuration")) * 1000
    )
    return out


IDLE_JS = """nb => { const w = window.jupyterapp.shell.currentWidget;
  return !!(w && w.context && w.context.path === nb && w.sessionContext &&
    w.sessionContext.session && w.sessionContext.session.kernel &&
    w.sessionContext.session.kernel.status === 'idle'); }"""

MODES = ["overlay", "heatmap", "distribution", "offset"]


def build_notebook(logdir: Path) -> Any:
    from nbformat.v4 import new_code_cell, new_notebook

    nb: Any = new_notebook()  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    for source in (LOAD.replace("LOGDIR", repr(str(logdir))), MEASURED, READOUT):
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
    page.wait_for_function(IDLE_JS, arg=NB, timeout=timeout_ms)


def one_run(lab: LabServer, browser: Chromium, timeout_ms: int, changes: int) -> dict[str, float]:
    for session in lab.api("GET", "/api/sessions"):
        lab.api("DELETE", f"/api/sessions/{session['id']}")
    page = browser.context.new_page()
    page.set_default_timeout(timeout_ms)
    try:
        page.goto(lab.url(f"/lab/tree/{NB}"))
        page.wait_for_function("() => window.jupyterapp !== undefined")
        page.evaluate("() => window.jupyterapp.restored")
        page.wait_for_function(IDLE_JS, arg=NB, timeout=timeout_ms)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
        run_cell(page, 0, timeout_ms)
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        start = main_thread(cdp)
        load_avg = os.getloadavg()[0]
        page.evaluate(START_JS, 1)
        page.wait_for_function(
            "() => window.__bench.drawn !== null", timeout=timeout_ms, polling=20
        )
        first_task = main_thread(cdp)["TaskDuration"] - start["TaskDuration"]
        page.wait_for_function(
            "() => window.__bench.exact !== null", timeout=timeout_ms, polling=100
        )
        bench = page.evaluate("() => window.__bench")
        page.wait_for_function(IDLE_JS, arg=NB, timeout=timeout_ms)
        page.locator(".tbnb-w-histograms .tbnb-chart[data-state='exact']").first.wait_for()
        mode, bins = [], []
        for i in range(changes):
            mode.append(change(page, cdp, "mode", MODES[i % len(MODES)]))
        page.locator(".tbnb-w-histograms select.tbnb-mode").select_option("offset")
        for i in range(changes):
            bins.append(change(page, cdp, "bins", "64" if i % 2 == 0 else "30"))
        run_cell(page, 2, timeout_ms)
        out = page.locator(".jp-Cell").nth(2).locator(".jp-OutputArea-output")
        out.filter(has_text="TIMINGS").wait_for(timeout=timeout_ms)
        kernel = json.loads((out.text_content() or "").split("TIMINGS ", 1)[1].strip())
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    finally:
        page.close()
    unchanged = sum(not c["changed"] for c in mode + bins)
    if unchanged:
        print(f"warning: {unchanged} change(s) left the chart in view as it was", file=sys.stderr)
    return {
        "first_chart_s": (bench["drawn"] - bench["t0"]) / 1000,
        "first_chart_task_s": first_task,
        "build_s": kernel["build_s"],
        "build_cpu_s": kernel["build_cpu_s"],
        "exact_s": (bench["exact"] - bench["t0"]) / 1000,
        "state_mb": kernel["state_mb"],
        "load_s": kernel["load_s"],
        "mode_redraw_ms": statistics.median(c["drawn"] for c in mode),
        "mode_frame_ms": statistics.median(c["framed"] for c in mode),
        "mode_task_ms": statistics.median(c["task"] for c in mode),
        "mode_script_ms": statistics.median(c["script"] for c in mode),
        "mode_layout_ms": statistics.median(c["layout"] for c in mode),
        "mode_first_task_ms": statistics.median(c["task"] for c in mode[: len(MODES)]),
        "bins_redraw_ms": statistics.median(c["drawn"] for c in bins),
        "bins_frame_ms": statistics.median(c["framed"] for c in bins),
        "bins_task_ms": statistics.median(c["task"] for c in bins),
        "bins_exact_ms": statistics.median(c["exact"] for c in bins),
        "load_avg": load_avg,
        "histograms": kernel["histograms"],
    }


TARGETS = {
    "first_chart_s": "< 2",
    "mode_redraw_ms": "< 50",
    "bins_redraw_ms": "< 50",
    "state_mb": "<= 2",
}


def table(rows: list[dict[str, float]], logdir: Path, command: str) -> str:
    keys = [k for k in rows[0] if k != "histograms"]
    lines = [
        f"# Histograms dashboard: {logdir.name} ({int(rows[0]['histograms']):,} histograms)",
        "",
        "| measure | median | runs | target |",
        "|---|---:|---|---|",
    ]
    for k in keys:
        med = statistics.median(r[k] for r in rows)
        lines.append(
            f"| {k} | {med:.3g} | {', '.join(f'{r[k]:.3g}' for r in rows)} | {TARGETS.get(k, '')} |"
        )
    lines += ["", f"rerun: `{command}`", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--logdir", type=Path, default=HERE / "data" / "histograms")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--changes", type=int, default=12, help="mode and bin changes per run")
    ap.add_argument("--timeout", type=float, default=600, help="seconds per step")
    args = ap.parse_args()
    reason = missing_reason()
    if reason:
        sys.exit(reason)
    logdir = args.logdir.resolve()
    if not logdir.is_dir():
        sys.exit(f"no logdir {logdir}: run .venv/bin/python benchmarks/make_histograms.py")
    import nbformat
    from playwright.sync_api import sync_playwright

    timeout_ms = int(args.timeout * 1000)
    rows = []
    with tempfile.TemporaryDirectory(prefix="tbnb-bench-") as tmp:
        root = Path(tmp)
        nbformat.write(build_notebook(logdir), root / NB)  # type: ignore[no-untyped-call]
        with LabServer(root) as lab, sync_playwright() as pw:
            browser = Chromium(pw, viewport=(1400, 1000))
            try:
                for i in range(args.repeat):
                    rows.append(one_run(lab, browser, timeout_ms, args.changes))
                    shown = {k: round(v, 3) for k, v in rows[-1].items()}
                    print(f"run {i + 1}: {json.dumps(shown)}", file=sys.stderr)
            finally:
                browser.close()
            if browser.log.external_requests:
                print(f"external requests: {browser.log.external_requests}", file=sys.stderr)
    command = ".venv/bin/python benchmarks/bench_histograms.py"
    if args.logdir != HERE / "data" / "histograms":
        command += f" --logdir {args.logdir}"
    text = table(rows, logdir, command)
    print(text)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (results / f"histograms-{logdir.name}-{stamp}.md").write_text(text)
    (results / f"histograms-{logdir.name}-{stamp}.json").write_text(
        json.dumps({"logdir": str(logdir), "runs": rows}, indent=1)
    )


if __name__ == "__main__":
    main()
