// The scalars widget's view: renders from model state alone (live kernel, saved notebook or
// exported page): smoothing, x axis, log y, outliers, y range, filters, toggles, tooltips
// and zoom all run here. The kernel is asked for the series of the charts in view at screen
// resolution (detail.js: the state holds a budgeted preview) and for full resolution of a
// zoomed range.

import { Tooltip } from "../../chart/tooltip.js";
import { runColor } from "../../color/palettes.js";
import { csvButton } from "../../controls/csv-button.js";
import { fillXOptions } from "../../controls/line-controls.js";
import { RunSelector } from "../../controls/run-selector.js";
import { unpack } from "../../core/codecs.js";
import { el, setText } from "../../core/dom.js";
import { compileFilter, matches } from "../../core/filter.js";
import { View } from "../../core/view.js";
import { lineSeries } from "../../series/series.js";
import { applyAppend, seriesKey, storeOf, touch } from "../../series/store.js";
import { ChartPanel } from "./chart-panel.js";
import { csvRows } from "./csv.js";
import { DetailRequests, wantedBuckets } from "./detail.js";
import { buildToolbar } from "./toolbar.js";
import { clearZoom, zoomTo } from "./zoom.js";

/** @typedef {import("./model").ScalarsTraits} ScalarsTraits */

/** Panels built at once; the rest follow in tasks of at most SLICE_MS each. */
const FIRST_PANELS = 200;
const SLICE_MS = 20;

/** @extends {View<ScalarsTraits>} */
export class ScalarsView extends View {
  /**
   * @param {import("./model").ScalarsModel} model
   * @param {HTMLElement} host
   */
  constructor(model, host) {
    super(model, host, "scalars");
    /** @type {Map<string, ChartPanel>} */
    this.panels = new Map();
    /** @type {Map<string, {node: HTMLElement, count: HTMLElement, panels: ChartPanel[]}>} */
    this.groupNodes = new Map();
    const on = this.on.bind(this);
    this.runs = new RunSelector(this, { onChange: () => this.update() });
    const csv = csvButton({
      className: "tbnb-download",
      filename: "tbnb-scalars.csv",
      parent: this.root,
      on,
      rows: () => this.csv(),
    });
    this.bar = buildToolbar({
      on,
      runFilter: this.runs.filter.node,
      onTagFilter: (text) => {
        this.save({ tag_filter: text });
        this.update();
      },
      csv,
    });
    this.groups = el("div", { class: "tbnb-groups" });
    this.tooltip = new Tooltip(this.root);
    this.detail = new DetailRequests(
      this,
      () => this.store,
      (keys) => this.onDetail(keys),
      (text) => setText(this.bar.status, text),
    );
    this.frames = this.scheduler(() => this.drawDirty());
    this.building = 0;
    /** @type {import("./model").ChartSpec[]} */
    this.unbuilt = [];
    /** @type {import("./chart-panel").PanelHooks} */
    this.hooks = {
      on,
      tooltip: this.tooltip,
      onToggle: (p, trait, checked) => {
        const list = new Set(this.model.get(trait) || []);
        if (checked) list.add(p.spec.key);
        else list.delete(p.spec.key);
        this.save({ [trait]: [...list] });
        this.redraw(p, "all");
      },
      onRange: (p, range) => {
        const ranges = { ...(this.model.get("y_range") || {}) };
        if (range) ranges[p.spec.key] = range;
        else delete ranges[p.spec.key];
        this.save({ y_range: ranges });
        this.redraw(p, "all");
      },
      onZoom: (p, domain) => this.onZoom(p, domain),
    };
    this.seen = this.visibilityObserver((entry) => {
      const panel = /** @type {any} */ (entry.target).__tbnbPanel;
      if (!panel) return;
      panel.visible = entry.isIntersecting;
      if (panel.visible && panel.dirty) this.frames.request();
    });
    this.observeSize(this.groups, () => this.redrawAll("all"));
  }

  get store() {
    return storeOf(this.model);
  }

  xMode() {
    return this.model.get("x_axis") || "step";
  }

