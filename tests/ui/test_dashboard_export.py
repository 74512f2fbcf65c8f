"""A whole dashboard exported to one page, in headless Chromium from disk: every tab there,
ARIA tabs driven from the keyboard, the run selection and the hparams filter still tying
the tabs together with no kernel, names from logs shown as text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tbnb
from tests.ui._chromium import Chromium
from tests.ui.test_dashboard_ui import RUNS, write_logdir

pytestmark = pytest.mark.browser

EVIL = "<img src=x onerror=alert(3)>"


@pytest.fixture(scope="module")
def page(chromium: Chromium, tmp_path_factory: pytest.TempPathFactory) -> Any:
    from torch.utils.tensorboard import SummaryWriter

    root = tmp_path_factory.mktemp("dash-export")
    write_logdir(root / "logs")
    with SummaryWriter(str(root / "logs" / "evil")) as w:
        w.add_text("notes", EVIL, 0)  # a run with text alone
    dash = tbnb.Dashboard(root / "logs")
    dash.selection.selected_runs = [*RUNS, "evil"]
    path = dash.to_html(root / "dashboard.html")
    dash.close()
    page = chromium.open_exported(path)
    yield page
    page.close()


def test_every_tab_is_in_the_page_as_aria_tabs(page: Any, out_dir: Path) -> None:
    from playwright.sync_api import expect

    tabs = page.locator('[role="tablist"] [role="tab"]')
    titles = tabs.all_text_contents()
    assert titles == ["Scalars", "HParams", "Histograms", "Distributions", "Text", "Runs"]
    assert tabs.first.get_attribute("aria-selected") == "true"
    assert tabs.first.get_attribute("tabindex") == "0"
    assert tabs.nth(1).get_attribute("tabindex") == "-1"
    panel_id = tabs.nth(2).get_attribute("aria-controls")
    assert page.locator(f'[role="tabpanel"]#{panel_id}').count() == 1
    tabs.first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(tabs.nth(2)).to_have_attribute("aria-selected", "true")
    expect(tabs.nth(2)).to_be_focused()
    expect(page.locator(".tbnb-w-histograms canvas").first).to_be_visible()
    page.keyboard.press("End")
    expect(tabs.last).to_have_attribute("aria-selected", "true")
    page.keyboard.press("Home")
    expect(tabs.first).to_have_attribute("aria-selected", "true")
    page.screenshot(path=out_dir / "dashboard_export_01.png", full_page=True)


def test_the_run_selection_ties_the_tabs_with_no_kernel(page: Any, out_dir: Path) -> None:
    from playwright.sync_api import expect

    bar = page.locator(".tbnb-w-selection")
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 4 of 4 shown")
    bar.locator("summary").click()
    bar.locator('input.tbnb-run-toggle[data-run="beta"]').uncheck()
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 3 of 4 shown")
    expect(page.locator('.tbnb-chart[data-tag="loss"]')).to_have_attribute("data-series-count", "2")
    page.locator('[role="tab"]', has_text="Histograms").click()
    expect(page.locator("[role=tabpanel]:visible .tbnb-w-histograms")).to_contain_text("2/3 runs")
    page.screenshot(path=out_dir / "dashboard_export_02_beta_off.png", full_page=True)
    bar.locator(".tbnb-all").click()
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 4 of 4 shown")


def test_names_from_logs_are_text(page: Any, chromium: Chromium, out_dir: Path) -> None:
    from playwright.sync_api import expect

    page.locator('[role="tab"]', has_text="Text").click()
    page.screenshot(path=out_dir / "dashboard_export_03_text.png", full_page=True)
    # markdown's images become their text (the sanitiser's rule); nothing is loaded or run
    expect(page.locator(".tbnb-w-text").get_by_text("[image (x)]")).to_be_visible()
    assert page.locator("img[src=x]").count() == 0
    assert chromium.log.dialogs == []
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    assert chromium.log.external_requests == []
