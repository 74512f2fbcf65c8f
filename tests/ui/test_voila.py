"""A notebook with ``%tbnb`` served by Voilà (the real app from PyPI), in headless Chromium:
the dashboard draws with its kernel behind it, tabs are built when opened, the run
selection ties them, images at another step are fetched from the kernel, the projector
computes a t-SNE layout in the kernel; no console error, nothing leaves the machine."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tbnb.notebook.samples import sample_logdir
from tbnb.notebook.tabs import tabs
from tests.ui._chromium import Chromium
from tests.ui._session import tagged_notebook
from tests.ui._voila import VoilaServer

pytestmark = pytest.mark.browser

TIMEOUT_MS = 90_000
VOILA_TEMPLATE_CDN = "https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@*/css/*.css"


@pytest.fixture(scope="module")
def app(chromium: Chromium, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    root = tmp_path_factory.mktemp("voila")
    nb = tagged_notebook(
        "tbnb in Voila", {"ext": "%load_ext tbnb", "magic": f"%tbnb {sample_logdir()}"}
    )
    nbformat.write(nb, root / "app.ipynb")  # type: ignore[no-untyped-call]
    server = VoilaServer(root, "app.ipynb")
    server.start()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    # Voila's own "lab" template links Font Awesome from jsdelivr (its icons; tbnb uses
    # none): answered here with an empty stylesheet, never fetched
    page.route(VOILA_TEMPLATE_CDN, lambda route: route.fulfill(content_type="text/css", body=""))
    chromium.log.clear()
    try:
        page.goto(server.url("/"))
        page.wait_for_selector(".tbnb-w-dashboard .tbnb-chart canvas")
        yield page
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], (report, server.log_tail(3000))


def test_the_dashboard_draws_in_voila(app: Any, out_dir: Path) -> None:
    from playwright.sync_api import expect

    dash = app.locator(".tbnb-w-dashboard")
    titles = [t.strip() for t in dash.locator('[role="tab"]').all_text_contents()]
    assert titles == [spec.title for spec in tabs()]
    expect(dash.locator('.tbnb-chart[data-tag="train/loss"]')).to_have_attribute(
        "data-series-count", "9"
    )
    app.screenshot(path=out_dir / "voila_01_dashboard.png", full_page=True)


def test_tabs_are_built_by_the_kernel_and_the_selection_ties_them(app: Any) -> None:
    from playwright.sync_api import expect

    dash = app.locator(".tbnb-w-dashboard")
    dash.locator('[role="tab"]', has_text="Histograms").click()
    expect(
        dash.locator(".tbnb-dashboard-panel:not([hidden]) .tbnb-w-histograms canvas").first
    ).to_be_visible()
    bar = dash.locator(".tbnb-w-selection")
    bar.locator("summary").click()
    bar.locator('input.tbnb-run-toggle[data-run="lr=0.001,seed=0"]').uncheck()
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 8 of 9 shown")
    expect(dash.locator(".tbnb-w-histograms")).to_contain_text("8/9 runs")
    bar.locator(".tbnb-all").click()
    bar.locator("summary").click()


def test_images_at_another_step_come_from_the_kernel(app: Any, out_dir: Path) -> None:
    from playwright.sync_api import expect

    dash = app.locator(".tbnb-w-dashboard")
    dash.locator('[role="tab"]', has_text="Images").click()
    root = dash.locator(".tbnb-dashboard-panel:not([hidden]) .tbnb-w-images")
    card = root.locator(".tbnb-card").first
    expect(card).to_be_visible()
    last = int(card.get_attribute("data-step") or "0")
    entry = root.locator(".tbnb-global-step input[type=number]")
    entry.fill("0")
    entry.press("Enter")
    expect(card).not_to_have_attribute("data-step", str(last))
    expect(card.locator("canvas").first).to_be_visible()
    app.screenshot(path=out_dir / "voila_02_images_step.png", full_page=True)


def test_the_projector_lays_out_in_the_kernel(app: Any, out_dir: Path) -> None:
    from playwright.sync_api import expect

    dash = app.locator(".tbnb-w-dashboard")
    dash.locator('[role="tab"]', has_text="Projector").click()
    root = dash.locator(".tbnb-dashboard-panel:not([hidden]) .tbnb-w-embeddings")
    expect(root).to_have_attribute("data-state", "done", timeout=240_000)  # PCA first
    root.locator("select.tbnb-pj-method").select_option("tsne")
    expect(root).to_have_attribute("data-method", "tsne", timeout=240_000)
    expect(root).to_have_attribute("data-state", "done", timeout=240_000)
    app.screenshot(path=out_dir / "voila_03_projector_tsne.png", full_page=True)


def test_no_errors_and_nothing_from_outside_in_voila(chromium: Chromium, app: Any) -> None:
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == [], chromium.log.failed_requests
    outside = [u for u in chromium.log.external_requests if "/@fortawesome/" not in u]
    assert outside == []  # Voila's template links aside, nothing leaves the machine
