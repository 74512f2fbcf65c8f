// The graph widget's view: renders from model state alone (live kernel, saved notebook or
// exported page). Expanding and collapsing groups, layout (in the layout worker, only the
// expanded groups), pan, zoom, minimap, search, colours, details and statistics all run
// here; the kernel is asked only for a node's full attributes and for another run's graph.

import { runColor } from "../../color/palettes.js";
import { RunSelector } from "../../controls/run-selector.js";
import { saveImageButton } from "../../controls/save-image.js";
import { encodeArray } from "../../core/codecs.js";
import { el, setText } from "../../core/dom.js";
import { compileFilter } from "../../core/filter.js";
import { View } from "../../core/view.js";
import { coloring } from "./colors.js";
import { detailsOf, neighbours } from "./details.js";
import { Camera, drawScene } from "./draw.js";
import { decodeGraph, findNode, label, nodeName } from "./graph-data.js";
import { LayoutClient } from "./layout-client.js";
import { Minimap } from "./minimap.js";
import { bindPointer } from "./pointer.js";
import { buildScene, KIND, layoutJobs, Measurer } from "./scene.js";
import { StatsPanel } from "./stats-panel.js";
import { buildToolbar, fillSelect } from "./toolbar.js";
import { groupsToReveal, visibleGraph } from "./visible.js";

/** @typedef {import("./model").GraphTraits} GraphTraits */

/** @extends {View<GraphTraits>} */
export class GraphView extends View {
  /** @param {import("./model").GraphModel} model @param {HTMLElement} host */
  constructor(model, host) {
    super(model, host, "graphs");
    const on = this.on.bind(this);
    this.data = decodeGraph(null);
    this.links = neighbours(this.data);
    this.measure = new Measurer();
    this.client = new LayoutClient();
    this.disposers.push(() => this.client.dispose());
    this.camera = new Camera();
    /** @type {import("./scene").Scene | null} */
    this.scene = null;
    /** @type {import("./visible").Visible | null} */
    this.vis = null;
    this.hover = -1;
    this.fitted = false;
    /** @type {{item: number, sx: number, sy: number} | null} */
    this.anchor = null;
    /** @type {Set<number>} */
    this.matches = new Set();
    /** @type {number[]} */
    this.matchNodes = [];
    this.width = 0;
    this.visible = true;
    /** @type {import("./colors").Coloring | null} */
    this.colors = null;
    this.pendingCentre = -1;
    this.bar = buildToolbar({ on });
    this.runs = new RunSelector(this, { onChange: () => {} });
    this.canvas = el("canvas", { class: "tbnb-graph-canvas" });
    this.minimap = new Minimap({ on, onMove: (gx, gy) => this.moveTo(gx, gy) });
    this.note = el("div", { class: "tbnb-graph-note" });
    this.stage = el("div", { class: "tbnb-graph-stage" }, this.canvas, this.minimap.canvas, this.note);
    this.details = el("div", { class: "tbnb-graph-details" });
    this.results = el("div", { class: "tbnb-graph-results" });
    this.legend = el("div", { class: "tbnb-legend tbnb-graph-legend" });
    this.stats = new StatsPanel({ on, parent: this.root });
    this.frames = this.scheduler(() => this.draw());
  }

