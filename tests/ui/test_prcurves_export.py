"""PR curves and custom scalars in exported pages (``to_html``): offline, no kernel.

The page draws from what the widget sent: the step sliders show the nearest sent curve
and say so, PR/ROC, run toggles, smoothing and the CSV downloads work, names from logs
stay text, and nothing is fetched from the network.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

import tbnb
from tbnb.notebook.export import to_html
from tests.ui._chromium import Chromium
from tests.writers_prcurves import (
    BOLD,
    HOSTILE_PR_TAG,
    HOSTILE_RUN,
    SCRIPT,
    write_hostile_run,
    write_pr_logdir,
)

pytestmark = pytest.mark.browser

SIGNATURE_JS = "el => [...el.querySelectorAll('canvas')].map(c => c.toDataURL()).join('|')"
FORBIDDEN = (
    ".tbnb-root img, .tbnb-root script, .tbnb-root svg, .tbnb-root iframe, "
    ".tbnb-root a[href], .tbnb-root b, .tbnb-export-widget img"
)


@pytest.fixture(scope="module")
def exp(tmp_path_factory: pytest.TempPathFactory) -> Any:
    logdir = tmp_path_factory.mktemp("prexport") / "logs"
    write_pr_logdir(str(logdir), lightning=False)
    write_hostile_run(str(logdir))
    return tbnb.load(logdir, progress=False)


def _clean(chromium: Chromium, page: Any) -> None:
    assert page.locator(FORBIDDEN).count() == 0
    assert page.evaluate("() => window.__pwned") is None
    log = chromium.log
    assert log.dialogs == []
    assert log.external_requests == []
    assert log.page_errors == []
    assert log.console_errors == []


def _download(page: Any, button: Any) -> list[dict[str, str]]:
    with page.expect_download() as info:
        button.click()
    text = Path(info.value.path()).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


def test_pr_page_works_offline_with_the_curves_it_holds(
    chromium: Chromium, exp: Any, out_dir: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    w = tbnb.pr_curves(exp, max_curves=20)
    page = chromium.open_exported(to_html(w, tmp_path / "pr.html"))
    root = page.locator(".tbnb-w-pr_curves")
    cat = root.locator(".tbnb-pr-chart[data-tag='pr/cat']")
    expect(cat).to_have_attribute("data-series-count", "2")
    # the CSV holds exactly the points Python shows (as TensorBoard serves them)
    rows = _download(page, root.locator("button.tbnb-csv-curves"))
    data = w.data
    assert len(rows) == len(data)
    mine = {
        (
            r["run"],
            r["tag"],
            int(r["step"]),
            round(float(r["threshold"]), 6),
            float(r["true_positives"]),
            float(r["precision"]),
        )
        for r in rows
    }
    theirs = set(
        zip(
            data["run"].astype(str),
            data["tag"].astype(str),
            data["step"],
            data["threshold"].round(6),
            data["true_positives"],
            data["precision"].astype("float32").astype(float),
            strict=True,
        )
    )
    assert mine == theirs
    areas = _download(page, root.locator("button.tbnb-csv-areas"))
    assert {(r["run"], r["tag"], int(r["step"])) for r in areas} == set(
        zip(w.auc["run"].astype(str), w.auc["tag"].astype(str), w.auc["step"], strict=True)
    )
    # step 10 was not sent: the nearest sent curve is drawn and the legend says so
    before = cat.evaluate(SIGNATURE_JS)
    box = root.locator(".tbnb-pr-global-step input.tbnb-step-input")
    box.fill("10")
    box.press("Enter")
    expect(cat).to_have_attribute("data-step", "10")
    torch = cat.locator(".tbnb-pr-entry[data-run='torch']")
    expect(torch).to_have_attribute("data-exact", "false")
    expect(torch.locator(".tbnb-pr-step")).to_contain_text("nearest sent")
    assert torch.get_attribute("data-curve-step") in ("0", "30")
    page.wait_for_function(
        "([el, sig]) => (" + SIGNATURE_JS + ")(el) !== sig", arg=[cat.element_handle(), before]
    )
    root.locator("select.tbnb-pr-view").select_option("roc")
    expect(cat).to_have_attribute("data-view", "roc")
    root.locator(".tbnb-run-toggle[data-run='tbx']").uncheck()
    expect(cat).to_have_attribute("data-series-count", "1")
    page.screenshot(path=out_dir / "pr_export_01.png", full_page=True)
    _clean(chromium, page)


def test_custom_scalars_page_smooths_and_downloads(
    chromium: Chromium, exp: Any, out_dir: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    w = tbnb.custom_scalars(exp)
    page = chromium.open_exported(to_html(w, tmp_path / "cs.html"))
    root = page.locator(".tbnb-w-custom_scalars")
    charts = root.locator(".tbnb-cs-chart")
    expect(charts).to_have_count(len(w.charts))
    band = root.locator(".tbnb-cs-chart[data-kind='margin']").first
    before = band.evaluate(SIGNATURE_JS)
    root.locator("input.tbnb-smoothing").fill("0.95")
    page.wait_for_function(
        "([el, sig]) => (" + SIGNATURE_JS + ")(el) !== sig", arg=[band.element_handle(), before]
    )
    rows = _download(page, root.locator("button.tbnb-download"))
    assert len(rows) == len(w.data)
    assert {r["chart"] for r in rows} == {c["key"] for c in w.charts if c["series"]}
    margin = [r for r in rows if r["lower"]]
    assert margin
    assert all(float(r["lower"]) <= float(r["value"]) <= float(r["upper"]) for r in margin)
    canvas = band.locator("canvas").last
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    tip = root.locator(":scope > .tbnb-tooltip")
    tip.wait_for(state="visible")
    assert tip.locator("th").all_text_contents()[1:] == [
        "series",
        "smoothed",
        "value",
        "lower",
        "upper",
        "step",
        "wall time",
        "relative",
    ]
    page.screenshot(path=out_dir / "pr_export_02_custom_scalars.png", full_page=True)
    _clean(chromium, page)


def test_dashboard_page_has_both_tabs_and_hostile_names_stay_text(
    chromium: Chromium, exp: Any, out_dir: Path, tmp_path: Path
) -> None:
    dash = tbnb.Dashboard(exp)
    page = chromium.open_exported(to_html(dash, tmp_path / "dash.html"))
    tabs = page.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents()
    assert {"Scalars", "Custom scalars", "PR curves"} <= set(tabs)
    page.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="PR curves").click()
    pr = page.locator(".tbnb-w-pr_curves")
    pr.locator(".tbnb-pr-chart").first.wait_for()
    assert HOSTILE_PR_TAG in pr.locator(".tbnb-pr-title").all_text_contents()
    assert HOSTILE_RUN in pr.locator(".tbnb-run-name").all_text_contents()
    assert HOSTILE_RUN in pr.locator(".tbnb-pr-run").all_text_contents()
    page.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Custom scalars").click()
    cs = page.locator(".tbnb-w-custom_scalars")
    cs.locator(".tbnb-cs-chart").first.wait_for()
    assert SCRIPT in cs.locator(".tbnb-group > summary").all_text_contents()
    assert BOLD in cs.locator(".tbnb-chart-title").all_text_contents()
    page.screenshot(path=out_dir / "pr_export_03_dashboard.png", full_page=True)
    _clean(chromium, page)
    dash.close()
