"""The whole dashboard in real JupyterLab: tabs from the keyboard, built when opened, one run
selection for every tab, state read back in Python."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import numpy as np
import pytest

from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import STDOUT, CellDriver, lab_notebook, tagged_notebook

pytestmark = pytest.mark.browser

NB = "tbnb_dashboard.ipynb"
TAGS = ["dash", "act", "readback", "done"]
RUNS = ["alpha", "beta", "gamma"]
TIMEOUT_MS = 60_000


def write_logdir(root: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    rng = np.random.default_rng(1)
    for i, run in enumerate(RUNS):
        with SummaryWriter(str(root / run)) as w:
            for step in range(6):
                w.add_scalar("loss", 1.0 / (step + 1 + i), step)
                w.add_histogram("weights", rng.normal(i, 1, size=200), step)
            w.add_text("notes", f"run **{run}**", 0)
            w.add_hparams({"lr": 10.0 ** -(i + 1)}, {"hp/loss": 0.1 * (i + 1)}, run_name=".")


@dataclass
class Session(CellDriver):
    page: Any
    lab: LabServer
    browser: Chromium
    out: Path
    act_file: Path
    timeout_ms: int = TIMEOUT_MS

    def act(self, code: str) -> None:
        """Run ``code`` in the kernel (as a user's next cell would) and wait for it."""
        from playwright.sync_api import expect

        self.act_file.write_text(code + "\nprint('ACTED', " + repr(code) + ")\n")
        self.run_cell("act")
        expect(self.cell("act").locator(STDOUT)).to_contain_text(code[:40], timeout=TIMEOUT_MS)

    def cell(self, tag: str) -> Any:
        index = TAGS.index(tag) + 1
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(index)

    @property
    def dash(self) -> Any:
        return self.cell("dash").locator(".tbnb-dashboard")

    def shot(self, name: str) -> None:
        self.dash.screenshot(path=self.out / f"dashboard_{name}.png")


@pytest.fixture(scope="module")
def session(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Session]:
    root = tmp_path_factory.mktemp("dashboard")
    write_logdir(root / "logs")
    nb = tagged_notebook(
        "tbnb dashboard test",
        {
            "dash": f"import json, tbnb\ndash = tbnb.Dashboard({str(root / 'logs')!r})\ndash",
            # the test writes what to do into ACT, then runs this cell
            "act": f"import pathlib\nACT = pathlib.Path({str(root / 'act.py')!r})\n"
            "exec(ACT.read_text()) if ACT.exists() else None",
            "readback": """\
_reads = globals().get("_reads", 0) + 1
print(f"STATE {_reads} " + json.dumps({
    "built": list(dash.views.built), "selected": dash.selection.selected_runs,
    "scalars": dash.views.built["scalars"].selected_runs,
    "histograms": getattr(dash.views.built.get("histograms"), "selected_runs", None),
    "index": dash.selected_index}))""",
            "done": 'print("ALL_DONE")',
        },
    )
    nbformat.write(nb, root / NB)  # type: ignore[no-untyped-call]
    failed = out_dir / "dashboard_00_failed.png"
    with lab_notebook(chromium, root, NB, len(TAGS), failed, TIMEOUT_MS) as (page, lab):
        yield Session(page, lab, chromium, out_dir, root / "act.py")


def test_tabs_are_aria_tabs_and_only_the_first_is_built(session: Session) -> None:
    from playwright.sync_api import expect

    dash = session.dash
    expect(dash.locator('.tbnb-w-scalars .tbnb-chart[data-tag="loss"]')).to_be_visible()
    tabs = dash.locator('[role="tab"]')
    titles = [t.strip() for t in tabs.all_text_contents()]
    assert titles == ["Scalars", "HParams", "Histograms", "Distributions", "Text", "Runs"]
    assert tabs.first.get_attribute("aria-selected") == "true"
    assert dash.locator('[role="tablist"]').count() == 1
    assert session.readback()["built"] == ["scalars"]
    session.shot("01_first_tab")


def test_keyboard_opens_a_tab_which_is_built_then(session: Session) -> None:
    from playwright.sync_api import expect

    dash = session.dash
    tabs = dash.locator('[role="tab"]')
    tabs.first.focus()
    for _ in range(2):  # Scalars -> HParams -> Histograms
        session.page.keyboard.press("ArrowRight")
    session.page.keyboard.press("Enter")
    expect(tabs.nth(2)).to_have_attribute("aria-selected", "true")
    hist = dash.locator(".tbnb-w-histograms")
    expect(hist).to_be_visible(timeout=TIMEOUT_MS)
    expect(hist.locator("canvas").first).to_be_visible()
    state = session.readback()
    assert state["built"] == ["scalars", "histograms"]
    assert state["index"] == 2
    session.shot("02_histograms_by_keyboard")


def test_one_run_selector_for_every_tab(session: Session) -> None:
    from playwright.sync_api import expect

    dash = session.dash
    bar = dash.locator(".tbnb-w-selection")
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 3 of 3 shown")
    # each tab's own run list is hidden: the bar is the one selector
    expect(dash.locator(".tbnb-w-histograms .tbnb-side")).to_be_hidden()
    bar.locator("summary").click()
    bar.locator('input.tbnb-run-toggle[data-run="beta"]').uncheck()
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 2 of 3 shown")
    expect(dash.locator(".tbnb-w-histograms")).to_contain_text("2/3 runs")
    expect(dash.locator(".tbnb-w-histograms .tbnb-legend", has_text="beta")).to_have_count(0)
    session.shot("03_beta_off_histograms")
    dash.locator('[role="tab"]', has_text="Scalars").click()
    expect(dash.locator('.tbnb-chart[data-tag="loss"]')).to_have_attribute("data-series-count", "2")
    state = session.readback()
    assert state["selected"] == state["scalars"] == state["histograms"] == ["alpha", "gamma"]
    session.shot("04_beta_off_scalars")


def test_hparams_selection_filters_the_other_tabs(session: Session) -> None:
    from playwright.sync_api import expect

    dash = session.dash
    bar = dash.locator(".tbnb-w-selection")
    bar.locator(".tbnb-all").click()
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 3 of 3 shown")
    dash.locator('[role="tab"]', has_text="HParams").click()
    # built on this first opening (importance needs scikit-learn: seconds on a busy machine)
    expect(dash.locator(".tbnb-w-hparams canvas").first).to_be_visible(timeout=TIMEOUT_MS)
    session.act('dash.views["hparams"].brush("lr", (0.05, 1.0))')  # alpha's lr is 0.1
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 1 of 3 shown")
    expect(bar.locator(".tbnb-selection-hparams")).to_have_text(
        "hparams selection hides 2 of 3 runs"
    )
    dash.locator('[role="tab"]', has_text="Scalars").click()
    expect(dash.locator('.tbnb-chart[data-tag="loss"]')).to_have_attribute("data-series-count", "1")
    session.shot("05_hparams_filter_scalars")
    state = session.readback()
    assert state["selected"] == state["scalars"] == ["alpha"]
    session.act('dash.views["hparams"].clear_brushes()')
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 3 of 3 shown")


def test_no_console_errors(session: Session) -> None:
    log = session.browser.log
    session.page.screenshot(path=session.out / "dashboard_99_final.png", full_page=True)
    assert log.page_errors == []
    assert log.console_errors == []
    assert log.external_requests == []
    out = session.cell("done").locator(STDOUT).text_content() or ""
    assert "ALL_DONE" in out