  build() {
    const on = this.on.bind(this);
    const bar = this.bar;
    bar.node.append(saveImageButton({ on, label: "graph", image: () => this.image() }));
    this.root.append(
      bar.node,
      this.legend,
      this.results,
      el(
        "div",
        { class: "tbnb-graph-main" },
        el(
          "div",
          { class: "tbnb-graph-side" },
          el("div", { class: "tbnb-graph-sub", text: "runs compared below" }),
          this.runs.node,
        ),
        this.stage,
        this.details,
      ),
      this.stats.node,
    );
    on(bar.run, "change", () => {
      const first = (this.model.get("graphs") || []).find((g) => g.run === bar.run.value);
      this.show(bar.run.value, first ? first.tag : "");
    });
    on(bar.tag, "change", () => this.show(this.model.get("run"), bar.tag.value));
    on(bar.color, "change", () => this.save({ color_by: bar.color.value }));
    on(bar.stats, "change", () => this.save({ stats_tag: bar.stats.value }));
    on(bar.constants, "change", () => this.save({ show_constants: bar.constants.checked }));
    on(bar.search, "input", () => {
      const { error } = compileFilter(bar.search.value);
      bar.search.classList.toggle("tbnb-invalid", error !== null);
      if (error === null) this.save({ search: bar.search.value });
      this.updateSearch();
    });
    on(bar.fit, "click", () => this.fit());
    on(bar.collapse, "click", () => this.save({ expanded: [] }));
    this.bindPointer();
    /** @type {any} */ (this.root).__tbnbGraph = { box: (/** @type {string} */ name) => this.screenBox(name) };
    this.listen("change:_graph", () => this.rebuild());
    this.listen("change:expanded change:show_constants", () => this.relayout());
    this.listen("change:color_by change:palette", () => this.recolor());
    this.listen("change:selected", () => this.showDetails());
    this.listen("change:search", () => {
      if (bar.search.value !== (this.model.get("search") || "")) bar.search.value = this.model.get("search") || "";
      this.updateSearch();
    });
    this.listen("change:graphs change:run change:tag change:profiles change:stats_tag change:run_colors", () =>
      this.syncControls(),
    );
    this.listen("change:_stats change:selected_runs", () => this.updateStats());
    this.listen("change:message", () => this.showNote());
    this.listen("change:height", () => this.resize(this.width));
    this.observeSize(this.stage, (w) => this.resize(w));
    this.visibilityObserver((entry) => {
      this.visible = entry.isIntersecting;
      if (this.visible) this.frames.request();
    })?.observe(this.stage);
    this.rebuild();
  }

  rebuild() {
    this.data = decodeGraph(this.model.get("_graph"));
    this.links = neighbours(this.data);
    this.fitted = false;
    this.scene = null;
    this.syncControls();
    this.recolor(false);
    this.updateStats();
    this.showNote();
    this.relayout();
  }

  syncControls() {
    const m = this.model;
    const graphs = m.get("graphs") || [];
    const runs = [...new Set(graphs.map((g) => g.run))];
    const colors = m.get("run_colors") || {};
    fillSelect(
      this.bar.run,
      runs.map((r) => [r, r]),
      m.get("run") || "",
    );
    this.bar.swatch.style.background = runColor(colors, m.get("run"), runs.indexOf(m.get("run")));
    fillSelect(
      this.bar.tag,
      graphs.filter((g) => g.run === m.get("run")).map((g) => [g.tag, g.label]),
      m.get("tag") || "",
    );
    const profiles = m.get("profiles") || [];
    fillSelect(
      this.bar.stats,
      [
        ["", profiles.length ? "none" : "no run metadata"],
        ...profiles.map((p) => /** @type {[string, string]} */ ([p, p])),
      ],
      m.get("stats_tag") || "",
    );
    this.bar.color.value = m.get("color_by") || "op";
    this.bar.constants.checked = !!m.get("show_constants");
    if (this.bar.search.value !== (m.get("search") || "")) this.bar.search.value = m.get("search") || "";
    this.runs.setRuns(runs);
  }

  /**
   * Show another graph: the kernel reads and sends it (an exported page holds one graph).
   * @param {string} run @param {string} tag
   */
  show(run, tag) {
    setText(this.bar.status, `reading the graph of ${run}…`);
    this.request("show", { run, tag }).catch((err) => {
      if (this.disposed) return;
      this.syncControls();
      setText(this.bar.status, `another graph needs the running kernel (${err instanceof Error ? err.message : err})`);
    });
  }

  showNote() {
    const message = this.model.get("message") || (this.data.n ? "" : "no graph to show");
    setText(this.note, message);
    this.note.style.display = message ? "" : "none";
    this.root.setAttribute("data-message", message);
  }

  /** The expanded groups the model names (unknown keys ignored). */
  expandedSet() {
    /** @type {Set<number>} */
    const out = new Set();
    for (const key of this.model.get("expanded") || []) {
      const k = this.data.groupByKey.get(key);
      if (k !== undefined && k > 0) out.add(k);
    }
    return out;
  }

