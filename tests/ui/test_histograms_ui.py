"""The histograms dashboard in real JupyterLab + headless Chromium, as a user sees it.

One JupyterLab server and one notebook for the module (the tests run in order and share
the page). The logdir is written by tensorboardX (``add_histogram``, variable-width and
equal-width buckets) and holds a run and a tag named like script payloads. Every test
changes something in the page (pixels change) and reads the state back in Python;
charts must become exact (the kernel answered the view's request). Screenshots go to
tests/ui/out/.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import (
    STDOUT,
    CellDriver,
    open_notebook,
    run_all,
    tagged_notebook,
    wait_for_run_all,
)
from tests.writers_histograms import HOSTILE_RUN, HOSTILE_TAG, write_histogram_runs

pytestmark = pytest.mark.browser

NB = "tbnb_histograms.ipynb"
TIMEOUT_MS = 60_000
RUNS = ["lr=0.1", "lr=0.01", HOSTILE_RUN]
TAGS = ["layer1/weight", "layer1/bias", "layer2/weight", HOSTILE_TAG]
PIXELS_JS = "el => [...el.querySelectorAll('canvas')].map(c => c.toDataURL()).join('|')"
FORBIDDEN = ".tbnb-root img, .tbnb-root script, .tbnb-root svg, .tbnb-root iframe"

CELLS = {
    "setup": """\
import json
import tbnb
exp = tbnb.load(LOGDIR)
print("EXPECT " + json.dumps({"charts": int(exp.histograms.groupby(["run", "tag"],
      observed=True).ngroups)}))""",
    "hist": "w = tbnb.histograms(exp)\nw",
    "readback": """\
