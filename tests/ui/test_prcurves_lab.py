"""PR curves and custom scalars in real JupyterLab + headless Chromium.

One JupyterLab server and one notebook for the module (tests run in order and share the
page). The logdir holds PR curves and layouts written by torch, tensorboardX and TF's
wire format, and a run whose name, tags and layout titles are script payloads. The
interactions change pixels and are read back in Python; curves the widget did not send
come from the kernel on request; the page may not reach any host but 127.0.0.1, and no
name may turn into markup. Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import (
    STDOUT,
    CellDriver,
    drag_smoothing,
    open_notebook,
    run_all,
    tagged_notebook,
    wait_for_run_all,
)
from tests.writers_prcurves import (
    BOLD,
    HOSTILE_PR_TAG,
    HOSTILE_RUN,
    SCRIPT,
    write_hostile_run,
    write_pr_logdir,
)

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
CELLS = ["setup", "pr", "cs", "readback", "magic", "done"]
SIGNATURE_JS = "el => [...el.querySelectorAll('canvas')].map(c => c.toDataURL()).join('|')"
FORBIDDEN = (
    ".tbnb-root img, .tbnb-root script, .tbnb-root svg, .tbnb-root iframe, "
    ".tbnb-root a[href], .tbnb-root b"
)


def drag_range(page: Any, slider: Any, start: float, end: float) -> None:
    """Drag a range input's thumb from ``start`` to ``end`` (fractions of its width)."""
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 4 + (box["width"] - 8) * start, y)
    page.mouse.down()
    page.mouse.move(box["x"] + 4 + (box["width"] - 8) * end, y, steps=8)
    page.mouse.up()


@dataclass
class Lab(CellDriver):
    page: Any
    browser: Chromium
    out: Path
    expect: dict[str, Any]
    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(
            CELLS.index(tag) + 1
        )

    def pr(self) -> Any:
        return self.cell("pr").locator(".tbnb-w-pr_curves")

    def cs(self) -> Any:
        return self.cell("cs").locator(".tbnb-w-custom_scalars")

    def pr_chart(self, tag: str) -> Any:
        return (
            self.pr()
            .locator(".tbnb-pr-chart")
            .filter(has=self.page.locator(".tbnb-pr-title", has_text=tag))
            .first
        )

    def changed(self, locator: Any, before: str) -> None:
        self.page.wait_for_function(
            "([el, sig]) => (" + SIGNATURE_JS + ")(el) !== sig",
            arg=[locator.element_handle(), before],
        )


READBACK = """\
_reads = globals().get("_reads", 0) + 1
_cat = w.data[w.data["tag"] == "pr/cat"]
print(f"STATE {_reads} " + json.dumps({
    "view": w.view, "step": w.step, "chart_steps": w.chart_steps,
    "selected_runs": w.selected_runs,
    "shown": w.shown_auc[["run", "tag", "step"]].astype(str).values.tolist(),
    "cat_points": _cat[["run", "step", "threshold", "true_positives", "false_positives",
                        "true_negatives", "false_negatives"]].astype(str).values.tolist(),
    "cs_smoothing": c.smoothing, "cs_log_y": c.log_y, "cs_selected": c.selected_runs}))"""


