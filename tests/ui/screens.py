"""Screenshots of every view, to compare the pixels before and after a front-end change.

Every view of the sample logdir is exported to a page (no kernel: the same front ends as in
JupyterLab, and deterministic), opened in headless Chromium at a fixed size, and each view's
root element saved as a PNG, with a few interactions that draw more (a hover readout, a
zoom, the histogram modes). ``compare`` reports the views whose pixels differ.

Usage (from the repository root)::

    python -m tests.ui.screens save tests/ui/out/screens/before
    python -m tests.ui.screens save tests/ui/out/screens/after
    python -m tests.ui.screens compare tests/ui/out/screens/before tests/ui/out/screens/after
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

#: Channel differences up to this are compositing noise (a rounded corner's anti-aliasing
#: one shade off between two runs of the same build), not a change.
NOISE = 2

#: (file name, how to reach the view in the dashboard page, the element to shoot)
Step = tuple[str, Callable[[Any], None], str]


def _pages(work: Path) -> dict[str, Path]:
    import tbnb
    from tbnb.notebook.export import to_html
    from tbnb.notebook.samples import sample_logdir

    logdir = sample_logdir()
    exp = tbnb.load(logdir)
    pages: dict[str, Path] = {}
    dash = tbnb.Dashboard(exp)
    pages["dashboard"] = dash.to_html(work / "dashboard.html")
    for mode in ("overlay", "heatmap", "distribution", "runs"):
        widget = tbnb.histograms(exp, mode=mode)
        pages[f"histograms_{mode}"] = to_html(widget, work / f"histograms_{mode}.html")
    return pages


def _settle(page: Any) -> None:
    """Wait for two animation frames and for running layout workers (graphs, projector)."""
    page.wait_for_timeout(400)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def _tab(title: str) -> Callable[[Any], None]:
    def go(page: Any) -> None:
        page.locator('[role="tab"]', has_text=title).first.click()
        page.locator('[role="tabpanel"]:visible .tbnb-root').first.wait_for()
        page.wait_for_timeout(1500)

    return go


def _hover_scalars(page: Any) -> None:
    chart = page.locator('[role="tabpanel"]:visible .tbnb-chart canvas').first
    box = chart.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.55, box["y"] + box["height"] * 0.5)
    page.wait_for_timeout(300)


def _zoom_scalars(page: Any) -> None:
    chart = page.locator('[role="tabpanel"]:visible .tbnb-chart canvas').first
    box = chart.bounding_box()
    y = box["y"] + box["height"] * 0.5
    page.mouse.move(box["x"] + box["width"] * 0.3, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.7, y + 20, steps=5)
    page.mouse.up()
    page.mouse.move(0, 0)
    page.wait_for_timeout(300)


def _dashboard_steps(titles: list[str]) -> list[Step]:
    panel = '[role="tabpanel"]:visible'
    steps: list[Step] = [("dashboard_selection", lambda p: None, ".tbnb-w-selection")]
    for i, title in enumerate(titles):
        name = f"tab_{i:02d}_{title.lower().replace(' ', '_')}"
        steps.append((name, _tab(title), panel))
        if title == "Scalars":
            steps.append(("tab_scalars_hover", _hover_scalars, panel))
            steps.append(("tab_scalars_zoom", _zoom_scalars, panel))
    return steps


def save(folder: Path) -> list[Path]:
    """Save a PNG per view into ``folder``; returns the files."""
    from playwright.sync_api import sync_playwright

    from tests.ui._chromium import Chromium

    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        pages = _pages(Path(tmp))
        browser = Chromium(pw, viewport=(1200, 1600))
        try:
            for name, path in pages.items():
                page = browser.open_exported(path)
                _settle(page)
                if name == "dashboard":
                    titles = page.locator('[role="tablist"] [role="tab"]').all_text_contents()
                    steps = _dashboard_steps(titles)
                else:
                    steps = [(name, lambda p: None, ".tbnb-root")]
                for shot, action, selector in steps:
                    action(page)
                    _settle(page)
                    out = folder / f"{shot}.png"
                    page.locator(selector).first.screenshot(path=out, animations="disabled")
                    written.append(out)
                problems = browser.log.page_errors + browser.log.console_errors
                if problems:
                    print(f"{name}: {problems}", file=sys.stderr)
                page.close()
        finally:
            browser.close()
    return written


def _pixels(path: Path) -> np.ndarray:
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("RGBA"))


def compare(before: Path, after: Path) -> int:
    """Print each view whose pixels differ (or whose size does); return how many."""
    differing = 0
    for old in sorted(before.glob("*.png")):
        new = after / old.name
        if not new.exists():
            print(f"{old.name}: missing after")
            differing += 1
            continue
        a, b = _pixels(old), _pixels(new)
        if a.shape != b.shape:
            print(f"{old.name}: size {a.shape[1]}x{a.shape[0]} -> {b.shape[1]}x{b.shape[0]}")
            differing += 1
            continue
        off = np.abs(a.astype(np.int16) - b.astype(np.int16)).max(axis=-1)
        changed = off > NOISE
        if changed.any():
            ys, xs = np.nonzero(changed)
            print(
                f"{old.name}: {int(changed.sum())} pixels differ (by up to {int(off.max())}) in "
                f"x {xs.min()}..{xs.max()}, y {ys.min()}..{ys.max()}"
            )
            differing += 1
        else:
            faint = int((off > 0).sum())
            print(f"{old.name}: same" + (f" ({faint} pixels a shade off)" if faint else ""))
    return differing


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "save":
        for file in save(Path(sys.argv[2])):
            print(file)
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(1 if compare(Path(sys.argv[2]), Path(sys.argv[3])) else 0)
    else:
        print(__doc__)
        sys.exit(2)
