"""Chart images (PNG and SVG) from the save-image button, in real JupyterLab + Chromium.

One JupyterLab server and one notebook for the module: a scalars widget and a histograms
widget on a tensorboardX logdir whose scalar tag, histogram tag and one run are markup.
Each test clicks (or keys) a chart's save button, captures the download and checks the
file as a user's viewer would read it: the PNG decodes at twice the chart's size, the SVG
parses and carries the tag, tick labels and legend as text. The SVGs are rendered in
Chromium and screenshotted to tests/ui/out/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._saved_images import check_png, check_svg, render_svg, save
from tests.ui._session import CellDriver, open_notebook, run_all, tagged_notebook, wait_for_run_all
from tests.writers_export import HOSTILE_SCALAR, RUNS, write_chart_runs
from tests.writers_histograms import HOSTILE_RUN, HOSTILE_TAG

pytestmark = pytest.mark.browser

NB = "tbnb_save_image.ipynb"
NUMBER = re.compile("^[\u2212-]?\\d[\\d.,]*(e[\u2212+-]?\\d+)?[kMG\u00b5mn%]?$")
SIZE_JS = "el => [el.clientWidth, el.clientHeight]"


@dataclass
class Session(CellDriver):
    page: Any
    browser: Chromium
    out: Path
    timeout_ms: int = 60_000

    def cell(self, tag: str) -> Any:
        order = ["setup", "scalars", "hist", "done"]
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(
            order.index(tag) + 1
        )


@pytest.fixture(scope="module")
def session(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Session]:
    root = tmp_path_factory.mktemp("save_image")
    logdir = write_chart_runs(root / "logs")
    nb = tagged_notebook(
        "tbnb chart images",
        {
            "setup": f"import tbnb\nexp = tbnb.load({json.dumps(str(logdir))})",
            "scalars": "w = tbnb.scalars(exp, smoothing=0.6)\nw",
            "hist": "h = tbnb.histograms(exp)\nh",
            "done": 'print("ALL_DONE")',
        },
    )
    import nbformat

    nbformat.write(nb, root / NB)  # type: ignore[no-untyped-call]
    lab = LabServer(root)
    lab.start()
    page = chromium.page()
    page.set_default_timeout(60_000)
    try:
        open_notebook(page, lab.url(f"/lab/tree/{NB}"), NB)
        chromium.log.clear()
        run_all(page)
        session = Session(page, chromium, out_dir)
        wait_for_run_all(page, session.cell("done"), out_dir / "save_00_failed.png", lab)
        yield session
    finally:
        report = lab.stop()
        assert report["clean"], report


def _scalar_chart(session: Session, tag: str) -> Any:
    chart = (
        session.cell("scalars")
        .locator(".tbnb-chart")
        .filter(has=session.page.locator(f"[title={json.dumps(tag)}]"))
    )
    chart.locator("canvas").first.wait_for()
    session.page.wait_for_function(
        "([el, n]) => el.getAttribute('data-series-count') === n",
        arg=[chart.element_handle(), str(len(RUNS))],
    )
    return chart


def _clean(session: Session) -> None:
    log = session.browser.log
    assert session.page.evaluate("() => window.__pwned") is None
    assert log.page_errors == [], log.page_errors
    assert log.console_errors == [], log.console_errors
    assert log.external_requests == [], log.external_requests
    assert log.dialogs == []


def test_scalars_chart_saves_png_and_svg(session: Session) -> None:
    chart = _scalar_chart(session, "train/loss")
    width, height = chart.locator("canvas").first.evaluate(SIZE_JS)
    png = save(session.page, chart, "png")
    assert png.name == "train_loss.png"
    check_png(png, width, height).save(session.out / "save_01_scalars.png")
    svg = save(session.page, chart, "svg")
    assert svg.name == "train_loss.svg"
    texts = check_svg(svg)
    assert texts[0] == "train/loss"
    assert "step" in texts  # the x axis label
    ticks = [t for t in texts if NUMBER.match(t)]
    assert len(ticks) >= 6, texts  # x and y tick labels
    assert set(RUNS) <= set(texts)  # the legend, names as text
    assert b"stroke-dasharray" not in svg.data or b"path" in svg.data
    assert svg.data.count(b"<path") >= 2 * len(RUNS)  # raw and smoothed lines
    render_svg(session.browser, svg, session.out / "save_02_scalars_svg.png")
    _clean(session)


def test_markup_tag_and_run_stay_text_in_the_svg(session: Session) -> None:
    chart = _scalar_chart(session, HOSTILE_SCALAR)
    svg = save(session.page, chart, "svg", keyboard=True)  # reachable from the keyboard
    assert re.fullmatch(r"[\w.-]+\.svg", svg.name), svg.name
    texts = check_svg(svg)
    assert texts[0] == HOSTILE_SCALAR
    assert HOSTILE_RUN in texts
    assert b"<script" not in svg.data
    assert b"<img" not in svg.data
    render_svg(session.browser, svg, session.out / "save_03_hostile_svg.png")
    _clean(session)


def test_histogram_chart_saves_png_and_svg(session: Session) -> None:
    cell = session.cell("hist")
    chart = cell.locator('.tbnb-chart[data-tag="layer1/weight"][data-run="lr=0.1"]')
    chart.scroll_into_view_if_needed()
    session.page.wait_for_function(
        "el => el.getAttribute('data-state') === 'exact'", arg=chart.element_handle()
    )
    width, height = chart.locator("canvas").first.evaluate(SIZE_JS)
    png = save(session.page, chart, "png")
    assert png.name == "layer1_weight_lr_0.1.png"
    check_png(png, width, height).save(session.out / "save_04_histogram.png")
    svg = save(session.page, chart, "svg")
    texts = check_svg(svg)
    assert texts[:2] == ["layer1/weight", "lr=0.1"]
    assert len([t for t in texts if NUMBER.match(t)]) >= 4, texts
    render_svg(session.browser, svg, session.out / "save_05_histogram_svg.png")
    hostile = (
        cell.locator(".tbnb-chart")
        .filter(has=session.page.locator(f"[title={json.dumps(HOSTILE_TAG)}]"))
        .first
    )
    hostile.scroll_into_view_if_needed()
    session.page.wait_for_function(
        "el => el.getAttribute('data-state') === 'exact'", arg=hostile.element_handle()
    )
    texts = check_svg(save(session.page, hostile, "svg"))
    assert texts[0] == HOSTILE_TAG
    _clean(session)
