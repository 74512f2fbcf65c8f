"""The meshes view, and several items logged at one step, in real JupyterLab + headless Chromium.

One JupyterLab server and one notebook for the module (the tests run in order and share the
page): meshes written by torch's ``add_mesh`` and in TensorBoard's mesh-summary form, shown
by ``tbnb.meshes`` and in the dashboard's Meshes tab, and seven images logged one by one at
one step (as the official PyTorch TensorBoard tutorial does) in ``tbnb.images``. Each test
does what a user does (look, drag to orbit, switch to wireframe, move a card's sample
slider, open the tab) and reads the widget's state back in Python. The page may reach no
host but 127.0.0.1 and log no console error. Screenshots go to tests/ui/out/ (``mesh_*.png``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import nbformat
import numpy as np
import pytest

from tests import writers_meshes
from tests.ui._chromium import Chromium
from tests.ui._lab import LabServer
from tests.ui._session import CellDriver, open_notebook, run_all, tagged_notebook, wait_for_run_all
from tests.ui.test_mesh_export import INKED_JS
from tests.writers import image_chw

pytestmark = pytest.mark.browser

TIMEOUT_MS = 90_000
NB = "meshes.ipynb"
CELLS = ["setup", "mesh", "images", "readback", "dash", "done"]
READBACK = """\
_reads = globals().get("_reads", 0) + 1
print(f"STATE {_reads} " + json.dumps({
    "camera": wm.camera, "mode": wm.mode, "positions": wm.positions,
    "image_positions": wi.positions,
    # the image shown, and every image of its card, by where each lies in the event file
    "image_shown": [int(b.offset) for b in wi.data["blob"]],
    "image_all": [int(b.offset) for b in wi.full_data["blob"]]}))"""
READY_JS = """el => { const cards = [...el.querySelectorAll('.tbnb-card')]
  .filter(c => !c.hidden && c.getBoundingClientRect().height > 0);
  return cards.length > 0 && cards.every(c => c.dataset.state === 'ready')
    && Number(el.dataset.frames) > 0; }"""


@dataclass
class Lab(CellDriver):
    page: Any
    lab: LabServer
    browser: Chromium
    out: Path
    timeout_ms: int = TIMEOUT_MS

    def cell(self, tag: str) -> Any:
        return self.page.locator(".jp-NotebookPanel:visible .jp-Notebook .jp-Cell").nth(
            CELLS.index(tag) + 1
        )

    def inked(self, root: Any) -> dict[str, tuple[int, int]]:
        """Painted pixels and where, per card, once every card drew and the view rests."""
        root.scroll_into_view_if_needed()
        self.page.wait_for_function(READY_JS, arg=root.element_handle(), timeout=self.timeout_ms)
        self.page.wait_for_function("el => el.dataset.moving !== 'true'", arg=root.element_handle())
        self.page.wait_for_timeout(300)
        return {key: (n, where) for key, n, where, _ in root.evaluate(INKED_JS)}


@pytest.fixture(scope="module")
def lab(
    chromium: Chromium, out_dir: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Lab]:
    from torch.utils.tensorboard import SummaryWriter

    root = tmp_path_factory.mktemp("mesh_lab")
    logdir = root / "logs"
    writers_meshes.write_torch(str(logdir / "torch"))
    writers_meshes.write_tensorboard(str(logdir / "tb"))
    writer = SummaryWriter(str(logdir / "tutorial"))
    for i in range(7):  # the tutorial's seven images, one add_image call each, one step
        writer.add_image("samples", image_chw(60 + i, height=24, width=24), 0)
    writer.close()
    nb = tagged_notebook(
        "meshes",
        {
            "setup": (
                f"import json, tbnb\nexp = tbnb.load({json.dumps(str(logdir))}, progress=False)"
            ),
            "mesh": "wm = tbnb.meshes(exp, tags='tetra|solid|points', card_size=240)\nwm",
            "images": "wi = tbnb.images(exp, runs='tutorial')\nwi",
            "readback": READBACK,
            "dash": "dash = tbnb.Dashboard(exp)\ndash",
            "done": 'print("ALL_DONE")',
        },
    )
    nbformat.write(nb, root / NB)  # type: ignore[no-untyped-call]
    server = LabServer(root)
    server.start()
    chromium.log.clear()
    page = chromium.context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        open_notebook(page, server.url(f"/lab/tree/{NB}"), NB)
        run_all(page)
        session = Lab(page, server, chromium, out_dir)
        wait_for_run_all(page, session.cell("done"), out_dir / "mesh_00_failed.png", server)
        yield session
        log = chromium.log
        assert not log.console_errors, log
        assert not log.page_errors, log
        assert not log.external_requests, log
    finally:
        page.close()
        report = server.stop()
        assert report["clean"], report
        assert not report["leftover"], report


def test_every_mesh_draws_in_jupyterlab(lab: Lab) -> None:
    stderr = lab.page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    )
    assert stderr.count() == 0, stderr.all_text_contents()
    root = lab.cell("mesh").locator(".tbnb-w-mesh")
    inked = lab.inked(root)
    assert sorted(inked) == sorted(
        [
            "torch/a|tetra",
            "torch/b|tetra",
            "tb/tb|solid",
            "torch/a|scan/points",
            "torch/b|scan/points",
        ]
    )
    assert all(n > 300 for n, _ in inked.values()), inked
    root.screenshot(path=str(lab.out / "mesh_01_lab.png"))


def test_a_drag_turns_every_card_and_python_reads_the_camera(lab: Lab) -> None:
    root = lab.cell("mesh").locator(".tbnb-w-mesh")
    before = lab.inked(root)
    canvas = root.locator('.tbnb-card[data-run="torch/a"][data-tag="tetra"] canvas')
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    lab.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    lab.page.mouse.down()
    lab.page.mouse.move(box["x"] + box["width"] / 2 + 80, box["y"] + box["height"] / 2, steps=8)
    lab.page.mouse.up()
    after = lab.inked(root)
    changed = [key for key in before if after[key][1] != before[key][1]]
    assert sorted(changed) == sorted(before), (before, after)  # every card, not one
    state: dict[str, Any] = {}
    for _ in range(20):
        state = lab.readback()
        if state["camera"]:
            break
        lab.page.wait_for_timeout(150)
    assert state["camera"]["theta"] < 0.6 - 0.3, state  # dragged right: turned left
    root.locator("select.tbnb-mesh-mode").select_option("wireframe")
    edges = lab.inked(root)
    assert edges["torch/a|tetra"][0] < after["torch/a|tetra"][0] / 2
    for _ in range(20):
        if lab.readback()["mode"] == "wireframe":
            break
        lab.page.wait_for_timeout(150)
    else:
        raise AssertionError("the mode never reached Python")
    root.screenshot(path=str(lab.out / "mesh_02_lab_wireframe.png"))


def test_seven_images_logged_at_one_step_are_seven_samples(lab: Lab) -> None:
    root = lab.cell("images").locator(".tbnb-w-images")
    root.scroll_into_view_if_needed()
    card = root.locator('.tbnb-card[data-tag="samples"]')
    lab.page.wait_for_function(
        "el => el.dataset.state === 'ready'", arg=card.element_handle(), timeout=TIMEOUT_MS
    )
    assert "1 of 7" in (card.locator(".tbnb-card-samples").text_content() or "")
    pixels = "el => el.querySelector('canvas.tbnb-img').toDataURL()"
    seen = {card.evaluate(pixels)}
    box = card.locator(".tbnb-card-samples input[type=range]")
    box.focus()
    for sample in range(1, 7):
        lab.page.keyboard.press("ArrowRight")
        lab.page.wait_for_function(
            f"el => el.dataset.sample === '{sample}' && el.dataset.state === 'ready'",
            arg=card.element_handle(),
        )
        lab.page.wait_for_function(
            "([el, seen]) => !seen.includes(el.querySelector('canvas.tbnb-img').toDataURL())",
            arg=[card.element_handle(), sorted(seen)],
        )
        seen.add(card.evaluate(pixels))
    assert len(seen) == 7  # seven different pictures, every one reachable
    state: dict[str, Any] = {}
    for _ in range(20):
        state = lab.readback()
        if state["image_positions"]:
            break
        lab.page.wait_for_timeout(150)
    assert state["image_positions"] == {'["tutorial","samples"]': {"step": None, "sample": 6}}
    # Python shows what the browser shows: the seventh image written
    assert len(state["image_all"]) == 7
    assert state["image_shown"] == [sorted(state["image_all"])[6]], state
    root.screenshot(path=str(lab.out / "mesh_03_seven_samples.png"))


def test_the_dashboard_opens_its_meshes_tab(lab: Lab) -> None:
    cell = lab.cell("dash")
    cell.scroll_into_view_if_needed()
    tab = cell.get_by_role("tab", name="Meshes")
    tab.click()
    root = cell.locator(".tbnb-w-mesh")
    root.wait_for(timeout=TIMEOUT_MS)
    inked = lab.inked(root)
    assert len(inked) >= 5
    assert np.min([n for n, _ in inked.values()]) > 0
    root.screenshot(path=str(lab.out / "mesh_04_dashboard_tab.png"))
