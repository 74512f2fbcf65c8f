"""The profiler view in headless Chromium, from an exported page (no kernel).

The page holds the saved state only: the overview (steps stacked by category, findings),
the tables (operators, kernels) and the timeline at the resolution saved must render,
zoom and pan (mouse and W/A/S/D) with no request answered, and every string of the trace
(op names, thread names) must reach the DOM as text. The ResNet-18 H100 trace is the
reference; hostile names come from a trace written here. Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import tbnb
from tbnb.notebook.export import render_html
from tbnb.warnings import DataWarning
from tests.ui._chromium import Chromium
from tests.writers_profile import extract_gpu_traces

pytestmark = pytest.mark.browser

TIMEOUT_MS = 60_000
HOSTILE = '<img src=x onerror="window.__pwned=1">'


@dataclass
class ProfilePage:
    page: Any
    browser: Chromium
    out: Path

    @property
    def root(self) -> Any:
        return self.page.locator(".tbnb-w-profile").first

    def tab(self, name: str) -> None:
        self.root.locator(f".tbnb-prof-tabs button[data-tab='{name}']").click()

    def shot(self, name: str) -> None:
        self.root.screenshot(path=self.out / f"profile_{name}.png")

    def timeline(self, expression: str) -> Any:
        return self.root.evaluate(
            f"el => {{ const t = el.__tbnbProfile.timeline; return {expression}; }}"
        )


def _open(chromium: Chromium, widget: Any, path: Path, out: Path) -> ProfilePage:
    path.write_text(render_html(widget), encoding="utf-8")
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(path.as_uri())
    page.wait_for_selector(".tbnb-w-profile .tbnb-prof-findings li", state="attached")
    return ProfilePage(page, chromium, out)


@pytest.fixture(scope="module")
def resnet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    traces = extract_gpu_traces(tmp_path_factory.mktemp("gpu"))
    (path,) = (traces / "torch" / "resnet18_bs32").glob("*.pt.trace.json")
    return path


@pytest.fixture(scope="module")
def resnet_page(
    chromium: Chromium, resnet: Path, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ProfilePage]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        widget = tbnb.profiler(resnet, tab="overview")
        widget.tab = "operators"  # the saved page holds the tables and memory too
        widget.tab = "memory"
        widget.tab = "overview"
    page = _open(chromium, widget, tmp_path_factory.mktemp("pp") / "profile.html", out_dir)
    yield page
    page.page.close()


def _blank_canvas(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """sel => { const c = document.querySelector(sel);
            const b = document.createElement('canvas'); b.width = c.width; b.height = c.height;
            return c.toDataURL() === b.toDataURL(); }""",
            selector,
        )
    )


def test_overview_shows_steps_and_findings(resnet_page: ProfilePage) -> None:
    p = resnet_page
    findings = p.root.locator(".tbnb-prof-findings li").all_text_contents()
    assert any(f.startswith("GPU idle 61% of step 4") for f in findings), findings
    assert any("aten::convolution_backward" in f for f in findings), findings
    assert not _blank_canvas(p.page, ".tbnb-prof-steps canvas")
    summary = p.root.locator(".tbnb-prof-overview .tbnb-prof-hint").first.text_content() or ""
    assert summary.startswith("3 steps")
    p.shot("01_overview")
    assert not p.browser.log.page_errors, p.browser.log.page_errors
    assert not p.browser.log.external_requests


def test_tables_sort_and_filter(resnet_page: ProfilePage) -> None:
    p = resnet_page
    p.tab("kernels")
    rows = p.root.locator(".tbnb-prof-kernels-panel tbody tr")
    assert rows.count() == 25
    p.root.locator(".tbnb-prof-kernels-panel input.tbnb-prof-filter").fill("cudnn")
    info = p.root.locator(".tbnb-prof-kernels-panel .tbnb-prof-hint").first.text_content() or ""
    total = int(info.split(" of ")[1].split()[0])
    shown = int(info.split(" of ")[0])
    assert 0 < shown < total
    p.shot("02_kernels")
    p.tab("operators")
    header = p.root.locator(".tbnb-prof-operators-panel th[data-column='self_cpu']")
    header.click()
    header.click()  # descending
    first = p.root.locator(".tbnb-prof-operators-panel tbody tr").first.locator("td").first
    assert (first.text_content() or "") == "aten::convolution_backward"
    p.shot("03_operators")


def test_timeline_zooms_and_pans_without_a_kernel(resnet_page: ProfilePage) -> None:
    p = resnet_page
    p.tab("timeline")
    p.page.wait_for_function(
        "el => el.__tbnbProfile.timeline.draws > 0", arg=p.root.element_handle()
    )
    assert not _blank_canvas(p.page, ".tbnb-prof-canvas canvas")
    v0, v1 = p.timeline("[t.v0, t.v1]")
    canvas = p.root.locator(".tbnb-prof-canvas canvas")
    canvas.click(position={"x": 400, "y": 60})
    p.page.keyboard.press("w")
    p.page.keyboard.press("w")
    w0, w1 = p.timeline("[t.v0, t.v1]")
    assert w1 - w0 == pytest.approx((v1 - v0) * 0.64, rel=1e-6)
    p.page.keyboard.press("d")
    d0, _ = p.timeline("[t.v0, t.v1]")
    assert d0 > w0
    box = canvas.bounding_box()
    p.page.mouse.move(box["x"] + 500, box["y"] + 100)
    p.page.mouse.down()
    p.page.mouse.move(box["x"] + 300, box["y"] + 100, steps=4)
    p.page.mouse.up()
    e0, _ = p.timeline("[t.v0, t.v1]")
    assert e0 > d0  # dragged left: later times in view
    assert p.timeline("t.online") is False  # the page has no kernel: the saved window
    p.shot("04_timeline")
    assert not p.browser.log.page_errors, p.browser.log.page_errors


def test_memory_curve_marks_the_peak(resnet_page: ProfilePage) -> None:
    p = resnet_page
    p.tab("memory")
    assert not _blank_canvas(p.page, ".tbnb-prof-memory canvas")
    cells = p.root.locator(".tbnb-prof-memory-panel tbody tr").first.locator("td")
    texts = cells.all_text_contents()
    assert texts[0] == "-1"  # host first, then GPU 0
    gpu = p.root.locator(".tbnb-prof-memory-panel tbody tr").nth(1).locator("td")
    assert gpu.all_text_contents()[1] == "848.87 MiB"
    assert gpu.all_text_contents()[4] == "aten::cudnn_convolution"
    p.shot("06_memory")


@pytest.fixture(scope="module")
def hostile_page(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ProfilePage]:
    folder = tmp_path_factory.mktemp("hostile")
    events = [
        {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": HOSTILE}},
        {
            "ph": "X",
            "cat": "user_annotation",
            "name": "ProfilerStep#1",
            "pid": 1,
            "tid": 1,
            "ts": 0,
            "dur": 100,
        },
        {
            "ph": "X",
            "cat": "cpu_op",
            "name": HOSTILE,
            "pid": 1,
            "tid": 1,
            "ts": 10,
            "dur": 50,
            "args": {"Input Dims": [[HOSTILE]]},
        },
    ]
    (folder / f"{'x'}.1.pt.trace.json").write_text(json.dumps({"traceEvents": events}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        widget = tbnb.profiler(folder)
        widget.tab = "operators"
    page = _open(chromium, widget, tmp_path_factory.mktemp("hp") / "hostile.html", out_dir)
    yield page
    page.page.close()


def test_trace_strings_are_text(hostile_page: ProfilePage) -> None:
    p = hostile_page
    p.tab("operators")
    cell = p.root.locator(".tbnb-prof-operators-panel tbody td").first
    assert (cell.text_content() or "") == HOSTILE
    assert p.root.locator("img").count() == 0
    assert p.page.evaluate("() => window.__pwned") is None
    findings = p.root.locator(".tbnb-prof-findings li").all_text_contents()
    assert any(HOSTILE in f for f in findings), findings
    p.shot("05_hostile")
