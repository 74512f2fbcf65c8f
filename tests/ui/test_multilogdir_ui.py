"""``%tbnb baseline=... new=...`` in real JupyterLab: one dashboard over two logdirs, both
logdirs' runs in the run bar (named ``name/run``), one selection for every tab."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.ui._chromium import Chromium
from tests.ui._session import lab_notebook, tagged_notebook

pytestmark = pytest.mark.browser

NB = "tbnb_multilogdir.ipynb"
TAGS = ["dash", "done"]
LOGDIRS = {"baseline": ("alpha", "beta"), "new": ("gamma",)}
RUNS = [f"{name}/{run}" for name, runs in LOGDIRS.items() for run in runs]
TIMEOUT_MS = 60_000


def write_logdirs(root: Path) -> dict[str, Path]:
    """Two experiments stored apart, each a logdir of runs (torch's writer)."""
    from torch.utils.tensorboard import SummaryWriter

    out = {}
    for i, (name, runs) in enumerate(LOGDIRS.items()):
        logdir = root / f"experiment_{name}" / "runs"
        for j, run in enumerate(runs):
            with SummaryWriter(str(logdir / run)) as w:
                for step in range(8):
                    w.add_scalar("loss", 1.0 / (step + 1 + 2 * i + j), step)
                w.add_text("notes", f"{name} run **{run}**", 0)
        out[name] = logdir
    return out


@dataclass
class Session:
    page: Any
    out: Path

    @property
    def dash(self) -> Any:
        cells = self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell")
        return cells.nth(TAGS.index("dash") + 1).locator(".tbnb-dashboard")

    def shot(self, name: str) -> None:
        """The dashboard as shown, once its last frame is drawn."""
        self.page.wait_for_timeout(300)
        self.dash.screenshot(path=self.out / f"multilogdir_{name}.png")


@pytest.fixture(scope="module")
def session(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Session]:
    root = tmp_path_factory.mktemp("multilogdir")
    logdirs = write_logdirs(root)
    line = " ".join(f"{name}={path}" for name, path in logdirs.items())
    nb = tagged_notebook(
        "two logdirs in one dashboard",
        {"dash": f"%load_ext tbnb\n%tbnb {line}", "done": 'print("ALL_DONE")'},
    )
    nbformat.write(nb, root / NB)  # type: ignore[no-untyped-call]
    failed = out_dir / "multilogdir_00_failed.png"
    with lab_notebook(chromium, root, NB, len(TAGS), failed, TIMEOUT_MS) as (page, _):
        yield Session(page, out_dir)


def test_the_run_bar_lists_both_logdirs_runs(session: Session) -> None:
    from playwright.sync_api import expect

    dash = session.dash
    expect(dash.locator(".tbnb-dashboard-header")).to_contain_text("baseline=")
    expect(dash.locator(".tbnb-dashboard-header")).to_contain_text("3 runs")
    bar = dash.locator(".tbnb-w-selection")
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 3 of 3 shown")
    chart = dash.locator('.tbnb-w-scalars .tbnb-chart[data-tag="loss"]')
    expect(chart).to_have_attribute("data-series-count", "3")
    bar.locator("summary").click()
    for run in RUNS:
        expect(bar.locator(f'input.tbnb-run-toggle[data-run="{run}"]')).to_be_checked()
        expect(bar).to_contain_text(run)
    session.shot("01_both_logdirs")
    # one logdir's run off: every tab follows the one selection
    bar.locator('input.tbnb-run-toggle[data-run="baseline/beta"]').uncheck()
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 2 of 3 shown")
    expect(chart).to_have_attribute("data-series-count", "2")
    dash.locator('[role="tab"]', has_text="Text").click()
    text = dash.locator(".tbnb-w-text")
    expect(text).to_contain_text("new run gamma")
    expect(text).not_to_contain_text("baseline run beta")
    session.shot("02_text_one_run_off")


def test_the_runs_tab_names_each_runs_logdir(session: Session) -> None:
    from playwright.sync_api import expect

    dash = session.dash
    dash.locator('[role="tab"]', has_text="Runs").click()
    table = dash.locator(".tbnb-w-metadata")
    expect(table).to_contain_text("experiment_new/runs")
    expect(table).to_contain_text("experiment_baseline/runs")
    session.shot("03_runs_tab")
