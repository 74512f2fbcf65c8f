// The graph widget's view: renders from model state alone (live kernel, saved notebook or
// exported page). Expanding and collapsing groups, layout (in the layout worker, only the
// expanded groups), pan, zoom, minimap, search, colours, details and statistics all run
// here; the kernel is asked only for a node's full attributes and for another run's graph.

import { RunSelector } from "../../controls/run-selector.js";
import { saveImageButton } from "../../controls/save-image.js";
import { el, setText } from "../../core/dom.js";
import { View } from "../../core/view.js";
import { coloring } from "./colors.js";
import { detailsOf, neighbours } from "./details.js";
import { Camera, drawScene, isDark } from "./draw.js";
import { expandedGroups, revealing, toggled } from "./expansion.js";
import { decodeGraph } from "./graph-data.js";
import { itemOf, nameOf, screenBoxOf } from "./items.js";
import { LayoutClient } from "./layout-client.js";
import { Minimap } from "./minimap.js";
import { bindPointer } from "./pointer.js";
import { savedView } from "./saved-view.js";
import { boxCount, buildScene, layoutJobs, Measurer } from "./scene.js";
import { resultButtons, searchGraph } from "./search.js";
import { StatsPanel } from "./stats-panel.js";
import { bindToolbar, buildToolbar, colorLegend, layoutStatus, syncToolbar } from "./toolbar.js";
import { visibleGraph } from "./visible.js";

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
    bindToolbar(this);
    bindPointer(this);
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
    this.runs.setRuns(syncToolbar(this.bar, this.model));
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

  async relayout() {
    const d = this.data;
    const vis = visibleGraph(d, expandedGroups(d, this.model.get("expanded") || []), {
      showConstants: !!this.model.get("show_constants"),
    });
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
    const boxes = boxCount(this.scene);
    this.root.setAttribute("data-items", String(boxes));
    this.root.setAttribute("data-layout-ms", layout.ms.toFixed(1));
    this.root.setAttribute("data-layout-mode", layout.mode);
    this.root.setAttribute("data-state", "ready");
    // the first graph drawn, in ms since the page started (benchmarks read it)
    if (!this.root.hasAttribute("data-ready-at")) this.root.setAttribute("data-ready-at", performance.now().toFixed(1));
    setText(this.bar.status, layoutStatus(d.n, boxes, layout, total));
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
    this.legend.replaceChildren(...colorLegend(colors));
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
    return itemOf(this.data, this.model.get("selected") || "");
  }

  /** The name of an item as `selected` holds it. @param {number} item */
  nameOf(item) {
    return nameOf(this.data, item);
  }

  /** @param {number} item  select it, expanding what hides it, and bring it into view */
  reveal(item) {
    const { expanded, changed } = revealing(this.data, item, this.model.get("expanded") || []);
    this.save({ selected: this.nameOf(item), ...(changed ? { expanded } : {}) });
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
    const s = this.scene;
    const at = s?.index.get(d.n + k);
    if (s && at !== undefined) {
      this.anchor = {
        item: d.n + k,
        sx: s.x[at] * this.camera.k + this.camera.tx,
        sy: s.y[at] * this.camera.k + this.camera.ty,
      };
    }
    const expanded = toggled(d, k, this.model.get("expanded") || []);
    this.root.setAttribute("data-state", "layout");
    this.save({ expanded });
  }

  /**
   * Where the box of a node (full name) or group (key; "key/" when a node has that name
   * too) is on the page, or null (tests and tools click through this).
   * @param {string} name
   */
  screenBox(name) {
    return screenBoxOf(this.scene, this.camera, this.canvas.getBoundingClientRect(), itemOf(this.data, name));
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
    const { re, nodes, matches } = searchGraph(d, this.model.get("search") || "", this.vis?.rep);
    this.matches = matches;
    this.matchNodes = nodes;
    setText(this.bar.count, re ? `${nodes.length} found` : "");
    this.root.setAttribute("data-matches", String(nodes.length));
    this.results.replaceChildren(...resultButtons(d, nodes, (i) => this.reveal(i)));
    if (draw) this.frames.request();
  }

  updateStats() {
    this.stats.update(this.data, this.model.get("_stats"), this.model.get("run") || "");
  }

  /** Write what is drawn to `_view` (Python's to_plotly() draws the same). */
  saveView() {
    if (!this.scene) return;
    const m = this.model;
    this.save({ _view: savedView(this.scene, m.get("run"), m.get("tag"), m.get("expanded") || []) });
  }
}
