// The widget manager of an exported page (tbnb/notebook/export.py inlines this bundle as the
// page's one script). It unpacks the saved widget state from <script id="tbnb-export-data"> (data.js),
// puts binary buffers back, instantiates each anywidget module from its `_esm` source, draws
// the few ipywidgets containers a dashboard is made of (boxes, tabs, HTML and label widgets),
// and keeps ipywidgets.jslink/jsdlink links between the saved models working. There is no
// kernel: model.send throws, so a widget's requests fail at once.
//
// User text reaches the DOM only as text; an HTML widget's value (HTML by contract, built and
// escaped in Python) goes through the kit's allow-list (core/safe-html.js).
import { el } from "../core/dom.js";
import { safeFragment } from "../core/safe-html.js";
import { unpackPage } from "./data.js";

/** Prefix of a saved `_esm` replaced by a module index (tbnb/notebook/export.py: _ESM_REF). */
const ESM_REF = "tbnb-esm:";
/** Prefix of a saved `_esm` replaced by a widget key: its view in the one bundle (_VIEW_REF). */
const VIEW_REF = "tbnb-view:";

const CSS_PROPS = new Set([
  "width",
  "height",
  "min_width",
  "max_width",
  "min_height",
  "max_height",
  "margin",
  "padding",
  "border",
  "border_top",
  "border_right",
  "border_bottom",
  "border_left",
  "display",
  "flex",
  "flex_flow",
  "align_items",
  "align_content",
  "align_self",
  "justify_content",
  "justify_items",
  "overflow",
  "overflow_x",
  "overflow_y",
  "order",
  "grid_area",
  "grid_gap",
  "grid_template_rows",
  "grid_template_columns",
  "grid_template_areas",
  "grid_auto_rows",
  "grid_auto_columns",
  "grid_auto_flow",
  "grid_row",
  "grid_column",
  "object_fit",
  "object_position",
  "visibility",
  "top",
  "left",
  "right",
  "bottom",
]);

/**
 * @param {Record<string, any>} state
 * @param {{path: (string | number)[], index: number}[] | undefined} refs
 * @param {Uint8Array[]} buffers
 */