  async relayout() {
    const d = this.data;
    const vis = visibleGraph(d, this.expandedSet(), { showConstants: !!this.model.get("show_constants") });
    const jobs = layoutJobs(d, vis, this.measure);
    this.root.setAttribute("data-state", "layout");
    const started = performance.now();
    let layout = null;
    try {
      layout = await this.client.layout(jobs);
    } catch (err) {
      setText(this.bar.status, err instanceof Error ? err.message : String(err));
      this.root.setAttribute("data-state", "error");
      return;
    }
    if (!layout || this.disposed || d !== this.data) return;
    this.vis = vis;
    this.scene = buildScene(d, vis, layout.results, jobs);
    this.placeCamera();
    if (this.pendingCentre >= 0) {
      this.centreOn(this.pendingCentre);
      this.pendingCentre = -1;
    }
    this.updateSearch(false);
    this.minimap.setScene(this.scene, (k) => this.fillAt(k), window.devicePixelRatio || 1);
    this.frames.request();
    const total = performance.now() - started;
    let boxes = 0; // nodes and collapsed groups: what tbnb's GraphWidget.visible lists
    for (let k = 0; k < this.scene.items.length; k++) if (this.scene.kind[k] !== KIND.OPEN) boxes++;
    this.root.setAttribute("data-items", String(boxes));
    this.root.setAttribute("data-layout-ms", layout.ms.toFixed(1));
    this.root.setAttribute("data-layout-mode", layout.mode);
    this.root.setAttribute("data-state", "ready");
    // the first graph drawn, in ms since the page started (benchmarks read it)
    if (!this.root.hasAttribute("data-ready-at")) this.root.setAttribute("data-ready-at", performance.now().toFixed(1));
    setText(
      this.bar.status,
      d.n
        ? `${d.n} nodes · ${boxes} shown · layout ${layout.ms.toFixed(0)} ms (${layout.mode === "worker" ? "worker" : "page"}), ${total.toFixed(0)} ms in all`
        : "",
    );
    this.saveView();
    this.showDetails();
  }

  /** Keep the toggled group where it was; fit the first layout. */
  placeCamera() {
    const s = /** @type {import("./scene").Scene} */ (this.scene);
    const anchor = this.anchor;
    this.anchor = null;
    const k = anchor ? s.index.get(anchor.item) : undefined;
    if (anchor && k !== undefined) {
      this.camera.tx = anchor.sx - s.x[k] * this.camera.k;
      this.camera.ty = anchor.sy - s.y[k] * this.camera.k;
    } else if (!this.fitted && this.width > 0) this.fit();
  }

  fit() {
    if (!this.scene || this.width <= 0) return;
    this.camera.fit(this.scene.width, this.scene.height, this.width, this.height());
    this.fitted = true;
    this.frames.request();
  }

  height() {
    return Math.max(this.model.get("height") || 560, 200);
  }

  /** @param {number} width */
  resize(width) {
    this.width = Math.floor(width);
    const dpr = window.devicePixelRatio || 1;
    const h = this.height();
    this.stage.style.height = `${h}px`;
    this.canvas.width = Math.max(Math.round(this.width * dpr), 1);
    this.canvas.height = Math.round(h * dpr);
    this.canvas.style.width = `${this.width}px`;
    this.canvas.style.height = `${h}px`;
    if (!this.fitted && this.scene) this.fit();
    this.frames.request();
  }

  /** @param {boolean} [draw] */
  recolor(draw = true) {
    const colors = coloring(this.data, this.model.get("color_by") || "op", this.model.get("palette") || "default");
    this.colors = colors;
    this.legend.replaceChildren(
      el("span", { class: "tbnb-graph-sub", text: `colour: ${colors.title}` }),
      ...colors.legend.map((entry) =>
        el(
          "span",
          { class: "tbnb-legend-entry" },
          el("span", { class: "tbnb-swatch", style: { background: entry.color } }),
          entry.label,
        ),
      ),
    );
    if (draw && this.scene) {
      this.minimap.setScene(this.scene, (k) => this.fillAt(k), window.devicePixelRatio || 1);
      this.frames.request();
    }
  }

  /** @param {number} k  position in the scene */
  fillAt(k) {
    const s = /** @type {import("./scene").Scene} */ (this.scene);
    const item = s.items[k];
    const colors = this.colors || coloring(this.data, "op", "default");
    return (item < this.data.n ? colors.node(item) : colors.group(item - this.data.n)).stroke;
  }

