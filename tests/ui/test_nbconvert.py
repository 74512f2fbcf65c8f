"""A report page: ``jupyter nbconvert --to html --execute`` of a notebook with a dashboard
and a widget (what Jupyter Book 1 and CI report pipelines run; nbclient saves the widget
state), opened from disk in headless Chromium. The page loads require.js, the widgets HTML
manager and anywidget from CDNs: the test serves them from their npm packages of the same
versions (tests/ui/_cdn.py), and fails on any other request leaving the machine. Every
widget draws; what needs no kernel works (tabs, the run selection, smoothing)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.ui._cdn import ServedCdn, serve_cdn
from tests.ui._chromium import Chromium
from tests.ui._lab import REPO, VENV_BIN
from tests.ui._session import drag_smoothing, tagged_notebook
from tests.ui.test_dashboard_ui import write_logdir

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000


def report_notebook(root: Path) -> Path:
    """The notebook a report is made of: a dashboard (every tab built, so the page holds
    them all) and a scalars widget on its own."""
    logs = str(root / "logs")
    nb = tagged_notebook(
        "tbnb report",
        {
            "dash": f"import tbnb\ndash = tbnb.Dashboard({logs!r})\ndash.build_all()\ndash",
            "scalars": f"w = tbnb.scalars({logs!r}, tags='loss')\nw",
        },
    )
    path = root / "report.ipynb"
    nbformat.write(nb, path)  # type: ignore[no-untyped-call]
    return path


def convert(notebook: Path, *extra: str) -> Path:
    """``jupyter nbconvert --to html --execute``: the kernel imports this checkout's tbnb."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    subprocess.run(
        [str(VENV_BIN / "jupyter-nbconvert"), "--to", "html", "--execute", *extra, notebook.name],
        cwd=notebook.parent,
        env=env,
        check=True,
        capture_output=True,
        timeout=600,
    )
    return notebook.with_suffix(".html")


@pytest.fixture(scope="module")
def report(
    chromium: Chromium, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Any, ServedCdn]]:
    root = tmp_path_factory.mktemp("nbconvert")
    write_logdir(root / "logs")
    page_path = convert(report_notebook(root))
    context = chromium.context
    cdn = serve_cdn(context)
    failed: list[str] = []
    page = context.new_page()
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.set_default_timeout(TIMEOUT_MS)
    chromium.log.clear()
    page.goto(page_path.as_uri())
    page.wait_for_selector(".tbnb-w-dashboard .tbnb-chart canvas")
    try:
        yield page, cdn
    finally:
        page.close()
        context.unroute("**/*")
    # local files the page looks for first and does without (its custom.css, require.js
    # trying anywidget.js beside the page before the CDN) are not requests leaving the machine
    assert [u for u in failed if u.startswith("http") and u not in cdn.refused] == []


def test_every_widget_draws_in_the_report(report: tuple[Any, ServedCdn], out_dir: Path) -> None:
    from playwright.sync_api import expect

    page, cdn = report
    dash = page.locator(".tbnb-w-dashboard")
    expect(dash.locator('.tbnb-w-scalars .tbnb-chart[data-tag="loss"]')).to_be_visible()
    titles = [t.strip() for t in dash.locator('[role="tab"]').all_text_contents()]
    assert titles == ["Scalars", "HParams", "Histograms", "Distributions", "Text", "Runs"]
    own = page.locator(".tbnb-w-scalars:not(.tbnb-dashboard-page *)").last
    expect(own.locator('.tbnb-chart[data-tag="loss"] canvas').first).to_be_visible()
    page.screenshot(path=out_dir / "nbconvert_01_report.png", full_page=True)
    served = {u.split("/")[2] for u in cdn.served}
    assert served >= {"unpkg.com", "cdn.jsdelivr.net", "cdnjs.cloudflare.com"}


def test_tabs_and_the_run_selection_work_with_no_kernel(
    report: tuple[Any, ServedCdn], out_dir: Path
) -> None:
    from playwright.sync_api import expect

    page, _ = report
    dash = page.locator(".tbnb-w-dashboard")
    for title, root in (
        ("Histograms", ".tbnb-w-histograms canvas"),
        ("HParams", ".tbnb-w-hparams canvas"),
        ("Text", ".tbnb-w-text .tbnb-markdown"),
        ("Runs", ".tbnb-w-metadata table"),
    ):
        dash.locator('[role="tab"]', has_text=title).click()
        expect(dash.locator(f".tbnb-dashboard-panel:not([hidden]) {root}").first).to_be_visible()
    dash.locator('[role="tab"]', has_text="Scalars").click()
    bar = dash.locator(".tbnb-w-selection")
    bar.locator("summary").click()
    bar.locator('input.tbnb-run-toggle[data-run="beta"]').uncheck()
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 2 of 3 shown")
    chart = dash.locator('.tbnb-w-scalars .tbnb-chart[data-tag="loss"]')
    expect(chart).to_have_attribute("data-series-count", "2")  # the saved link, in the page
    page.screenshot(path=out_dir / "nbconvert_02_beta_off.png", full_page=True)
    bar.locator(".tbnb-all").click()
    expect(chart).to_have_attribute("data-series-count", "3")


def test_smoothing_redraws_with_no_kernel(report: tuple[Any, ServedCdn]) -> None:
    page, _ = report
    own = page.locator(".tbnb-w-scalars:not(.tbnb-dashboard-page *)").last
    canvas = own.locator('.tbnb-chart[data-tag="loss"] canvas').first
    before = canvas.screenshot()
    value = drag_smoothing(page, own)
    assert value > 0.8
    page.wait_for_timeout(300)
    assert canvas.screenshot() != before


def test_nothing_else_left_the_machine(report: tuple[Any, ServedCdn], chromium: Chromium) -> None:
    _, cdn = report
    assert cdn.refused == []
    assert sorted(set(chromium.log.external_requests)) == sorted(set(cdn.served))
    assert chromium.log.page_errors == []
    errors = [e for e in chromium.log.console_errors if "ERR_FILE_NOT_FOUND" not in e]
    assert errors == []
