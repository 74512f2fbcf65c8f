"""The profiler view in real JupyterLab: what needs the kernel, and the saved notebook.

The timeline asks for the spans in view at each zoom (``window`` requests), a clicked
span's details and its kernels (``span``), and name searches (``search``); flow arrows
join each launch to its kernels; a table row shows its spans in the timeline; ``%tbnb``
shows a Profile tab for a logdir holding traces and no event files, its header counting
their runs. Last, the notebook is saved with its widget state and reopened with a new
kernel that holds no widget: the overview, the tables and the timeline draw from the
saved state, the timeline at the resolution saved (zooming asks a kernel that cannot
answer, and the view says so). Clicks are read back in Python. Screenshots go to
tests/ui/out/.
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
    logdir: Path
    server: LabServer
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
print(f"STATE {_reads} " + json.dumps({"tab": p.tab, "search": p.search, "trace": p.trace,
                                       "flows": p.flows}))""",
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
        session = Lab(page, out_dir, logdir, server)
        wait_for_run_all(page, session.cell("done"), out_dir / "profile_lab_failed.png", server)
        yield session
    finally:
        for open_page in chromium.context.pages:
            open_page.close()
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
    assert "2 runs" in header  # runs holding traces only count
    tab = dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Profile")
    tab.click()
    view = dash.locator(".tbnb-w-profile")
    expect(view.locator(".tbnb-prof-findings li").first).to_contain_text("GPU idle")
    dash.screenshot(path=lab.out / "profile_lab_dashboard.png")


def _window_around_kernels(logdir: Path) -> tuple[float, float]:
    """A 1.5 ms view in the middle of the ResNet trace, where launches and kernels are
    spans of their own at a thousand pixels."""
    import warnings

    import tbnb

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        events = tbnb.profile(logdir / "torch" / "resnet18_bs32").trace(0).events
    kernels = events[events["kind"] == "kernel"].sort_values("start")
    middle = float(kernels["start"].iloc[len(kernels) // 2])
    return middle - 750.0, middle + 750.0


def test_lab_flow_arrows_join_launches_to_their_kernels(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.cell("view").locator(".tbnb-w-profile")
    root.locator(".tbnb-prof-tabs button[data-tab='timeline']").click()
    lab.page.wait_for_function(
        "el => el.__tbnbProfile.timeline.draws > 0", arg=root.element_handle()
    )
    a, b = _window_around_kernels(lab.logdir)
    root.evaluate("(el, [a, b]) => el.__tbnbProfile.timeline.view(a, b)", [a, b])
    lab.page.wait_for_function(  # the kernel answered for this view
        "([el, a, b]) => { const w = el.__tbnbProfile.timeline.win;"
        " return w.t0 <= a && w.t1 >= b; }",
        arg=[root.element_handle(), a, b],
    )
    assert lab.timeline(root, "t.arrows") == 0  # off until asked for
    flows = root.locator("input.tbnb-prof-flows")
    flows.check()
    expect(flows).to_be_checked()
    lab.page.wait_for_function(
        "el => el.__tbnbProfile.timeline.arrows > 0", arg=root.element_handle()
    )
    win = lab.timeline(
        root,
        "({row: Array.from(t.win.row), lane: Array.from(t.win.lane),"
        " count: Array.from(t.win.count), corr: Array.from(t.win.correlation),"
        " start: Array.from(t.win.start),"
        " device: Array.from(t.payload.lanes.lane).filter((l, i) => t.payload.lanes.device[i])})",
    )
    device = set(win["device"])
    launches = {
        c: i
        for i, c in enumerate(win["corr"])
        if c >= 0 and win["count"][i] == 1 and win["lane"][i] not in device
    }
    pairs = [
        (launches[c], i)
        for i, c in enumerate(win["corr"])
        if win["lane"][i] in device and c >= 0 and c in launches
    ]
    assert lab.timeline(root, "t.arrows") == len(pairs) > 0
    assert all(win["start"][k] >= win["start"][h] for h, k in pairs)  # launched, then ran
    assert lab.readback()["flows"] is True
    root.screenshot(path=lab.out / "profile_lab_flows.png")


def test_lab_saved_notebook_reopens_from_its_state(lab: Lab) -> None:
    """Runs last: it saves the notebook, stops the kernel and reopens the notebook."""
    from playwright.sync_api import expect

    root = lab.cell("view").locator(".tbnb-w-profile")
    root.locator(".tbnb-prof-tabs button[data-tab='kernels']").click()
    expect(root.locator(".tbnb-prof-kernels-panel tbody tr").first).to_be_visible()
    root.locator(".tbnb-prof-tabs button[data-tab='overview']").click()
    lab.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    lab.page.wait_for_function(
        "() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=60_000
    )
    saved = json.loads((lab.server.root / NB).read_text())
    state = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]["state"]
    views = [m["state"] for m in state.values() if "_timeline" in m["state"]]
    assert len(views) == 2  # the view and the dashboard's Profile tab
    assert all({"_overview", "_tables", "_timeline"} <= set(view) for view in views)
    for session in lab.server.api("GET", "/api/sessions") or []:
        lab.server.api("DELETE", f"/api/sessions/{session['id']}")
    lab.page.close()

    page = lab.page = lab.page.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    open_notebook(page, lab.server.url(f"/lab/tree/{NB}"), NB)  # a new kernel, no widget in it
    root = lab.cell("view").locator(".tbnb-w-profile")
    expect(root.locator(".tbnb-prof-findings li").first).to_contain_text("GPU idle")
    summary = root.locator(".tbnb-prof-overview .tbnb-prof-hint").first
    expect(summary).to_contain_text("3 steps")
    root.locator(".tbnb-prof-tabs button[data-tab='kernels']").click()
    expect(root.locator(".tbnb-prof-kernels-panel tbody tr")).to_have_count(25)
    root.locator(".tbnb-prof-tabs button[data-tab='timeline']").click()
    page.wait_for_function("el => el.__tbnbProfile.timeline.draws > 0", arg=root.element_handle())
    spans = lab.timeline(root, "t.win.start.length")
    assert spans > 0  # the whole trace at the resolution saved
    whole = lab.timeline(root, "t.v1 - t.v0")
    root.locator(".tbnb-prof-canvas canvas").click(position={"x": 500, "y": 40})
    page.keyboard.press("w")
    page.keyboard.press("w")
    assert lab.timeline(root, "t.v1 - t.v0") == pytest.approx(whole * 0.64, rel=1e-6)
    # the new kernel holds no such widget and never answers (a request is waited for while
    # a kernel may answer: the front end cannot tell this kernel from a busy one): the saved
    # window stays drawn at every zoom
    page.wait_for_timeout(1500)
    assert lab.timeline(root, "t.win.start.length") == spans
    assert lab.timeline(root, "t.v1 - t.v0") == pytest.approx(whole * 0.64, rel=1e-6)
    outputs = " ".join(page.locator(".jp-OutputArea-output").all_text_contents())
    assert "Error displaying widget" not in outputs
    root.screenshot(path=lab.out / "profile_lab_saved_reopened.png")
