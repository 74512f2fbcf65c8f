"""Styles reach every root a widget is shown in, in headless Chromium.

marimo renders each anywidget inside a shadow root, where rules in the page's ``<head>``
do not apply (a widget drew unstyled there). The kit now puts its CSS and the widget's
into the shadow root the widget sits in, as soon as it is attached. Checked with the real
scalars bundle (``tbnb/static/scalars.js``, its model state from Python) drawn in the page
and inside a shadow root: both look the same (up to a few anti-aliased edge pixels);
and with the kit's probe view rendered into an element attached to a shadow root only
after ``render``.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tbnb
from tbnb.notebook.samples import sample_logdir
from tests.ui._chromium import Chromium

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "js"

# A model like anywidget's over saved state (buffers put back as DataViews).
PAGE_JS = """
const data = JSON.parse(document.getElementById("state").textContent);
function model() {
  const state = structuredClone(data.state);
  data.paths.forEach((path, i) => {
    let obj = state;
    for (const k of path.slice(0, -1)) obj = obj[k];
    const bytes = Uint8Array.from(atob(data.buffers[i]), (c) => c.charCodeAt(0));
    obj[path[path.length - 1]] = new DataView(bytes.buffer);
  });
  const handlers = new Map();
  return {
    get: (k) => state[k],
    set(k, v) { state[k] = v; for (const fn of handlers.get(`change:${k}`) || []) fn(); },
    save_changes() {},
    on(e, fn) { if (!handlers.has(e)) handlers.set(e, new Set()); handlers.get(e).add(fn); },
    off(e, fn) { handlers.get(e)?.delete(fn); },
    send() {},
  };
}
const url = URL.createObjectURL(new Blob([document.getElementById("bundle").textContent],
                                         { type: "text/javascript" }));
const widget = (await import(url)).default;
const shadow = document.getElementById("shadow-host").attachShadow({ mode: "open" });
const inner = document.createElement("div");
inner.style.width = "900px";
shadow.append(inner);
widget.render({ model: model(), el: document.getElementById("light") });
widget.render({ model: model(), el: inner });
window.__ready = true;
"""


def _pixels(path: Path) -> np.ndarray:
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("RGB")).astype(np.int16)


def _page(tmp: Path, key: str, widget: Any) -> Path:
    from ipywidgets.widgets.widget import _remove_buffers

    state, paths, buffers = _remove_buffers(widget.get_state())
    data = {
        "state": state,
        "paths": paths,
        "buffers": [base64.b64encode(bytes(b)).decode() for b in buffers],
    }
    bundle = (ROOT / "tbnb" / "static" / f"{key}.js").read_text(encoding="utf-8")
    state_json = json.dumps(data).replace("</", "<\\/")
    assert "</script" not in bundle
    page = tmp / f"{key}.html"
    page.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head>'
        '<body style="margin:0;font-family:sans-serif">'
        '<div id="light" style="width:900px;height:800px"></div><div id="shadow-host"></div>'
        f'<script type="application/json" id="state">{state_json}</script>'
        f'<script type="text/plain" id="bundle">{bundle}</script>'
        f'<script type="module">{PAGE_JS}</script></body></html>',
        encoding="utf-8",
    )
    return page


def test_a_widget_in_a_shadow_root_is_styled_as_in_the_page(
    chromium: Chromium, tmp_path: Path, out_dir: Path
) -> None:
    exp = tbnb.load(sample_logdir())
    widget = tbnb.scalars(exp, tags="^train/")
    chromium.log.clear()
    page = chromium.context.new_page()
    page.goto(_page(tmp_path, "scalars", widget).as_uri())
    page.wait_for_function("() => window.__ready === true")
    light = page.locator("#light .tbnb-w-scalars")
    shadow = page.locator("#shadow-host .tbnb-w-scalars")  # Playwright pierces open roots
    shadow.locator("canvas").first.wait_for()
    page.wait_for_timeout(500)
    styles = page.evaluate("""() => {
      const inner = document.getElementById('shadow-host').shadowRoot;
      const look = (root) => {
        const bar = root.querySelector('.tbnb-w-scalars .tbnb-toolbar');
        const chart = root.querySelector('.tbnb-w-scalars .tbnb-chart');
        return { bar: getComputedStyle(bar).display, font: getComputedStyle(bar).fontSize,
                 chart: chart.getBoundingClientRect().width };
      };
      return { light: look(document), shadow: look(inner),
               inShadow: [...inner.querySelectorAll('style[data-tbnb-style]')]
                   .map((s) => s.dataset.tbnbStyle),
               inHead: document.head.querySelectorAll('style[data-tbnb-style]').length };
    }""")
    assert styles["shadow"]["bar"] == "flex"  # the kit's toolbar rule reached the shadow root
    assert styles["shadow"] == styles["light"]
    assert styles["inShadow"] == ["w-scalars", "kit"]  # once each, first in the root
    assert styles["inHead"] == 2
    light.screenshot(path=out_dir / "shadow_root_light.png")
    shadow.screenshot(path=out_dir / "shadow_root_shadow.png")
    a, b = _pixels(out_dir / "shadow_root_light.png"), _pixels(out_dir / "shadow_root_shadow.png")
    assert a.shape == b.shape
    off = np.abs(a - b).max(axis=-1)
    # the same drawing: at most a few anti-aliased edge pixels a shade apart
    assert off.max() <= 16
    assert (off > 0).mean() < 1e-3
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    page.close()
    widget.close()


def test_a_view_attached_to_a_shadow_root_after_render_gets_its_styles(
    chromium: Chromium, tmp_path: Path
) -> None:
    node = shutil.which("node")
    esbuild = JS / "node_modules" / ".bin" / "esbuild"
    if node is None or not esbuild.exists():
        pytest.skip("node and js/node_modules (npm ci) are needed to bundle the kit page")
    subprocess.run(
        [str(esbuild), "tests/browser/kit-page.js", "--bundle", "--format=esm",
         f"--outfile={tmp_path / 'kit.js'}"],
        cwd=JS, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    page_path = tmp_path / "kit.html"
    page_path.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
        f'<script type="module">{(tmp_path / "kit.js").read_text(encoding="utf-8")}</script>'
        "</body></html>",
        encoding="utf-8",
    )
    page = chromium.context.new_page()
    page.goto(page_path.as_uri())
    page.wait_for_function("() => window.kit !== undefined")
    got = page.evaluate("""async () => {
      const { fakeModel, renderProbe } = window.kit;
      const host = document.createElement('div');
      document.body.append(host);
      const shadow = host.attachShadow({ mode: 'open' });
      const el = document.createElement('div');        // not in any root yet
      const cleanup = renderProbe({ model: fakeModel({ x: 0, y: 0 }), el });
      const before = shadow.querySelectorAll('style').length;
      shadow.append(el);                                 // attached later, as hosts do
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const probe = shadow.querySelector('.probe');
      const out = { before, after: shadow.querySelectorAll('style[data-tbnb-style]').length,
                    color: getComputedStyle(probe).color,
                    font: getComputedStyle(el.firstChild).fontSize };
      cleanup();
      return out;
    }""")
    assert got == {"before": 0, "after": 2, "color": "rgb(255, 0, 0)", "font": "12px"}
    page.close()
