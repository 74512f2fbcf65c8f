"""Strings from logs are data, never markup: hostile run, tag, hparam and text names.

A logdir written by tensorboardX whose run names, tag names, hparam names and values,
metric names and text summaries are script payloads is shown by the scalars widget, the
hparams widget and the ``%tbnb`` dashboard in real JupyterLab, and by the dashboard's
exported page in Chromium. Nothing may run (``window.__pwned`` stays undefined, no
dialog, no page error), no element may come out of a name (no ``<img>``, ``<script>``,
``<b>`` inside the widgets), and every name must show literally: the text content of
the legend, chart titles, tooltips and table is the payload itself.
Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest

import tbnb
from tbnb.notebook.export import to_html
from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import CellDriver, open_notebook, run_all, tagged_notebook, wait_for_run_all

pytestmark = pytest.mark.browser

IMG = '<img src=x onerror="window.__pwned=1">'
SCRIPT = '"><script>window.__pwned=1</script>'
JS_URL = "javascript:window.__pwned=1"
SVG = "<svg onload=window.__pwned=1>"
RUNS = [IMG, SCRIPT, JS_URL, "baseline"]  # SCRIPT's "/" makes nested directories
TAGS = [IMG, SCRIPT, f"{JS_URL}/loss", "plain/loss"]
HPARAMS = {IMG: 0.1, "opt": SCRIPT, SVG: JS_URL, "lr": 0.01}
METRIC = "hparam/<b onmouseover=window.__pwned=1>acc</b>"
TEXTS = [IMG, SCRIPT, "<a href='javascript:window.__pwned=1'>click</a>"]
LOGDIR_NAME = "logs <img src=x onerror=window.__pwned=1>"
TIMEOUT_MS = 60_000

#: Elements a name must never turn into, inside any tbnb widget.
FORBIDDEN = (
    ".tbnb-root img, .tbnb-root script, .tbnb-root svg, .tbnb-root iframe, "
    ".tbnb-root a[href], .tbnb-root b, .tbnb-export-widget img, .tbnb-export-widget script"
)


def write_hostile_logdir(root: Path) -> Path:
    """Every payload through a real writer (tensorboardX); tags as raw summaries, since
    tensorboardX's add_scalar renames characters it calls illegal (so add_hparams is
    done as it does it, with the metric's scalar written raw)."""
    from tensorboardX import SummaryWriter
    from tensorboardX.proto.summary_pb2 import Summary
    from tensorboardX.summary import hparams as hparams_summaries

    logdir = root / LOGDIR_NAME
    for k, run in enumerate(RUNS):
        with SummaryWriter(str(logdir / run)) as writer:
            for step in range(40):
                values = [
                    Summary.Value(tag=tag, simple_value=(k + 1) / (1 + step) + j)
                    for j, tag in enumerate(TAGS)
                ]
                writer.file_writer.add_summary(Summary(value=values), step, walltime=1.7e9 + step)
            for j, text in enumerate(TEXTS):
                writer.add_text(TAGS[j % len(TAGS)], text, 0)
            metrics = {METRIC: 0.5 + k / 10}
            summaries = hparams_summaries({**HPARAMS, "lr": 0.01 * (k + 1)}, metrics)
            with SummaryWriter(str(logdir / run / "1700000000.5")) as sub:
                for summary in summaries:
                    sub.file_writer.add_summary(summary)
                metric = Summary(value=[Summary.Value(tag=METRIC, simple_value=metrics[METRIC])])
                sub.file_writer.add_summary(metric, 0)
    return logdir


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = write_hostile_logdir(tmp_path_factory.mktemp("hostile"))
    exp = tbnb.load(path, progress=False)
    assert sorted(exp.runs) == sorted(RUNS)  # the writer really produced these names
    scalar_tags = set(exp.scalars["tag"].astype(str))
    assert set(TAGS) <= scalar_tags
    assert {IMG, "opt", SVG} <= set(exp.hparams.columns)
    assert set(exp.text["text"].astype(str)) >= set(TEXTS)
    return path


def _pwned(page: Any) -> Any:
    return page.evaluate("() => window.__pwned")


def _check_literal(scope: Any, hparams: bool = True) -> None:
    """Names appear as text exactly, in the scalars widget (and the hparams one)."""
    scalars = scope.locator(".tbnb-w-scalars").first
    names = scalars.locator(".tbnb-run-name").all_text_contents()
    assert sorted(names) == sorted(RUNS)
    titles = scalars.locator(".tbnb-chart-title").all_text_contents()
    assert set(TAGS) <= set(titles)
    tags = scalars.locator(".tbnb-chart").evaluate_all("els => els.map(e => e.dataset.tag)")
    assert set(TAGS) <= set(tags)
    if not hparams:
        return
    hp = scope.locator(".tbnb-w-hparams").first
    heads = [h.rstrip(" ▲▼") for h in hp.locator(".tbnb-table th").all_text_contents()]
    assert {IMG, "opt", SVG, f"{METRIC}.last"} <= set(heads)
    cells = set(hp.locator(".tbnb-table td").all_text_contents())
    assert {SCRIPT, JS_URL} <= cells  # hparam values
    assert {IMG, SCRIPT, JS_URL} <= cells  # run names
    titles = hp.locator(".tbnb-axis-head").evaluate_all("els => els.map(e => e.title)")
    assert f"{IMG} (drag to reorder)" in titles
    options = hp.locator("select.tbnb-hp-color option").all_text_contents()
    assert {IMG, SVG} <= set(options)


