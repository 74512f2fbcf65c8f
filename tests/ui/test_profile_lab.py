"""The profiler view in real JupyterLab: what needs the kernel.

The timeline asks for the spans in view at each zoom (``window`` requests), a clicked
span's details and its kernels (``span``), and name searches (``search``); a table row
shows its spans in the timeline; ``%tbnb`` shows a Profile tab for a logdir holding
traces and no event files. Clicks are read back in Python. Screenshots go to tests/ui/out/.
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
from tests.ui._session import CellDriver, open_notebook, run_all, tagged_notebook, wait_for_run_all
from tests.writers_profile import extract_gpu_traces

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
CELLS = ["setup", "view", "readback", "magic", "done"]
NB = "tbnb_profile_ui.ipynb"


@dataclass
class Lab(CellDriver):
    page: Any
    out: Path
    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(
            CELLS.index(tag) + 1
        )

    def timeline(self, root: Any, expression: str) -> Any:
        return root.evaluate(
            f"el => {{ const t = el.__tbnbProfile.timeline; return {expression}; }}"
        )


@pytest.fixture(scope="module")
def lab(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("profile_lab")
    logdir = extract_gpu_traces(root / "data")
    sources = {
        "setup": "import json, warnings\nimport tbnb\nwarnings.simplefilter('ignore')\n"
        f"exp = tbnb.load({json.dumps(str(logdir))}, progress=False)",
        "view": "p = tbnb.profiler(exp, 'torch/resnet18_bs32')\np",
        "readback": """\
_reads = globals().get("_reads", 0) + 1
print(f"STATE {_reads} " + json.dumps({"tab": p.tab, "search": p.search, "trace": p.trace}))""",
        "magic": f"%load_ext tbnb\n%tbnb {json.dumps(str(logdir))}",
        "done": 'print("ALL_DONE")',
    }
    nbformat.write(tagged_notebook("profiler", sources), root / NB)  # type: ignore[no-untyped-call]
    server = LabServer(root)
    server.start()
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, server.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        session = Lab(page, out_dir)
        wait_for_run_all(page, session.cell("done"), out_dir / "profile_lab_failed.png", server)
        yield session
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_lab_timeline_asks_the_kernel_for_each_zoom(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.cell("view").locator(".tbnb-w-profile")
    expect(root.locator(".tbnb-prof-findings li").first).to_contain_text("GPU idle")
    root.locator(".tbnb-prof-tabs button[data-tab='timeline']").click()
    lab.page.wait_for_function(
        "el => el.__tbnbProfile.timeline.draws > 0", arg=root.element_handle()
    )
    whole = lab.timeline(root, "t.win.t1 - t.win.t0")
    canvas = root.locator(".tbnb-prof-canvas canvas")
    canvas.click(position={"x": 500, "y": 40})
    for _ in range(8):
        lab.page.keyboard.press("w")
    lab.page.wait_for_function(
        "([el, whole]) => { const t = el.__tbnbProfile.timeline; "
        "return t.win.t1 - t.win.t0 < whole / 5; }",
        arg=[root.element_handle(), whole],
    )
    assert lab.timeline(root, "t.online") is True
    spans = lab.timeline(root, "t.win.start.length")
    assert spans > 0
    state = lab.readback()
    assert state["tab"] == "timeline"
    root.screenshot(path=lab.out / "profile_lab_zoomed.png")


def test_lab_search_and_span_details(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.cell("view").locator(".tbnb-w-profile")
    root.locator(".tbnb-prof-tabs button[data-tab='timeline']").click()
    box = root.locator("input.tbnb-prof-search")
    box.fill("^aten::convolution_backward$")
    box.press("Enter")
    expect(root.locator(".tbnb-prof-timeline-panel .tbnb-prof-hint").first).to_contain_text(
        "1 of 60"
    )
    details = root.locator(".tbnb-prof-details")
    expect(details.locator(".tbnb-prof-title").first).to_have_text("aten::convolution_backward")
    expect(details).to_contain_text("launched: ")
    expect(details).to_contain_text("input_dims")
    assert details.locator(".tbnb-prof-link").count() > 0
    details.locator(".tbnb-prof-link").first.click()  # a kernel it launched
    expect(details).to_contain_text("launched by: 1")
    assert lab.readback()["search"] == "^aten::convolution_backward$"
    root.screenshot(path=lab.out / "profile_lab_details.png")


def test_lab_table_rows_show_their_spans(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.cell("view").locator(".tbnb-w-profile")
    root.locator(".tbnb-prof-tabs button[data-tab='kernels']").click()
    first = root.locator(".tbnb-prof-kernels-panel tbody tr").first.locator("td").first
    expect(first).not_to_be_empty()
    name = first.text_content() or ""
    first.click()
    expect(root.locator(".tbnb-prof-tabs button[data-tab='timeline']")).to_have_attribute(
        "aria-selected", "true"
    )
    expect(root.locator(".tbnb-prof-details .tbnb-prof-title").first).to_have_text(name)
    assert lab.readback()["tab"] == "timeline"


def test_lab_dashboard_has_a_profile_tab(lab: Lab) -> None:
    from playwright.sync_api import expect

    dash = lab.cell("magic").locator(".tbnb-dashboard")
    expect(dash).to_be_visible()
    header = dash.locator(".tbnb-dashboard-header").text_content() or ""
    assert "Profile" in header
    tab = dash.locator(".lm-TabBar-tab", has_text="Profile")
    tab.click()
    view = dash.locator(".tbnb-w-profile")
    expect(view.locator(".tbnb-prof-findings li").first).to_contain_text("GPU idle")
    dash.screenshot(path=lab.out / "profile_lab_dashboard.png")
