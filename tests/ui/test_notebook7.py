"""tbnb in real Jupyter Notebook 7 + headless Chromium: the widgets render, and what the
user does in the page is what Python reads back.

One Notebook 7 server and one notebook for the module (the tests run in order and
share the page). The logdir is written by tensorboardX (``tbnb.notebook.samples``); the
page may not reach any host but 127.0.0.1. Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tbnb.notebook.samples import SampleSpec, write_sample
from tests.ui._chromium import Chromium
from tests.ui._lab import LAB_SETTINGS
from tests.ui._nb7 import Notebook7Server
from tests.ui._session import (
    STDOUT,
    CellDriver,
    drag_smoothing,
    open_notebook,
    run_all,
    tagged_notebook,
    wait_for_run_all,
)

pytestmark = pytest.mark.browser

SPEC = SampleSpec(
    learning_rates=(1e-3, 1e-2),
    seeds=(0, 1, 2),
    steps=120,
    val_every=40,
    hist_every=60,
    image_steps=(0,),
)
RUNS = SPEC.run_names()
NB = "tbnb_nb7.ipynb"
CELLS = ["setup", "scalars", "hparams", "readback", "magic", "done"]
TIMEOUT_MS = 60_000
CELL_SELECTOR = ".jp-NotebookPanel .jp-Notebook .jp-Cell"
STDERR = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"

# Everything a chart drew: canvas pixels and SVG paths (uPlot draws to canvas).
SIGNATURE_JS = """el => [...el.querySelectorAll('canvas')].map(c => c.toDataURL()).join('|') +
  [...el.querySelectorAll('svg path')].map(p => p.getAttribute('d')).join('|')"""

# Notebook 7.6's own start-up race, with no tbnb (nor any other extension) involved:
# @jupyterlab/shortcuts-extension handles the setting registry's pluginChanged by
# reading ``plugins["@jupyterlab/shortcuts-extension:shortcuts"].schema``, which
# Notebook 7 has not loaded when @jupyterlab/docmanager-extension reloads its
# settings as the notebook's kernel session starts. Thrown from the notebook's own
# bundle; test_notebook7_page_errors_upstream tracks it (strict xfail) so this
# allowance goes when Notebook fixes it.
UPSTREAM_ERROR = "Cannot read properties of undefined (reading 'schema')"


def _is_upstream(err: dict[str, str]) -> bool:
    frames = [line.strip() for line in err["stack"].splitlines()[1:]]
    return (
        err["message"] == UPSTREAM_ERROR
        and bool(frames)
        and "/static/notebook/notebook_core." in frames[0]
    )


def _notebook(logdir: Path) -> Any:
    sources = {
        "setup": f"""\
import json
import tbnb

LOGDIR = {json.dumps(str(logdir))}
exp = tbnb.load(LOGDIR, progress=False)
# add_hparams' sub-runs (one point per final metric) are charted as points of their run
charted = exp.runs
runs = exp.scalars["run"].astype(str).map(lambda r: exp.subruns.get(r, r))
df = exp.scalars.assign(run=runs)[runs.isin(charted)]
runs_per_tag = df.groupby("tag", observed=True)["run"].nunique().astype(int).to_dict()
print("EXPECT " + json.dumps({{"runs": charted, "runs_per_tag": runs_per_tag,
                               "hparams_runs": list(exp.hparams.index)}}))""",
        "scalars": """\
w = tbnb.scalars(exp, smoothing=0.6)
w""",
        "hparams": """\
hp = tbnb.hparams(exp)
changes = []
hp.on_select(lambda df: changes.append(len(df)))
hp""",
        "readback": """\
_reads = globals().get("_reads", 0) + 1
print(f"STATE {_reads} " + json.dumps({
    "smoothing": w.smoothing, "selected_runs": w.selected_runs, "brushes": hp.brushes,
    "selected": list(hp.selected.index), "selected_lr": hp.selected["lr"].tolist(),
    "changes": changes, "order": hp.order}))""",
        "magic": f"""\