  draw() {
    if (!this.visible || !this.scene || this.width <= 0) return;
    const ctx = this.canvas.getContext("2d");
    if (!ctx) return;
    const dpr = window.devicePixelRatio || 1;
    this.paint(ctx, dpr, this.hover);
    this.minimap.draw(this.camera, this.width, this.height(), dpr);
    this.root.setAttribute("data-zoom", this.camera.k.toFixed(3));
  }

  /**
   * Draw the scene in view into `ctx`.
   * @param {CanvasRenderingContext2D} ctx @param {number} dpr @param {number} hover
   */
  paint(ctx, dpr, hover) {
    const scene = /** @type {import("./scene").Scene} */ (this.scene);
    drawScene(ctx, scene, this.data, {
      camera: this.camera,
      width: this.width,
      height: this.height(),
      dpr,
      colors: this.colors || coloring(this.data, "op", "default"),
      selected: this.selectedItem(),
      hover,
      matches: this.matches,
      dark: isDark(this.root),
    });
  }

  /**
   * The scene as shown (what is in view, no hover), for the save-image button.
   * @returns {import("../../chart/image-export").ChartImage | null}
   */
  image() {
    if (!this.scene || this.width <= 0) return null;
    const colors = this.colors || coloring(this.data, "op", "default");
    return {
      title: [this.model.get("run"), this.model.get("tag")].filter((s) => s && s !== ".").join(": ") || "graph",
      width: this.width,
      height: this.height(),
      element: this.root,
      legend: colors.legend,
      draw: (ctx, scale) => this.paint(ctx, scale, -1),
    };
  }

  /** The selected item (node i, group n + k) or -1. */
  selectedItem() {
    return this.itemOf(this.model.get("selected") || "");
  }

  /**
   * The item a name stands for: a group's key followed by "/" (TF names an op and the scope
   * of its inputs alike: `dense/MatMul` and `dense/MatMul/ReadVariableOp`), a node's full
   * name, or a group's bare key when no node has that name.
   * @param {string} name
   */
  itemOf(name) {
    const d = this.data;
    if (!name) return -1;
    const k = d.groupByKey.get(name.endsWith("/") ? name.slice(0, -1) : name);
    if (name.endsWith("/")) return k !== undefined && k > 0 ? d.n + k : -1;
    const node = findNode(d, name);
    if (node >= 0) return node;
    return k !== undefined && k > 0 ? d.n + k : -1;
  }

  /** The name of an item as `selected` holds it (a group: its key and "/"). @param {number} item */
  nameOf(item) {
    const d = this.data;
    return item < d.n ? nodeName(d, item) : `${label(d, d.groupKey[item - d.n])}/`;
  }

  /** @param {number} item  select it, expanding what hides it, and bring it into view */
  reveal(item) {
    const d = this.data;
    const expanded = new Set(this.model.get("expanded") || []);
    let changed = false;
    for (const g of groupsToReveal(d, item)) {
      const key = label(d, d.groupKey[g]);
      if (!expanded.has(key)) {
        expanded.add(key);
        changed = true;
      }
    }
    this.save({ selected: this.nameOf(item), ...(changed ? { expanded: [...expanded] } : {}) });
    if (changed) this.pendingCentre = item;
    else this.centreOn(item);
  }

  /** @param {number} item */
  centreOn(item) {
    const s = this.scene;
    const k = s?.index.get(item);
    if (!s || k === undefined) return;
    this.camera.centre(s.x[k] + s.w[k] / 2, s.y[k] + s.h[k] / 2, this.width, this.height());
    this.frames.request();
  }

  /** @param {number} k  expand or collapse group k, keeping it where it is on screen */
  toggle(k) {
    const d = this.data;
    const key = label(d, d.groupKey[k]);
    const expanded = new Set(this.model.get("expanded") || []);
    const s = this.scene;
    const at = s?.index.get(d.n + k);
    if (s && at !== undefined) {
      this.anchor = {
        item: d.n + k,
        sx: s.x[at] * this.camera.k + this.camera.tx,
        sy: s.y[at] * this.camera.k + this.camera.ty,
      };
    }
    if (expanded.has(key)) expanded.delete(key);
    else expanded.add(key);
    this.root.setAttribute("data-state", "layout");
    this.save({ expanded: [...expanded] });
  }

