"""Time from ``%tbnb LOGDIR`` to the first chart drawn, in real JupyterLab + Chromium.

An isolated JupyterLab (``tests/ui/_lab.py``'s ``LabServer``) serves a notebook whose
cells are ``%load_ext tbnb`` and ``%tbnb <logdir>`` (plus one hidden cell before them
that wraps ``tbnb.loader.experiment.load`` and ``Dashboard.__init__`` with timers, and one
after that prints the timings). Headless Chromium (``tests/ui/_chromium.py``) opens
it; the script runs the first cells, then starts the clock in the page and runs the
magic cell. Per run it reports

- ``total_s``: executing the magic cell to the first ``.tbnb-chart`` canvas with
  drawn pixels (the wall time a user waits);
- ``load_s``: ``tbnb.load`` in the kernel;
- ``build_s``: the rest of ``Dashboard(...)`` in the kernel (tabs, widgets,
  downsampling, binary state);
- ``browser_s``: from the dashboard appearing in the page (the kernel finished, the
  widget state arrived) to the first chart drawn;
- ``kernel_to_page_s``: what is left (kernel start-up of the cell, sending the state);
- ``first_open_s`` (per tab, median over tabs): clicking a tab not opened yet to its
  widget on screen (the kernel builds it then);
- ``switch_ms``: clicking an already built tab to the frame after its widget is
  visible (from the pointer event's time stamp, so the driver's latency is not counted),
  the median over several switches between every pair of built tabs.

Each run uses a fresh kernel and a fresh page; the table shows medians of
``--repeat`` runs (default 3). Results go to ``benchmarks/results/`` (git-ignored).

Usage::

    .venv/bin/python benchmarks/make_logdir.py          # once: 50 x 20 x 20,000 points
    .venv/bin/python benchmarks/bench_dashboard.py
    .venv/bin/python benchmarks/bench_dashboard.py --logdir benchmarks/data/scalars_x0.05
    .venv/bin/python benchmarks/bench_dashboard.py --logdir "$(.venv/bin/python -c \
        'import tbnb; print(tbnb.samples.sample_logdir())')"   # every kind: tab switches
"""

from __future__ import annotations

import argparse
import json
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

NB = "bench_dashboard.ipynb"

TIMERS = """\
import time as _time, json as _json
import tbnb.loader.experiment as _exp, tbnb.notebook.magic as _nb
_T = {}
_load, _init = _exp.load, _nb.Dashboard.__init__
def _timed_load(*a, **k):
    t = _time.perf_counter(); out = _load(*a, **k)
    _T["load_s"] = _T.get("load_s", 0.0) + _time.perf_counter() - t; return out
def _timed_init(self, *a, **k):
    t = _time.perf_counter(); _init(self, *a, **k)
    _T["dashboard_s"] = _time.perf_counter() - t
_exp.load, _nb.Dashboard.__init__ = _timed_load, _timed_init"""

READOUT = 'print("TIMINGS " + _json.dumps(_T))'

# Runs in the page: watch for the dashboard node and for the first chart whose line
# layer has pixels (checked once per animation frame), then run the magic cell.
START_JS = """
(index) => {
  const t0 = performance.now();
  window.__tbnbBench = { t0, dashboard: null, drawn: null };
  const drawn = (c) => {
    if (!c.width || !c.height) return false;
    const ctx = c.getContext("2d");
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  };
  const tick = () => {
    const b = window.__tbnbBench;
    if (b.dashboard === null && document.querySelector(".tbnb-dashboard .tbnb-w-scalars")) {
      b.dashboard = performance.now();
    }
    const lines = ".tbnb-chart canvas.tbnb-layer-1";
    for (const c of document.querySelectorAll(lines)) {
      if (drawn(c)) {
        b.drawn = performance.now();
        return;
      }
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  const panel = window.jupyterapp.shell.currentWidget;
  panel.content.activeCellIndex = index;
  window.jupyterapp.commands.execute("notebook:run-cell");
}
"""

