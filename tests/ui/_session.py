"""Driving a notebook page as a user does: open it, run all, run one cell, read state back.

Shared by the JupyterLab and Notebook 7 browser tests. A test notebook tags each code
cell; a ``readback`` cell prints ``STATE <n> <json>`` of the Python-side widget state,
so re-running it from the page reads back what the browser changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

STDOUT = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stdout']"

#: True once the notebook ``nb`` is the current widget and its kernel is idle.
KERNEL_IDLE_JS = """nb => { const w = window.jupyterapp.shell.currentWidget;
     return !!(w && w.context && w.context.path === nb && w.sessionContext &&
       w.sessionContext.session && w.sessionContext.session.kernel &&
       w.sessionContext.session.kernel.status === 'idle'); }"""


def open_notebook(page: Any, url: str, name: str) -> None:
    """Go to ``url`` and wait until the app is restored and ``name``'s kernel is idle."""
    page.goto(url)
    page.wait_for_function("() => window.jupyterapp !== undefined")
    page.evaluate("() => window.jupyterapp.restored")
    page.wait_for_function(KERNEL_IDLE_JS, arg=name)


def run_all(page: Any) -> None:
    """Run every cell, as the Run menu's "Run All Cells" does."""
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")


class CellDriver:
    """Find, run and read tagged cells of the open notebook.

    Subclasses set ``page``, ``timeout_ms`` and implement :meth:`cell`.
    """

    page: Any
    timeout_ms: int

    def cell(self, tag: str) -> Any:
        raise NotImplementedError

    def run_cell(self, tag: str) -> None:
        """Click into the cell's editor and press Shift+Enter."""
        self.cell(tag).locator(".jp-InputArea-editor .cm-content").click()
        self.page.keyboard.press("Shift+Enter")

    def readback(self, tag: str = "readback") -> dict[str, Any]:
        """Re-run the readback cell and return the Python-side state it printed."""
        from playwright.sync_api import expect

        out = self.cell(tag).locator(STDOUT)
        before = out.text_content() if out.count() else ""
        match = re.search(r"STATE (\d+)", before or "")
        n = int(match.group(1)) + 1 if match else 1
        self.run_cell(tag)
        expect(out).to_contain_text(f"STATE {n} ", timeout=self.timeout_ms)
        text = out.text_content() or ""
        return dict(json.loads(text.split(f"STATE {n} ", 1)[1].strip()))


def drag_smoothing(page: Any, root: Any) -> float:
    """Drag the smoothing slider of the scalars widget ``root`` from 60% to 90% of its width.

    Returns the slider's new value, after checking the readout shows it.
    """
    slider = root.locator("input.tbnb-smoothing")
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.6, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.9, y, steps=10)
    page.mouse.up()
    value = float(slider.input_value())
    shown = root.locator(".tbnb-smoothing-value").text_content() or ""
    assert abs(float(shown) - value) <= 0.01, (shown, value)
    return value


def tagged_notebook(title: str, sources: dict[str, str]) -> Any:
    """A notebook: a markdown title cell, then one code cell per ``sources`` entry, tagged."""
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    nb: Any = new_notebook()  # type: ignore[no-untyped-call]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    nb.cells.append(new_markdown_cell(title))  # type: ignore[no-untyped-call]
    for tag, source in sources.items():
        nb.cells.append(new_code_cell(source, metadata={"tags": [tag]}))  # type: ignore[no-untyped-call]
    return nb


def wait_for_run_all(page: Any, done_cell: Any, shot: Any, server: Any) -> None:
    """Wait for ``ALL_DONE`` in ``done_cell``; on a timeout, screenshot to ``shot`` and fail
    with every output and the server's log."""
    import pytest
    from playwright.sync_api import expect

    try:
        expect(done_cell.locator(STDOUT)).to_contain_text("ALL_DONE", timeout=120_000)
    except AssertionError:
        page.screenshot(path=shot, full_page=True)
        outputs = page.locator(".jp-OutputArea-output").all_text_contents()
        pytest.fail(f"run all did not finish; outputs: {outputs}; log: {server.log_tail(2000)}")


@contextmanager
def lab_notebook(
    chromium: Any, root: Path, name: str, cells: int, failed_shot: Path, timeout_ms: int
) -> Iterator[tuple[Any, Any]]:
    """A JupyterLab server on ``root`` with notebook ``name`` (``cells`` code cells, the
    last printing ``ALL_DONE``) open and run all: yields ``(page, lab)``; the server must
    stop clean."""
    from tests.ui._lab import LabServer

    lab = LabServer(root)
    lab.start()
    page = chromium.page()
    page.set_default_timeout(timeout_ms)
    try:
        open_notebook(page, lab.url(f"/lab/tree/{name}"), name)
        run_all(page)
        done = page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(cells)
        wait_for_run_all(page, done, failed_shot, lab)
        yield page, lab
    finally:
        report = lab.stop()
        assert report["clean"], report