  bindPointer() {
    bindPointer(this);
  }

  /**
   * Where the box of a node (full name) or group (key; "key/" when a node has that name
   * too) is on the page, or null (tests and tools click through this).
   * @param {string} name
   */
  screenBox(name) {
    const s = this.scene;
    const item = this.itemOf(name);
    const at = s && item >= 0 ? s.index.get(item) : undefined;
    if (!s || at === undefined) return null;
    const r = this.canvas.getBoundingClientRect();
    const c = this.camera;
    return { x: r.left + s.x[at] * c.k + c.tx, y: r.top + s.y[at] * c.k + c.ty, w: s.w[at] * c.k, h: s.h[at] * c.k };
  }

  /** @param {number} gx @param {number} gy  centre the view on a graph point */
  moveTo(gx, gy) {
    this.camera.centre(gx, gy, this.width, this.height());
    this.frames.request();
  }

  showDetails() {
    const d = this.data;
    const item = this.selectedItem();
    const expanded = item >= d.n && this.vis !== null && this.vis.state[item - d.n] === 2;
    this.details.replaceChildren(
      ...detailsOf(
        d,
        item,
        this.links,
        {
          select: (j) => this.reveal(j),
          toggle: (k) => this.toggle(k),
          attributes: (name) => this.request("node", { name }).then((r) => r.content.attributes || []),
        },
        expanded,
      ),
    );
    this.root.setAttribute("data-selected", item >= 0 ? this.nameOf(item) : "");
    this.frames.request();
  }

  /** @param {boolean} [draw] */
  updateSearch(draw = true) {
    const d = this.data;
    const { re } = compileFilter(this.model.get("search") || "");
    this.matches = new Set();
    this.matchNodes = [];
    if (re) {
      for (let i = 0; i < d.n; i++) {
        if (re.test(nodeName(d, i)) || re.test(label(d, d.nodeOp[i]))) this.matchNodes.push(i);
      }
      const rep = this.vis?.rep;
      for (const i of this.matchNodes) if (rep && rep[i] >= 0) this.matches.add(rep[i]);
    }
    setText(this.bar.count, re ? `${this.matchNodes.length} found` : "");
    this.root.setAttribute("data-matches", String(this.matchNodes.length));
    this.results.replaceChildren(
      ...this.matchNodes.slice(0, 30).map((i) => {
        const b = el("button", {
          class: "tbnb-graph-result",
          type: "button",
          "data-node": String(i),
          title: nodeName(d, i),
        });
        b.append(nodeName(d, i), el("span", { class: "tbnb-graph-op", text: ` ${label(d, d.nodeOp[i])}` }));
        b.addEventListener("click", () => this.reveal(i));
        return b;
      }),
    );
    if (draw) this.frames.request();
  }

  updateStats() {
    this.stats.update(this.data, this.model.get("_stats"), this.model.get("run") || "");
  }

  /** Write what is drawn to `_view` (Python's to_plotly() draws the same). */
  saveView() {
    const s = this.scene;
    if (!s) return;
    const ids = Int32Array.from(s.items);
    const cx = new Float32Array(s.items.length);
    const cy = new Float32Array(s.items.length);
    for (let k = 0; k < s.items.length; k++) {
      cx[k] = s.x[k] + s.w[k] / 2;
      cy[k] = s.y[k] + s.h[k] / 2;
    }
    const kinds = Uint8Array.from(s.kind, (v) => (v === KIND.OPEN ? 2 : v));
    this.save({
      _view: {
        graph: `${this.model.get("run")}\u0000${this.model.get("tag")}`,
        expanded: [...(this.model.get("expanded") || [])].sort(),
        ids: encodeArray(ids),
        x: encodeArray(cx),
        y: encodeArray(cy),
        kind: encodeArray(kinds),
      },
    });
  }
}

/** @param {HTMLElement} node  whether the page's text is light (a dark theme) */
function isDark(node) {
  const m = getComputedStyle(node).color.match(/\d+/g);
  return !!m && Number(m[0]) + Number(m[1]) + Number(m[2]) > 450;
}
