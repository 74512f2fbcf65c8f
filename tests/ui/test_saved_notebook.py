"""A dashboard of the sample, saved from JupyterLab with widget state, reopened.

Real JupyterLab in headless Chromium, with its own server and its own browser
context (nothing shared with the other browser tests), every wait bounded:

1. run a notebook that loads the sample logdir (with the progress bar) and shows a
   ``tbnb.Dashboard`` of it; drag the scalars smoothing and read it back in Python;
2. save (JupyterLab's "save widget state" is on): the file holds the widget state and
   stays within the 5 MB budget of a saved notebook with a full dashboard;
3. shut the kernel down, close the page, open the notebook again with a new kernel:
   every tab draws from the saved state (the smoothing as dragged, not the default),
   and nothing says "Error displaying widget" (the load's progress bar leaves no widget
   model behind);
4. open it with no kernel at all: JupyterLab draws no widget (its widget manager lives
   with a kernel; jupyter-widgets/ipywidgets#3773). Checked so the day it changes is
   noticed; the exported page (``tbnb.notebook.export.to_html``) is the kernel-free view.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tbnb.kinds import KINDS
from tbnb.notebook.samples import sample_logdir
from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import STDOUT, drag_smoothing, open_notebook, run_all, tagged_notebook

pytestmark = pytest.mark.browser

NB = "saved_dashboard.ipynb"
TIMEOUT_MS = 90_000
BUDGET = 5_000_000
ERROR_TEXT = "Error displaying widget"

#: Each tab's title and the root class of its widget (``.tbnb-w-<widget folder>``).
TABS = {
    kind.tab.title: kind.tab.factory.split(":")[0].rsplit(".", 1)[1]
    for kind in KINDS.values()
    if kind.tab is not None
}


def _drawn_spread(png: bytes) -> float:
    """How much of a picture's width its drawn pixels span (0 to 1; the background is
    the corner's colour)."""
    import io

    import numpy as np
    from PIL import Image

    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.int16)
    drawn = (np.abs(pixels - pixels[0, 0]).max(axis=2) > 30).any(axis=0)
    columns = np.flatnonzero(drawn)
    return float(columns[-1] - columns[0]) / pixels.shape[1] if len(columns) else 0.0


def _notebook(logdir: Path) -> Any:
    return tagged_notebook(
        "tbnb saved-dashboard test",
        {
            "setup": (
                f"import json, tbnb\nexp = tbnb.load({json.dumps(str(logdir))}, progress=True)"
            ),
            "dash": "dash = tbnb.Dashboard(exp)\ndash",
            "readback": (
                'print("STATE " + json.dumps({"smoothing": dash.views["scalars"].smoothing}))'
            ),
            "done": 'print("ALL_DONE")',
        },
    )


def _cells(page: Any) -> Any:
    return page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell")