%load_ext tbnb
%tbnb {logdir.as_posix()!r}""",
        "done": 'print("ALL_DONE")',
    }
    return tagged_notebook("tbnb Notebook 7 browser test", {tag: sources[tag] for tag in CELLS})


@dataclass
class Session(CellDriver):
    page: Any
    server: Notebook7Server
    browser: Chromium
    out: Path
    expect: dict[str, Any]
    page_errors: list[dict[str, str]] = field(default_factory=list)  # with stacks

    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        return self.page.locator(CELL_SELECTOR).nth(CELLS.index(tag) + 1)

    def scalars(self) -> Any:
        return self.cell("scalars").locator(".tbnb-w-scalars")

    def chart(self, tag: str) -> Any:
        return self.scalars().locator(f'.tbnb-chart[data-tag="{tag}"]')

    def shot(self, locator: Any, name: str) -> None:
        locator.screenshot(path=self.out / f"nb7_{name}.png")


@pytest.fixture(scope="module")
def session(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Session]:

    root = tmp_path_factory.mktemp("nb7")
    logdir = root / "logs dir"  # a space: the magic must take a quoted path
    write_sample(logdir, SPEC)
    nbformat.write(_notebook(logdir), root / NB)  # type: ignore[no-untyped-call]
    server = Notebook7Server(root)
    server.start()
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    errors: list[dict[str, str]] = []
    page.on(
        "pageerror", lambda err: errors.append({"message": err.message, "stack": err.stack or ""})
    )
    try:
        open_notebook(page, server.url(f"/notebooks/{NB}"), NB)
        assert page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
        # The isolated user settings are the ones Notebook 7 runs with.
        for rel, value in LAB_SETTINGS.items():
            plugin = rel.removesuffix(".jupyterlab-settings")
            plugin = plugin[::-1].replace("/", ":", 1)[::-1]
            raw = page.evaluate(
                "async id => (await window.jupyterapp.serviceManager.settings.fetch(id)).raw",
                plugin,
            )
            assert json.loads(raw) == value, (plugin, raw)
        run_all(page)
        cells = page.locator(CELL_SELECTOR)
        wait_for_run_all(
            page, cells.nth(CELLS.index("done") + 1), out_dir / "nb7_00_run_all_failed.png", server
        )
        setup_out = cells.nth(CELLS.index("setup") + 1).locator(STDOUT).text_content()
        expected = json.loads((setup_out or "").split("EXPECT ", 1)[1].strip())
        page.screenshot(path=out_dir / "nb7_00_after_run_all.png", full_page=True)
        yield Session(page, server, chromium, out_dir, expected, errors)
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_scalars_draw_one_series_per_run(session: Session) -> None:
    from playwright.sync_api import expect

    stderr = session.page.locator(STDERR)
    assert stderr.count() == 0, stderr.all_text_contents()
    root = session.scalars()
    expect(root).to_be_visible()
    per_tag = session.expect["runs_per_tag"]
    assert sorted(session.expect["runs"]) == sorted(RUNS)
    for tag in ("train/loss", "train/acc", "val/loss", "val/acc", "lr"):
        assert per_tag[tag] == len(RUNS)
    charts = root.locator(".tbnb-chart")
    tags = charts.evaluate_all("els => els.map(e => e.dataset.tag)")
    assert sorted(tags) == sorted(per_tag)
    for tag, n in per_tag.items():
        expect(session.chart(tag)).to_have_attribute("data-series-count", str(n))
    # something was drawn: a chart's canvas differs from a blank one of its size
    blank = session.chart("train/loss").evaluate(
        """el => { const c = el.querySelector('canvas'); const b = document.createElement('canvas');
             b.width = c.width; b.height = c.height; return b.toDataURL(); }"""
    )
    assert (
        session.chart("train/loss").evaluate("el => el.querySelector('canvas').toDataURL()")
        != blank
    )
    session.shot(root, "01_scalars")


def test_smoothing_drag_reads_back_in_python(session: Session) -> None:
    root = session.scalars()
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
    assert state["smoothing"] != pytest.approx(0.6)
    session.shot(chart, "02_smoothing_dragged")


def test_run_toggle_reads_back_in_python(session: Session) -> None:
    from playwright.sync_api import expect

    root = session.scalars()
    off = "lr=0.01,seed=1"
    toggle = root.locator(f'.tbnb-run-toggle[data-run="{off}"]')
    expect(toggle).to_be_checked()
    toggle.uncheck()
    expect(session.chart("train/loss")).to_have_attribute("data-series-count", str(len(RUNS) - 1))
    state = session.readback()
    assert sorted(state["selected_runs"]) == sorted(set(RUNS) - {off})
    session.shot(root, "03_run_toggled")
    toggle.check()
    expect(session.chart("train/loss")).to_have_attribute("data-series-count", str(len(RUNS)))
    assert sorted(session.readback()["selected_runs"]) == sorted(RUNS)


def test_hparams_brush_reads_back_in_python(session: Session) -> None:
    from playwright.sync_api import expect

    root = session.cell("hparams").locator(".tbnb-w-hparams")
    expect(root).to_be_visible()
    columns = root.locator(".tbnb-axis").evaluate_all("els => els.map(e => e.dataset.column)")
    assert sorted(session.expect["hparams_runs"]) == sorted(RUNS)
    expect(root).to_have_attribute("data-selected", str(len(RUNS)))
    state = session.readback()
    assert columns == state["order"]  # an axis per hparam and metric, as Python orders them
    assert "lr" in columns
    session.shot(root, "04_hparams")

    # lr is 1e-3 or 1e-2 on a linear axis: the bottom fifth holds only 1e-3
    track = root.locator('.tbnb-axis[data-column="lr"] .tbnb-axis-track')
    track.scroll_into_view_if_needed()
    box = track.bounding_box()
    x = box["x"] + box["width"] / 2
    session.page.mouse.move(x, box["y"] + box["height"] * 0.8)
    session.page.mouse.down()
    session.page.mouse.move(x, box["y"] + box["height"] * 0.99, steps=6)
    session.page.mouse.up()
    wanted = [r for r in RUNS if r.startswith("lr=0.001,")]
    expect(root).to_have_attribute("data-selected", str(len(wanted)))
    state = session.readback()
    assert set(state["brushes"]) == {"lr"}
    assert sorted(state["selected"]) == sorted(wanted)
    assert state["selected_lr"] == [pytest.approx(1e-3)] * len(wanted)
    assert state["changes"] == [len(wanted)]  # the observer fired once, in the kernel
    session.shot(root, "05_hparams_brushed")

    root.locator(".tbnb-hp-reset").click()
    expect(root).to_have_attribute("data-selected", str(len(RUNS)))
    assert sorted(session.readback()["selected"]) == sorted(RUNS)


def test_magic_shows_dashboard(session: Session) -> None:
    from playwright.sync_api import expect

    dash = session.cell("magic").locator(".tbnb-dashboard")
    expect(dash).to_be_visible()
    expect(dash.locator(".tbnb-dashboard-header")).to_contain_text("logs dir")
    tabs = dash.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents()
    assert {"Scalars", "HParams"} <= set(tabs)
    charts = dash.locator(".tbnb-w-scalars .tbnb-chart")
    expect(charts).to_have_count(len(session.expect["runs_per_tag"]))
    expect(dash.locator('.tbnb-chart[data-tag="train/loss"]')).to_have_attribute(
        "data-series-count", str(len(RUNS))
    )
    session.shot(dash, "06_magic_dashboard")
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="HParams").click()
    expect(dash.locator(".tbnb-w-hparams .tbnb-axis").first).to_be_visible()
    session.shot(dash, "07_magic_hparams_tab")
    dash.get_by_role("tab", name="Scalars", exact=True).click()  # not "Custom scalars"


def test_no_errors_and_nothing_left_localhost(session: Session) -> None:
    log = session.browser.log
    session.page.screenshot(path=session.out / "nb7_08_final.png", full_page=True)
    assert len(log.page_errors) == len(session.page_errors)
    assert [e for e in session.page_errors if not _is_upstream(e)] == []
    assert log.console_errors == []
    assert log.external_requests == []
    assert log.dialogs == []


@pytest.mark.xfail(
    strict=True,
    reason="Notebook 7.6: @jupyterlab/shortcuts-extension reads an "
    "unloaded plugin's schema on pluginChanged at kernel start; not tbnb",
)
def test_notebook7_page_errors_upstream(session: Session) -> None:
    assert session.page_errors == []
