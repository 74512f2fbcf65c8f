"""The histograms view in an exported HTML page (``tbnb.notebook.export.to_html``), offline.

No kernel answers there: every chart is drawn from the preview saved in the widget
state, and the controls (mode, bins, run toggles, tag filter) still redraw. The logdir
(tensorboardX ``add_histogram``) holds a run and a tag named like script payloads; they
must render as text. Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tbnb
from tbnb.notebook.export import to_html
from tests.ui._chromium import Chromium
from tests.writers_histograms import HOSTILE_RUN, HOSTILE_TAG, write_histogram_runs

pytestmark = pytest.mark.browser

RUNS = ["lr=0.1", "lr=0.01", HOSTILE_RUN]
PIXELS_JS = "el => [...el.querySelectorAll('canvas')].map(c => c.toDataURL()).join('|')"
FORBIDDEN = ".tbnb-root img, .tbnb-root script, .tbnb-root svg, .tbnb-root iframe"


@pytest.fixture(scope="module")
def exp(tmp_path_factory: pytest.TempPathFactory) -> tbnb.Experiment:
    logdir = write_histogram_runs(tmp_path_factory.mktemp("hist_export") / "logs", hostile=True)
    return tbnb.load(logdir, progress=False)


def _card(root: Any, tag: str, run: str) -> Any:
    return root.locator(f".tbnb-chart[data-tag={json.dumps(tag)}][data-run={json.dumps(run)}]")


def _changed(page: Any, card: Any, before: str) -> None:
    page.wait_for_function(
        "([el, sig]) => (" + PIXELS_JS + ")(el) !== sig", arg=[card.element_handle(), before]
    )


def _clean(chromium: Chromium, page: Any) -> None:
    log = chromium.log
    assert page.evaluate("() => window.__pwned") is None
    assert log.dialogs == []
    assert log.external_requests == []
    assert log.page_errors == []
    assert log.console_errors == []


def test_histograms_page_draws_offline_and_controls_redraw(
    chromium: Chromium, exp: tbnb.Experiment, out_dir: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    assert HOSTILE_RUN in exp.runs
    widget = tbnb.histograms(exp)
    page = chromium.open_exported(to_html(widget, tmp_path / "histograms.html"))
    root = page.locator(".tbnb-w-histograms")
    root.wait_for()
    expect(root.locator(".tbnb-chart")).to_have_count(len(RUNS) * 4)
    card = _card(root, "layer1/weight", "lr=0.1")
    card.scroll_into_view_if_needed()
    expect(card).to_have_attribute("data-state", "approximate")  # no kernel: the saved preview
    assert int(card.get_attribute("data-steps") or 0) >= 2
    # hostile names are text
    assert root.locator(FORBIDDEN).count() == 0
    assert sorted(root.locator(".tbnb-runs .tbnb-run-name").all_text_contents()) == sorted(RUNS)
    assert HOSTILE_TAG in root.locator(".tbnb-chart-title").all_text_contents()
    page.screenshot(path=out_dir / "hist_export_01_offset.png", full_page=True)
    # hover: the step's histogram, counts marked approximate (8-bit preview)
    box = card.locator("canvas").last.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.55, box["y"] + box["height"] * 0.85)
    tip = root.locator(":scope > .tbnb-tooltip")
    tip.wait_for(state="visible")
    assert tip.locator("th").all_text_contents()[1:] == [
        "step",
        "wall time",
        "bin",
        "count",
        "total",
    ]
    page.mouse.move(1, 1)
    # the controls redraw without a kernel
    for mode in ("heatmap", "overlay", "distribution"):
        before = card.evaluate(PIXELS_JS)
        root.locator("select.tbnb-mode").select_option(mode)
        _changed(page, card, before)
        page.screenshot(path=out_dir / f"hist_export_02_{mode}.png", full_page=True)
    root.locator("select.tbnb-mode").select_option("offset")
    before = card.evaluate(PIXELS_JS)
    bins = root.locator("input.tbnb-bins")
    bins.fill("12")
    bins.press("Enter")
    _changed(page, card, before)
    root.locator("input.tbnb-tag-filter").fill("^layer2/")
    expect(root.locator(".tbnb-chart:not(.tbnb-hidden)")).to_have_count(len(RUNS))
    root.locator('.tbnb-run-toggle[data-run="lr=0.01"]').uncheck()
    expect(root.locator(".tbnb-chart:not(.tbnb-hidden)")).to_have_count(len(RUNS) - 1)
    hostile = _card(root, "layer2/weight", HOSTILE_RUN)
    hostile.scroll_into_view_if_needed()
    box = hostile.locator("canvas").last.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.4, box["y"] + box["height"] * 0.8)
    tip.wait_for(state="visible")
    page.screenshot(path=out_dir / "hist_export_03_filtered.png", full_page=True)
    _clean(chromium, page)


def test_dashboard_page_has_histogram_and_distribution_tabs(
    chromium: Chromium, exp: tbnb.Experiment, out_dir: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    dash = tbnb.Dashboard(exp)
    page = chromium.open_exported(to_html(dash, tmp_path / "dash.html"))
    tabs = page.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents()
    assert {"Histograms", "Distributions"} <= set(tabs)
    page.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Distributions").click()
    view = page.locator(".tbnb-w-histograms:visible")
    expect(view.locator("select.tbnb-mode")).to_have_value("distribution")
    card = view.locator(".tbnb-chart").first
    expect(card).to_be_visible()
    expect(card).to_have_attribute("data-state", "approximate")
    assert card.evaluate(PIXELS_JS)
    page.screenshot(path=out_dir / "hist_export_04_dashboard.png", full_page=True)
    dash.close()
    _clean(chromium, page)


def test_csv_download_holds_the_shown_charts(
    chromium: Chromium, exp: tbnb.Experiment, tmp_path: Path
) -> None:
    import csv

    widget = tbnb.histograms(exp, bins=12, tag_filter="^layer1/bias$")
    page = chromium.open_exported(to_html(widget, tmp_path / "csv.html"))
    root = page.locator(".tbnb-w-histograms")
    root.wait_for()
    with page.expect_download() as info:
        root.locator("button.tbnb-download").click()
    path = tmp_path / "histograms.csv"
    info.value.save_as(path)
    rows = list(csv.reader(path.read_text(encoding="utf-8").splitlines()))
    assert rows[0] == ["run", "tag", "step", "wall_time", "bin_left", "bin_right", "count"]
    body = rows[1:]
    assert {row[1] for row in body} == {"layer1/bias"}
    runs = {row[0] for row in body}
    assert runs == set(RUNS)  # the hostile run name is text, kept as it is
    assert not any(cell.startswith(("=", "+", "@")) for row in body for cell in row)
    want = widget.data.query("tag == 'layer1/bias' and run == 'lr=0.1'")
    mine = [row for row in body if row[0] == "lr=0.1"]
    assert len(mine) % 12 == 0
    first = mine[:12]  # one step: the chart's 12 display bins, as Python computes them
    np.testing.assert_allclose([float(r[4]) for r in first], want["bin_left"].iloc[:12])
    np.testing.assert_allclose([float(r[5]) for r in first], want["bin_right"].iloc[:12])
    steps = {int(r[2]) for r in mine}
    assert {0, 60} <= steps <= set(range(61))  # first and last step always drawn
    assert len(mine) == 12 * len(steps)
    assert chromium.log.page_errors == []
