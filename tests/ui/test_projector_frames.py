"""Moving a large point cloud stays smooth where the rasteriser is slow.

Headless Chromium draws WebGL2 on SwiftShader, a CPU rasteriser, at about a microsecond
per point: 300,000 points take a third of a second a frame. The projector measures what a
draw costs (a fence polled after it) and, while the view moves, draws a uniform sample
sized to its frame budget; once the view rests it draws every point again. The test drags
the exported page's 2-D cloud and checks, in the page: the moving frames draw a sample and
move the picture, also when a frame comes late as on a loaded machine (the main thread is
held past the scene's rest delay before the last moving frame), and once the pointer is
released and the view rests every point is drawn and the picture is denser than while
moving. Screenshots go to tests/ui/out/.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tbnb
from tbnb.notebook.export import render_html
from tests.ui._chromium import Chromium

pytestmark = pytest.mark.browser

POINTS = 300_000

DRAG_JS = """async (moves) => {
  const root = document.querySelector('.tbnb-w-embeddings');
  const target = root.querySelector('canvas.tbnb-pj-overlay');
  const scene = root.querySelector('.tbnb-pj-scene');
  const canvas = root.querySelector('canvas.tbnb-pj-gl');
  const gl = canvas.getContext('webgl2');
  const frame = () => new Promise((res) => requestAnimationFrame(() => res()));
  const inked = () => {  // pixels with any paint, and a checksum of where they are
    const c = document.createElement('canvas');
    c.width = canvas.width; c.height = canvas.height;
    const ctx = c.getContext('2d');
    ctx.drawImage(canvas, 0, 0);
    const px = ctx.getImageData(0, 0, c.width, c.height).data;
    let count = 0, sum = 0;
    for (let i = 3; i < px.length; i += 4) if (px[i] > 0) { count++; sum = (sum + i) % 1e9; }
    return [count, sum];
  };
  const r = target.getBoundingClientRect();
  const ev = (type, x, y, dx) => target.dispatchEvent(new PointerEvent(type, {clientX: x,
    clientY: y, movementX: dx, movementY: dx / 2, bubbles: true, pointerId: 1, button: 0}));
  // the first (full) draw has been measured once a moving frame is sampled
  let x = r.left + r.width / 2, y = r.top + r.height / 2;
  gl.finish();
  const before = inked();
  ev('pointerdown', x, y, 0);
  const drawn = [];
  let moving = null;
  for (let k = 0; k < moves; k++) {
    x += 3; y += 1;
    ev('pointermove', x, y, 3);
    if (k === moves - 1) {
      // a loaded machine: the frame after the last move comes late (longer than the
      // scene's rest delay); the pointer is still down, so it must still be a sample
      const t0 = performance.now();
      while (performance.now() - t0 < 400) {}
    }
    await frame();
    gl.finish();
    drawn.push(Number(scene.dataset.drawn));
    if (k === moves - 1) moving = inked();
  }
  ev('pointerup', x, y, 0);
  const deadline = performance.now() + 60000;
  while (Number(scene.dataset.drawn) < Number(root.dataset.points)) {
    if (performance.now() > deadline) break;
    await frame();
  }
  gl.finish();
  return {drawn, before, moving, rest: inked(), restDrawn: Number(scene.dataset.drawn)};
}"""


@pytest.fixture(scope="module")
def page(chromium: Chromium, tmp_path_factory: pytest.TempPathFactory) -> Any:
    rng = np.random.default_rng(0)
    widget = tbnb.projector(rng.normal(size=(POINTS, 2)).astype(np.float32), method="raw", dims=2)
    path = tmp_path_factory.mktemp("frames") / "cloud.html"
    path.write_text(render_html(widget), encoding="utf-8")
    page = chromium.open_exported(path, timeout_ms=120_000)
    page.wait_for_selector(f".tbnb-w-embeddings[data-points='{POINTS}']", timeout=120_000)
    page.wait_for_function(
        "() => Number(document.querySelector('.tbnb-pj-scene').dataset.frames) > 0", timeout=120_000
    )
    return page


def test_moving_frames_draw_a_sample_and_rest_draws_every_point(
    page: Any, chromium: Chromium, out_dir: Path
) -> None:
    out = page.evaluate(DRAG_JS, 30)
    page.screenshot(path=str(out_dir / "projector_frames_rest.png"))
    sampled = [d for d in out["drawn"] if d < POINTS]
    # the first moves may still draw everything while the first draw is being measured;
    # after that every moving frame is a sample
    assert sampled, out["drawn"]
    assert out["drawn"][-1] < POINTS / 4, out["drawn"]
    assert all(d >= 5000 for d in out["drawn"]), out["drawn"]
    assert out["moving"] != out["before"], "the picture did not move"
    assert out["restDrawn"] == POINTS
    # at rest the cloud is whole again: more pixels painted than by the sample
    assert out["rest"][0] > 1.5 * out["moving"][0], (out["rest"], out["moving"])
    log = chromium.log
    assert not log.console_errors, log
    assert not log.page_errors, log
    assert not log.external_requests, log