  build() {
    const on = this.on.bind(this);
    this.root.append(
      this.bar.node,
      el("div", { class: "tbnb-main" }, el("div", { class: "tbnb-side" }, this.runs.node), this.groups),
    );
    const bar = this.bar;
    on(bar.smoothing, "input", () => {
      const v = Number(bar.smoothing.value);
      setText(bar.smoothingValue, v.toFixed(3));
      this.save({ smoothing: v });
      this.redrawAll("smooth");
    });
    on(bar.mode, "change", () => {
      this.save({ smoothing_mode: bar.mode.value === "time" ? "time" : "ema" });
      this.redrawAll("smooth");
    });
    on(bar.xaxis, "change", () => {
      for (const p of this.panels.values()) this.clearZoom(p);
      this.save({ x_axis: bar.xaxis.value });
      this.redrawAll();
    });
    on(bar.sort, "change", () => this.redrawAll("over"));
    on(bar.showRaw, "change", () => {
      this.save({ show_raw: bar.showRaw.checked });
      this.redrawAll();
    });

    this.listen("change:_data", () => {
      this.detail.reset();
      this.rebuild(false);
    });
    this.listen("change:charts", () => this.rebuild(true));
    this.listen("change:smoothing change:smoothing_mode", () => {
      this.syncControls();
      this.redrawAll("smooth");
    });
    this.listen("change:show_raw change:height change:x_axis change:run_colors", () => {
      this.syncControls();
      this.redrawAll();
    });
    this.listen("change:tag_filter", () => {
      this.syncControls();
      this.update();
    });
    this.listen("change:selected_runs change:run_filter", () => this.update());
    this.listen("change:log_y change:ignore_outliers change:y_range", () => {
      this.syncPanels();
      this.redrawAll();
    });
    this.listen("msg:custom", (msg, buffers) => this.onMessage(msg, buffers));
    this.rebuild(true);
  }

  /** @param {boolean} charts  rebuild the chart panels too */
  rebuild(charts) {
    const store = this.store;
    fillXOptions(this.bar.xaxis, store.data.x_tag || null);
    this.runs.setRuns(store.runs, store.data.kind === "groups" ? store.members : {});
    if (charts || !this.panels.size) this.buildPanels();
    this.syncControls();
    this.update();
  }

  buildPanels() {
    for (const p of this.panels.values()) this.seen?.unobserve(p.node);
    this.panels.clear();
    this.groupNodes.clear();
    this.groups.replaceChildren();
    this.building += 1;
    /** @type {import("./model").ChartSpec[]} charts whose panels are still to build */
    this.unbuilt = [...(this.model.get("charts") || [])];
    this.buildSome(FIRST_PANELS);
  }

  /**
   * Build the next `n` panels (or as many as SLICE_MS allows) now and the rest in later
   * tasks: 10,000 tags never hold the page in one long task, and the first charts draw at once.
   * @param {number} n
   * @returns {ChartPanel[]}
   */
  buildSome(n) {
    const height = this.model.get("height") || 220;
    const fresh = [];
    const until = performance.now() + SLICE_MS;
    while (this.unbuilt.length && (fresh.length < n || performance.now() < until)) {
      const spec = /** @type {import("./model").ChartSpec} */ (this.unbuilt.shift());
      let group = this.groupNodes.get(spec.group);
      if (!group) {
        const count = el("span", { class: "tbnb-group-count" });
        const grid = el("div", { class: "tbnb-grid" });
        const node = el(
          "details",
          { class: "tbnb-group", "data-group": spec.group, open: true },
          el("summary", {}, `${spec.group || "(no prefix)"} `, count),
          grid,
        );
        group = { node, count, panels: [] };
        this.groupNodes.set(spec.group, group);
        this.groups.append(node);
      }
      const panel = new ChartPanel(spec, height, this.hooks);
      /** @type {any} */ (panel.node).__tbnbPanel = panel;
      panel.visible = !this.seen;
      /** @type {HTMLElement} */ (group.node.lastElementChild).append(panel.node);
      group.panels.push(panel);
      this.panels.set(spec.key, panel);
      this.seen?.observe(panel.node);
      fresh.push(panel);
    }
    this.syncPanels(fresh);
    if (this.unbuilt.length) {
      const building = this.building;
      setTimeout(() => {
        if (this.disposed || building !== this.building) return;
        const more = this.buildSome(1);
        this.update(more);
      }, 0);
    }
    return fresh;
  }

