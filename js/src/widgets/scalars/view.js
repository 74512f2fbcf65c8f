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
import { RequestError } from "../../core/request.js";
import { View } from "../../core/view.js";
import { lineSeries } from "../../series/series.js";
import { applyAppend, seriesKey, storeOf, touch } from "../../series/store.js";
import { ChartPanel } from "./chart-panel.js";
import { csvRows } from "./csv.js";
import { DetailRequests, wantedBuckets } from "./detail.js";
import { buildToolbar } from "./toolbar.js";

/** @typedef {import("./model").ScalarsTraits} ScalarsTraits */

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
    const height = this.model.get("height") || 220;
    const hooks = {
      on: this.on.bind(this),
      tooltip: this.tooltip,
      onToggle: (
        /** @type {ChartPanel} */ p,
        /** @type {"log_y" | "ignore_outliers"} */ trait,
        /** @type {boolean} */ checked,
      ) => {
        const list = new Set(this.model.get(trait) || []);
        if (checked) list.add(p.spec.key);
        else list.delete(p.spec.key);
        this.save({ [trait]: [...list] });
        this.redraw(p, "all");
      },
      onRange: (/** @type {ChartPanel} */ p, /** @type {[number | null, number | null] | null} */ range) => {
        const ranges = { ...(this.model.get("y_range") || {}) };
        if (range) ranges[p.spec.key] = range;
        else delete ranges[p.spec.key];
        this.save({ y_range: ranges });
        this.redraw(p, "all");
      },
      onZoom: (/** @type {ChartPanel} */ p, /** @type {[number, number] | null} */ domain) => this.onZoom(p, domain),
    };
    for (const spec of this.model.get("charts") || []) {
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
      }
      const panel = new ChartPanel(spec, height, hooks);
      /** @type {any} */ (panel.node).__tbnbPanel = panel;
      panel.visible = !this.seen;
      /** @type {HTMLElement} */ (group.node.lastElementChild).append(panel.node);
      group.panels.push(panel);
      this.panels.set(spec.key, panel);
      this.seen?.observe(panel.node);
    }
    this.groups.replaceChildren(...[...this.groupNodes.values()].map((g) => g.node));
    this.syncPanels();
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

  syncPanels() {
    const logs = new Set(this.model.get("log_y") || []);
    const outs = new Set(this.model.get("ignore_outliers") || []);
    const ranges = this.model.get("y_range") || {};
    for (const p of this.panels.values()) {
      p.sync({ logY: logs.has(p.spec.key), outliers: outs.has(p.spec.key), range: ranges[p.spec.key] });
    }
  }

  /** Which series each chart draws, the counts; then redraw. */
  update() {
    const store = this.store;
    const tagRe = compileFilter(this.model.get("tag_filter") || "").re;
    const selected = new Set(this.model.get("selected_runs") || []);
    // A group (aggregating) is drawn when it or any of its runs is selected.
    for (const [group, runs] of Object.entries(store.members || {})) {
      if (runs.some((r) => selected.has(r))) selected.add(group);
    }
    for (const p of this.panels.values()) {
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
    this.redrawAll();
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

  /** @param {ChartPanel} p */
  seriesOf(p) {
    const weight = Number(this.model.get("smoothing")) || 0;
    const mode = this.model.get("smoothing_mode") === "time" ? "time" : "ema";
    const xMode = this.xMode();
    const multi = p.spec.tags.length > 1;
    const colors = this.model.get("run_colors") || {};
    const runs = this.store.runs;
    return p.records.map((rec) => {
      const zoomed = p.zoomData?.get(seriesKey(rec.run, rec.tag));
      const s = lineSeries(rec, {
        xMode,
        weight,
        mode,
        color: runColor(colors, rec.run, runs.indexOf(rec.run)),
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
    for (const p of this.panels.values()) {
      if (!p.dirty || !p.shown || !p.visible) continue;
      const level = p.dirty;
      p.dirty = false;
      const chart = p.ensure();
      chart.options.height = this.model.get("height") || 220;
      chart.setData({
        series: this.seriesOf(p),
        xType: xMode === "wall" ? "time" : "linear",
        xLabel: xMode.startsWith("tag:") ? xMode.slice(4) : xMode,
        logY: logs.has(p.spec.key),
        outliers: outs.has(p.spec.key),
        yRange: ranges[p.spec.key] || [null, null],
        showRaw: !!this.model.get("show_raw"),
        sort,
      });
      chart.draw(level);
      p.reset.hidden = !chart.zoom;
      const points = chart.state.series.reduce((n, s) => n + s.x.length, 0);
      p.node.setAttribute("data-points", String(points));
      p.node.setAttribute("data-zoomed", p.zoomData ? "full" : chart.zoom ? "view" : "none");
      if (chart.maps) p.node.setAttribute("data-x-domain", chart.maps.x.domain.join(","));
      // the series drawn from a coarser preview than this chart's width: asked for
      const buckets = wantedBuckets(chart.surface.width || 400, p.records.length, maxPoints);
      let coarse = 0;
      for (const rec of p.records) {
        touch(store, seriesKey(rec.run, rec.tag));
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
    if (p.chart) p.chart.zoom = null;
    p.zoomData = null;
    p.zoomSerial += 1;
  }

  /**
   * A drag-zoom: draw the range at once from the points here, and ask the kernel for the
   * range at full resolution (no kernel, as in an exported page: the points here stay).
   * @param {ChartPanel} p
   * @param {[number, number] | null} domain
   */
  onZoom(p, domain) {
    p.reset.hidden = !domain;
    if (!domain) {
      this.clearZoom(p);
      this.redraw(p, "all");
      return;
    }
    p.zoomData = null;
    const serial = ++p.zoomSerial;
    const xMode = this.xMode();
    const field =
      xMode === "wall" ? "wall" : xMode === "relative" ? "relative" : xMode.startsWith("tag:") ? "xv" : "step";
    const scale = xMode === "wall" ? 1 / 1000 : 1;
    this.request("range", {
      chart: p.spec.key,
      field,
      lo: domain[0] * scale,
      hi: domain[1] * scale,
      buckets: Math.max(64, Math.round(p.chart?.surface.width || 400)),
      runs: [...new Set(p.records.map((r) => r.run))],
    })
      .then(({ content }) => {
        if (serial !== p.zoomSerial || !p.chart?.zoom) return;
        /** @type {{run: string, tag: string, columns: Record<string, import("../../core/types").Numbers>}[]} */
        const series = content.series || [];
        p.zoomData = new Map(series.map((s) => [seriesKey(s.run, s.tag), { cols: s.columns, x: null }]));
        this.redraw(p, "all");
      })
      .catch((err) => {
        if (this.disposed || serial !== p.zoomSerial) return;
        if (err instanceof RequestError) {
          setText(this.bar.status, `zoom: ${err.message}`);
        }
      });
    this.redraw(p, "all");
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