_reads = globals().get("_reads", 0) + 1
_d = w.data
print(f"STATE {_reads} " + json.dumps({
    "mode": w.mode, "bins": w.bins, "selected_runs": w.selected_runs,
    "step_window": w.step_window, "step": w.step, "tag_filter": w.tag_filter,
    "hidden_in_chart": w.hidden_in_chart, "time_axis": w.time_axis,
    "bins_per_step": int(_d.groupby(["run", "tag", "step"]).size().max()) if len(_d) else 0,
    "steps": sorted(int(s) for s in _d["step"].unique())}))""",
    "dist": "d = tbnb.distributions(exp)\nd",
    "magic": "%load_ext tbnb\n%tbnb LOGDIR",
    "done": 'print("ALL_DONE")',
}


@dataclass
class Session(CellDriver):
    page: Any
    lab: LabServer
    browser: Chromium
    root: Path
    out: Path
    charts: int
    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        index = list(CELLS).index(tag) + 1
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(index)

    def widget(self, tag: str = "hist") -> Any:
        return self.cell(tag).locator(".tbnb-w-histograms")

    def card(self, tag: str, run: str = "lr=0.1", cell: str = "hist") -> Any:
        # JSON string escapes are CSS string escapes for quotes and backslashes
        return self.widget(cell).locator(
            f".tbnb-chart[data-tag={json.dumps(tag)}][data-run={json.dumps(run)}]"
        )

    def shot(self, locator: Any, name: str) -> None:
        locator.screenshot(path=self.out / f"hist_lab_{name}.png")

    def changed(self, locator: Any, before: str) -> None:
        self.page.wait_for_function(
            "([el, sig]) => (" + PIXELS_JS + ")(el) !== sig", arg=[locator.element_handle(), before]
        )

    def exact(self, locator: Any) -> None:
        from playwright.sync_api import expect

        expect(locator).to_have_attribute("data-state", "exact", timeout=self.timeout_ms)


@pytest.fixture(scope="module")
def session(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Session]:
    import nbformat

    root = tmp_path_factory.mktemp("hist_lab")
    logdir = write_histogram_runs(root / "logs", hostile=True)
    sources = {k: v.replace("LOGDIR", repr(str(logdir))) for k, v in CELLS.items()}
    nbformat.write(tagged_notebook("tbnb histograms", sources), root / NB)  # type: ignore[no-untyped-call]
    lab = LabServer(root)
    lab.start()
    page = chromium.page()
    page.set_default_timeout(TIMEOUT_MS)
    chromium.log.clear()
    try:
        open_notebook(page, lab.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        cells = page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell")
        wait_for_run_all(page, cells.nth(len(CELLS)), out_dir / "hist_lab_00_failed.png", lab)
        text = cells.nth(1).locator(STDOUT).text_content() or ""
        expected = json.loads(text.split("EXPECT ", 1)[1].strip())
        yield Session(page, lab, chromium, root, out_dir, expected["charts"])
    finally:
        report = lab.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_every_chart_is_drawn_exactly_from_the_kernel(session: Session) -> None:
    from playwright.sync_api import expect

    root = session.widget()
    expect(root.locator(".tbnb-chart")).to_have_count(session.charts)
    first = session.card("layer1/weight")
    first.scroll_into_view_if_needed()
    session.exact(first)
    assert first.get_attribute("data-steps") == "51"  # max_steps of 61 logged, evenly spaced
    groups = root.locator(".tbnb-group").evaluate_all("els => els.map(e => e.dataset.group)")
    assert {"layer1", "layer2"} <= set(groups)
    assert groups.index("layer1") < groups.index("layer2")
    stderr = session.page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    )
    assert stderr.count() == 0, stderr.all_text_contents()
    session.shot(root, "01_offset")


def test_hover_shows_a_steps_histogram(session: Session) -> None:
    card = session.card("layer1/weight")
    session.exact(card)
    box = card.locator("canvas").last.bounding_box()
    session.page.mouse.move(box["x"] + box["width"] * 0.55, box["y"] + box["height"] * 0.85)
    tip = session.widget().locator(":scope > .tbnb-tooltip")
    tip.wait_for(state="visible")
    heads = tip.locator("th").all_text_contents()
    assert heads[1:] == ["step", "wall time", "bin", "count", "total"]
    cells = tip.locator("td").all_text_contents()
    assert cells[3].startswith("[")  # the bin range
    assert float(cells[5]) == 400  # every value of the histogram
    assert "≈" not in cells[4]  # exact counts from the kernel
    session.shot(card, "02_hover")
    session.page.mouse.move(1, 1)


def test_bins_change_redraws_and_python_follows(session: Session) -> None:
    card = session.card("layer1/weight")
    before = card.evaluate(PIXELS_JS)
    box = session.widget().locator("input.tbnb-bins")
    box.fill("64")
    box.press("Enter")
    session.changed(card, before)
    session.exact(card)
    state = session.readback()
    assert state["bins"] == 64
    assert state["bins_per_step"] == 64
    session.shot(card, "03_bins_64")


@pytest.mark.parametrize("mode", ["overlay", "heatmap", "distribution"])
def test_mode_switch_redraws(session: Session, mode: str) -> None:
    card = session.card("layer1/weight")
    before = card.evaluate(PIXELS_JS)
    session.widget().locator("select.tbnb-mode").select_option(mode)
    session.changed(card, before)
    session.exact(card)
    assert session.readback()["mode"] == mode
    session.shot(card, f"04_{mode}")


def test_step_window_focuses_a_phase(session: Session) -> None:
    root = session.widget()
    card = session.card("layer1/weight")
    before = card.evaluate(PIXELS_JS)
    root.locator(".tbnb-window input.tbnb-step-input").first.fill("20")
    root.locator(".tbnb-window input.tbnb-step-input").first.press("Enter")
    root.locator(".tbnb-window input.tbnb-step-input").nth(1).fill("40")
    root.locator(".tbnb-window input.tbnb-step-input").nth(1).press("Enter")
    session.changed(card, before)
    session.exact(card)
    state = session.readback()
    assert state["step_window"] == [20, 40]
    assert state["steps"] == list(range(20, 41))  # distribution: every step of the window
    session.shot(root, "05_window")
    root.locator("button.tbnb-all-steps").click()
    assert session.readback()["step_window"] == []


def test_runs_at_one_step_on_one_chart(session: Session) -> None:
    from playwright.sync_api import expect

    root = session.widget()
    root.locator("select.tbnb-mode").select_option("runs")
    expect(root.locator(".tbnb-chart:not(.tbnb-hidden)")).to_have_count(len(TAGS))
    card = root.locator(".tbnb-chart[data-tag='layer1/weight']")
    session.exact(card)
    before = card.evaluate(PIXELS_JS)
    slider = root.locator(".tbnb-at-step input.tbnb-step-input")
    slider.fill("10")
    slider.press("Enter")
    session.changed(card, before)
    session.exact(card)
    state = session.readback()
    assert state["step"] == 10
    assert state["steps"] == [10]
    entries = card.locator(".tbnb-legend-entry")
    assert sorted(entries.all_text_contents()) == sorted(RUNS)
    before = card.evaluate(PIXELS_JS)
    entries.filter(has_text="lr=0.01").click()  # this chart only
    session.changed(card, before)
    state = session.readback()
    assert state["hidden_in_chart"] == {"layer1/weight": ["lr=0.01"]}
    session.shot(card, "06_runs_at_step")
    entries.filter(has_text="lr=0.01").click()
    root.locator("select.tbnb-mode").select_option("offset")


def test_tag_filter_and_run_toggle_read_back(session: Session) -> None:
    from playwright.sync_api import expect

    root = session.widget()
    root.locator("input.tbnb-tag-filter").fill("^layer1/")
    expect(root.locator(".tbnb-chart:not(.tbnb-hidden)")).to_have_count(2 * len(RUNS))
    root.locator('.tbnb-run-toggle[data-run="lr=0.01"]').uncheck()
    expect(root.locator(".tbnb-chart:not(.tbnb-hidden)")).to_have_count(2 * (len(RUNS) - 1))
    state = session.readback()
    assert state["tag_filter"] == "^layer1/"
    assert sorted(state["selected_runs"]) == sorted(set(RUNS) - {"lr=0.01"})
    session.shot(root, "07_filtered")
    root.locator('.tbnb-run-toggle[data-run="lr=0.01"]').check()
    root.locator("input.tbnb-tag-filter").fill("")


def test_hostile_names_are_text(session: Session) -> None:
    root = session.widget()
    assert session.page.evaluate("() => window.__pwned") is None
    assert root.locator(FORBIDDEN).count() == 0
    names = root.locator(".tbnb-runs .tbnb-run-name").all_text_contents()
    assert sorted(names) == sorted(RUNS)
    titles = set(root.locator(".tbnb-chart-title").all_text_contents())
    assert set(TAGS) <= titles
    card = session.card(HOSTILE_TAG, HOSTILE_RUN)
    card.scroll_into_view_if_needed()
    session.exact(card)
    box = card.locator("canvas").last.bounding_box()
    session.page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.8)
    root.locator(":scope > .tbnb-tooltip").wait_for(state="visible")
    assert session.page.evaluate("() => window.__pwned") is None
    session.shot(card, "08_hostile")
    session.page.mouse.move(1, 1)


def test_distributions_and_the_dashboard_tabs(session: Session) -> None:
    from playwright.sync_api import expect

    dist = session.widget("dist")
    assert dist.locator("select.tbnb-mode").input_value() == "distribution"
    card = dist.locator(".tbnb-chart").first
    card.scroll_into_view_if_needed()
    session.exact(card)
    session.shot(card, "09_distributions")
    dash = session.cell("magic").locator(".tbnb-dashboard")
    expect(dash).to_be_visible()
    titles = dash.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents()
    assert {"Histograms", "Distributions"} <= set(titles)
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Distributions").click()
    tab = dash.locator(".tbnb-w-histograms:visible")
    expect(tab.locator("select.tbnb-mode")).to_have_value("distribution")
    expect(tab.locator(".tbnb-chart").first).to_be_visible()
    session.exact(tab.locator(".tbnb-chart").first)
    session.shot(dash, "10_dashboard_distributions")


def test_no_console_errors_and_nothing_left_localhost(session: Session) -> None:
    log = session.browser.log
    session.page.screenshot(path=session.out / "hist_lab_11_final.png", full_page=True)
    assert log.page_errors == []
    assert log.console_errors == []
    assert log.external_requests == []
    assert log.dialogs == []