  syncControls() {
    const bar = this.bar;
    const w = Number(this.model.get("smoothing"));
    bar.smoothing.value = String(w);
    setText(bar.smoothingValue, w.toFixed(3));
    bar.mode.value = this.model.get("smoothing_mode") || "ema";
    bar.xaxis.value = this.xMode();
    bar.showRaw.checked = !!this.model.get("show_raw");
    bar.tagFilter.set(this.model.get("tag_filter") || "");
  }

  /** @param {Iterable<ChartPanel>} [panels] */
  syncPanels(panels = this.panels.values()) {
    const logs = new Set(this.model.get("log_y") || []);
    const outs = new Set(this.model.get("ignore_outliers") || []);
    const ranges = this.model.get("y_range") || {};
    for (const p of panels) {
      p.sync({ logY: logs.has(p.spec.key), outliers: outs.has(p.spec.key), range: ranges[p.spec.key] });
    }
  }

  /**
   * Which series each chart draws (of `panels`, default every one), the counts; then redraw.
   * @param {ChartPanel[] | null} [panels]
   */
  update(panels = null) {
    const store = this.store;
    const tagRe = compileFilter(this.model.get("tag_filter") || "").re;
    const selected = new Set(this.model.get("selected_runs") || []);
    // A group (aggregating) is drawn when it or any of its runs is selected.
    for (const [group, runs] of Object.entries(store.members || {})) {
      if (runs.some((r) => selected.has(r))) selected.add(group);
    }
    for (const p of panels || this.panels.values()) {
      p.tags = p.spec.tags.filter((t) => matches(tagRe, t));
      p.records = [];
      for (const tag of p.tags) {
        for (const run of store.runs) {
          const rec = selected.has(run) && store.series.get(seriesKey(run, tag));
          if (rec) p.records.push(rec);
        }
      }
      p.node.setAttribute("data-series-count", String(new Set(p.records.map((r) => r.run)).size));
      p.node.classList.toggle("tbnb-hidden", !p.shown);
    }
    for (const g of this.groupNodes.values()) {
      const shown = g.panels.filter((p) => p.shown).length;
      g.node.classList.toggle("tbnb-hidden", shown === 0);
      setText(g.count, `(${shown})`);
    }
    // selected_runs may name runs not charted (a linked hparams row's sub-runs)
    const drawn = store.runs.filter((r) => selected.has(r)).length;
    const noun = store.data.kind === "groups" ? "groups" : "runs";
    setText(this.bar.status, `${drawn}/${store.runs.length} ${noun}, ${store.series.size} series`);
    if (panels)
      this.frames.request(); // new panels are dirty already
    else this.redrawAll();
  }

  /** @param {ChartPanel} p @param {"over" | "smooth" | "all"} level */
  redraw(p, level) {
    p.mark(level);
    this.frames.request();
  }

  /** @param {"over" | "smooth" | "all"} [level] */
  redrawAll(level = "all") {
    for (const p of this.panels.values()) p.mark(level);
    this.frames.request();
  }

  /**
   * @param {ChartPanel} p
   * @param {Map<string, number>} order  run -> its place in the legend (its colour's fallback)
   */
  seriesOf(p, order) {
    const weight = Number(this.model.get("smoothing")) || 0;
    const mode = this.model.get("smoothing_mode") === "time" ? "time" : "ema";
    const xMode = this.xMode();
    const multi = p.spec.tags.length > 1;
    const colors = this.model.get("run_colors") || {};
    return p.records.map((rec) => {
      const zoomed = p.zoomData?.get(seriesKey(rec.run, rec.tag));
      const s = lineSeries(rec, {
        xMode,
        weight,
        mode,
        color: runColor(colors, rec.run, order.get(rec.run) ?? -1),
        label: multi ? `${rec.run} ${rec.tag}` : rec.run,
        dash: multi ? p.spec.tags.indexOf(rec.tag) : 0,
        zoomCols: zoomed ? zoomed.cols : null,
        zoomX: zoomed ? zoomed.x : null,
      });
      if (zoomed && !zoomed.x) zoomed.x = /** @type {Float64Array} */ (s.x);
      return s;
    });
  }

