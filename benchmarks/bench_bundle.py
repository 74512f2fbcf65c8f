"""One bundle against a bundle per widget: what a dashboard loads, and its first chart.

Side by side in the same minutes, ``--before-root`` (an export of an earlier tbnb, e.g.
``git archive <commit> | tar -x -C /tmp/tbnb-before``) against this checkout, runs
alternating, on the sample logdir (every kind, so every view):

- bytes: the front-end code a dashboard of every view loads (raw and gzipped): the
  distinct ``_esm`` texts of its widget models, plus the carrier's bundle where there is
  one; and the exported page's size;
- exported page: headless Chromium opens the page of ``tbnb.Dashboard(sample).to_html``
  from disk; time from navigation to the first scalars chart with drawn pixels;
- JupyterLab (``--lab``): ``%tbnb`` of the sample to the first chart, then the first
  opening of every other tab (each loads its widget's front end), through
  ``bench_dashboard.one_run`` with a LabServer whose kernel imports the given tbnb.

Medians of ``--repeat`` (5). ``cat /proc/loadavg`` is printed beside each table: the
machine is shared, compare rows of one run only.

Usage::

    git archive 2d15e5c | (mkdir -p /tmp/tbnb-before && tar -x -C /tmp/tbnb-before)
    .venv/bin/python benchmarks/bench_bundle.py --before-root /tmp/tbnb-before --lab
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from tests.ui._chromium import Chromium  # noqa: E402
from tests.ui._lab import LabServer  # noqa: E402

# In a subprocess with the tbnb under test first on the path: the dashboard's front-end
# code (distinct _esm texts, and the carrier's bundle) and its exported page.
PAGE_SCRIPT = """
import json, sys, gzip
import ipywidgets, tbnb
from ipywidgets.embed import dependency_state
from tbnb.notebook.samples import sample_logdir
dash = tbnb.Dashboard(sample_logdir())
dash.build_all()
texts = {s["state"]["_esm"] for s in dependency_state([dash], drop_defaults=False).values()
         if s.get("model_module") == "anywidget"}
try:
    from tbnb.widgets.bundle import front_end
    texts.add(front_end().source)
except ImportError:
    pass
page = dash.to_html(sys.argv[1])
code = "".join(sorted(texts)).encode()
print(json.dumps({"tbnb": tbnb.__file__, "modules": len(texts), "code": len(code),
                  "code_gz": len(gzip.compress(code, 9)), "page": page.stat().st_size}))
"""

FIRST_CHART_JS = """() => {
  const drawn = (c) => {
    if (!c.width || !c.height) return false;
    const data = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
    return false;
  };
  const tick = () => {
    if (window.__firstChart === undefined) {
      for (const c of document.querySelectorAll(".tbnb-chart canvas.tbnb-layer-1")) {
        if (drawn(c)) { window.__firstChart = performance.now(); break; }
      }
    }
    const root = document.getElementById("tbnb-export-root");
    if (window.__allViews === undefined && root && root.dataset.rendered === "true")
      window.__allViews = performance.now();
    if (window.__firstChart === undefined || window.__allViews === undefined)
      requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def _env(root: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(root), env.get("PYTHONPATH", "")) if p)
    return env


def _page(root: Path, out: Path) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-c", PAGE_SCRIPT, str(out)],
        env=_env(root), capture_output=True, text=True, check=True, cwd=root, timeout=600,
    )  # fmt: skip
    info: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    assert Path(info["tbnb"]).resolve().is_relative_to(root.resolve()), info["tbnb"]
    return info


def _first_chart_ms(browser: Chromium, page_path: Path) -> tuple[float, float]:
    """Milliseconds from navigation to the first chart drawn, and to every view built."""
    page = browser.context.new_page()
    try:
        page.add_init_script(f"({FIRST_CHART_JS})()")
        page.goto(page_path.as_uri())
        page.wait_for_function(
            "() => window.__firstChart !== undefined && window.__allViews !== undefined",
            timeout=120_000,
        )
        first, views = page.evaluate("() => [window.__firstChart, window.__allViews]")
        return float(first), float(views)
    finally:
        page.close()


