"""tbnb in marimo, the real app from PyPI (``marimo run`` and ``marimo edit``), in headless
Chromium: the dashboard (one anywidget) draws with every tab of the sample logdir, tabs are
built in the kernel when opened, the run selection ties the tabs, a widget on its own draws
from its own bundle and its smoothing reaches Python; styles reach marimo's shadow roots; no
console error, no request leaves the machine."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tbnb.notebook.samples import sample_logdir
from tbnb.notebook.tabs import tabs
from tests.ui._chromium import Chromium
from tests.ui._marimo import MarimoServer
from tests.ui._session import drag_smoothing

pytestmark = pytest.mark.browser

TIMEOUT_MS = 90_000

NOTEBOOK = """\
import marimo

app = marimo.App(width="full")


@app.cell
def _():
    import json
    import pathlib

    import tbnb

    OUT = pathlib.Path({out!r})
    LOGDIR = {logdir!r}
    return LOGDIR, OUT, json, tbnb


@app.cell
def _(LOGDIR, OUT, json, tbnb):
    dash = tbnb.Dashboard(LOGDIR)

    def _dash_state(_change=None):
        OUT.joinpath("dash.json").write_text(json.dumps({{
            "built": list(dash.views.built), "index": dash.selected_index,
            "selected": dash.selection.selected_runs,
            "scalars": dash.views.built["scalars"].selected_runs}}))

    dash.observe(_dash_state, "selected_index")
    dash.selection.observe(_dash_state, "selected_runs")
    _dash_state()
    dash
    return (dash,)


@app.cell
def _(LOGDIR, OUT, json, tbnb):
    scal = tbnb.scalars(LOGDIR, tags="^train/")
    scal.observe(lambda c: OUT.joinpath("scalars.json").write_text(
        json.dumps({{"smoothing": c["new"]}})), "smoothing")
    scal
    return (scal,)


if __name__ == "__main__":
    app.run()