# Clicks on a tab are timed from the pointer event to the frame after the tab's page is
# shown with content (a tab not built yet: until its widget replaced the placeholder).
ARM_SWITCH_JS = """
(title) => new Promise((resolve) => {
  const dash = document.querySelector(".tbnb-dashboard");
  const tabs = [...dash.querySelectorAll('[role="tab"]')];
  const tab = tabs.find((t) => t.textContent.trim() === title);
  const index = tabs.indexOf(tab);
  window.__tbnbSwitch = { done: false };
  document.addEventListener("pointerdown", (e) => {
    const t0 = e.timeStamp;
    const ready = () => {
      const pages = dash.querySelectorAll(".tbnb-dashboard-page");
      const page = pages[index];
      const shown = page && page.offsetParent !== null && page.querySelector(".tbnb-root");
      if (!shown) return requestAnimationFrame(ready);
      requestAnimationFrame(() => {
        window.__tbnbSwitch = { done: true, ms: performance.now() - t0 };
      });
    };
    requestAnimationFrame(ready);
  }, { once: true, capture: true });
  const box = tab.getBoundingClientRect();
  resolve({ x: box.x + box.width / 2, y: box.y + box.height / 2 });
})
"""

KERNEL_IDLE_JS = """nb => { const w = window.jupyterapp.shell.currentWidget;
  return !!(w && w.context && w.context.path === nb && w.sessionContext &&
    w.sessionContext.session && w.sessionContext.session.kernel &&
    w.sessionContext.session.kernel.status === 'idle'); }"""


def build_notebook(logdir: Path) -> Any:
    from nbformat.v4 import new_code_cell, new_notebook

    nb: Any = new_notebook()  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    for source in (TIMERS, "%load_ext tbnb", f"%tbnb {str(logdir)!r}", READOUT):
        nb.cells.append(new_code_cell(source))  # type: ignore[no-untyped-call]
    return nb


def run_cell(page: Any, index: int) -> None:
    page.evaluate(
        """(i) => { const p = window.jupyterapp.shell.currentWidget;
           p.content.activeCellIndex = i;
           return window.jupyterapp.commands.execute('notebook:run-cell'); }""",
        index,
    )


def wait_idle(page: Any, timeout_ms: int) -> None:
    page.wait_for_function(KERNEL_IDLE_JS, arg=NB, timeout=timeout_ms)


def click_tab(page: Any, title: str, timeout_ms: int) -> float:
    """Click tab ``title``; milliseconds to the frame after its page shows a widget."""
    where = page.evaluate(ARM_SWITCH_JS, title)
    page.mouse.click(where["x"], where["y"])
    page.wait_for_function("() => window.__tbnbSwitch.done", timeout=timeout_ms, polling=50)
    return float(page.evaluate("() => window.__tbnbSwitch.ms"))


def measure_tabs(page: Any, timeout_ms: int, rounds: int = 3) -> dict[str, float]:
    """First opening of every tab, then switches between built tabs."""
    titles = [t.strip() for t in page.locator(".tbnb-dashboard [role=tab]").all_text_contents()]
    first = [click_tab(page, title, timeout_ms) / 1000 for title in titles[1:]]
    switches = [click_tab(page, title, timeout_ms) for _ in range(rounds) for title in titles]
    out = {
        "switch_ms": statistics.median(switches),
        "switch_max_ms": max(switches),
        "tabs": float(len(titles)),
    }
    if first:
        out["first_open_s"] = statistics.median(first)
    return out