class RootLab(LabServer):
    """A LabServer whose kernels import the tbnb at ``tbnb_root``."""

    def __init__(self, root: Path, tbnb_root: Path) -> None:
        super().__init__(root)
        self.tbnb_root = tbnb_root

    def _env(self) -> dict[str, str]:
        env = super()._env()
        env["PYTHONPATH"] = os.pathsep.join((str(self.tbnb_root), env["PYTHONPATH"]))
        return env


def _loadavg() -> str:
    return Path("/proc/loadavg").read_text().strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--before-root", type=Path, required=True)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--lab", action="store_true", help="also %%tbnb in JupyterLab")
    args = ap.parse_args()
    roots = {"before": args.before_root.resolve(), "after": ROOT}
    from playwright.sync_api import sync_playwright

    work = Path(tempfile.mkdtemp(prefix="tbnb-bench-bundle-"))
    info = {name: _page(root, work / f"{name}.html") for name, root in roots.items()}
    print(f"loadavg {_loadavg()}")
    print("| tbnb | modules | front-end code | gzipped | exported page |")
    print("|---|---:|---:|---:|---:|")
    for name, i in info.items():
        print(
            f"| {name} | {i['modules']} | {i['code'] / 1024:.0f} KB | {i['code_gz'] / 1024:.0f} KB "
            f"| {i['page'] / 1024:.0f} KB |"
        )
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in roots}
    lab_rows: dict[str, list[dict[str, float]]] = {name: [] for name in roots}
    with sync_playwright() as pw:
        browser = Chromium(pw, viewport=(1280, 1600))
        try:
            for _ in range(args.repeat):
                for name in roots:
                    times[name].append(_first_chart_ms(browser, work / f"{name}.html"))
            print(f"\nexported page, from navigation (loadavg {_loadavg()})")
            print("| tbnb | first chart, median ms | every view built, median ms | runs |")
            print("|---|---:|---:|---|")
            med = {}
            for name, ms in times.items():
                med[name] = [statistics.median(m[k] for m in ms) for k in (0, 1)]
                runs = ", ".join(f"{a:.0f}/{b:.0f}" for a, b in ms)
                print(f"| {name} | {med[name][0]:.0f} | {med[name][1]:.0f} | {runs} |")
            ratios = [med["after"][k] / med["before"][k] for k in (0, 1)]
            print(f"ratios after/before: first chart {ratios[0]:.2f}, every view {ratios[1]:.2f}")
            if args.lab:
                _lab(roots, lab_rows, browser, work, args.repeat)
        finally:
            browser.close()


def _lab(
    roots: dict[str, Path],
    rows: dict[str, list[dict[str, float]]],
    browser: Chromium,
    work: Path,
    repeat: int,
) -> None:
    import nbformat
    from bench_dashboard import NB, build_notebook, one_run

    from tbnb.notebook.samples import sample_logdir

    labs = {}
    for name, root in roots.items():
        folder = work / f"lab-{name}"
        folder.mkdir()
        nbformat.write(build_notebook(sample_logdir()), folder / NB)  # type: ignore[no-untyped-call]
        labs[name] = RootLab(folder, root)
        labs[name].start()
    try:
        for _ in range(repeat):
            for name, lab in labs.items():
                rows[name].append(one_run(lab, browser, 300_000))
    finally:
        for lab in labs.values():
            lab.stop()
    keys = ["total_s", "browser_s", "first_open_s", "switch_ms"]
    print(f"\nJupyterLab, %tbnb of the sample (loadavg {_loadavg()})")
    print("| tbnb | " + " | ".join(keys) + " |")
    print("|---|" + "---:|" * len(keys))
    for name, runs in rows.items():
        med = [statistics.median(r[k] for r in runs) for k in keys]
        print(f"| {name} | " + " | ".join(f"{m:.3f}" for m in med) + " |")
    for name, runs in rows.items():
        print(f"{name} runs: " + json.dumps([{k: round(r[k], 3) for k in keys} for r in runs]))


if __name__ == "__main__":
    main()