"""


def wait_for_json(path: Path, check: Any, timeout: float = 60) -> dict[str, Any]:
    """The JSON the kernel wrote to ``path`` once ``check(state)`` holds."""
    deadline = time.time() + timeout
    state: dict[str, Any] = {}
    while time.time() < deadline:
        try:
            state = json.loads(path.read_text())
        except (OSError, ValueError):
            state = {}
        if state and check(state):
            return state
        time.sleep(0.2)
    raise AssertionError(f"{path.name} never matched; last: {state}")


class Marimo:
    """One marimo server and the page showing the notebook."""

    def __init__(self, root: Path, mode: str, chromium: Chromium, out_dir: Path) -> None:
        self.root, self.mode, self.browser, self.out_dir = root, mode, chromium, out_dir
        self.server = MarimoServer(root, "tbnb_marimo.py", mode=mode)
        self.page: Any = None

    def start(self) -> None:
        self.server.start()
        self.page = self.browser.context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.browser.log.clear()
        self.page.goto(self.server.url("/"))
        if self.mode == "edit":  # the editor opens with its cells not run: run them all
            self.run_all()

    def run_all(self, tries: int = 6) -> None:
        """Press the editor's run button until the dashboard shows (the button does
        nothing while the kernel is still starting)."""
        button = self.page.locator('[data-testid="run-button"]').last
        for _ in range(tries):
            button.click()
            try:
                self.dash.wait_for(state="attached", timeout=15_000)
                return
            except Exception:  # playwright's TimeoutError: press it again
                continue
        raise AssertionError(f"marimo edit never ran the cells: {self.server.log_tail(2000)}")

    @property
    def dash(self) -> Any:
        return self.page.locator(".tbnb-w-dashboard").first

    def shot(self, name: str) -> None:
        self.page.screenshot(path=self.out_dir / f"marimo_{self.mode}_{name}.png", full_page=True)

    def stop(self) -> dict[str, Any]:
        if self.page is not None:
            self.page.close()
        return self.server.stop()


def open_marimo(
    mode: str, chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Marimo]:
    root = tmp_path_factory.mktemp(f"marimo-{mode}")
    (root / "tbnb_marimo.py").write_text(
        NOTEBOOK.format(out=str(root), logdir=str(sample_logdir()))
    )
    app = Marimo(root, mode, chromium, out_dir)
    try:
        app.start()
        yield app
    finally:
        report = app.stop()
        assert report["clean"], (report, app.server.log_tail(3000))


@pytest.fixture(scope="module")
def run_app(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Marimo]:
    yield from open_marimo("run", chromium, out_dir, tmp_path_factory)


def test_the_dashboard_draws_styled_in_marimo_run(run_app: Marimo) -> None:
    from playwright.sync_api import expect

    dash = run_app.dash
    chart = dash.locator('.tbnb-w-scalars .tbnb-chart[data-tag="train/loss"]')
    expect(chart).to_be_visible()
    expect(chart).to_have_attribute("data-series-count", "9")
    titles = [t.strip() for t in dash.locator('[role="tab"]').all_text_contents()]
    assert titles == [spec.title for spec in tabs()]  # the sample has every kind
    # styled: the kit's CSS reached marimo's shadow root (the toolbar is a flex row)
    display = dash.locator(".tbnb-w-scalars .tbnb-toolbar").first.evaluate(
        "e => getComputedStyle(e).display"
    )
    assert display == "flex"
    run_app.shot("01_dashboard")
    assert "marimo" not in (dash.text_content() or "").lower()  # no "not supported" notice


def test_every_tab_draws(run_app: Marimo) -> None:
    """marimo makes widgets only while a cell runs, so its dashboard builds every tab then
    (tbnb.notebook.dashboard.builds_widgets_in_cells_only); each draws when opened."""
    from playwright.sync_api import expect

    dash = run_app.dash
    state = wait_for_json(run_app.root / "dash.json", lambda s: True)
    assert state["built"] == [spec.key for spec in tabs()]
    for i, spec in enumerate(tabs()):
        tab = dash.locator('[role="tab"]').nth(i)
        tab.click()
        expect(tab).to_have_attribute("aria-selected", "true")
        panel = dash.locator(".tbnb-dashboard-panel:not([hidden])")
        expect(panel.locator(".tbnb-root").first).to_be_visible(timeout=TIMEOUT_MS)
        expect(panel.locator(".tbnb-error")).to_have_count(0)
        # something drawn: a canvas, an image, a table or text
        expect(panel.locator("canvas, img, table, .tbnb-markdown, audio").first).to_be_attached()
        run_app.shot(f"02_tab_{i:02d}_{spec.key}")
    state = wait_for_json(run_app.root / "dash.json", lambda s: s["index"] == len(tabs()) - 1)
    dash.locator('[role="tab"]').first.click()


def test_the_run_selection_ties_the_tabs(run_app: Marimo) -> None:
    from playwright.sync_api import expect

    dash = run_app.dash
    dash.locator('[role="tab"]').first.click()
    bar = dash.locator(".tbnb-w-selection")
    bar.locator("summary").click()
    bar.locator('input.tbnb-run-toggle[data-run="lr=0.001,seed=0"]').uncheck()
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 8 of 9 shown")
    chart = dash.locator('.tbnb-w-scalars .tbnb-chart[data-tag="train/loss"]')
    expect(chart).to_have_attribute("data-series-count", "8")
    state = wait_for_json(
        run_app.root / "dash.json", lambda s: "lr=0.001,seed=0" not in s["selected"]
    )
    assert state["selected"] == state["scalars"]
    assert len(state["selected"]) == 8
    run_app.shot("03_selection")
    bar.locator(".tbnb-all").click()
    expect(bar.locator(".tbnb-selection-summary")).to_have_text("Runs: 9 of 9 shown")


def test_a_widget_on_its_own_draws_and_its_smoothing_reaches_python(run_app: Marimo) -> None:
    from playwright.sync_api import expect

    own = run_app.page.locator(".tbnb-w-scalars:not(.tbnb-dashboard-page *)").last
    expect(own.locator('.tbnb-chart[data-tag="train/acc"]')).to_be_visible()
    value = drag_smoothing(run_app.page, own)
    wait_for_json(run_app.root / "scalars.json", lambda s: abs(s["smoothing"] - value) < 1e-9)
    run_app.shot("04_own_widget")


def test_no_errors_and_nothing_from_outside_in_marimo_run(run_app: Marimo) -> None:
    log = run_app.browser.log
    assert log.page_errors == []
    assert [e for e in log.console_errors if "tbnb" in e.lower()] == []
    assert log.console_errors == []
    assert log.external_requests == []


def test_marimo_edit_draws_the_dashboard_and_builds_a_tab(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from playwright.sync_api import expect

    for app in open_marimo("edit", chromium, out_dir, tmp_path_factory):
        dash = app.dash
        expect(dash.locator('.tbnb-w-scalars .tbnb-chart[data-tag="train/loss"]')).to_be_visible()
        dash.locator('[role="tab"]', has_text="Histograms").click()
        wait_for_json(app.root / "dash.json", lambda s: s["index"] == 3)
        expect(dash.locator(".tbnb-w-histograms canvas").first).to_be_visible()
        own = app.page.locator(".tbnb-w-scalars:not(.tbnb-dashboard-page *)").last
        value = drag_smoothing(app.page, own)
        wait_for_json(app.root / "scalars.json", lambda s, v=value: abs(s["smoothing"] - v) < 1e-9)
        app.shot("01_dashboard_histograms")
        assert app.browser.log.page_errors == []
        assert app.browser.log.console_errors == []
        assert app.browser.log.external_requests == []