  drawDirty() {
    const logs = new Set(this.model.get("log_y") || []);
    const outs = new Set(this.model.get("ignore_outliers") || []);
    const ranges = this.model.get("y_range") || {};
    const xMode = this.xMode();
    const sort = this.bar.sort.value;
    const store = this.store;
    const maxPoints = Number(this.model.get("max_points")) || 1000;
    const order = new Map(store.runs.map((run, i) => [run, i]));
    for (const p of this.panels.values()) {
      if (!p.dirty || !p.shown || !p.visible) continue;
      const level = p.dirty;
      p.dirty = false;
      const chart = p.ensure();
      chart.options.height = this.model.get("height") || 220;
      chart.setData({
        series: this.seriesOf(p, order),
        xType: xMode === "wall" ? "time" : "linear",
        xLabel: xMode.startsWith("tag:") ? xMode.slice(4) : xMode,
        logY: logs.has(p.spec.key),
        outliers: outs.has(p.spec.key),
        yRange: ranges[p.spec.key] || [null, null],
        showRaw: !!this.model.get("show_raw"),
        sort,
      });
      chart.draw(level);
      if (p.reset) p.reset.hidden = !chart.zoom;
      const points = chart.state.series.reduce((n, s) => n + s.x.length, 0);
      p.node.setAttribute("data-points", String(points));
      p.node.setAttribute("data-zoomed", p.zoomData ? "full" : chart.zoom ? "view" : "none");
      for (const axis of chart.maps ? ["x", "y"] : []) {
        p.node.setAttribute(`data-${axis}-domain`, chart.maps[axis].domain.join(","));
      }
      // the series drawn from a coarser preview than this chart's width: asked for
      const buckets = wantedBuckets(chart.surface.width || 400, p.records.length, maxPoints);
      let coarse = 0;
      for (const rec of p.records) {
        if (store.detailed.size) touch(store, seriesKey(rec.run, rec.tag));
        this.detail.want(rec, buckets);
        if (rec.level < buckets && rec.cols.value.length < rec.total) coarse += 1;
      }
      p.node.setAttribute("data-resolution", coarse ? "preview" : "screen");
    }
    this.detail.flush();
  }

  /**
   * Series the kernel sent at screen resolution: redraw the charts drawing them.
   * @param {Set<string>} keys
   */
  onDetail(keys) {
    if (!keys.size) return;
    for (const p of this.panels.values()) {
      if (p.records.some((rec) => keys.has(seriesKey(rec.run, rec.tag)))) p.mark("all");
    }
    this.frames.request();
  }

  /** @param {ChartPanel} p */
  clearZoom(p) {
    clearZoom(p);
  }

  /** @param {ChartPanel} p @param {[number, number] | null} domain */
  onZoom(p, domain) {
    zoomTo(this, p, domain);
  }

  /** @param {any} msg @param {DataView[]} [buffers] */
  onMessage(msg, buffers) {
    if (msg?.type !== "append") return;
    const grew = applyAppend(this.store, unpack(msg, buffers || []));
    if (grew) this.rebuild(false);
    else this.update();
  }

  /** Every drawn series once (charts shown, unzoomed), for the CSV. */
  csv() {
    /** @type {Map<string, import("../../series/store").SeriesRecord>} */
    const records = new Map();
    for (const p of this.panels.values()) {
      if (!p.shown) continue;
      for (const rec of p.records) records.set(seriesKey(rec.run, rec.tag), rec);
    }
    return csvRows([...records.values()], {
      xMode: this.xMode(),
      weight: Number(this.model.get("smoothing")) || 0,
      mode: this.model.get("smoothing_mode") === "time" ? "time" : "ema",
      groups: this.store.data.kind === "groups",
    });
  }
}