@pytest.fixture(scope="module")
def lab(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("prlab")
    logdir = root / "pr logs"
    write_pr_logdir(str(logdir), lightning=False)
    write_hostile_run(str(logdir))
    path = json.dumps(str(logdir))
    nb = tagged_notebook(
        "PR curves and custom scalars",
        {
            "setup": f"""import json, tbnb
exp = tbnb.load({path}, progress=False)
print("EXPECT " + json.dumps({{
    "runs": exp.runs,
    "pr_tags": sorted(set(exp.pr_curves["tag"].astype(str))),
    "runs_per_tag": exp.pr_curves.groupby("tag", observed=True)["run"].nunique().to_dict(),
    "cs_charts": len(exp.custom_scalars.merged.charts)}}))""",
            "pr": "w = tbnb.pr_curves(exp, max_curves=20)\nw",
            "cs": "c = tbnb.custom_scalars(exp)\nc",
            "readback": READBACK,
            "magic": f"%load_ext tbnb\n%tbnb {json.dumps(str(logdir))}",
            "done": 'print("ALL_DONE")',
        },
    )
    nbformat.write(nb, root / "pr.ipynb")  # type: ignore[no-untyped-call]
    server = LabServer(root)
    server.start()
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, server.url("/lab/tree/pr.ipynb"), "pr.ipynb")
        run_all(page)
        cells = page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell")
        wait_for_run_all(
            page, cells.nth(CELLS.index("done") + 1), out_dir / "pr_lab_failed.png", server
        )
        text = cells.nth(CELLS.index("setup") + 1).locator(STDOUT).text_content() or ""
        expect = json.loads(text.split("EXPECT ", 1)[1].strip())
        page.screenshot(path=out_dir / "pr_lab_00_run_all.png", full_page=True)
        yield Lab(page, chromium, out_dir, expect)
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_every_chart_renders_with_its_runs(lab: Lab) -> None:
    from playwright.sync_api import expect

    stderr = lab.page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    )
    assert stderr.count() == 0, stderr.all_text_contents()
    charts = lab.pr().locator(".tbnb-pr-chart")
    expect(charts).to_have_count(len(lab.expect["pr_tags"]))
    tags = charts.evaluate_all("els => els.map(e => e.dataset.tag)")
    assert sorted(tags) == lab.expect["pr_tags"]
    for tag, runs in lab.expect["runs_per_tag"].items():
        expect(lab.pr_chart(tag)).to_have_attribute("data-series-count", str(runs))
    grid = lab.pr().locator(".tbnb-group[data-group='pr'] .tbnb-pr-chart")
    expect(grid).to_have_count(2)  # pr/cat and pr/dog share a grid
    expect(lab.cs().locator(".tbnb-cs-chart")).to_have_count(lab.expect["cs_charts"])
    lab.pr().screenshot(path=lab.out / "pr_lab_01_pr_curves.png")
    lab.cs().screenshot(path=lab.out / "pr_lab_02_custom_scalars.png")


def test_chart_step_slider_redraws_and_fetches_curves_from_the_kernel(lab: Lab) -> None:
    from playwright.sync_api import expect

    chart = lab.pr_chart("pr/cat")
    chart.scroll_into_view_if_needed()
    expect(chart).to_have_attribute("data-step", "30")
    before = chart.locator(".tbnb-pr-body").evaluate(SIGNATURE_JS)
    drag_range(lab.page, chart.locator("input.tbnb-step-range"), 1.0, 1 / 3)  # 4 steps
    expect(chart).to_have_attribute("data-step", "10")
    torch = chart.locator(".tbnb-pr-entry[data-run='torch']")
    expect(torch).to_have_attribute("data-step", "10")
    # step 10 was not sent (max_curves=20): its curve comes from the kernel
    expect(torch).to_have_attribute("data-exact", "true")
    expect(torch).to_have_attribute("data-curve-step", "10")
    lab.changed(chart.locator(".tbnb-pr-body"), before)
    state = lab.readback()
    assert state["chart_steps"] == {"pr/cat": 10}
    assert ["torch", "pr/cat", "10"] in state["shown"]
    chart.screenshot(path=lab.out / "pr_lab_03_step_10.png")


def test_hover_reads_out_the_nearest_threshold_as_python_has_it(lab: Lab) -> None:
    chart = lab.pr_chart("pr/cat")
    canvas = chart.locator(".tbnb-pr-body canvas").last
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    lab.page.mouse.move(box["x"] + box["width"] * 0.6, box["y"] + box["height"] * 0.4)
    tip = lab.pr().locator(":scope > .tbnb-tooltip")
    tip.wait_for(state="visible")
    heads = tip.locator("th").all_text_contents()
    assert heads[1:] == ["run", "step", "threshold", "precision", "recall", "TP", "FP", "TN", "FN"]
    lab.pr().screenshot(path=lab.out / "pr_lab_04_hover.png")
    rows = [
        [td.text_content() or "" for td in row.locator("td").all()[1:]]
        for row in tip.locator("tbody tr").all()
    ]
    lab.page.mouse.move(1, 1)
    state = lab.readback()
    points = {
        (r, s, round(float(t), 4), float(tp), float(fp), float(tn), float(fn))
        for r, s, t, tp, fp, tn, fn in state["cat_points"]
    }
    assert sorted(r[0] for r in rows) == ["tbx", "torch"]
    for run, step, threshold, _p, _r, tp, fp, tn, fn in rows:
        key = (run, step, round(float(threshold), 4), float(tp), float(fp), float(tn), float(fn))
        assert key in points, key


