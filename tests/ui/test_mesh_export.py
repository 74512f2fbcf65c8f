"""The meshes view in exported pages (``tbnb.notebook.export.to_html``), offline, in Chromium.

No kernel: the meshes a page shows are the ones saved with it. Each card draws its mesh
(WebGL2 on SwiftShader, the CPU rasteriser of headless Chromium): painted pixels where the
mesh is, the colours as logged; a drag turns every card; the mode switch draws edges;
a step not saved says so; a 300,000-point cloud draws a uniform sample while it moves
and every point once it rests. Screenshots go to tests/ui/out/ (``mesh_export_*.png``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.notebook.export import to_html
from tests import writers_meshes
from tests.ui._chromium import Chromium

pytestmark = pytest.mark.browser

#: ``[pixels painted, checksum of where, mean RGB of the painted ones]`` of every card.
INKED_JS = """root => [...root.querySelectorAll('.tbnb-card:not([hidden]) canvas.tbnb-mesh-canvas')]
  .map((c) => {
    const s = document.createElement('canvas');
    s.width = c.width; s.height = c.height;
    const x = s.getContext('2d');
    x.drawImage(c, 0, 0);
    const d = x.getImageData(0, 0, s.width, s.height).data;
    let n = 0, sum = 0, r = 0, g = 0, b = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) {
      n++; sum = (sum + i) % 1e9; r += d[i - 3]; g += d[i - 2]; b += d[i - 1]; }
    return [c.closest('.tbnb-card').dataset.run + '|' + c.closest('.tbnb-card').dataset.tag,
            n, sum, n ? [r / n, g / n, b / n] : null];
  })"""
READY_JS = """el => { const cards = [...el.querySelectorAll('.tbnb-card')]
  .filter(c => !c.hidden && c.getBoundingClientRect().top < innerHeight);
  return cards.length > 0 && cards.every(c => c.dataset.state === 'ready')
    && Number(el.dataset.frames) > 0 && el.dataset.moving !== 'true'; }"""


def _inked(page: Any) -> dict[str, tuple[int, int, Any]]:
    root = page.locator(".tbnb-w-mesh")
    page.wait_for_function(READY_JS, arg=root.element_handle())
    page.wait_for_timeout(300)  # the rest frame (every point) after the last move
    return {key: (n, where, rgb) for key, n, where, rgb in root.evaluate(INKED_JS)}


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("mesh_export")
    writers_meshes.write_torch(str(path / "torch"))
    writers_meshes.write_tensorboard(str(path / "tb"))
    return path


@pytest.fixture
def page(chromium: Chromium) -> Iterator[Any]:
    chromium.log.clear()
    yield chromium
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    assert chromium.log.external_requests == []


def _open(chromium: Chromium, widget: Any, path: Path) -> Any:
    to_html(widget, path, overwrite=True)
    page = chromium.open_exported(path)
    page.set_default_timeout(60_000)
    return page


def test_every_saved_mesh_draws_in_its_colours(
    page: Chromium, logdir: Path, tmp_path: Path, out_dir: Path
) -> None:
    exp = tbnb.load(str(logdir), progress=False)
    widget = tbnb.meshes(exp, tags="tetra|solid|points", card_size=240)
    p = _open(page, widget, tmp_path / "meshes.html")
    inked = _inked(p)
    assert sorted(inked) == sorted(
        [
            "torch/a|tetra",
            "torch/b|tetra",
            "tb/tb|solid",
            "torch/a|scan/points",
            "torch/b|scan/points",
        ]
    )
    for key, (n, _, _) in inked.items():
        assert n > 300, (key, n)  # a mesh is there, not an empty card
    # a point cloud of 500 points coloured by position: its mean colour is the logged one's
    points = exp.meshes[(exp.meshes["run"] == "torch/a") & (exp.meshes["tag"] == "scan/points")]
    logged = np.asarray(points["colors"].iloc[0], np.float64).mean(axis=0)
    shown = np.asarray(inked["torch/a|scan/points"][2])
    assert np.abs(shown - logged).max() < 25, (shown, logged)
    p.locator(".tbnb-w-mesh").screenshot(path=str(out_dir / "mesh_export_cards.png"))


def test_a_drag_turns_every_card_and_wireframe_draws_edges(
    page: Chromium, logdir: Path, tmp_path: Path, out_dir: Path
) -> None:
    exp = tbnb.load(str(logdir), progress=False)
    p = _open(page, tbnb.meshes(exp, tags="tetra", card_size=240), tmp_path / "orbit.html")
    before = _inked(p)
    canvas = p.locator('.tbnb-card[data-run="torch/a"] canvas.tbnb-mesh-canvas')
    box = canvas.bounding_box()
    p.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    p.mouse.down()
    p.mouse.move(box["x"] + box["width"] / 2 + 90, box["y"] + box["height"] / 2 + 30, steps=8)
    p.mouse.up()
    turned = _inked(p)
    for key in before:  # both runs' cards turned, not only the one dragged
        assert turned[key][1] != before[key][1], key
    p.locator("select.tbnb-mesh-mode").select_option("wireframe")
    edges = _inked(p)
    for key in before:  # a wireframe paints far fewer pixels than the solid faces
        assert 0 < edges[key][0] < turned[key][0] / 2, (key, edges[key], turned[key])
    p.locator(".tbnb-w-mesh").screenshot(path=str(out_dir / "mesh_export_wireframe.png"))
    p.locator("button.tbnb-mesh-fit").click()
    assert _inked(p)["torch/a|tetra"][1] != edges["torch/a|tetra"][1]


def test_a_step_not_saved_says_so_and_samples_reach_every_mesh(
    page: Chromium, logdir: Path, tmp_path: Path
) -> None:
    exp = tbnb.load(str(logdir), progress=False)
    widget = tbnb.meshes(exp, tags="^tetra|twice", runs="torch/a")
    p = _open(page, widget, tmp_path / "steps.html")
    card = p.locator('.tbnb-card[data-tag="tetra"]')
    card.locator(".tbnb-card-steps input[type=number]").fill("0")
    card.locator(".tbnb-card-steps input[type=number]").press("Enter")
    p.wait_for_function(
        "el => el.dataset.state === 'missing'", arg=card.element_handle(), timeout=20_000
    )
    assert "not saved in this page" in (card.locator(".tbnb-card-msg").text_content() or "")
    twice = p.locator('.tbnb-card[data-tag="twice"]')
    assert "1 of 4" in (twice.locator(".tbnb-card-samples").text_content() or "")


def test_a_large_cloud_draws_a_sample_while_moving_and_every_point_at_rest(
    page: Chromium, tmp_path: Path, out_dir: Path
) -> None:
    n = 300_000
    points, colors = writers_meshes.cloud(n, seed=5)
    frame = pd.DataFrame(
        [
            {
                "run": "scan",
                "tag": "cloud",
                "step": 0,
                "wall_time": 0.0,
                "sample": 0,
                "vertices": points[0],
                "faces": None,
                "colors": colors[0],
                "num_vertices": n,
                "num_faces": 0,
                "config": None,
            }
        ]
    )
    p = _open(page, tbnb.meshes(frame), tmp_path / "cloud.html")
    _inked(p)
    drawn = p.evaluate(
        """async (moves) => {
      const root = document.querySelector('.tbnb-w-mesh');
      const canvas = root.querySelector('canvas.tbnb-mesh-canvas');
      const r = canvas.getBoundingClientRect();
      const frame = () => new Promise((res) => requestAnimationFrame(() => res()));
      const ev = (type, x, y, dx) => canvas.dispatchEvent(new PointerEvent(type, {clientX: x,
        clientY: y, movementX: dx, movementY: 0, bubbles: true, pointerId: 1, button: 0}));
      let x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      ev('pointerdown', x, y, 0);
      const out = [];
      for (let k = 0; k < moves; k++) {
        x += 3; ev('pointermove', x, y, 3); await frame();
        await new Promise((res) => setTimeout(res, 20));  // let the fence report the cost
        out.push(Number(root.dataset.drawn));
      }
      ev('pointerup', x, y, 0);
      return out;
    }""",
        25,
    )
    assert drawn[-1] < n / 4, drawn  # the cost was measured: moving frames draw a sample
    assert min(drawn) >= 5000, drawn
    p.wait_for_function(
        f"() => Number(document.querySelector('.tbnb-w-mesh').dataset.drawn) === {n}",
        timeout=60_000,
    )
    assert p.locator(".tbnb-mesh-box").get_attribute("data-vertices") == str(n)
    p.locator(".tbnb-w-mesh").screenshot(path=str(out_dir / "mesh_export_cloud.png"))