def one_run(
    lab: LabServer, browser: Chromium, timeout_ms: int, switches: bool = True
) -> dict[str, float]:
    for session in lab.api("GET", "/api/sessions"):
        lab.api("DELETE", f"/api/sessions/{session['id']}")
    page = browser.context.new_page()
    page.set_default_timeout(timeout_ms)
    try:
        page.goto(lab.url(f"/lab/tree/{NB}"))
        page.wait_for_function("() => window.jupyterapp !== undefined")
        page.evaluate("() => window.jupyterapp.restored")
        wait_idle(page, timeout_ms)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
        for i in (0, 1):
            run_cell(page, i)
            page.wait_for_timeout(200)
            wait_idle(page, timeout_ms)
        page.evaluate(START_JS, 2)
        page.wait_for_function(
            "() => window.__tbnbBench && window.__tbnbBench.drawn !== null",
            timeout=timeout_ms,
            polling=100,
        )
        bench = page.evaluate("() => window.__tbnbBench")
        wait_idle(page, timeout_ms)
        tabs = measure_tabs(page, timeout_ms) if switches else {}
        run_cell(page, 3)
        out = page.locator(".jp-Cell").nth(3).locator(".jp-OutputArea-output")
        out.filter(has_text="TIMINGS").wait_for(timeout=timeout_ms)
        kernel = json.loads((out.text_content() or "").split("TIMINGS ", 1)[1].strip())
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:clear-all-cell-outputs')")
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    finally:
        page.close()
    total = (bench["drawn"] - bench["t0"]) / 1000
    dash = bench["dashboard"] if bench["dashboard"] is not None else bench["drawn"]
    load_s = float(kernel.get("load_s", 0.0))
    build_s = float(kernel.get("dashboard_s", 0.0)) - load_s
    browser_s = (bench["drawn"] - dash) / 1000
    return {
        "total_s": total,
        "load_s": load_s,
        "build_s": build_s,
        "browser_s": browser_s,
        "kernel_to_page_s": total - load_s - build_s - browser_s,
        **tabs,
    }


def table(rows: list[dict[str, float]], logdir: Path, points: str, command: str) -> str:
    keys = [
        "total_s",
        "load_s",
        "build_s",
        "kernel_to_page_s",
        "browser_s",
        "first_open_s",
        "switch_ms",
        "switch_max_ms",
    ]
    keys = [k for k in keys if all(k in r for r in rows)]
    med = {k: statistics.median(r[k] for r in rows) for k in keys}
    lines = [
        f"# %tbnb to first chart: {logdir.name} ({points})",
        "",
        "| measure | median s | runs |",
        "|---|---:|---|",
    ]
    for k in keys:
        lines.append(f"| {k} | {med[k]:.2f} | {', '.join(f'{r[k]:.2f}' for r in rows)} |")
    lines += ["", f"targets: total < 10 s, switch_ms < 100; rerun: `{command}`", ""]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--logdir", type=Path, default=HERE / "data" / "scalars")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=300, help="seconds per step")
    ap.add_argument("--no-tabs", action="store_true", help="skip the tab timings")
    args = ap.parse_args()
    reason = missing_reason()
    if reason:
        sys.exit(reason)
    logdir = args.logdir.resolve()
    if not logdir.is_dir():
        sys.exit(f"no logdir {logdir}: run .venv/bin/python benchmarks/make_logdir.py")
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
                    rows.append(one_run(lab, browser, timeout_ms, switches=not args.no_tabs))
                    shown = {k: round(v, 2) for k, v in rows[-1].items()}
                    print(f"run {i + 1}: {json.dumps(shown)}", file=sys.stderr)
            finally:
                browser.close()
            if browser.log.external_requests:
                print(f"external requests: {browser.log.external_requests}", file=sys.stderr)
    points = _points(logdir)
    command = ".venv/bin/python benchmarks/bench_dashboard.py"
    if args.logdir != HERE / "data" / "scalars":
        command += f" --logdir {args.logdir}"
    text = table(rows, logdir, points, command)
    print(text)
    results = HERE / "results"
    results.mkdir(exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    (results / f"dashboard-{logdir.name}-{stamp}.md").write_text(text)
    (results / f"dashboard-{logdir.name}-{stamp}.json").write_text(
        json.dumps({"logdir": str(logdir), "runs": rows}, indent=1)
    )


def _points(logdir: Path) -> str:
    runs = sum(1 for p in logdir.iterdir() if p.is_dir())
    size = sum(f.stat().st_size for f in logdir.rglob("*tfevents*"))
    return f"{runs} runs, {size / 1e9:.2f} GB of event files"


if __name__ == "__main__":
    main()
