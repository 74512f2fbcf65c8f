"""The hparams widget in headless Chromium.

Two levels:

- the widget's self-contained export page (``tbnb.notebook.export.render_html``: the real
  bundle and the real saved state, no kernel) with 1,000 runs x 20 axes: brushing
  with the mouse selects exactly the rows Python selects for the same brushes,
  scales / invert / reorder / sort / hover / CSV work with no kernel;
- real JupyterLab on a logdir written by tensorboardX: brush an axis, read
  ``selected`` back in Python, and see the linked scalars chart drop the other runs.

Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import numpy as np
import pandas as pd
import pytest

from tbnb.notebook.export import render_html
from tbnb.notebook.samples import SampleSpec, write_sample
from tbnb.widgets.hparams import HParamsWidget, hparams
from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import (
    CellDriver,
    open_notebook,
    run_all,
    tagged_notebook,
    wait_for_run_all,
)

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
CANVAS_JS = "el => el.querySelector('canvas.tbnb-hp-canvas').toDataURL()"


# --------------------------------------------------------------------------- export page


def _sweep(n: int = 1000) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    cols: dict[str, Any] = {}
    for k in range(14):
        cols[f"h{k}"] = rng.uniform(0, 1, n) * 10.0 ** rng.integers(-3, 2)
    cols["lr"] = 10 ** rng.uniform(-5, -1, n)
    cols["opt"] = rng.choice(["adam", "sgd", "rmsprop"], n)
    cols["act"] = rng.choice(["relu", "gelu"], n)
    cols["lr"][:7] = np.nan  # missing values
    for k in range(3):
        cols[f"m{k}.last"] = rng.normal(size=n) - np.log10(cols["lr"]) * (k == 0)
    df = pd.DataFrame(cols, index=pd.Index([f"run{i}" for i in range(n)], name="run"))
    df["opt"] = df["opt"].astype("string")
    df.attrs["metric_columns"] = [f"m{k}.last" for k in range(3)]
    return df


@dataclass
class Page:
    page: Any
    widget: HParamsWidget
    frame: pd.DataFrame
    browser: Chromium
    out: Path

    @property
    def root(self) -> Any:
        return self.page.locator(".tbnb-w-hparams")

    def axis(self, column: str) -> Any:
        return self.page.locator(f'.tbnb-axis[data-column="{column}"]')

    def drag_track(self, column: str, frac0: float, frac1: float) -> None:
        box = self.axis(column).locator(".tbnb-axis-track").bounding_box()
        x = box["x"] + box["width"] / 2
        self.page.mouse.move(x, box["y"] + box["height"] * frac0)
        self.page.mouse.down()
        self.page.mouse.move(x, box["y"] + box["height"] * frac1, steps=8)
        self.page.mouse.up()

    def brushes(self) -> dict[str, Any]:
        out = {}
        for node in self.page.locator(".tbnb-axis[data-brush]").all():
            out[node.get_attribute("data-column")] = json.loads(node.get_attribute("data-brush"))
        return out

    def selected_count(self) -> int:
        return int(self.root.get_attribute("data-selected"))

    def csv(self, tmp: Path) -> pd.DataFrame:
        with self.page.expect_download() as info:
            self.root.locator(".tbnb-hp-csv").click()
        path = tmp / "download.csv"
        info.value.save_as(path)
        return pd.read_csv(path, keep_default_na=False, na_values=[""])

    def shot(self, name: str) -> None:
        self.root.screenshot(path=self.out / f"hparams_{name}.png")


@pytest.fixture(scope="module")
def export_page(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Page]:
    frame = _sweep()
    widget = hparams(frame, metric="m0.last")
    path = tmp_path_factory.mktemp("hp_page") / "hparams.html"
    path.write_text(render_html(widget), encoding="utf-8")
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(path.as_uri())
    page.wait_for_selector(".tbnb-w-hparams .tbnb-axis")
    yield Page(page, widget, frame, chromium, out_dir)
    page.close()


def _python_rows(p: Page, brushes: dict[str, Any]) -> list[str]:
    p.widget.brushes = brushes
    return list(p.widget.selected.index)


def test_renders_every_axis_and_line(export_page: Page) -> None:
    p = export_page
    columns = p.page.locator(".tbnb-axis").evaluate_all("els => els.map(e => e.dataset.column)")
    assert columns == p.widget.order
    assert len(columns) == 20
    assert p.selected_count() == 1000
    assert p.root.locator(".tbnb-row").count() == 25
    assert p.root.locator(".tbnb-hp-imp-row").count() == 20  # 15 numbers, 3 + 2 one-hot
    assert p.root.locator(".tbnb-hp-cell").count() == 16  # one scatter per hparam axis
    # something was drawn: the canvas differs from a blank one of the same size
    blank = p.page.evaluate("""() => { const c = document.querySelector('canvas.tbnb-hp-canvas');
        const b = document.createElement('canvas'); b.width = c.width; b.height = c.height;
        return b.toDataURL(); }""")
    assert p.root.evaluate(CANVAS_JS) != blank
    p.shot("01_rendered")
    log = p.browser.log
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors
    assert not log.external_requests, log.external_requests


def test_mouse_brushes_select_what_python_selects(export_page: Page, tmp_path: Path) -> None:
    p = export_page
    before = p.root.evaluate(CANVAS_JS)
    p.drag_track("lr", 0.15, 0.55)
    brushes = p.brushes()
    assert set(brushes) == {"lr"}
    lo, hi = brushes["lr"]["range"]
    assert 0 < lo < hi
    assert p.root.evaluate(CANVAS_JS) != before
    # categorical: drag over the middle third of "opt" picks one category
    p.drag_track("opt", 0.45, 0.55)
    brushes = p.brushes()
    assert brushes["opt"]["values"] in (["adam"], ["sgd"], ["rmsprop"])
    expected = _python_rows(p, brushes)
    assert 0 < len(expected) < 1000
    assert p.selected_count() == len(expected)
    table = p.csv(tmp_path)  # the CSV holds the shown (selected) rows, all pages
    assert table["run"].tolist() == expected
    assert table.columns.tolist() == ["run", *p.frame.columns]
    np.testing.assert_allclose(table["m1.last"], p.frame.loc[expected, "m1.last"])
    assert not any(run in expected for run in p.frame.index[:7])  # missing lr never passes
    p.shot("02_brushed")


def test_click_toggles_a_category(export_page: Page) -> None:
    p = export_page
    chosen = p.brushes()["opt"]["values"]
    box = p.axis("act").locator(".tbnb-axis-track").bounding_box()
    p.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.75)
    brushes = p.brushes()
    assert brushes["opt"]["values"] == chosen
    assert len(brushes["act"]["values"]) == 1
    assert p.selected_count() == len(_python_rows(p, brushes))
    p.page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.75)
    assert "act" not in p.brushes()


def test_scales_and_invert_keep_the_selection(export_page: Page) -> None:
    p = export_page
    count = p.selected_count()
    brush = p.axis("lr").get_attribute("data-brush")
    scale = p.axis("lr").locator(".tbnb-axis-scale")
    # lr spans 1e-5..1e-1: a log axis by default (decided in Python, in w.scales)
    assert p.widget.scales["lr"] == "log"
    assert scale.get_attribute("data-scale") == "log"
    p.shot("03_log_scale")
    for expected in ("quantile", "linear", "log"):
        before = p.root.evaluate(CANVAS_JS)
        scale.click()
        assert p.axis("lr").locator(".tbnb-axis-scale").get_attribute("data-scale") == expected
        assert p.root.evaluate(CANVAS_JS) != before
        assert p.axis("lr").get_attribute("data-brush") == brush
        assert p.selected_count() == count
    p.axis("m0.last").locator(".tbnb-axis-invert").click()
    assert p.axis("m0.last").get_attribute("data-inverted") == "true"
    assert p.selected_count() == count
    # a brush drawn on the log axis is still a value range Python agrees with
    p.drag_track("lr", 0.05, 0.5)
    brushes = p.brushes()
    assert p.selected_count() == len(_python_rows(p, brushes))


def test_reorder_by_dragging_a_header(export_page: Page) -> None:
    p = export_page
    head = p.axis("act").locator(".tbnb-axis-head")
    box = head.bounding_box()
    first = p.axis("h0").bounding_box()
    p.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    p.page.mouse.down()
    p.page.mouse.move(first["x"] - 30, box["y"] + box["height"] / 2, steps=12)
    p.page.mouse.up()
    columns = p.page.locator(".tbnb-axis").evaluate_all("els => els.map(e => e.dataset.column)")
    assert columns[0] == "act"
    xs = p.page.locator(".tbnb-axis").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().x)"
    )
    assert xs == sorted(xs)


def test_table_sort_page_hover_and_filter(export_page: Page) -> None:
    p = export_page
    p.root.locator(".tbnb-hp-reset").click()
    assert p.selected_count() == 1000
    header = p.root.locator('.tbnb-table th[data-column="m2.last"]')
    header.click()
    runs = p.root.locator(".tbnb-row").evaluate_all("els => els.map(e => e.dataset.run)")
    assert runs == list(p.frame["m2.last"].sort_values(kind="stable").index[:25])
    header = p.root.locator('.tbnb-table th[data-column="m2.last"]')
    header.click()  # descending
    runs = p.root.locator(".tbnb-row").evaluate_all("els => els.map(e => e.dataset.run)")
    assert runs[0] == p.frame["m2.last"].idxmax()
    p.root.locator(".tbnb-next").click()
    assert "26\u201350 of 1000" in (p.root.locator(".tbnb-page").text_content() or "")
    row = p.root.locator(".tbnb-row").nth(3)
    run = row.get_attribute("data-run")
    before = p.root.evaluate(CANVAS_JS)
    row.hover()
    assert p.root.get_attribute("data-hover") == run
    assert p.root.evaluate(CANVAS_JS) != before  # the line is highlighted
    # hovering a line highlights its table row
    canvas = p.root.locator("canvas.tbnb-hp-canvas")
    cbox = canvas.bounding_box()
    p.page.mouse.move(cbox["x"] + cbox["width"] * 0.5, cbox["y"] + cbox["height"] * 0.5)
    hovered = p.root.get_attribute("data-hover")
    assert hovered
    highlighted = p.root.locator(".tbnb-row.tbnb-hover")
    if highlighted.count():  # the hovered run may be on another page
        assert highlighted.get_attribute("data-run") == hovered
    p.root.locator(".tbnb-hp-filter").fill("run99")
    runs = p.root.locator(".tbnb-row").evaluate_all("els => els.map(e => e.dataset.run)")
    assert sorted(runs) == sorted(r for r in p.frame.index if "run99" in r)
    p.root.locator(".tbnb-hp-filter").fill("")
    p.shot("04_table")


# --------------------------------------------------------------------------- JupyterLab

SPEC = SampleSpec(
    learning_rates=(1e-3, 1e-2),
    seeds=(0, 1, 2),
    steps=120,
    val_every=40,
    hist_every=60,
    image_steps=(0,),
)
NB = "tbnb_hparams_ui.ipynb"
CELLS = ["setup", "widgets", "readback", "slow", "release", "done"]


def _notebook(logdir: Path) -> Any:
    sources = {
        "setup": f"""\
