"""The embedding projector in headless Chromium (WebGL2 through SwiftShader).

- the exported page (``render_html``: the real bundle and saved state, no kernel, no
  network): the points are drawn, a box drag selects exactly the points inside it and
  changes the pixels, search highlights matches, hostile labels stay text;
- real JupyterLab: the box selection reaches ``widget.selected`` and ``on_select`` in the
  kernel, and choosing UMAP in the toolbar runs it in the background and streams the
  layout back to the view.

Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import numpy as np
import pandas as pd
import pytest

from tbnb.notebook.export import render_html
from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import CellDriver, open_notebook, run_all, tagged_notebook, wait_for_run_all

pytestmark = pytest.mark.browser

TIMEOUT_MS = 120_000
EVIL = "<img src=x onerror=\"document.title='pwned'\"><script>alert(1)</script>"
SIZES = (100, 200, 300, 400)  # one cluster per corner of the unit square, told by its size

DATA = f"""\
import numpy as np, pandas as pd
rng = np.random.default_rng(0)
corners = np.array([[0, 0], [1, 0], [0, 1], [1, 1]], dtype=np.float32)
cluster = np.repeat(np.arange(4), {list(SIZES)!r})
X = corners[cluster] + rng.uniform(-0.1, 0.1, (len(cluster), 2)).astype(np.float32)
meta = pd.DataFrame({{"cls": [f"corner{{c}}" for c in cluster],
                     "name": [{EVIL!r} + str(i) for i in range(len(cluster))]}})
