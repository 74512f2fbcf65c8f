"""The graph explorer and the run information panel in headless Chromium.

- the exported page (``render_html``: the real bundle and saved state, no kernel) of a
  graph traced by torch and of a profiled TF2 trace: collapsed at first, laid out in the
  Web Worker (the page's CSP allows blob: workers), expanding by click and double-click
  (the expanded group keeps its place), search, details, colours, minimap, zoom, the
  statistics CSV; and the runs panel: rows, diff, CSV;
- real JupyterLab: clicks read back in Python (``expanded``, ``selected``, a node's full
  attributes fetched from the kernel, the runs chosen and their diff), and the ``%tbnb``
  dashboard's Graphs and Runs tabs drawing when first shown;
- hostile node, module and run names shown as text in the exported dashboard.

Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.notebook.export import render_html, to_html
from tests import writers_graphs
from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import CellDriver, open_notebook, run_all, tagged_notebook, wait_for_run_all

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
CANVAS_JS = "el => el.querySelector('canvas.tbnb-graph-canvas').toDataURL()"
BOX_JS = "(el, name) => el.__tbnbGraph.box(name)"


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("graph_ui") / "logs"
    writers_graphs.write_all(str(root))
    return root


@dataclass
class GraphPage:
    page: Any
    browser: Chromium
    out: Path

    @property
    def root(self) -> Any:
        return self.page.locator(".tbnb-w-graphs").first

    def ready(self) -> None:
        self.page.wait_for_function(
            "el => el.dataset.state === 'ready'", arg=self.root.element_handle()
        )

    def box(self, name: str) -> dict[str, float]:
        found = self.root.evaluate("(el, name) => el.__tbnbGraph.box(name)", name)
        assert found is not None, f"{name} is not drawn"
        return dict(found)

    def pixels(self) -> str:
        return str(self.root.evaluate(CANVAS_JS))

    def shot(self, name: str) -> None:
        self.root.screenshot(path=self.out / f"graph_{name}.png")


def _open_page(chromium: Chromium, html: str, path: Path, out: Path) -> GraphPage:
    path.write_text(html, encoding="utf-8")
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(path.as_uri())
    page.wait_for_selector(".tbnb-w-graphs[data-state='ready']")
    return GraphPage(page, chromium, out)


@pytest.fixture(scope="module")
def torch_page(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GraphPage]:
    widget = tbnb.graph(tbnb.load(logdir, progress=False), "torch")
    p = _open_page(
        chromium, render_html(widget), tmp_path_factory.mktemp("gp") / "graph.html", out_dir
    )
    yield p
    p.page.close()


def _python_items(run: str, expanded: list[str], logdir: Path) -> int:
    widget = tbnb.graph(tbnb.load(logdir, progress=False), run, expanded=expanded)
    return len(widget.visible)


def test_collapsed_graph_laid_out_in_the_worker(torch_page: GraphPage, logdir: Path) -> None:
    p = torch_page
    assert p.root.get_attribute("data-layout-mode") == "worker"
    assert int(p.root.get_attribute("data-items")) == _python_items("torch", ["Net"], logdir)
    blank = p.page.evaluate("""() => { const c = document.querySelector('canvas.tbnb-graph-canvas');
        const b = document.createElement('canvas'); b.width = c.width; b.height = c.height;
        return b.toDataURL(); }""")
    assert p.pixels() != blank
    legend = p.root.locator(".tbnb-graph-legend").text_content() or ""
    assert "aten::_convolution" in legend
    p.shot("01_collapsed")
    assert not p.browser.log.page_errors, p.browser.log.page_errors
    assert not p.browser.log.console_errors, p.browser.log.console_errors
    assert not p.browser.log.external_requests


def test_click_expands_a_group_in_place(torch_page: GraphPage, logdir: Path) -> None:
    p = torch_page
    group = "Net/Sequential[blocks]"
    before = p.box(group)
    pixels = p.pixels()
    p.page.mouse.click(before["x"] + before["w"] - 6, before["y"] + before["h"] / 2)
    p.page.wait_for_function(
        "el => el.dataset.state === 'ready' && el.__tbnbGraph.box("
        "'Net/Sequential[blocks]/Block[0-2]') !== null",
        arg=p.root.element_handle(),
    )
    after = p.box(group)
    assert abs(after["x"] - before["x"]) < 1
    assert abs(after["y"] - before["y"]) < 1
    assert after["h"] > before["h"]
    assert int(p.root.get_attribute("data-items")) == _python_items("torch", ["Net", group], logdir)
    assert p.pixels() != pixels
    series = p.box("Net/Sequential[blocks]/Block[0-2]")
    p.page.mouse.dblclick(series["x"] + series["w"] / 3, series["y"] + series["h"] / 2)
    p.page.wait_for_function(
        "el => el.dataset.state === 'ready' && "
        "el.__tbnbGraph.box('Net/Sequential[blocks]/Block[1]') !== null",
        arg=p.root.element_handle(),
    )
    assert int(p.root.get_attribute("data-items")) == _python_items(
        "torch", ["Net", group, "Net/Sequential[blocks]/Block[0-2]"], logdir
    )
    p.shot("02_expanded_series")


def test_search_reveals_and_details_show_the_node(torch_page: GraphPage, logdir: Path) -> None:
    p = torch_page
    graph = tbnb.load(logdir, progress=False).graph("torch")
    search = p.root.locator(".tbnb-graph-search")
    search.fill("batch_norm")
    matches = graph.nodes[graph.nodes["op"].str.contains("batch_norm")]
    assert p.root.get_attribute("data-matches") == str(len(matches))
    result = p.root.locator(".tbnb-graph-result").first
    name = result.get_attribute("title")
    result.click()
    p.page.wait_for_function(
        "([el, n]) => el.dataset.selected === n && el.__tbnbGraph.box(n) !== null",
        arg=[p.root.element_handle(), name],
    )
    details = p.root.locator(".tbnb-graph-details")
    assert (details.locator(".tbnb-graph-title").text_content() or "") == name
    assert "aten::batch_norm" in (details.text_content() or "")
    inputs = details.locator(".tbnb-graph-link")
    assert inputs.count() >= 1
    first_input = inputs.first.text_content() or ""
    inputs.first.click()
    p.page.wait_for_function(
        "([el, n]) => el.dataset.selected === n", arg=[p.root.element_handle(), first_input]
    )
    p.shot("03_search_details")
    search.fill("(")
    assert "tbnb-invalid" in (search.get_attribute("class") or "")
    search.fill("")


def test_zoom_minimap_and_fit(torch_page: GraphPage) -> None:
    p = torch_page
    canvas = p.root.locator("canvas.tbnb-graph-canvas")
    box = canvas.bounding_box()
    zoom = float(p.root.get_attribute("data-zoom"))
    p.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    p.page.mouse.wheel(0, -400)
    p.page.wait_for_function(
        "([el, z]) => Number(el.dataset.zoom) > z", arg=[p.root.element_handle(), zoom]
    )
    where = p.box("Net")
    mini = p.root.locator(".tbnb-graph-minimap").bounding_box()
    p.page.mouse.click(mini["x"] + 5, mini["y"] + mini["height"] - 5)
    moved = p.box("Net")
    assert (moved["x"], moved["y"]) != (where["x"], where["y"])
    p.root.locator(".tbnb-graph-fit").click()
    p.page.wait_for_function("el => Number(el.dataset.zoom) <= 1", arg=p.root.element_handle())


def test_statistics_table_and_csv(torch_page: GraphPage, logdir: Path, tmp_path: Path) -> None:
    p = torch_page
    stats = p.root.locator(".tbnb-graph-stats")
    with p.page.expect_download() as info:
        stats.locator(".tbnb-graph-csv").click()
    info.value.save_as(tmp_path / "ops.csv")
    table = pd.read_csv(tmp_path / "ops.csv").set_index("op")
    widget = tbnb.graph(tbnb.load(logdir, progress=False), "torch")
    expected = widget.op_stats()
    assert list(table.columns) == list(expected.columns)
    pd.testing.assert_frame_equal(
        table.sort_index(), expected.sort_index(), check_dtype=False, check_names=False
    )
    stats.locator(".tbnb-graph-tab-scopes").click()
    assert stats.get_attribute("data-mode") == "scopes"
    scopes = stats.locator(".tbnb-table td.tbnb-text").all_text_contents()
    assert "Net/Sequential[blocks]" in scopes
    p.shot("04_stats")


def test_profiled_trace_coloured_by_compute_time(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path: Path
) -> None:
    widget = tbnb.graph(
        tbnb.load(logdir, progress=False), "tf2_trace", expanded=["dense", "dense/MatMul"]
    )
    p = _open_page(chromium, render_html(widget), tmp_path / "tf2.html", out_dir)
    try:
        pixels = p.pixels()
        p.root.locator(".tbnb-graph-color").select_option("compute")
        p.page.wait_for_function(
            "el => el.querySelector('.tbnb-graph-legend').textContent.includes('µs')",
            arg=p.root.element_handle(),
        )
        assert p.pixels() != pixels
        matmul = p.box("dense/MatMul")
        p.page.mouse.click(matmul["x"] + matmul["w"] / 2, matmul["y"] + matmul["h"] / 2)
        details = p.root.locator(".tbnb-graph-details").text_content() or ""
        assert "compute time" in details
        assert "MatMul" in details
        assert writers_graphs.CPU in details
        p.shot("05_compute_time")
        assert not p.browser.log.page_errors
        assert not p.browser.log.console_errors
    finally:
        p.page.close()


def test_runs_page_diff_and_csv(
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path: Path
) -> None:
    exp = tbnb.load(logdir, progress=False)
    widget = tbnb.runs(exp, sections=["run", "counts", "graphs"])
    (tmp_path / "runs.html").write_text(render_html(widget), encoding="utf-8")
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto((tmp_path / "runs.html").as_uri())
        root = page.locator(".tbnb-w-metadata")
        page.wait_for_selector(".tbnb-w-metadata .tbnb-row")
        assert root.locator(".tbnb-row").count() == len(exp.runs)
        root.locator('.tbnb-row[data-run="tf1"]').click()
        root.locator('.tbnb-row[data-run="torch"]').click()
        expected = tbnb.runs(exp, selected=["tf1", "torch"]).diff
        assert root.get_attribute("data-differences") == str(len(expected))
        keys = root.locator(".tbnb-diff-row").evaluate_all("els => els.map(e => e.dataset.key)")
        assert keys == [f"{s}/{k}" for s, k in expected.index]
        root.locator(".tbnb-runs-only-diff").uncheck()
        assert root.locator(".tbnb-diff-row").count() > len(expected)
        assert root.locator(".tbnb-diff-row.tbnb-differs").count() == len(expected)
        with page.expect_download() as info:
            root.locator(".tbnb-runs-diff-csv").click()
        info.value.save_as(tmp_path / "diff.csv")
        diff = pd.read_csv(tmp_path / "diff.csv", keep_default_na=False)
        assert list(diff.columns) == ["section", "key", "tf1", "torch", "differs"]
        assert int(diff["differs"].map(lambda v: str(v).lower() == "true").sum()) == len(expected)
        root.locator(".tbnb-runs-filter").fill("^tf\\d")  # run names and cells alike
        assert root.get_attribute("data-rows") == "2"
        root.screenshot(path=out_dir / "runs_01_diff.png")
        assert not chromium.log.page_errors
        assert not chromium.log.console_errors
    finally:
        page.close()


# --------------------------------------------------------------------------- hostile names

IMG = "<img src=x onerror=alert(1)>"
SCRIPT = "</script><script>alert(2)</script>"


def _hostile_logdir(root: Path) -> Path:
    import torch
    from tensorboard.compat.proto import event_pb2
    from tensorboard.summary.writer.event_file_writer import EventFileWriter
    from torch.utils.tensorboard import SummaryWriter

    logdir = root / "hostile"
    model = torch.nn.Sequential()
    model.add_module(IMG, torch.nn.Linear(2, 2))
    model.add_module("relu", torch.nn.ReLU())
    with SummaryWriter(str(logdir / SCRIPT)) as writer:  # "/" in the name nests directories
        writer.add_graph(model, torch.zeros(1, 2))
    graph = writers_graphs.dense_net_graph()
    for node in graph.node:
        if node.name == "dense/Relu":
            node.name = f"dense/{IMG}"
        node.input[:] = [f"dense/{IMG}" if i == "dense/Relu" else i for i in node.input]
    writer = EventFileWriter(str(logdir / IMG.replace("/", "")))
    writer.add_event(event_pb2.Event(step=0, wall_time=1.7e9, graph_def=graph.SerializeToString()))
    writer.close()
    return logdir


def test_hostile_names_render_as_text_in_the_exported_dashboard(
    chromium: Chromium, out_dir: Path, tmp_path: Path
) -> None:
    logdir = _hostile_logdir(tmp_path)
    dash = tbnb.Dashboard(logdir)
    assert {"graphs", "metadata"} <= set(dash.views)
    page_path = to_html(dash, tmp_path / "hostile.html")
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        page.goto(page_path.as_uri())
        page.wait_for_selector("#tbnb-export-root[data-rendered='true']", state="attached")
        page.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Graphs").click()
        graphs = page.locator(".tbnb-w-graphs")
        page.wait_for_selector(".tbnb-w-graphs[data-state='ready']")
        runs = list(graphs.locator(".tbnb-graph-run option").all_text_contents())
        assert set(runs) == {SCRIPT, IMG.replace("/", "")}
        graphs.locator(".tbnb-graph-search").fill("img")
        result = graphs.locator(".tbnb-graph-result").first
        name = result.get_attribute("title") or ""
        assert f"[{IMG}]" in name  # torch's scope of the module named IMG
        result.click()
        title = graphs.locator(".tbnb-graph-details .tbnb-graph-title").text_content()
        assert title == name
        graphs.locator(".tbnb-graph-run").select_option(IMG.replace("/", ""))
        status = graphs.locator(".tbnb-graph-status")
        page.wait_for_function(
            "el => el.textContent.includes('needs the running kernel')", arg=status.element_handle()
        )
        assert graphs.locator(".tbnb-graph-run").input_value() == SCRIPT  # put back
        page.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Runs").click()
        names = page.locator(".tbnb-w-metadata .tbnb-run-name").all_text_contents()
        assert set(names) == {SCRIPT, IMG.replace("/", "")}
        page.screenshot(path=out_dir / "graph_hostile_dashboard.png", full_page=True)
        alone = tbnb.graph(dash.experiment, IMG.replace("/", ""), expanded=["dense"])
        (tmp_path / "alone.html").write_text(render_html(alone), encoding="utf-8")
        page.goto((tmp_path / "alone.html").as_uri())
        page.wait_for_selector(".tbnb-w-graphs[data-state='ready']")
        node = page.locator(".tbnb-w-graphs").evaluate(
            "(el, n) => el.__tbnbGraph.box(n)", f"dense/{IMG}"
        )
        page.mouse.click(node["x"] + node["w"] / 2, node["y"] + node["h"] / 2)
        details = page.locator(".tbnb-w-graphs .tbnb-graph-details")
        assert details.locator(".tbnb-graph-title").text_content() == f"dense/{IMG}"
        links = details.locator(".tbnb-graph-link").all_text_contents()
        assert "dense/BiasAdd" in links
        forbidden = ".tbnb-root img, .tbnb-root script, .tbnb-root svg, .tbnb-root iframe"
        assert page.locator(forbidden).count() == 0
        assert chromium.log.dialogs == []
        assert chromium.log.page_errors == []
        assert chromium.log.console_errors == []
        assert chromium.log.external_requests == []
    finally:
        page.close()
        dash.close()


# --------------------------------------------------------------------------- JupyterLab

CELLS = ["setup", "graph", "runs", "readback", "magic", "done"]
NB = "tbnb_graph_ui.ipynb"


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
    chromium: Chromium, logdir: Path, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("graph_lab")
    sources = {
        "setup": f"import json\nimport tbnb\nexp = tbnb.load({json.dumps(str(logdir))}, "
        "progress=False)",
        "graph": "g = tbnb.graph(exp, 'tf1')\ng",
        "runs": "r = tbnb.runs(exp)\nr",
        "readback": """\