function putBuffers(state, refs, buffers) {
  for (const { path, index } of refs || []) {
    /** @type {any} */
    let obj = state;
    for (let i = 0; i < path.length - 1; i++) obj = obj[path[i]];
    const bytes = buffers[index];
    obj[path[path.length - 1]] = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}

/** The model API anywidget modules expect, over saved state. */
class Model {
  /**
   * @param {string} id
   * @param {{model_name: string, model_module: string, state: Record<string, any>}} spec
   */
  constructor(id, spec) {
    this.model_id = id;
    this.name = spec.model_name;
    this.module = spec.model_module;
    this.attributes = spec.state;
    /** @type {{name: string, callback: Function, context: unknown}[]} */
    this.handlers = [];
    this.initialized = false;
    /** @type {{get_model: (id: string) => Promise<Model | undefined>} | null} */
    this.widget_manager = null;
  }

  /** @param {string} key */
  get(key) {
    return this.attributes[key];
  }

  /** @param {string | Record<string, unknown>} key @param {unknown} [value] */
  set(key, value) {
    const changes = typeof key === "object" && key !== null ? key : { [key]: value };
    const changed = [];
    for (const [k, v] of Object.entries(changes)) {
      if (this.attributes[k] !== v) {
        this.attributes[k] = v;
        changed.push(k);
      }
    }
    for (const k of changed) this.emit(`change:${k}`, this, this.attributes[k]);
    if (changed.length) this.emit("change", this);
  }

  save_changes() {}

  send() {
    throw new Error("no kernel in an exported page");
  }

  /** @param {string} event @param {Function} callback @param {unknown} [context] */
  on(event, callback, context) {
    for (const name of String(event).split(/\s+/)) this.handlers.push({ name, callback, context });
  }

  /** @param {string | null} [event] @param {Function | null} [callback] @param {unknown} [context] */
  off(event, callback, context) {
    this.handlers = this.handlers.filter(
      (h) =>
        !(
          (event == null || h.name === event) &&
          (callback == null || h.callback === callback) &&
          (context == null || h.context === context)
        ),
    );
  }

  /** @param {string} name @param {...unknown} args */
  emit(name, ...args) {
    for (const h of this.handlers.slice()) {
      if (h.name !== name) continue;
      try {
        h.callback.apply(h.context, args);
      } catch (err) {
        console.error(err);
      }
    }
  }
}

class Manager {
  /**
   * @param {{state: Record<string, any>, modules: string[], bundle?: number | null, views: string[]}} payload
   * @param {Uint8Array[]} buffers
   */
  constructor(payload, buffers) {
    /** @type {Map<string, Model>} */
    this.models = new Map();
    /** @type {Map<string, Promise<any>>} */
    this.modules = new Map();
    /** @type {Map<string, Promise<any>>} widget definitions by `_esm` */
    this.definitions = new Map();
    this.lastPaint = performance.now();
    /** The one bundle's source (tbnb/static/tbnb.js: every tbnb view by key), if the page has it. */
    this.bundle = payload.bundle == null ? null : payload.modules[payload.bundle];
    /** @type {Set<string>} */
    this.cssDone = new Set();
    for (const [id, spec] of Object.entries(payload.state)) {
      const state = spec.state || {};
      putBuffers(state, spec.buffers, buffers);
      const esm = state._esm;
      if (typeof esm === "string" && esm.startsWith(ESM_REF))
        state._esm = payload.modules[Number(esm.slice(ESM_REF.length))];
      this.models.set(id, new Model(id, { ...spec, state }));
    }
    const manager = { get_model: async (/** @type {string} */ id) => this.model(id) }; // anywidget's API
    for (const model of this.models.values()) model.widget_manager = manager;
  }

  /** @param {unknown} ref */
  model(ref) {
    return this.models.get(String(ref).replace(/^IPY_MODEL_/, ""));
  }

  /** ipywidgets.jslink / jsdlink links between saved models keep working in the page. */
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
      if (link.name === "LinkModel") dst.on(`change:${dstAttr}`, () => src.set(srcAttr, dst.get(dstAttr)));
    }
  }

  get experimental() {
    return {
      invoke: async () => {
        throw new Error("no kernel in an exported page");
      },
    };
  }

  /**
   * A module from its source, imported once per page.
   * @param {string} source
   * @returns {Promise<any>}
   */
  module(source) {
    let mod = this.modules.get(source);
    if (!mod) {
      mod = (async () => {
        const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
        try {
          return await import(/* @vite-ignore */ url);
        } finally {
          URL.revokeObjectURL(url);
        }
      })();
      this.modules.set(source, mod);
    }
    return mod;
  }

  /**
   * The widget definition ({initialize?, render}) of an anywidget model: its view in the
   * one bundle, or its own module.
   * @param {string} esm
   */
  definition(esm) {
    let def = this.definitions.get(esm);
    if (!def) {
      def = this.define(esm);
      this.definitions.set(esm, def);
    }
    return def;
  }

  /** @param {string} esm */
  async define(esm) {
    if (esm.startsWith(VIEW_REF)) {
      const key = esm.slice(VIEW_REF.length);
      const view = this.bundle === null ? undefined : (await this.module(this.bundle)).views[key];
      if (!view) throw new Error(`the page holds no view "${key}"`);
      return view;
    }
    const mod = await this.module(esm);
    const def = mod.render ? { render: mod.render } : mod.default;
    return typeof def === "function" ? await def() : def;
  }

  /** @param {Model} model */
  async loadAnywidget(model) {
    const esm = model.get("_esm");
    const css = model.get("_css");
    if (typeof css === "string" && css && !this.cssDone.has(css)) {
      this.cssDone.add(css);
      document.head.append(el("style", { text: css }));
    }
    const def = await this.definition(esm);
    if (!model.initialized) {
      model.initialized = true;
      await def.initialize?.({ model, experimental: this.experimental, signal: new AbortController().signal });
    }
    return def;
  }

  /**
   * Let the browser paint (`now`, or once the widgets built since it last did took 50 ms):
   * with every view in one module there is no import to wait for between them, and the
   * first chart would otherwise show only once every tab is built.
   * @param {boolean} [now]
   */
  async breathe(now = false) {
    if (!now && performance.now() - this.lastPaint < 50) return;
    // after the next frame (a hidden page gets none: a task then)
    await new Promise((resolve) =>
      document.hidden ? setTimeout(resolve, 0) : requestAnimationFrame(() => setTimeout(resolve, 0)),
    );
    this.lastPaint = performance.now();
  }

  /** @param {Model} model @param {HTMLElement} node */
  applyLayout(model, node) {
    const layout = model.get("layout") && this.model(model.get("layout"));
    if (layout) {
      for (const [k, v] of Object.entries(layout.attributes)) {
        if (typeof v === "string" && v && CSS_PROPS.has(k)) node.style.setProperty(k.replace(/_/g, "-"), v);
      }
    }
    for (const cls of model.get("_dom_classes") || []) node.classList.add(String(cls));
  }

  /**
   * @param {unknown} ref
   * @param {HTMLElement} parent
   * @returns {Promise<HTMLElement>}
   */
  async render(ref, parent) {
    const model = this.model(ref);
    const node = el("div");
    parent.append(node);
    if (!model) {
      node.textContent = `missing widget model ${ref}`;
      return node;
    }
    node.classList.add("tbnb-export-widget");
    this.applyLayout(model, node);
    try {
      if (model.module === "anywidget") {
        const def = await this.loadAnywidget(model);
        await def.render?.({ model, el: node, experimental: this.experimental, signal: new AbortController().signal });
        await this.breathe();
      } else if (/^(V|H|Grid)?BoxModel$/.test(model.name)) {
        node.classList.add(model.name === "HBoxModel" ? "tbnb-export-hbox" : "tbnb-export-vbox");
        for (const child of model.get("children") || []) await this.render(child, node);
      } else if (model.name === "TabModel" || model.name === "AccordionModel") {
        await this.renderTabs(model, node);
      } else if (model.name === "HTMLModel" || model.name === "HTMLMathModel") {
        node.append(safeFragment(model.get("value")));
      } else if (model.name === "LabelModel") {
        node.textContent = String(model.get("value") ?? "");
      } else {
        node.textContent = `(${model.name} is not shown in exported pages)`;
      }
    } catch (err) {
      console.error(err);
      node.textContent = `error rendering ${model.name}: ${err}`;
    }
    return node;
  }

  /**
   * Tabs as screen readers and keyboards expect (WAI-ARIA tabs pattern): a tablist of
   * tab buttons, each controlling a tabpanel; arrow keys, Home and End move between tabs
   * (selection follows focus); only the selected tab is in the Tab order.
   * @param {Model} model @param {HTMLElement} node
   */
  async renderTabs(model, node) {
    node.classList.add("tbnb-export-tabs");
    const bar = el("div", { class: "tbnb-export-tabbar", role: "tablist" });
    node.append(bar);
    const titles = model.get("titles") || [];
    /** @type {HTMLElement[]} */
    const panels = [];
    /** @type {HTMLButtonElement[]} */
    const buttons = [];
    const select = (/** @type {number} */ index, focus = false) => {
      panels.forEach((p, i) => {
        p.hidden = i !== index;
      });
      buttons.forEach((b, i) => {
        b.setAttribute("aria-selected", String(i === index));
        b.tabIndex = i === index ? 0 : -1;
      });
      if (focus) buttons[index]?.focus();
      model.set("selected_index", index);
    };
    const children = model.get("children") || [];
    const base = `tbnb-tabs-${model.model_id}`;
    for (let i = 0; i < children.length; i++) {
      const button = el("button", {
        type: "button",
        role: "tab",
        id: `${base}-tab-${i}`,
        "aria-controls": `${base}-panel-${i}`,
        text: titles[i] || `Tab ${i + 1}`,
      });
      button.addEventListener("click", () => select(i));
      bar.append(button);
      buttons.push(button);
      const panel = el("div", {
        class: "tbnb-export-tabpanel",
        role: "tabpanel",
        id: `${base}-panel-${i}`,
        "aria-labelledby": `${base}-tab-${i}`,
      });
      node.append(panel);
      panels.push(panel);
    }
    // The selected tab's widget first, shown before the others are built (every view comes
    // from one module, so nothing else makes room for the browser to paint it).
    const initial = model.get("selected_index");
    const first = Number.isInteger(initial) && initial >= 0 && initial < children.length ? initial : 0;
    if (children.length) {
      await this.render(children[first], panels[first]);
      for (let frame = 0; frame < 3; frame++) await this.breathe(true); // seen, scheduled, drawn
    }
    for (let i = 0; i < children.length; i++) if (i !== first) await this.render(children[i], panels[i]);
    bar.addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
      const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (e.target));
      if (at < 0) return;
      const n = buttons.length;
      const next = { ArrowRight: at + 1, ArrowLeft: at - 1 + n, Home: 0, End: n - 1 }[e.key];
      if (next === undefined) return;
      e.preventDefault();
      select(next % n, true);
    });
    select(first);
  }
}

async function main() {
  const source = document.getElementById("tbnb-export-data");
  const root = document.getElementById("tbnb-export-root");
  if (!source || !root) return;
  const { payload, buffers } = await unpackPage(source.textContent || "");
  const manager = new Manager(/** @type {any} */ (payload), buffers);
  manager.linkAll();
  for (const id of payload.views) await manager.render(id, root);
  root.setAttribute("data-rendered", "true");
}

main();