"""


def _corner_data() -> tuple[np.ndarray, pd.DataFrame]:
    scope: dict[str, Any] = {}
    exec(DATA, scope)  # the same data the notebook makes
    return scope["X"], scope["meta"]


def _box_drag(page: Any, root: Any, frac: tuple[float, float, float, float]) -> None:
    """Choose Box and drag over the fraction (x0, y0, x1, y1) of the scene."""
    root.locator('button.tbnb-pj-mode[data-mode="box"]').click()
    box = root.locator("canvas.tbnb-pj-overlay").bounding_box()
    x0, y0, x1, y1 = (
        box["x"] + box["width"] * frac[0],
        box["y"] + box["height"] * frac[1],
        box["x"] + box["width"] * frac[2],
        box["y"] + box["height"] * frac[3],
    )
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=10)
    page.mouse.up()


@dataclass
class Page:
    page: Any
    browser: Chromium
    out: Path

    @property
    def root(self) -> Any:
        return self.page.locator(".tbnb-w-embeddings")

    def pixels(self) -> bytes:
        return bytes(self.root.locator(".tbnb-pj-scene").screenshot())


@pytest.fixture(scope="module")
def export_page(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Page]:
    import tbnb

    X, meta = _corner_data()
    widget = tbnb.projector(X, meta, color="cls", label="name")
    path = tmp_path_factory.mktemp("pj_page") / "projector.html"
    path.write_text(render_html(widget), encoding="utf-8")
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.goto(path.as_uri())
    page.wait_for_selector(".tbnb-w-embeddings[data-points='1000']")
    yield Page(page, chromium, out_dir)
    page.close()


def test_export_page_draws_selects_and_keeps_labels_as_text(export_page: Page) -> None:
    from playwright.sync_api import expect

    p = export_page
    root = p.root
    expect(root).to_have_attribute("data-method", "raw")
    expect(root).to_have_attribute("data-legend", "4")
    frames = root.locator(".tbnb-pj-scene")
    expect(frames).not_to_have_attribute("data-frames", "0")
    blank = p.page.evaluate("""() => { const c = document.querySelector('canvas.tbnb-pj-gl');
        const gl = c.getContext('webgl2'); return gl ? gl.drawingBufferWidth : -1; }""")
    assert blank > 0  # a WebGL2 context, sized to the cell
    before = p.pixels()
    root.screenshot(path=p.out / "projector_01_page.png")
    # the left half of the scene, bottom to top, holds corners 0 (0, 0) and 2 (0, 1)
    _box_drag(p.page, root, (0.02, 0.02, 0.45, 0.98))
    expect(root).to_have_attribute("data-selected", str(SIZES[0] + SIZES[2]))
    assert p.pixels() != before  # selected points are drawn highlighted
    root.screenshot(path=p.out / "projector_02_box_selected.png")
    root.locator(".tbnb-pj-clear").click()
    expect(root).to_have_attribute("data-selected", "0")
    search = root.locator("input.tbnb-pj-search")
    search.fill("corner3")
    expect(root).to_have_attribute("data-matches", str(SIZES[3]))
    # hostile names: shown as text in the legend/panel, never parsed as markup
    assert root.locator("img, script").count() == 0
    panel_text = root.locator(".tbnb-pj-panel").text_content() or ""
    assert "corner0" in panel_text
    box = root.locator("canvas.tbnb-pj-overlay").bounding_box()
    root.locator('button.tbnb-pj-mode[data-mode="pan"]').click()
    hovered = "-1"
    for fy in np.linspace(0.02, 0.45, 12):  # sweep corner 3's quadrant until a point is hit
        for fx in np.linspace(0.55, 0.98, 12):
            p.page.mouse.move(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)
            hovered = root.get_attribute("data-hover") or "-1"
            if hovered != "-1":
                break
        if hovered != "-1":
            break
    assert int(hovered) >= sum(SIZES[:3])  # a point of corner 3
    expect(root.locator(".tbnb-pj-hover")).to_contain_text(EVIL[:20])
    root.screenshot(path=p.out / "projector_03_hover.png")
    assert root.locator("img, script").count() == 0
    search.fill("")
    expect(root).to_have_attribute("data-matches", "0")
    assert p.page.title() != "pwned"
    log = p.browser.log
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors
    assert not log.external_requests, log.external_requests
    assert not log.dialogs, log.dialogs


def test_export_page_explains_the_map_and_links_the_distribution(export_page: Page) -> None:
    from playwright.sync_api import expect

    p = export_page
    root = p.root
    root.locator(".tbnb-pj-clear").click()
    # at low zoom: contours, and one label per corner naming its class
    expect(root).to_have_attribute("data-regions", "4")
    assert int(root.get_attribute("data-contours") or 0) > 20
    with_map = p.pixels()
    root.screenshot(path=p.out / "projector_04_density_labels.png")
    root.locator("input.tbnb-pj-density").uncheck()
    expect(root).to_have_attribute("data-regions", "0")
    assert p.pixels() != with_map  # contours and labels were drawn
    root.locator("input.tbnb-pj-density").check()
    expect(root).to_have_attribute("data-regions", "4")
    # the distribution of the colour column; a click on a bar selects its points
    bars = root.locator(".tbnb-pj-histogram .tbnb-pj-bar")
    expect(bars).to_have_count(4)
    bars.filter(has_text="corner2").click()
    expect(root).to_have_attribute("data-selected", str(SIZES[2]))
    expect(root.locator(".tbnb-pj-bar-chosen")).to_have_count(4)
    expect(bars.filter(has_text="corner2")).to_contain_text(f"{SIZES[2]}/{SIZES[2]}")
    root.screenshot(path=p.out / "projector_05_distribution_selected.png")
    # zoomed in, the region labels give way to the points'
    box = root.locator("canvas.tbnb-pj-overlay").bounding_box()
    p.page.mouse.move(box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.8)
    for _ in range(12):
        p.page.mouse.wheel(0, -240)
    expect(root).to_have_attribute("data-regions", "0")
    root.locator(".tbnb-pj-fit").click()
    expect(root).to_have_attribute("data-regions", "4")
    log = p.browser.log
    assert not log.page_errors, log.page_errors
    assert not log.console_errors, log.console_errors


# --------------------------------------------------------------------------- JupyterLab

NB = "tbnb_projector_ui.ipynb"
CELLS = ["setup", "widget", "readback", "logged", "readback_logged", "done"]


def _notebook() -> Any:
    sources = {
        "setup": "import json\nimport tbnb\n" + DATA,
        "widget": """\
w = tbnb.projector(X, meta, color="cls", label="name", height=420)
changes = []
w.on_select(lambda df: changes.append(len(df)))
w""",
        "readback": """\
_reads = globals().get("_reads", 0) + 1
print(f"STATE {_reads} " + json.dumps({"selected": w.selected["index"].tolist(),
      "classes": sorted(set(w.selected["cls"])), "changes": changes, "method": w.method,
      "state": w.status.get("state"), "coords": w.coordinates.shape[0]}))""",
        "logged": """\
import tempfile, pathlib
from tests.writers_embeddings import write_torch_embeddings
logdir = pathlib.Path(tempfile.mkdtemp())
write_torch_embeddings(logdir)   # two steps of "words", and "images" with a sprite
p = tbnb.projector(logdir, height=380)
p""",
        "readback_logged": """\
