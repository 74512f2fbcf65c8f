"""Self-contained HTML export of a tbnb widget or dashboard.

The page renders offline, with no CDN and no kernel: it inlines the saved state
of every widget model (including binary buffers), each anywidget front-end module
(the ``_esm`` bundle, stored once however many widgets share it), and a small
widget-manager shim that instantiates each module from its state. The shim also
draws the few ipywidgets containers a dashboard is made of (boxes, tabs, HTML
and label widgets) and keeps ``ipywidgets.jslink``/``jsdlink`` links between the
exported models working (the dashboard's hparams selection drives its scalars).
Interactions that need no new data (smoothing, filters, toggles, zoom) work in
the page exactly as in the notebook.

``ipywidgets.embed`` is not used for the page: its default drops default-valued
traits (anywidget's ``_esm`` among them) and its template loads require.js,
the HTML manager and anywidget from CDNs, so it renders blank offline.

Safety: all state travels as JSON inside ``<script type="application/json">``
with ``<``, ``>``, ``&`` and line separators escaped, so no run name, tag or text
can close the script element; the shim only ever puts user data into the DOM as
text; and a Content-Security-Policy (nonce for the one inline script, no network
sources at all) blocks inline event handlers and any request the page might try.

Examples
--------
>>> import pathlib, tempfile, tbnb
>>> from tbnb.notebook.export import to_html
>>> w = tbnb.scalars(tbnb.samples.sample_logdir())
>>> page = to_html(w, pathlib.Path(tempfile.mkdtemp()) / "scalars.html")
>>> "connect-src &#x27;none&#x27;" in page.read_text()     # the page may fetch nothing
True
"""

from __future__ import annotations

import html
import json
import os
import secrets
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ipywidgets import Widget
from ipywidgets.embed import dependency_state

__all__ = ["render_html", "to_html"]

_ESM_REF = "tbnb-esm:"