import json
import tbnb
exp = tbnb.load({json.dumps(str(logdir))}, progress=False)""",
        "widgets": """\
from IPython.display import display
hp = tbnb.hparams(exp)
sc = tbnb.scalars(exp, tags="^train/loss$")
changes = []
hp.on_select(lambda df: changes.append(len(df)))
tbnb.link(hp, sc)
display(hp, sc)""",
        "readback": """\
_reads = globals().get("_reads", 0) + 1
print(f"STATE {_reads} " + json.dumps({"brushes": hp.brushes,
      "selected": list(hp.selected.index), "scalars_runs": sc.selected_runs,
      "changes": changes}))""",
        # importance behind a gate the test opens (by running "release" a second time)
        "slow": """\
import threading
from tbnb.analysis import importance as _analysis
hp.wait_ready()  # the first view's importance is not the one held back
_gate, _real = threading.Event(), _analysis.parameter_importance
def _slow(*args, **kwargs):
    _gate.wait(120)
    return _real(*args, **kwargs)
_analysis.parameter_importance = _slow
slow_hp = tbnb.hparams(exp)
display(slow_hp)""",
        "release": """\
_releases = globals().get("_releases", 0) + 1
if _releases > 1:
    _gate.set()
print(f"RELEASE {_releases}")""",
        "done": 'print("ALL_DONE")',
    }
    return tagged_notebook("tbnb hparams browser test", {tag: sources[tag] for tag in CELLS})


@dataclass
class Lab(CellDriver):
    page: Any
    out: Path
    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(
            CELLS.index(tag) + 1
        )


@pytest.fixture(scope="module")
def lab(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:

    root = tmp_path_factory.mktemp("hp_lab")
    write_sample(root / "logs", SPEC)
    nbformat.write(_notebook(root / "logs"), root / NB)  # type: ignore[no-untyped-call]
    server = LabServer(root)
    server.start()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, server.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        session = Lab(page, out_dir)
        wait_for_run_all(
            page, session.cell("done"), out_dir / "hparams_lab_run_all_failed.png", server
        )
        yield session
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_lab_brush_reads_back_and_filters_linked_scalars(lab: Lab, chromium: Chromium) -> None:
    from playwright.sync_api import expect

    stderr = lab.page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    )
    assert stderr.count() == 0, stderr.all_text_contents()
    widgets = lab.cell("widgets")
    root = widgets.locator(".tbnb-w-hparams")
    expect(root).to_be_visible()
    expect(root).to_have_attribute("data-selected", "6")
    chart = widgets.locator('.tbnb-w-scalars .tbnb-chart[data-tag="train/loss"]')
    expect(chart).to_have_attribute("data-series-count", "6")
    # importance came from the kernel for the default metric
    expect(root.locator(".tbnb-hp-imp-row").first).to_be_visible()

    # lr is 1e-3 or 1e-2 on a linear axis: the bottom fifth holds only 1e-3
    track = root.locator('.tbnb-axis[data-column="lr"] .tbnb-axis-track')
    track.scroll_into_view_if_needed()
    box = track.bounding_box()
    x = box["x"] + box["width"] / 2
    lab.page.mouse.move(x, box["y"] + box["height"] * 0.8)
    lab.page.mouse.down()
    lab.page.mouse.move(x, box["y"] + box["height"] * 0.99, steps=6)
    lab.page.mouse.up()
    expect(root).to_have_attribute("data-selected", "3")
    expect(chart).to_have_attribute("data-series-count", "3")
    root.screenshot(path=lab.out / "hparams_lab_brushed.png")
    chart.screenshot(path=lab.out / "hparams_lab_linked_scalars.png")

    state = lab.readback()
    wanted = [r for r in SPEC.run_names() if r.startswith("lr=0.001,")]
    assert state["selected"] == wanted
    assert set(state["brushes"]) == {"lr"}
    assert state["changes"] == [3]  # the observer fired once, with the new selection
    assert {r.split("/")[0] for r in state["scalars_runs"]} == set(wanted)
    assert all(r in state["scalars_runs"] for r in wanted)

    root.locator(".tbnb-hp-reset").click()
    expect(chart).to_have_attribute("data-series-count", "6")
    assert lab.readback()["selected"] == SPEC.run_names()
    assert not chromium.log.external_requests, chromium.log.external_requests
    assert not chromium.log.page_errors, chromium.log.page_errors


def test_lab_shows_the_table_first_and_the_importance_when_it_is_ready(lab: Lab) -> None:
    """The view is drawn while the kernel still computes the importance: the panel says
    so, then shows the bars when the kernel sets them."""
    from playwright.sync_api import expect

    root = lab.cell("slow").locator(".tbnb-w-hparams")
    expect(root).to_be_visible()
    expect(root).to_have_attribute("data-selected", "6")
    expect(root.locator(".tbnb-table tbody tr[data-run]")).to_have_count(6)
    waiting = root.locator(".tbnb-hp-importance-pending")
    expect(waiting).to_have_text("computing importance…")
    expect(waiting).to_have_attribute("data-state", "computing")
    expect(root.locator(".tbnb-hp-imp-row")).to_have_count(0)
    root.locator(".tbnb-hp-importance").screenshot(path=lab.out / "hparams_lab_importance_wait.png")

    lab.run_cell("release")
    expect(lab.cell("release")).to_contain_text("RELEASE 2")
    expect(root.locator(".tbnb-hp-imp-row").first).to_be_visible()
    expect(waiting).to_have_count(0)
    features = root.locator(".tbnb-hp-imp-row").evaluate_all(
        "rows => rows.map(r => r.getAttribute('data-feature'))"
    )
    assert "lr" in features, features
    root.locator(".tbnb-hp-importance").screenshot(path=lab.out / "hparams_lab_importance_bars.png")


def test_wide_table_scrolls_to_its_last_column_with_the_run_column_kept(
    export_page: Page,
) -> None:
    p = export_page
    wrap = p.root.locator(".tbnb-table-wrap")
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")
    last = p.root.locator(".tbnb-table th").last
    run_head = p.root.locator(".tbnb-table th").first
    wbox, lbox, rbox = wrap.bounding_box(), last.bounding_box(), run_head.bounding_box()
    assert (last.text_content() or "").startswith(p.frame.columns[-1])
    assert wbox["x"] <= lbox["x"]
    assert lbox["x"] + lbox["width"] <= wbox["x"] + wbox["width"] + 1
    assert abs(rbox["x"] - wbox["x"]) <= 1  # the run column stays in view (sticky)
    wrap.evaluate("w => { w.scrollLeft = 0; }")


# ------------------------------------------------------------------- a small sweep, as logged

EVIL_RUN = '=HYPERLINK("http://example.invalid","x")'


def _small_sweep() -> pd.DataFrame:
    runs = [EVIL_RUN, "lr=0.001,seed=1", "lr=0.01,seed=0", "lr=0.01,seed=1", "-2+3", "@SUM(A1)"]
    df = pd.DataFrame(
        {
            "lr": [1e-4, 1e-3, 1e-2, 1e-2, 1e-3, 1e-4],
            "seed": [0, 1, 0, 1, 2, 2],
            "optimizer": ["adam", "+1+1", "adam", "sgd", "adam", "sgd"],
            "batch_size": [64] * 6,
            "hparam/val_loss.last": [0.45, 0.4, 0.3, 0.25, 0.41, -0.5],
            "hparam/val_acc.last": [0.8, 0.82, 0.9, 0.92, 0.81, 0.7],
            "lr.last": [1.9e-7, 1.9e-7, 1.9e-6, 1.9e-6, 1.9e-7, 1.9e-7],
            "train/acc.last": [0.84, 0.85, 0.93, 0.92, 0.86, 0.8],
            "train/loss.last": [0.39, 0.37, 0.21, 0.2, 0.36, 0.5],
            "val/acc.last": [0.8, 0.82, 0.9, 0.92, 0.81, 0.7],
            "val/loss.last": [0.45, 0.4, 0.3, 0.25, 0.41, 0.5],
        },
        index=pd.Index(runs, name="run"),
    )
    df.attrs["hparam_columns"] = ["lr", "seed", "optimizer", "batch_size"]
    df.attrs["metric_columns"] = [c for c in df.columns if c.endswith(".last")]
    return df


@pytest.fixture(scope="module")
def small_page(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Page]:
    frame = _small_sweep()
    widget = hparams(frame, importance=False)
    path = tmp_path_factory.mktemp("hp_small") / "hparams.html"
    path.write_text(render_html(widget), encoding="utf-8")
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_viewport_size({"width": 1140, "height": 1400})  # Notebook 7's output width
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(path.as_uri())
    page.wait_for_selector(".tbnb-w-hparams .tbnb-axis")
    yield Page(page, widget, frame, chromium, out_dir)
    page.close()


def test_constant_column_has_one_tick_and_wide_columns_a_log_axis(small_page: Page) -> None:
    p = small_page
    assert p.axis("batch_size").get_attribute("data-ticks") == "64"  # was 63.6 .. 64.4
    assert p.widget.scales == {"lr": "log"}  # 1e-4 .. 1e-2, decided in Python
    assert p.axis("lr").locator(".tbnb-axis-scale").get_attribute("data-scale") == "log"
    assert p.axis("lr").get_attribute("data-ticks") == "1e-4|0.001|0.01"
    p.shot("05_small_sweep")


def test_scatter_panels_have_ticks(small_page: Page) -> None:
    p = small_page
    cells = p.root.locator(".tbnb-hp-cell")
    assert cells.count() == 4
    for i in range(cells.count()):
        cell = cells.nth(i)
        x_ticks = (cell.get_attribute("data-x-ticks") or "").split("|")
        y_ticks = (cell.get_attribute("data-y-ticks") or "").split("|")
        assert len(y_ticks) >= 3, y_ticks
        assert all(x_ticks), x_ticks
        # the labels are drawn: the left margin (no point is ever drawn there) has ink
        ink = cell.locator("canvas").evaluate("""c => { const d = c.getContext('2d')
            .getImageData(0, 0, Math.round(c.width * 32 / 200), c.height).data;
            let n = 0; for (let k = 3; k < d.length; k += 4) n += d[k] > 0; return n; }""")
        assert ink > 50, (cell.get_attribute("data-column"), ink)
    assert cells.nth(3).get_attribute("data-x-ticks") == "64"  # the constant batch size


def test_last_axis_and_table_columns_are_not_clipped(small_page: Page) -> None:
    p = small_page
    root = p.root.bounding_box()
    last = p.page.locator(".tbnb-axis").last
    assert last.get_attribute("data-column") == "val/loss.last"
    for part in (last.locator(".tbnb-axis-head"), last.locator(".tbnb-axis-tools button").last):
        box = part.bounding_box()
        assert box["x"] >= root["x"]
        assert box["x"] + box["width"] <= root["x"] + root["width"]
    wrap = p.root.locator(".tbnb-table-wrap")
    sizes = wrap.evaluate("w => [w.scrollWidth, w.clientWidth]")
    assert sizes[0] <= sizes[1], sizes  # eleven columns fit: nothing hidden on the right
    clipped = p.root.locator(".tbnb-table td, .tbnb-table th").evaluate_all(
        "els => els.filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert clipped == []
    assert p.root.locator('.tbnb-row[data-run^="=HYPERLINK"] td').first.text_content() == EVIL_RUN


def test_csv_download_neutralises_formulas(small_page: Page, tmp_path: Path) -> None:
    p = small_page
    with p.page.expect_download() as info:
        p.root.locator(".tbnb-hp-csv").click()
    path = tmp_path / "hparams.csv"
    info.value.save_as(path)
    text = path.read_text(encoding="utf-8")
    import csv

    rows = list(csv.reader(text.splitlines()))
    assert rows[0][:3] == ["run", "lr", "seed"]
    by_run = {row[0]: row for row in rows[1:]}
    assert "'" + EVIL_RUN in by_run  # a spreadsheet shows it as text, runs no formula
    assert "'-2+3" in by_run
    assert "'@SUM(A1)" in by_run
    optimizer = rows[0].index("optimizer")
    assert by_run["lr=0.001,seed=1"][optimizer] == "'+1+1"
    val_loss = rows[0].index("hparam/val_loss.last")
    assert by_run["'@SUM(A1)"][val_loss] == "-0.5"  # numbers stay numbers
    assert not any(cell.startswith(("=", "+", "@")) for row in rows for cell in row)


def test_without_scikit_learn_the_panel_shows_correlations_and_names_the_extra(
    chromium: Chromium, out_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The core install has no scikit-learn: the importance panel keeps its correlations
    and says which extra brings the random forest, in the browser."""
    monkeypatch.setattr("tbnb.analysis.importance.forest_available", lambda: False)
    widget = hparams(_sweep(), metric="m0.last")
    path = tmp_path / "hparams.html"
    path.write_text(render_html(widget), encoding="utf-8")
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(path.as_uri())
        panel = page.locator(".tbnb-w-hparams .tbnb-hp-importance")
        panel.locator("tr.tbnb-hp-imp-row").first.wait_for()
        note = panel.locator(".tbnb-hp-importance-note").inner_text()
        assert "scikit-learn" in note
        assert "pip install 'tbnb[stats]'" in note
        lr = panel.locator('tr.tbnb-hp-imp-row[data-feature="lr"] td')
        assert lr.nth(1).inner_text().strip() == "\u2013"  # no forest, no importance (a dash)
        expected = widget._importance["m0.last"]
        k = expected["feature"].index("lr")
        assert lr.nth(2).inner_text().strip() == f"{expected['pearson'][k]:.2f}"
        panel.screenshot(path=out_dir / "hparams_06_importance_without_scikit_learn.png")
    finally:
        page.close()