_reads_logged = globals().get("_reads_logged", 0) + 1
print(f"STATE {_reads_logged} " + json.dumps({"embedding": p.embedding, "title": p.title,
      "points": len(p.vectors), "focus": p.focus, "color": p.color_by}))""",
        "done": 'print("ALL_DONE")',
    }
    return tagged_notebook("tbnb projector browser test", {t: sources[t] for t in CELLS})


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
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:
    root = tmp_path_factory.mktemp("pj_lab")
    nbformat.write(_notebook(), root / NB)  # type: ignore[no-untyped-call]
    server = LabServer(root)
    server.start()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, server.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        session = Lab(page, out_dir)
        wait_for_run_all(page, session.cell("done"), out_dir / "projector_lab_failed.png", server)
        yield session
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_lab_box_selection_and_umap_reach_python(lab: Lab, chromium: Chromium) -> None:
    from playwright.sync_api import expect

    stderr = lab.page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    )
    assert stderr.count() == 0, stderr.all_text_contents()
    root = lab.cell("widget").locator(".tbnb-w-embeddings")
    expect(root).to_have_attribute("data-points", "1000")
    root.scroll_into_view_if_needed()
    # the right half: corners 1 (1, 0) and 3 (1, 1)
    _box_drag(lab.page, root, (0.55, 0.02, 0.98, 0.98))
    expect(root).to_have_attribute("data-selected", str(SIZES[1] + SIZES[3]))
    root.screenshot(path=lab.out / "projector_lab_selected.png")
    state = lab.readback()
    start1, start3 = SIZES[0], sum(SIZES[:3])
    assert state["selected"] == [
        *range(start1, start1 + SIZES[1]),
        *range(start3, start3 + SIZES[3]),
    ]
    assert state["classes"] == ["corner1", "corner3"]
    assert state["changes"] == [SIZES[1] + SIZES[3]]
    # UMAP from the toolbar: a background job in the kernel, its layout streamed back
    root.locator("select.tbnb-pj-method").select_option("umap")
    expect(root).to_have_attribute("data-method", "umap", timeout=240_000)
    expect(root).to_have_attribute("data-state", "done", timeout=240_000)
    expect(root).to_have_attribute("data-final", "true")
    root.screenshot(path=lab.out / "projector_lab_umap.png")
    state = lab.readback()
    assert state["method"] == "umap"
    assert state["state"] == "done"
    assert state["coords"] == 1000
    assert not chromium.log.external_requests, chromium.log.external_requests
    assert not chromium.log.page_errors, chromium.log.page_errors


def test_lab_embedding_picker_reads_another_and_neighbours_show_sprites(
    lab: Lab, chromium: Chromium
) -> None:
    from playwright.sync_api import expect

    root = lab.cell("logged").locator(".tbnb-w-embeddings")
    expect(root).to_have_attribute("data-points", "30")
    root.scroll_into_view_if_needed()
    picker = root.locator("select.tbnb-pj-embedding")
    images = picker.locator("option", has_text="images")
    picker.select_option(images.get_attribute("value"))
    # the kernel answers the picker's request: the other embedding is read and shown
    expect(root).to_have_attribute("data-points", "12")
    expect(root).to_have_attribute("data-sprite", "ready")
    expect(root.locator(".tbnb-pj-panel .tbnb-pj-message")).to_be_hidden()
    state = lab.readback("readback_logged")
    assert state["points"] == 12
    assert "images" in state["title"]
    assert state["color"] == "cls"
    # a click on a point: its neighbours in the original space, with sprites and metadata
    box = root.locator("canvas.tbnb-pj-overlay").bounding_box()
    focus = "-1"
    for fy in np.linspace(0.1, 0.9, 9):
        for fx in np.linspace(0.1, 0.9, 9):
            lab.page.mouse.click(box["x"] + box["width"] * fx, box["y"] + box["height"] * fy)
            focus = root.get_attribute("data-focus") or "-1"
            if focus != "-1":
                break
        if focus != "-1":
            break
    assert focus != "-1"
    rows = root.locator(".tbnb-pj-neighbors .tbnb-pj-neighbor")
    expect(rows).to_have_count(10)
    expect(rows.locator("canvas.tbnb-pj-thumb")).to_have_count(10)
    expect(rows.first).to_contain_text("cls: ")
    assert root.locator("img, script, b").count() == 0  # "<b>3</b>" names stay text
    root.screenshot(path=lab.out / "projector_lab_picker_neighbours.png")
    assert not chromium.log.page_errors, chromium.log.page_errors
