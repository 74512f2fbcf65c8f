"""Our bundles loaded as VS Code's notebook renderer loads an anywidget, with no JupyterLab.

VS Code's Jupyter extension renders ipywidgets 8 outputs with its own widget manager;
anywidget's front end there imports the widget's ``_esm`` from a blob URL and calls the
module's ``render({model, el})`` with an anywidget model (``get``, ``set``,
``save_changes``, ``on``/``off``, ``send``; binary traits as ``DataView``). This test
does exactly that on a plain ``file://`` page: the state comes from the real Python
widgets (``Widget.get_state``, buffers split out as the comm protocol sends them), the
model is the smallest one the anywidget API describes, and nothing of JupyterLab,
ipywidgets' own JavaScript or the export page's shim is on the page. It is not VS Code
itself: what VS Code adds (its output webview, its kernel messaging) stays untested here
(see docs/frontends.md).
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from ipywidgets.widgets.widget import _remove_buffers

import tbnb
from tbnb.notebook.samples import SampleSpec, write_sample
from tests.ui._chromium import Chromium

pytestmark = pytest.mark.browser

SPEC = SampleSpec(
    learning_rates=(1e-3, 1e-2),
    seeds=(0, 1),
    steps=60,
    val_every=20,
    hist_every=30,
    image_steps=(0, 59),
)

PAGE_JS = r"""
const specs = JSON.parse(document.getElementById("specs").textContent);
function bytes(b64) { const s = atob(b64); const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i); return out; }
class Model {
  constructor(state) { this.state = state; this.listeners = {}; this.saved = []; this.sent = []; }
  get(key) { return this.state[key]; }
  set(key, value) { const old = this.state[key]; this.state[key] = value;
    if (old !== value) for (const cb of this.listeners[`change:${key}`] || []) cb(); }
  save_changes() { this.saved.push(JSON.stringify(Object.keys(this.state))); }
  on(name, cb) { for (const n of name.split(" ")) (this.listeners[n] ||= []).push(cb); }
  off(name, cb) { if (!name) { this.listeners = {}; return; }
    for (const n of name.split(" "))
      this.listeners[n] = (this.listeners[n] || []).filter(f => cb && f !== cb); }
  send(content) { this.sent.push(content); }
}
window.models = {};
window.rendered = [];
try { for (const spec of specs) {
  const state = spec.state;
  for (const [i, path] of spec.buffer_paths.entries()) {
    let obj = state; for (const key of path.slice(0, -1)) obj = obj[key];
    const b = bytes(spec.buffers[i]);
    obj[path[path.length - 1]] = new DataView(b.buffer, b.byteOffset, b.byteLength);
  }
  const model = new Model(state);
  window.models[spec.key] = model;
  const el = document.createElement("div");
  el.id = `host-${spec.key}`; el.style.width = "900px";
  document.body.append(el);
  const url = URL.createObjectURL(new Blob([spec.esm], { type: "text/javascript" }));
  const mod = await import(url);
  URL.revokeObjectURL(url);
  const widget = mod.default ?? mod;
  await widget.initialize?.({ model });
  await widget.render({ model, el });
  window.rendered.push(spec.key);
} } catch (e) { window.__error = String(e && e.stack || e); }
window.done = true;
"""


def _spec(key: str, widget: Any) -> dict[str, Any]:
    state = widget.get_state()
    esm = state.pop("_esm")
    state.pop("_css", None)
    plain, paths, buffers = _remove_buffers(state)
    return {
        "key": key,
        "esm": esm,
        "state": plain,
        "buffer_paths": paths,
        "buffers": [base64.b64encode(bytes(b)).decode() for b in buffers],
    }


def test_bundles_render_from_a_blob_url_with_a_minimal_model(
    chromium: Chromium, tmp_path: Path, out_dir: Path
) -> None:
    from playwright.sync_api import expect

    write_sample(tmp_path / "logs", SPEC)
    exp = tbnb.load(tmp_path / "logs", progress=False)
    widgets = {
        "scalars": tbnb.scalars(exp, smoothing=0.5),
        "images": tbnb.images(exp),
        "text": tbnb.text(exp),
    }
    specs = [_spec(key, w) for key, w in widgets.items()]
    data = json.dumps(specs).replace("</", "<\\/")
    page_path = tmp_path / "vscode_style.html"
    page_path.write_text(
        '<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>'
        f'<script type="application/json" id="specs">{data}</script>'
        f'<script type="module">{PAGE_JS}</script></body></html>',
        encoding="utf-8",
    )
    chromium.log.clear()
    page = chromium.context.new_page()
    try:
        page.goto(page_path.as_uri())
        page.wait_for_function("window.done === true || window.__error", timeout=60_000)
        assert page.evaluate("window.__error || null") is None
        assert page.evaluate("window.rendered") == list(widgets)
        scalars = page.locator("#host-scalars .tbnb-w-scalars")
        charts = scalars.locator(".tbnb-chart")
        # lr, train/acc, train/loss, val/acc, val/loss and add_hparams' two final metrics
        assert charts.count() == len(widgets["scalars"].charts) == 7
        loss = scalars.locator('.tbnb-chart[data-tag="train/loss"]')
        assert loss.get_attribute("data-series-count") == "4"
        blank = page.evaluate("""() => { const c = document.querySelector(
            '#host-scalars .tbnb-chart[data-tag="train/loss"] canvas');
            const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
            let ink = 0; for (let i = 3; i < d.length; i += 4) if (d[i]) ink++; return ink; }""")
        assert blank > 100  # the chart drew lines
        page.wait_for_function(  # an image painted from the saved frames (width 1 until then)
            """() => [...document.querySelectorAll('#host-images .tbnb-w-images canvas.tbnb-img')]
                 .some(c => c.width > 1)""",
            timeout=30_000,
        )
        # the cards' texts are drawn as they come into view: scroll to them, wait for them
        page.locator("#host-text").scroll_into_view_if_needed()
        expect(page.locator("#host-text .tbnb-w-text")).to_contain_text(
            re.compile("mlp-2x256|finished 60 steps"), timeout=30_000
        )
        # An interaction goes back to the model as anywidget's API says: set + save_changes.
        slider = scalars.locator("input.tbnb-smoothing")
        slider.fill("0.9")
        slider.dispatch_event("input")
        slider.dispatch_event("change")
        page.wait_for_function(
            "Math.abs(window.models.scalars.get('smoothing') - 0.9) < 1e-9", timeout=10_000
        )
        assert page.evaluate("window.models.scalars.saved.length") >= 1
        page.screenshot(path=out_dir / "vscode_style.png", full_page=True)
    finally:
        page.close()
        for w in widgets.values():
            w.close()
    assert chromium.log.page_errors == []
    assert chromium.log.console_errors == []
    assert chromium.log.external_requests == []