def test_global_step_and_roc_view_are_read_back(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.pr()
    root.scroll_into_view_if_needed()
    chart = lab.pr_chart("pr/dog")
    before = chart.locator(".tbnb-pr-body").evaluate(SIGNATURE_JS)
    box = root.locator(".tbnb-pr-global-step input.tbnb-step-input")
    box.fill("20")
    box.press("Tab")  # the box commits its value when it loses focus
    expect(chart).to_have_attribute("data-step", "20")
    expect(lab.pr_chart("pr/cat")).to_have_attribute("data-step", "20")  # its own is reset
    root.locator("select.tbnb-pr-view").select_option("roc")
    expect(chart).to_have_attribute("data-view", "roc")
    lab.changed(chart.locator(".tbnb-pr-body"), before)
    state = lab.readback()
    assert (state["view"], state["step"], state["chart_steps"]) == ("roc", 20, {})
    chart.screenshot(path=lab.out / "pr_lab_05_roc_step_20.png")


def test_run_toggle_and_areas_table(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.pr()
    root.locator(".tbnb-run-toggle[data-run='tbx']").uncheck()
    expect(lab.pr_chart("pr/cat")).to_have_attribute("data-series-count", "1")
    rows = root.locator(".tbnb-pr-table .tbnb-table tbody tr")
    expect(rows.first).to_be_visible()
    assert "tbx" not in lab.readback()["selected_runs"]
    texts = root.locator(".tbnb-pr-table").text_content() or ""
    assert "PR-AUC (AP)" in texts
    assert "ROC-AUC" in texts
    root.locator(".tbnb-run-toggle[data-run='tbx']").check()
    expect(lab.pr_chart("pr/cat")).to_have_attribute("data-series-count", "2")


def test_custom_scalars_smoothing_log_scale_and_band(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.cs()
    root.scroll_into_view_if_needed()
    chart = root.locator(".tbnb-cs-chart[data-kind='multiline']").first
    before = chart.evaluate(SIGNATURE_JS)
    value = drag_smoothing(lab.page, root)
    lab.changed(chart, before)
    band = root.locator(".tbnb-cs-chart[data-kind='margin']")
    expect(band.first).to_have_attribute("data-series-count", "1")
    band.first.locator(".tbnb-logy").check()
    state = lab.readback()
    assert state["cs_smoothing"] == pytest.approx(value, abs=1e-9)
    assert len(state["cs_log_y"]) == 1
    root.screenshot(path=lab.out / "pr_lab_06_custom_scalars_smoothed.png")


def test_dashboard_has_both_tabs(lab: Lab) -> None:
    from playwright.sync_api import expect

    dash = lab.cell("magic").locator(".tbnb-dashboard")
    expect(dash).to_be_visible()
    titles = dash.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents()
    assert {"Scalars", "Custom scalars", "PR curves"} <= set(titles)
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="PR curves").click()
    expect(dash.locator(".tbnb-w-pr_curves .tbnb-pr-chart").first).to_be_visible()
    dash.screenshot(path=lab.out / "pr_lab_07_dashboard_pr.png")
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Custom scalars").click()
    expect(dash.locator(".tbnb-w-custom_scalars .tbnb-cs-chart").first).to_be_visible()
    dash.screenshot(path=lab.out / "pr_lab_08_dashboard_custom.png")


def test_hostile_names_show_as_text(lab: Lab) -> None:
    page = lab.page
    pr, cs = lab.pr(), lab.cs()
    assert HOSTILE_RUN in pr.locator(".tbnb-run-name").all_text_contents()
    assert HOSTILE_RUN in cs.locator(".tbnb-run-name").all_text_contents()
    assert HOSTILE_PR_TAG in pr.locator(".tbnb-pr-title").all_text_contents()
    assert SCRIPT in cs.locator(".tbnb-group > summary").all_text_contents()
    assert BOLD in cs.locator(".tbnb-chart-title").all_text_contents()
    chart = (
        pr.locator(".tbnb-pr-chart")
        .filter(has=page.locator(".tbnb-pr-title", has_text="script"))
        .first
    )
    canvas = chart.locator(".tbnb-pr-body canvas").last
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
    tip = pr.locator(":scope > .tbnb-tooltip")
    tip.wait_for(state="visible")
    assert HOSTILE_RUN in tip.locator("td.tbnb-tip-name").all_text_contents()
    page.mouse.move(1, 1)
    assert page.locator(FORBIDDEN).count() == 0
    assert page.evaluate("() => window.__pwned") is None
    lab.cs().screenshot(path=lab.out / "pr_lab_09_hostile_custom_scalars.png")


def test_no_console_errors_and_nothing_left_localhost(lab: Lab) -> None:
    log = lab.browser.log
    lab.page.screenshot(path=lab.out / "pr_lab_10_final.png", full_page=True)
    assert log.page_errors == []
    assert log.console_errors == []
    assert log.external_requests == []
    assert log.dialogs == []