_reads = globals().get("_reads", 0) + 1
print(f"STATE {_reads} " + json.dumps({"expanded": g.expanded, "selected": g.selected,
      "runs": r.selected_runs, "diff": [list(k) for k in r.diff.index]}))""",
        "magic": f"%load_ext tbnb\n%tbnb {json.dumps(str(logdir))}",
        "done": 'print("ALL_DONE")',
    }
    nbformat.write(tagged_notebook("graph explorer", sources), root / NB)  # type: ignore[no-untyped-call]
    server = LabServer(root)
    server.start()
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, server.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        session = Lab(page, out_dir)
        wait_for_run_all(page, session.cell("done"), out_dir / "graph_lab_failed.png", server)
        yield session
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_lab_clicks_read_back_in_python(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.cell("graph").locator(".tbnb-w-graphs")
    expect(root).to_have_attribute("data-state", "ready")
    root.scroll_into_view_if_needed()
    box = root.evaluate(BOX_JS, "dense")
    lab.page.mouse.click(box["x"] + box["w"] - 6, box["y"] + box["h"] / 2)
    expect(root).to_have_attribute("data-state", "ready")
    lab.page.wait_for_function(
        "el => el.__tbnbGraph.box('dense/Relu') !== null", arg=root.element_handle()
    )
    # "dense/MatMul" is an op and the scope of its inputs: the group is "dense/MatMul/"
    scope = root.evaluate(BOX_JS, "dense/MatMul/")
    lab.page.mouse.click(scope["x"] + 10, scope["y"] + scope["h"] / 2)
    expect(root).to_have_attribute("data-selected", "dense/MatMul/")
    expect(root.locator(".tbnb-graph-details")).to_contain_text("name scope")
    relu = root.evaluate(BOX_JS, "dense/Relu")
    lab.page.mouse.click(relu["x"] + relu["w"] / 2, relu["y"] + relu["h"] / 2)
    expect(root).to_have_attribute("data-selected", "dense/Relu")
    state = lab.readback()
    assert "dense" in state["expanded"]
    assert state["selected"] == "dense/Relu"
    attrs = root.locator(".tbnb-graph-attrs")
    expect(attrs).to_contain_text("T=float32")
    root.screenshot(path=lab.out / "graph_lab_expanded.png")

    runs = lab.cell("runs").locator(".tbnb-w-metadata")
    runs.locator('.tbnb-row[data-run="tf1"]').click()
    runs.locator('.tbnb-row[data-run="tf2_trace"]').click()
    expect(runs).to_have_attribute("data-differences", re.compile(r"[1-9]\d*"))
    state = lab.readback()
    assert state["runs"] == ["tf1", "tf2_trace"]
    shown = runs.locator(".tbnb-diff-row").evaluate_all("els => els.map(e => e.dataset.key)")
    assert shown == ["/".join(k) for k in state["diff"]]
    runs.screenshot(path=lab.out / "runs_lab_diff.png")


def test_lab_node_attributes_come_from_the_kernel(lab: Lab) -> None:
    from playwright.sync_api import expect

    root = lab.cell("graph").locator(".tbnb-w-graphs")
    root.locator(".tbnb-graph-search").fill("^x$")
    root.locator(".tbnb-graph-result").first.click()
    expect(root).to_have_attribute("data-selected", "x")
    details = root.locator(".tbnb-graph-details")
    details.locator(".tbnb-graph-all-attrs").click()
    table = details.locator(".tbnb-graph-attrs table.tbnb-graph-props")  # the kernel's answer
    expect(table).to_be_visible()
    keys = table.locator("th").all_text_contents()
    assert keys == ["_user_specified_name", "dtype", "shape"]
    assert table.locator("td").all_text_contents() == ["x", "float32", "(None, 4)"]
    root.locator(".tbnb-graph-search").fill("")


def test_lab_dashboard_tabs_draw_when_shown(lab: Lab, chromium: Chromium) -> None:
    from playwright.sync_api import expect

    dash = lab.cell("magic").locator(".tbnb-dashboard")
    expect(dash).to_be_visible()
    titles = dash.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents()
    assert "Graphs" in titles
    assert "Runs" in titles
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Graphs").click()
    graphs = dash.locator(".tbnb-w-graphs")
    expect(graphs).to_have_attribute("data-state", "ready")
    assert float(graphs.get_attribute("data-zoom") or "0") > 0  # drawn after it showed
    blank = lab.page.evaluate(
        """el => { const c = el.querySelector('canvas.tbnb-graph-canvas');
        const b = document.createElement('canvas'); b.width = c.width; b.height = c.height;
        return b.toDataURL() === c.toDataURL(); }""",
        graphs.element_handle(),
    )
    assert not blank
    dash.locator(".tbnb-dashboard-tablist > [role=tab]", has_text="Runs").click()
    expect(dash.locator(".tbnb-w-metadata .tbnb-row").first).to_be_visible()
    dash.screenshot(path=lab.out / "graph_lab_dashboard.png")
    assert not chromium.log.page_errors, chromium.log.page_errors
    assert not chromium.log.console_errors, chromium.log.console_errors
    assert not chromium.log.external_requests
    assert np.isfinite(float(graphs.get_attribute("data-layout-ms") or "nan"))
