"""tbnb in real JupyterLab + headless Chromium: render, interact, read state back in Python.

One JupyterLab server and one notebook for the module (the tests run in order
and share the page). The logdir is written by tensorboardX; the page may not
reach any host but 127.0.0.1. Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tbnb.notebook.samples import SampleSpec, write_sample
from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import (
    STDOUT,
    CellDriver,
    drag_smoothing,
    open_notebook,
    run_all,
    wait_for_run_all,
)
from tests.ui._testnb import CELL, build

pytestmark = pytest.mark.browser

SPEC = SampleSpec(
    learning_rates=(1e-3, 1e-2),
    seeds=(0, 1, 2),
    steps=300,
    val_every=50,
    hist_every=100,
    image_steps=(0,),
)
RUNS = SPEC.run_names()
NB = "tbnb_ui.ipynb"
TIMEOUT_MS = 60_000
WIDGET_BUDGET = 500 * 1024  # a displayed tbnb widget, beyond its data
TEN_WIDGETS_BUDGET = 5 * 1024 * 1024


# Everything a chart drew: canvas pixels and SVG paths (uPlot draws to canvas).
SIGNATURE_JS = """el => [...el.querySelectorAll('canvas')].map(c => c.toDataURL()).join('|') +
  [...el.querySelectorAll('svg path')].map(p => p.getAttribute('d')).join('|')"""


@dataclass
class Session(CellDriver):
    page: Any
    lab: LabServer
    browser: Chromium
    root: Path
    out: Path
    expect_runs_per_tag: dict[str, int]
    all_runs: list[str]
    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(CELL[tag])

    def chart(self, tag: str, scope: str = "scalars") -> Any:
        return self.cell(scope).locator(f'.tbnb-chart[data-tag="{tag}"]')

    def shot(self, locator: Any, name: str) -> None:
        locator.screenshot(path=self.out / f"lab_{name}.png")


@pytest.fixture(scope="module")
def session(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Session]:

    root = tmp_path_factory.mktemp("lab")
    logdir = root / "logs dir"  # a space: the magic must take a quoted path
    write_sample(logdir, SPEC)
    nbformat.write(build(logdir), root / NB)  # type: ignore[no-untyped-call]
    lab = LabServer(root)
    lab.start()
    page = chromium.page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, lab.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        cells = page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell")
        wait_for_run_all(page, cells.nth(CELL["done"]), out_dir / "lab_00_run_all_failed.png", lab)
        setup_out = cells.nth(CELL["setup"]).locator(STDOUT).text_content()
        expected = json.loads((setup_out or "").split("EXPECT ", 1)[1].strip())
        page.screenshot(path=out_dir / "lab_00_after_run_all.png", full_page=True)
        yield Session(
            page, lab, chromium, root, out_dir, expected["runs_per_tag"], expected["runs"]
        )
    finally:
        report = lab.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_run_all_draws_one_series_per_run(session: Session) -> None:
    from playwright.sync_api import expect

    stderr = session.page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    )
    assert stderr.count() == 0, stderr.all_text_contents()
    root = session.cell("scalars").locator(".tbnb-w-scalars")
    expect(root).to_be_visible()
    charts = root.locator(".tbnb-chart")
    tags = sorted(charts.evaluate_all("els => els.map(e => e.dataset.tag)"))
    assert tags == sorted(session.expect_runs_per_tag)
    for tag in ("train/loss", "train/acc", "val/loss", "val/acc", "lr"):
        assert session.expect_runs_per_tag[tag] == len(RUNS)
    for tag, n in session.expect_runs_per_tag.items():
        expect(session.chart(tag)).to_have_attribute("data-series-count", str(n))
    groups = root.locator(".tbnb-group").evaluate_all("els => els.map(e => e.dataset.group)")
    assert {"train", "val"} <= set(groups)
    session.shot(root, "01_scalars")


def test_smoothing_drag_changes_curve_and_python_follows(session: Session) -> None:

    root = session.cell("scalars").locator(".tbnb-w-scalars")
    chart = session.chart("train/loss")
    assert float(root.locator("input.tbnb-smoothing").input_value()) == pytest.approx(0.6)
    before = chart.evaluate(SIGNATURE_JS)
    value = drag_smoothing(session.page, root)
    assert 0.8 < value < 0.99
    session.page.wait_for_function(
        "([el, sig]) => (" + SIGNATURE_JS + ")(el) !== sig", arg=[chart.element_handle(), before]
    )
    state = session.readback()
    assert state["smoothing"] == pytest.approx(value, abs=1e-9)
    session.shot(chart, "02_smoothing_dragged")


def test_log_scale_switches(session: Session) -> None:
    chart = session.chart("train/loss")
    before = chart.evaluate(SIGNATURE_JS)
    chart.locator(".tbnb-logy").check()
    session.page.wait_for_function(
        "([el, sig]) => (" + SIGNATURE_JS + ")(el) !== sig", arg=[chart.element_handle(), before]
    )
    assert "train/loss" in session.readback()["log_y"]
    session.shot(chart, "03_log_scale")
    chart.locator(".tbnb-logy").uncheck()


def test_run_regex_filters_runs(session: Session) -> None:
    from playwright.sync_api import expect

    root = session.cell("scalars").locator(".tbnb-w-scalars")
    box = root.locator("input.tbnb-run-filter")
    box.fill("SEED=0$")  # case-insensitive, searched
    matching = [r for r in session.all_runs if r.endswith("seed=0")]
    assert len(matching) == len(SPEC.learning_rates)
    expect(session.chart("train/loss")).to_have_attribute("data-series-count", str(len(matching)))
    state = session.readback()
    assert state["run_filter"] == "SEED=0$"
    assert sorted(state["selected_runs"]) == sorted(matching)
    session.shot(root, "04_run_regex")
    box.fill("seed=(")
    expect(box).to_have_class(re.compile(r"\btbnb-invalid\b"))
    box.fill("")
    expect(box).not_to_have_class(re.compile(r"\btbnb-invalid\b"))
    expect(session.chart("train/loss")).to_have_attribute("data-series-count", str(len(RUNS)))


def test_run_toggles_read_back_in_python(session: Session) -> None:
    from playwright.sync_api import expect

    root = session.cell("scalars").locator(".tbnb-w-scalars")
    off = ["lr=0.01,seed=2", "lr=0.001,seed=1"]
    for run in off:
        root.locator(f'.tbnb-run-toggle[data-run="{run}"]').uncheck()
    expect(session.chart("train/loss")).to_have_attribute(
        "data-series-count", str(len(RUNS) - len(off))
    )
    state = session.readback()
    assert sorted(state["selected_runs"]) == sorted(set(session.all_runs) - set(off))
    session.shot(root, "05_runs_toggled")
    root.locator(f'.tbnb-run-toggle[data-run="{off[0]}"]').check()
    assert off[0] in session.readback()["selected_runs"]


def test_tooltip_shows_times_beside_the_hovered_points(session: Session) -> None:
    root = session.cell("scalars").locator(".tbnb-w-scalars")
    chart = session.chart("train/loss")
    chart.scroll_into_view_if_needed()
    box = chart.locator("canvas").last.bounding_box()
    shown = root.locator(".tbnb-run-toggle:checked").evaluate_all(
        "els => els.map(e => e.dataset.run)"
    )
    assert len(shown) >= 4
    for frac in (0.1, 0.6, 0.95):
        session.page.mouse.move(box["x"] + box["width"] * frac, box["y"] + box["height"] / 2)
        tip = root.locator(":scope > .tbnb-tooltip")
        tip.wait_for(state="visible")
        heads = tip.locator("th").all_text_contents()
        assert heads[1:] == ["run", "smoothed", "value", "step", "wall time", "relative"]
        names = [row.locator("td").nth(1).text_content() for row in tip.locator("tbody tr").all()]
        assert sorted(names) == sorted(shown)
        clipped = tip.locator("td, th").evaluate_all(
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).length"
        )
        assert clipped == 0
        rbox, tbox = root.bounding_box(), tip.bounding_box()
        points = json.loads(tip.get_attribute("data-points") or "[]")
        assert len(points) == len(shown)
        for px, py in points:
            x, y = rbox["x"] + px, rbox["y"] + py
            assert not (
                tbox["x"] - 3 < x < tbox["x"] + tbox["width"] + 3
                and tbox["y"] - 3 < y < tbox["y"] + tbox["height"] + 3
            ), (frac, x, y)
        if frac == 0.6:
            session.page.screenshot(path=session.out / "lab_05b_tooltip.png")
    session.page.mouse.move(1, 1)


def test_magic_shows_dashboard(session: Session) -> None:
    from playwright.sync_api import expect

    cell = session.cell("magic")
    dash = cell.locator(".tbnb-dashboard")
    expect(dash).to_be_visible()
    titles = dash.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents()
    assert titles[:3] == ["Scalars", "Custom scalars", "HParams"]  # add_custom_scalars layout
    expect(dash.locator(".tbnb-dashboard-header")).to_contain_text("logs dir")
    charts = dash.locator(".tbnb-w-scalars .tbnb-chart")
    expect(charts).to_have_count(len(session.expect_runs_per_tag))
    expect(dash.locator('.tbnb-chart[data-tag="train/loss"]')).to_have_attribute(
        "data-series-count", str(len(RUNS))
    )
    session.shot(dash, "06_magic_dashboard")
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="HParams").click()
    hp = dash.locator(".tbnb-w-hparams")
    expect(hp).to_be_visible()
    expect(hp.locator("canvas.tbnb-hp-canvas").first).to_be_visible()
    session.shot(dash, "07_magic_hparams_tab")
    dash.get_by_role("tab", name="Scalars", exact=True).click()  # not "Custom scalars"


def test_saved_notebook_size_budget(session: Session) -> None:
    from playwright.sync_api import expect

    many = session.cell("many").locator(".tbnb-w-scalars")
    expect(many).to_have_count(10)
    session.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    session.page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.context.model.dirty"
    )
    path = session.root / NB
    raw = path.read_text(encoding="utf-8")
    nb = json.loads(raw)
    state = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    tbnb_models = {
        model_id: entry
        for model_id, entry in state.items()
        if entry.get("model_module") == "anywidget" and "_data" in entry.get("state", {})
    }
    assert len(tbnb_models) >= 12  # w, the dashboard's scalars, the 10 in "many"
    data_bytes = 0
    overheads = []
    for model_id, entry in tbnb_models.items():
        assert entry["state"].get("_esm"), "the saved notebook must carry the front end"
        buffers = entry.get("buffers", [])
        assert buffers, "series are saved as binary buffers"
        data_bytes += sum(len(b["data"]) for b in buffers)
        overhead = len(json.dumps({k: v for k, v in entry.items() if k != "buffers"}))
        overheads.append(overhead)
        assert overhead <= WIDGET_BUDGET, (model_id, overhead)
    all_buffers = sum(len(b["data"]) for entry in state.values() for b in entry.get("buffers", []))
    beyond_data = len(raw.encode()) - all_buffers
    sizes = {
        "notebook": len(raw.encode()),
        "buffers": all_buffers,
        "beyond_data": beyond_data,
        "tbnb_widgets": len(tbnb_models),
        "tbnb_data": data_bytes,
        "max_widget_beyond_data": max(overheads),
    }
    (session.out / "lab_saved_sizes.json").write_text(json.dumps(sizes, indent=1))
    assert beyond_data <= TEN_WIDGETS_BUDGET, sizes


def test_no_console_errors_and_nothing_left_localhost(session: Session) -> None:
    log = session.browser.log
    session.page.screenshot(path=session.out / "lab_08_final.png", full_page=True)
    assert log.page_errors == []
    assert log.console_errors == []
    assert log.external_requests == []
    assert log.dialogs == []