def _hover_charts(page: Any, scope: Any) -> None:
    """Hover every visible chart: the tooltip shows the run names as text."""
    root = scope.locator(".tbnb-w-scalars").first
    charts = root.locator(".tbnb-chart")
    seen: set[str] = set()
    for i in range(charts.count()):
        canvas = charts.nth(i).locator("canvas").last
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.5)
        tip = root.locator(":scope > .tbnb-tooltip")
        tip.wait_for(state="visible")
        seen.update(cell.text_content() or "" for cell in tip.locator("td.tbnb-tip-name").all())
    assert seen >= set(RUNS)
    page.mouse.move(1, 1)


# --------------------------------------------------------------------------- JupyterLab

CELLS = ["setup", "scalars", "hparams", "magic", "done"]


@dataclass
class Lab(CellDriver):
    page: Any
    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(
            CELLS.index(tag) + 1
        )


@pytest.fixture(scope="module")
def lab(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("hostile_lab")
    nb = tagged_notebook(
        "hostile names",
        {
            "setup": f"import tbnb\nexp = tbnb.load({json.dumps(str(logdir))}, progress=False)",
            "scalars": "tbnb.scalars(exp)",
            "hparams": "tbnb.hparams(exp)",
            "magic": f"%load_ext tbnb\n%tbnb {json.dumps(str(logdir))}",
            "done": 'print("ALL_DONE")',
        },
    )
    nbformat.write(nb, root / "hostile.ipynb")  # type: ignore[no-untyped-call]
    server = LabServer(root)
    server.start()
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, server.url("/lab/tree/hostile.ipynb"), "hostile.ipynb")
        run_all(page)
        session = Lab(page)
        wait_for_run_all(page, session.cell("done"), out_dir / "hostile_lab_failed.png", server)
        yield session
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_lab_shows_hostile_names_as_text(lab: Lab, chromium: Chromium, out_dir: Path) -> None:
    from playwright.sync_api import expect

    page = lab.page
    stderr = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert stderr.count() == 0, stderr.all_text_contents()
    expect(lab.cell("scalars").locator(".tbnb-w-scalars .tbnb-chart").first).to_be_visible()
    expect(lab.cell("hparams").locator(".tbnb-w-hparams .tbnb-axis").first).to_be_visible()
    _check_literal(lab.cell("scalars"), hparams=False)
    hp_cell = lab.cell("hparams")
    heads = [h.rstrip(" ▲▼") for h in hp_cell.locator(".tbnb-table th").all_text_contents()]
    assert {IMG, "opt", SVG, f"{METRIC}.last"} <= set(heads)
    _hover_charts(page, lab.cell("scalars"))
    lab.cell("scalars").screenshot(path=out_dir / "hostile_lab_scalars.png")
    hp_cell.screenshot(path=out_dir / "hostile_lab_hparams.png")
    dash = lab.cell("magic").locator(".tbnb-dashboard")
    expect(dash).to_be_visible()
    assert LOGDIR_NAME in (dash.locator(".tbnb-dashboard-header").text_content() or "")
    _check_literal(dash, hparams=False)
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="HParams").click()
    expect(dash.locator(".tbnb-w-hparams .tbnb-axis").first).to_be_visible()
    _check_literal(dash)
    dash.screenshot(path=out_dir / "hostile_lab_dashboard.png")
    assert page.locator(FORBIDDEN).count() == 0
    assert _pwned(page) is None
    assert chromium.log.dialogs == []
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    assert chromium.log.external_requests == []


# --------------------------------------------------------------------------- exported page


def test_exported_dashboard_shows_hostile_names_as_text(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path: Path
) -> None:
    dash = tbnb.Dashboard(logdir)
    path = to_html(dash, tmp_path / "hostile.html", title=SCRIPT)
    chromium.log.clear()
    page = chromium.page()
    page.goto(path.as_uri())
    page.wait_for_selector(
        "#tbnb-export-root[data-rendered='true']", state="attached", timeout=30_000
    )
    assert page.title() == SCRIPT
    header = page.locator(".tbnb-dashboard-header")
    assert LOGDIR_NAME in (header.text_content() or "")
    assert header.locator("code").count() == 1  # the allow-listed markup of the header stays
    _check_literal(page, hparams=False)
    _hover_charts(page, page)
    page.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="HParams").click()
    page.wait_for_selector(".tbnb-w-hparams .tbnb-axis")
    _check_literal(page)
    page.screenshot(path=out_dir / "hostile_export_dashboard.png", full_page=True)
    assert page.locator(FORBIDDEN).count() == 0
    assert _pwned(page) is None
    assert chromium.log.dialogs == []
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    assert chromium.log.external_requests == []
    dash.close()