# The widget-manager shim. Runs as the page's only inline <script type="module">.
_SHIM_JS = r"""
const payload = JSON.parse(document.getElementById("tbnb-export-state").textContent);
const CSS_PROPS = new Set([
  "width", "height", "min_width", "max_width", "min_height", "max_height", "margin", "padding",
  "border", "border_top", "border_right", "border_bottom", "border_left", "display", "flex",
  "flex_flow", "align_items", "align_content", "align_self", "justify_content", "justify_items",
  "overflow", "overflow_x", "overflow_y", "order", "grid_area", "grid_gap", "grid_template_rows",
  "grid_template_columns", "grid_template_areas", "grid_auto_rows", "grid_auto_columns",
  "grid_auto_flow", "grid_row", "grid_column", "object_fit", "object_position", "visibility",
  "top", "left", "right", "bottom",
]);

function bufferFromBase64(b64) {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes.buffer;
}

function putBuffers(state, buffers) {
  for (const { path, data } of buffers || []) {
    let obj = state;
    for (let i = 0; i < path.length - 1; i++) obj = obj[path[i]];
    obj[path[path.length - 1]] = new DataView(bufferFromBase64(data));
  }
}

class Model {
  constructor(id, spec, manager) {
    this.model_id = id;
    this.name = spec.model_name;
    this.module = spec.model_module;
    this.attributes = spec.state;
    this.widget_manager = manager;
    this._handlers = [];
  }
  get(key) { return this.attributes[key]; }
  set(key, value) {
    const changes = typeof key === "object" && key !== null ? key : { [key]: value };
    const changed = [];
    for (const [k, v] of Object.entries(changes)) {
      if (this.attributes[k] !== v) { this.attributes[k] = v; changed.push(k); }
    }
    for (const k of changed) this._emit(`change:${k}`, this, this.attributes[k]);
    if (changed.length) this._emit("change", this);
  }
  save_changes() { /* no kernel in an exported page */ }
  send() { /* no kernel in an exported page */ }
  on(event, callback, context) {
    for (const name of String(event).split(/\s+/)) this._handlers.push({ name, callback, context });
  }
  off(event, callback, context) {
    this._handlers = this._handlers.filter((h) =>
      !((event == null || h.name === event) && (callback == null || h.callback === callback) &&
        (context == null || h.context === context)));
  }
  _emit(name, ...args) {
    for (const h of this._handlers.slice()) {
      if (h.name === name) {
        try { h.callback.apply(h.context, args); } catch (err) { console.error(err); }
      }
    }
  }
}

class Manager {
  constructor(payload) {
    this.models = new Map();
    this._modules = new Map();
    for (const [id, spec] of Object.entries(payload.state)) {
      const state = spec.state || {};
      putBuffers(state, spec.buffers);
      const esm = state._esm;
      if (typeof esm === "string" && esm.startsWith("%ESM_REF%")) {
        state._esm = payload.modules[Number(esm.slice("%ESM_REF%".length))];
      }
      this.models.set(id, new Model(id, { ...spec, state }, this));
    }
  }
  async get_model(id) { return this.models.get(String(id).replace(/^IPY_MODEL_/, "")); }

  // ipywidgets.jslink / jsdlink links between saved models keep working in the page.
  linkAll() {
    for (const link of this.models.values()) {
      if (link.name !== "LinkModel" && link.name !== "DirectionalLinkModel") continue;
      const [srcRef, srcAttr] = link.get("source") || [];
      const [dstRef, dstAttr] = link.get("target") || [];
      const src = this.model(srcRef);
      const dst = this.model(dstRef);
      if (!src || !dst) continue;
      const forward = () => dst.set(dstAttr, src.get(srcAttr));
      src.on(`change:${srcAttr}`, forward);
      forward();
      if (link.name === "LinkModel") {
        dst.on(`change:${dstAttr}`, () => src.set(srcAttr, dst.get(dstAttr)));
      }
    }
  }
  model(ref) { return this.models.get(String(ref).replace(/^IPY_MODEL_/, "")); }

  async _loadAnywidget(model) {
    const esm = model.get("_esm");
    if (!this._modules.has(esm)) {
      this._modules.set(esm, (async () => {
        const url = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
        try {
          const mod = await import(url);
          let def = mod.render ? { render: mod.render } : mod.default;
          if (typeof def === "function") def = await def();
          return def;
        } finally {
          URL.revokeObjectURL(url);
        }
      })());
    }
    const css = model.get("_css");
    if (typeof css === "string" && css && !this._cssDone?.has(css)) {
      (this._cssDone ||= new Set()).add(css);
      const style = document.createElement("style");
      style.textContent = css;
      document.head.appendChild(style);
    }
    const def = await this._modules.get(esm);
    if (!model._initialized) {
      model._initialized = true;
      const signal = new AbortController().signal;
      await def.initialize?.({ model, experimental: this.experimental, signal });
    }
    return def;
  }

  get experimental() {
    return { invoke: async () => { throw new Error("no kernel in an exported page"); } };
  }

  applyLayout(model, el) {
    const layout = model.get("layout") && this.model(model.get("layout"));
    if (layout) {
      for (const [k, v] of Object.entries(layout.attributes)) {
        if (typeof v === "string" && v && CSS_PROPS.has(k)) {
          el.style.setProperty(k.replace(/_/g, "-"), v);
        }
      }
    }
    for (const cls of model.get("_dom_classes") || []) el.classList.add(cls);
  }

  async render(ref, parent) {
    const model = this.model(ref);
    const el = document.createElement("div");
    parent.appendChild(el);
    if (!model) { el.textContent = `missing widget model ${ref}`; return el; }
    el.classList.add("tbnb-export-widget");
    this.applyLayout(model, el);
    try {
      if (model.module === "anywidget") {
        const def = await this._loadAnywidget(model);
        const signal = new AbortController().signal;
        await def.render?.({ model, el, experimental: this.experimental, signal });
      } else if (/^(V|H|Grid)?BoxModel$/.test(model.name)) {
        el.classList.add(model.name === "HBoxModel" ? "tbnb-export-hbox" : "tbnb-export-vbox");
        for (const child of model.get("children") || []) await this.render(child, el);
      } else if (model.name === "TabModel" || model.name === "AccordionModel") {
        await this.renderTabs(model, el);
      } else if (model.name === "HTMLModel" || model.name === "HTMLMathModel") {
        el.innerHTML = model.get("value");  // HTML by contract: built (and escaped) in Python
      } else if (model.name === "LabelModel") {
        el.textContent = model.get("value");
      } else {
        el.textContent = `(${model.name} is not shown in exported pages)`;
      }
    } catch (err) {
      console.error(err);
      el.textContent = `error rendering ${model.name}: ${err}`;
    }
    return el;
  }

  async renderTabs(model, el) {
    el.classList.add("tbnb-export-tabs");
    const bar = document.createElement("div");
    bar.className = "tbnb-export-tabbar";
    bar.setAttribute("role", "tablist");
    el.appendChild(bar);
    const titles = model.get("titles") || [];
    const panels = [];
    const select = (index) => {
      panels.forEach((p, i) => { p.hidden = i !== index; });
      bar.querySelectorAll("button").forEach((b, i) => {
        b.setAttribute("aria-selected", String(i === index));
      });
      model.set("selected_index", index);
    };
    const children = model.get("children") || [];
    for (let i = 0; i < children.length; i++) {
      const button = document.createElement("button");
      button.type = "button";
      button.setAttribute("role", "tab");
      button.textContent = titles[i] || `Tab ${i + 1}`;
      button.addEventListener("click", () => select(i));
      bar.appendChild(button);
      const panel = document.createElement("div");
      panel.className = "tbnb-export-tabpanel";
      el.appendChild(panel);
      panels.push(panel);
      await this.render(children[i], panel);
    }
    const initial = model.get("selected_index");
    select(Number.isInteger(initial) ? initial : 0);
  }
}

const manager = new Manager(payload);
manager.linkAll();
const root = document.getElementById("tbnb-export-root");
for (const id of payload.views) await manager.render(id, root);
root.setAttribute("data-rendered", "true");
""".replace("%ESM_REF%", _ESM_REF)