def _close_everything(lab: LabServer) -> None:
    """Shut every kernel session down through the REST API (bounded by its timeouts)."""
    for session in lab.api("GET", "/api/sessions") or []:
        lab.api("DELETE", f"/api/sessions/{session['id']}")


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[LabServer]:
    server = LabServer(tmp_path)
    server.start()
    try:
        yield server
    finally:
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_saved_dashboard_reopens_from_its_state(
    lab: LabServer,
    chromium: Chromium,
    out_dir: Path,
    sample_cache: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from playwright.sync_api import expect

    monkeypatch.setenv("TBNB_CACHE_DIR", str(sample_cache))
    logdir = sample_logdir()  # the sample, written once per session by the test process
    nbformat.write(_notebook(logdir), lab.root / NB)  # type: ignore[no-untyped-call]
    context = chromium.context  # this module's own browser (module-scoped fixture)
    log = chromium.log
    log.clear()
    try:
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        open_notebook(page, lab.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        cells = _cells(page)
        try:
            expect(cells.nth(4).locator(STDOUT)).to_contain_text("ALL_DONE", timeout=240_000)
        except AssertionError:
            page.screenshot(path=out_dir / "saved_00_run_all_failed.png", full_page=True)
            pytest.fail(
                "run all did not finish in 240 s; outputs: "
                f"{page.locator('.jp-OutputArea-output').all_text_contents()}; "
                f"log: {lab.log_tail(2000)}"
            )
        dash = cells.nth(2).locator(".tbnb-dashboard")
        expect(dash.locator(".tbnb-dashboard-tablist > [role=tab]")).to_have_count(len(TABS))
        assert dash.locator(".tbnb-dashboard-tablist > [role=tab]").all_text_contents() == list(
            TABS
        )
        # Open every tab (a dashboard may build a tab when first opened): all are saved.
        for title, folder in TABS.items():
            dash.get_by_role("tab", name=title, exact=True).click()
            expect(dash.locator(f".tbnb-w-{folder}:visible").first).to_be_visible(timeout=60_000)
        dash.get_by_role("tab", name="Scalars", exact=True).click()
        scalars = dash.locator(".tbnb-w-scalars").first
        expect(scalars.locator('.tbnb-chart[data-tag="train/loss"]')).to_have_attribute(
            "data-series-count", "9"
        )
        smoothing = drag_smoothing(page, scalars)
        assert smoothing != pytest.approx(0.0)
        cells.nth(3).locator(".jp-InputArea-editor .cm-content").click()
        page.keyboard.press("Shift+Enter")
        expect(cells.nth(3).locator(STDOUT)).to_contain_text("STATE", timeout=30_000)
        state = json.loads((cells.nth(3).locator(STDOUT).text_content() or "").split("STATE ")[1])
        assert state["smoothing"] == pytest.approx(smoothing, abs=1e-6)
        page.screenshot(path=out_dir / "saved_01_before_save.png", full_page=True)

        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        page.wait_for_function(
            "() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=60_000
        )
        raw = (lab.root / NB).read_bytes()
        saved = json.loads(raw)
        widget_state = saved["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
        assert len(widget_state["state"]) >= len(TABS)
        sizes = {"notebook_bytes": len(raw), "models": len(widget_state["state"])}
        (out_dir / "saved_notebook_sizes.json").write_text(json.dumps(sizes, indent=1))
        assert len(raw) <= BUDGET, sizes
        _close_everything(lab)
        page.close()

        # Reopened with a new kernel: drawn from the saved state alone.
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        open_notebook(page, lab.url(f"/lab/tree/{NB}"), NB)
        cells = _cells(page)
        dash = cells.nth(2).locator(".tbnb-dashboard")
        expect(dash.locator(".tbnb-dashboard-tablist > [role=tab]")).to_have_count(len(TABS))
        scalars = dash.locator(".tbnb-w-scalars").first
        expect(scalars.locator('.tbnb-chart[data-tag="train/loss"]')).to_have_attribute(
            "data-series-count", "9"
        )
        reopened = float(scalars.locator("input.tbnb-smoothing").input_value())
        assert reopened == pytest.approx(smoothing, abs=1e-6)  # as dragged, not the default
        for title, folder in TABS.items():
            dash.get_by_role("tab", name=title, exact=True).click()
            view = dash.locator(f".tbnb-w-{folder}:visible")
            expect(view.first).to_be_visible(timeout=30_000)
            page.screenshot(path=out_dir / f"saved_02_reopened_{folder}_{title[:4]}.png")
            if folder == "embeddings":  # drawn while its tab was hidden, then shown
                spread = _drawn_spread(view.first.locator("canvas").first.screenshot())
                assert spread > 0.25, f"the projector's points span {spread:.0%} of its width"
        outputs = " ".join(page.locator(".jp-OutputArea-output").all_text_contents())
        assert ERROR_TEXT not in outputs
        assert "model not found" not in outputs
        assert log.console_errors == []
        assert log.page_errors == []
        _close_everything(lab)
        page.close()

        # No kernel: JupyterLab draws no widget (ipywidgets#3773).
        nokernel = "no_kernel.ipynb"
        shutil.copy(lab.root / NB, lab.root / nokernel)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(lab.url(f"/lab/tree/{nokernel}"))
        page.wait_for_function("() => window.jupyterapp !== undefined")
        page.evaluate("() => window.jupyterapp.restored")
        page.wait_for_function(
            "() => { const w = window.jupyterapp.shell.currentWidget;"
            " return !!(w && w.context && w.context.isReady && w.sessionContext); }"
        )
        page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.shutdown()")
        page.evaluate("() => window.jupyterapp.commands.execute('docmanager:reload')")
        page.wait_for_function(
            "() => { const w = window.jupyterapp.shell.currentWidget;"
            " return !!(w && w.sessionContext && !w.sessionContext.session); }"
        )
        cells = _cells(page)
        # The widget output stays at ipywidgets' placeholder: no manager, no model, no view.
        expect(cells.nth(2).locator(".jp-OutputArea-output")).to_contain_text(
            "Loading widget...", timeout=30_000
        )
        page.screenshot(path=out_dir / "saved_03_no_kernel.png", full_page=True)
        assert cells.locator(".tbnb-dashboard").count() == 0
        assert cells.nth(3).locator(STDOUT).text_content().startswith("STATE")  # text outputs do
        page.close()
    finally:
        for open_page in context.pages:
            open_page.close()
    assert log.external_requests == []
