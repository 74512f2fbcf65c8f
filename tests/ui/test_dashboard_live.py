"""A dashboard on an empty logdir fills while runs are written, in real JupyterLab, with no
page reload: the first run brings the Scalars tab, a new tag its chart, a new run its line,
a new kind its tab (``Dashboard(logdir, refresh=1)``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import numpy as np
import pytest

from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import open_notebook, run_all, tagged_notebook, wait_for_run_all

pytestmark = pytest.mark.browser

NB = "tbnb_live.ipynb"
TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def lab_page(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Any, Path]]:
    root = tmp_path_factory.mktemp("live")
    (root / "logs").mkdir()
    nb = tagged_notebook(
        "tbnb live dashboard",
        {
            "dash": f"import tbnb\ndash = tbnb.Dashboard({str(root / 'logs')!r}, refresh=1)\ndash",
            "done": 'print("ALL_DONE")',
        },
    )
    nbformat.write(nb, root / NB)  # type: ignore[no-untyped-call]
    lab = LabServer(root)
    lab.start()
    page = chromium.page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, lab.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        cells = page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell")
        wait_for_run_all(page, cells.nth(2), out_dir / "live_00_failed.png", lab)
        yield page, root / "logs"
    finally:
        report = lab.stop()
        assert report["clean"], report


def test_the_dashboard_fills_as_runs_are_written(
    lab_page: tuple[Any, Path], chromium: Chromium, out_dir: Path
) -> None:
    from playwright.sync_api import expect
    from torch.utils.tensorboard import SummaryWriter

    page, logs = lab_page
    dash = page.locator(".jp-Cell .tbnb-dashboard").first
    expect(dash.locator(".tbnb-dashboard-header")).to_contain_text("nothing to show")
    assert dash.locator('[role="tab"]').count() == 0
    dash.screenshot(path=out_dir / "live_01_empty.png")

    with SummaryWriter(str(logs / "alpha")) as w:  # the first run: a tab appears
        for step in range(5):
            w.add_scalar("loss", 1.0 / (step + 1), step)
    chart = dash.locator('.tbnb-w-scalars .tbnb-chart[data-tag="loss"]')
    expect(chart).to_be_visible(timeout=TIMEOUT_MS)
    expect(chart).to_have_attribute("data-series-count", "1")
    expect(dash.locator(".tbnb-dashboard-header")).to_contain_text("1 run")
    dash.screenshot(path=out_dir / "live_02_first_run.png")

    with SummaryWriter(str(logs / "alpha")) as w:  # a new tag of that run: its chart
        w.add_scalar("accuracy", 0.5, 5)
    expect(dash.locator('.tbnb-chart[data-tag="accuracy"]')).to_be_visible(timeout=TIMEOUT_MS)

    rng = np.random.default_rng(0)
    with SummaryWriter(str(logs / "beta")) as w:  # a new run and a new kind
        for step in range(5):
            w.add_scalar("loss", 2.0 / (step + 1), step)
            w.add_histogram("weights", rng.normal(size=100), step)
    expect(chart).to_have_attribute("data-series-count", "2", timeout=TIMEOUT_MS)
    histograms = dash.locator('[role="tab"]', has_text="Histograms")
    expect(histograms).to_be_visible(timeout=TIMEOUT_MS)
    expect(dash.locator('[role="tab"][aria-selected="true"]')).to_have_text("Scalars")  # kept
    histograms.click()
    expect(dash.locator(".tbnb-w-histograms canvas").first).to_be_visible(timeout=TIMEOUT_MS)
    expect(dash.locator(".tbnb-dashboard-header")).to_contain_text("2 runs")
    dash.screenshot(path=out_dir / "live_03_new_kind.png")
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    assert chromium.log.external_requests == []