_PAGE_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 16px; color: #222; }
.tbnb-export-vbox { display: flex; flex-direction: column; gap: 4px; }
.tbnb-export-hbox { display: flex; flex-direction: row; gap: 4px; }
.tbnb-export-tabbar { display: flex; border-bottom: 1px solid #ccc; margin-bottom: 6px; }
.tbnb-export-tabbar button { border: 1px solid transparent; background: none; padding: 4px 12px;
  cursor: pointer; font: inherit; }
.tbnb-export-tabbar button[aria-selected="true"] { border-color: #ccc #ccc #fff; background: #fff;
  margin-bottom: -1px; }
"""


def _script_json(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element (cannot close it or open a comment)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (
        text.replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _collect(widgets: Iterable[Widget]) -> dict[str, Any]:
    views = list(widgets)
    if not views:
        raise ValueError("nothing to export: give at least one widget")
    for view in views:
        if not isinstance(view, Widget):
            raise TypeError(f"expected an ipywidgets/anywidget widget, got {type(view).__name__}")
    # drop_defaults=False: anywidget's _esm is a default-valued trait.
    state = dependency_state(views, drop_defaults=False)
    modules: list[str] = []
    index: dict[str, int] = {}
    for model_id, spec in state.items():
        model_state = spec.get("state", {})
        esm = model_state.get("_esm")
        if spec.get("model_module") != "anywidget" or not isinstance(esm, str):
            continue
        if esm.lstrip().startswith(("http://", "https://", "//")):
            raise ValueError(
                f"widget {model_id} loads its front end from {esm.strip()!r}; a self-contained "
                "page needs the module source (bundle it into the package)"
            )
        if esm not in index:
            index[esm] = len(modules)
            modules.append(esm)
        model_state["_esm"] = f"{_ESM_REF}{index[esm]}"
    return {"state": state, "modules": modules, "views": [v.model_id for v in views]}


def render_html(widget: Widget | Iterable[Widget], *, title: str = "tbnb") -> str:
    """Return a self-contained HTML page showing ``widget`` (or several widgets).

    Parameters
    ----------
    widget : ipywidgets.Widget or iterable of them
        A tbnb widget, a :class:`tbnb.Dashboard`, or any anywidget / box of them.
    title : str
        The page title (escaped).

    Returns
    -------
    str
        The HTML document.

    Examples
    --------
    >>> import ipywidgets
    >>> from tbnb.notebook.export import render_html
    >>> page = render_html(ipywidgets.HTML("<b>hello</b>"), title="demo")
    >>> page.startswith("<!DOCTYPE html>") and "cdn" not in page.lower()
    True
    """
    widgets = [widget] if isinstance(widget, Widget) else list(widget)
    payload = _collect(widgets)
    nonce = secrets.token_urlsafe(18)
    csp = (
        "default-src 'none'; "
        f"script-src 'nonce-{nonce}' blob:; "
        "style-src 'unsafe-inline'; "
        "img-src data: blob:; font-src data:; connect-src 'none'; "
        "base-uri 'none'; form-action 'none'"
    )
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{html.escape(csp)}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n"
        f"<style>{_PAGE_CSS}</style>\n"
        "</head>\n<body>\n"
        '<div id="tbnb-export-root"></div>\n'
        f'<script type="application/json" id="tbnb-export-state">{_script_json(payload)}</script>\n'
        f'<script type="module" nonce="{nonce}">{_SHIM_JS}</script>\n'
        "</body>\n</html>\n"
    )


def to_html(
    widget: Widget | Iterable[Widget],
    path: str | os.PathLike[str],
    *,
    title: str = "tbnb",
    overwrite: bool = False,
) -> Path:
    """Write a self-contained HTML page showing ``widget`` to ``path``.

    The page needs no internet, server or kernel; interactions that need no new
    data keep working. See the module docstring for what is inlined and how user
    data is kept from injecting script.

    Parameters
    ----------
    widget : ipywidgets.Widget or iterable of them
        A tbnb widget (``tbnb.scalars(...)``), a :class:`tbnb.Dashboard`, or several.
    path : str or path-like
        The ``.html`` file to write (UTF-8).
    title : str
        The page title.
    overwrite : bool
        Replace an existing file at ``path`` (default: refuse).

    Returns
    -------
    pathlib.Path
        ``path``.

    Raises
    ------
    FileExistsError
        ``path`` exists and ``overwrite`` is false, or ``path`` is a symbolic link
        (never followed, whatever ``overwrite`` says: the page is written where asked,
        not wherever a link points).

    Examples
    --------
    >>> import pathlib, tempfile, tbnb
    >>> dash = tbnb.Dashboard(tbnb.samples.sample_logdir())
    >>> page = to_html(dash, pathlib.Path(tempfile.mkdtemp()) / "runs.html")
    >>> page.name
    'runs.html'
    >>> try:
    ...     to_html(dash, page)
    ... except FileExistsError as err:
    ...     print("refused:", "overwrite=True" in str(err))
    refused: True
    """
    out = Path(path)
    text = render_html(widget, title=title)
    if out.is_symlink():
        raise FileExistsError(f"{out} is a symbolic link; tbnb writes pages only to real files")
    flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    flags |= os.O_TRUNC if overwrite else os.O_EXCL
    try:
        fd = os.open(out, flags, 0o644)
    except FileExistsError:
        raise FileExistsError(f"{out} exists; pass overwrite=True to replace it") from None
    except OSError as err:
        if out.is_symlink():  # made between the check and the open: O_NOFOLLOW refused it
            raise FileExistsError(
                f"{out} is a symbolic link; tbnb writes pages only to real files") from err
        raise
    with os.fdopen(fd, "wb") as handle:
        handle.write(text.encode("utf-8"))
    return out
