// Front end of tbnb/widgets/scalars.py (widget key "scalars").
// Renders from model state alone (live kernel, saved notebook or exported page):
// smoothing, x axis, log y, outliers, y range, filters, toggles, tooltips and zoom
// all run here. The kernel is only asked for full resolution of a zoomed range.
import { LineChart } from "./chart.js";
import { decodeTree, unpack } from "./codecs.js";
import { el, renderView } from "./dom.js";
import { runColor } from "./colors.js";
import { smooth } from "./smoothing.js";
import { CSS } from "./style.js";
import { compileFilter, concatF64, isSorted, matches, toCSV } from "./util.js";

const SEP = "\u0000";
const LEVELS = { none: 0, over: 1, smooth: 2, all: 3 };

// Per-model data shared by every view of the model (appended points survive re-renders).
const STORES = new WeakMap();

function buildStore(raw) {
  const data = decodeTree(raw || {});
  const series = new Map();
  const S = data.series;
  const C = data.columns || {};
  const runs = data.runs || [];
  const tags = data.tags || [];
  if (S && S.run) {
    for (let i = 0; i < S.run.length; i++) {
      const a = Number(S.offset[i]);
      const b = Number(S.offset[i + 1]);
      const cols = {};
      for (const [name, arr] of Object.entries(C)) cols[name] = arr.subarray(a, b);
      const run = runs[S.run[i]];
      const tag = tags[S.tag[i]];
      series.set(run + SEP + tag, { run, tag, cols, total: Number(S.total[i]), cache: new Map() });
    }
  }
  return { raw, data, series, runs: [...runs], members: data.members || {} };
}

function storeOf(model) {
  const raw = model.get("_data");
  let store = STORES.get(model);
  if (!store || store.raw !== raw) {
    store = buildStore(raw);
    STORES.set(model, store);
  }
  return store;
}

function applyAppend(store, msg) {
  for (const s of msg.series || []) {
    const key = s.run + SEP + s.tag;
    const old = store.series.get(key);
    if (old) {
      for (const [name, arr] of Object.entries(s.columns)) {
        old.cols[name] = concatF64(old.cols[name] || new Float64Array(0), arr);
      }
      old.total = s.total;
      old.cache.clear();
      old.xs = null;
    } else {
      const cols = {};
      for (const [name, arr] of Object.entries(s.columns)) cols[name] = Float64Array.from(arr);
      store.series.set(key, { run: s.run, tag: s.tag, cols, total: s.total, cache: new Map() });
      if (!store.runs.includes(s.run)) store.runs.push(s.run);
    }
  }
}

/** x values of one series for an x-axis mode (time in ms for the time scale). */
export function xValues(cols, mode) {
  const map = (src, f) => {
    const out = new Float64Array(src.length);
    for (let i = 0; i < src.length; i++) out[i] = f(src[i]);
    return out;
  };
  if (mode === "wall") return map(cols.wall, (v) => v * 1000);
  if (mode === "relative") {
    let base = 0;
    for (const v of cols.wall) {
      if (Number.isFinite(v)) {
        base = v;
        break;
      }
    }
    return map(cols.wall, (v) => v - base);
  }
  if (mode.startsWith("tag:") && cols.xv) return new Float64Array(cols.xv);
  return new Float64Array(cols.step);
}

function derived(rec, cols, xMode, weight, smode, cacheable) {
  const key = `${xMode}|${weight}|${smode}`;
  if (cacheable && rec.cache.has(key)) return rec.cache.get(key);
  let x;
  let sorted;
  let prev = null;
  if (cacheable) {
    // x depends on the axis mode only: keep it across smoothing changes.
    if (!rec.xs || rec.xs.mode !== xMode) {
      const xv = xValues(cols, xMode);
      rec.xs = { mode: xMode, x: xv, sorted: isSorted(xv) };
    }
    x = rec.xs.x;
    sorted = rec.xs.sorted;
    // The smoothed arrays of the previous weight are rewritten in place (one cache
    // entry per series): a smoothing change allocates nothing per point.
    for (const old of rec.cache.values()) prev = old;
  } else {
    x = xValues(cols, xMode);
    sorted = isSorted(x);
  }
  const opts = { x, mode: smode };
  const sm = (values, old) => (weight > 0 ? smooth(values, weight, { ...opts, out: old && old !== values ? old : null }) : values);
  const out = {
    x,
    sorted,
    y: cols.value,
    ys: sm(cols.value, prev && prev.ys),
    loRaw: cols.lo || null,
    hiRaw: cols.hi || null,
    lo: cols.lo ? sm(cols.lo, prev && prev.lo) : null,
    hi: cols.hi ? sm(cols.hi, prev && prev.hi) : null,
    step: cols.step,
  };
  if (cacheable) {
    rec.cache.clear();
    rec.cache.set(key, out);
  }
  return out;
}

class ScalarsView {
  constructor(model, host) {
    this.model = model;
    this.host = host;
    this.charts = new Map();
    this.toggled = new Set();
    this.requestId = 0;
    this.frame = 0;
    this.disposers = [];
  }

  on(events, fn) {
    // One registration per event name: anywidget's model API takes single names.
    for (const event of events.split(" ")) {
      this.model.on(event, fn);
      this.disposers.push(() => this.model.off(event, fn));
    }
  }

  build() {
    const m = this.model;
    const style = el("style", { text: CSS });
    this.root = el("div", { class: "tbnb-scalars" });
    // toolbar
    this.smoothing = el("input", { class: "tbnb-smoothing", type: "range", min: "0", max: "0.999", step: "0.001" });
    this.smoothingValue = el("span", { class: "tbnb-smoothing-value" });
    this.smode = el("select", { class: "tbnb-smoothing-mode", title: "EMA as TensorBoard, or weighted by distance in x" },
      el("option", { value: "ema", text: "EMA" }), el("option", { value: "time", text: "time-weighted" }));
    this.xaxis = el("select", { class: "tbnb-xaxis" });
    this.runFilter = el("input", { class: "tbnb-run-filter", type: "text", placeholder: "filter runs (regex)", spellcheck: "false" });
    this.runMsg = el("span", { class: "tbnb-msg tbnb-run-filter-msg" });
    this.tagFilter = el("input", { class: "tbnb-tag-filter", type: "text", placeholder: "filter tags (regex)", spellcheck: "false" });
    this.tagMsg = el("span", { class: "tbnb-msg tbnb-tag-filter-msg" });
    this.sort = el("select", { class: "tbnb-tooltip-sort", title: "order of the hover readout" },
      el("option", { value: "value-desc", text: "value ↓" }), el("option", { value: "value-asc", text: "value ↑" }),
      el("option", { value: "name", text: "name" }), el("option", { value: "nearest", text: "nearest x" }));
    this.showRaw = el("input", { class: "tbnb-show-raw", type: "checkbox" });
    this.download = el("button", { class: "tbnb-download", type: "button", text: "Download CSV" });
    this.status = el("span", { class: "tbnb-status" });
    const toolbar = el("div", { class: "tbnb-toolbar" },
      el("label", {}, "Smoothing", this.smoothing, this.smoothingValue, this.smode),
      el("label", {}, "X", this.xaxis),
      el("label", {}, this.runFilter, this.runMsg),
      el("label", {}, this.tagFilter, this.tagMsg),
      el("label", {}, "Tooltip", this.sort),
      el("label", {}, this.showRaw, "raw"),
      this.download, this.status);
    this.legend = el("div", { class: "tbnb-legend" });
    this.groups = el("div", { class: "tbnb-groups" });
    this.root.append(toolbar, el("div", { class: "tbnb-main" }, this.legend, this.groups));
    this.host.replaceChildren(style, this.root);

    this.smoothing.addEventListener("input", () => {
      const v = Number(this.smoothing.value);
      this.smoothingValue.textContent = v.toFixed(3);
      this.save({ smoothing: v });
      this.redrawAll("smooth");
    });
    this.smode.addEventListener("change", () => {
      this.save({ smoothing_mode: this.smode.value });
      this.redrawAll("smooth");
    });
    this.xaxis.addEventListener("change", () => {
      for (const c of this.charts.values()) {
        c.chart.zoom = null;
        c.zoomData = null;
      }
      this.save({ x_axis: this.xaxis.value });
      this.redrawAll();
    });
    this.runFilter.addEventListener("input", () => this.onFilter("run"));
    this.tagFilter.addEventListener("input", () => this.onFilter("tag"));
    this.sort.addEventListener("change", () => this.redrawAll());
    this.showRaw.addEventListener("change", () => {
      this.save({ show_raw: this.showRaw.checked });
      this.redrawAll();
    });
    this.download.addEventListener("click", () => this.downloadCSV());

    this.on("change:_data", () => this.rebuild());
    this.on("change:charts", () => this.rebuild());
    this.on("change:smoothing change:smoothing_mode", () => {
      this.syncControls();
      this.redrawAll("smooth");
    });
    this.on("change:show_raw change:height", () => {
      this.syncControls();
      this.redrawAll();
    });
    this.on("change:x_axis", () => {
      this.syncControls();
      this.redrawAll();
    });
    this.on("change:run_filter change:tag_filter", () => {
      this.syncControls();
      this.update();
    });
    this.on("change:selected_runs", () => {
      // Our own writes come back as change events too: only a selection made
      // elsewhere (Python, another view) resets the toggles.
      const now = this.model.get("selected_runs") || [];
      const ours = this.selectionFromToggles();
      if (now.length !== ours.length || now.some((r, i) => r !== ours[i])) this.toggledFromSelection();
      this.update();
    });
    this.on("change:log_y change:ignore_outliers change:y_range", () => {
      this.syncChartControls();
      this.redrawAll();
    });
    this.on("msg:custom", (msg, buffers) => this.onMessage(msg, buffers));

    if (typeof ResizeObserver !== "undefined") {
      this.resizer = new ResizeObserver(() => this.redrawAll());
      this.resizer.observe(this.groups);
      this.disposers.push(() => this.resizer.disconnect());
    }
    if (typeof IntersectionObserver !== "undefined") {
      this.seen = new IntersectionObserver((entries) => {
        for (const e of entries) {
          const c = e.target.__tbnb;
          if (!c) continue;
          c.visible = e.isIntersecting;
          if (c.visible && c.dirty) this.schedule();
        }
      }, { rootMargin: "50px" });
      this.disposers.push(() => this.seen.disconnect());
    }
    this.rebuild();
  }

  save(values) {
    for (const [k, v] of Object.entries(values)) this.model.set(k, v);
    this.model.save_changes();
  }

  get store() {
    return storeOf(this.model);
  }

  xMode() {
    return this.model.get("x_axis") || "step";
  }

  rebuild() {
    const store = this.store;
    this.toggledFromSelection();
    this.buildXOptions(store);
    this.buildLegend(store);
    this.buildCharts();
    this.syncControls();
    this.update();
  }

  buildXOptions(store) {
    const opts = [["step", "step"], ["relative", "relative (s)"], ["wall", "wall time"]];
    const xt = store.data.x_tag;
    if (xt) opts.push([`tag:${xt}`, `tag: ${xt}`]);
    this.xaxis.replaceChildren(...opts.map(([v, t]) => el("option", { value: v, text: t })));
  }

  toggledFromSelection() {
    // A run is on when selected, or when the run filter hides it (so clearing the filter shows it).
    const store = this.store;
    const { re } = compileFilter(this.model.get("run_filter") || "");
    const selected = new Set(this.model.get("selected_runs") || []);
    this.toggled = new Set(store.runs.filter((r) => selected.has(r) || !matches(re, r)));
  }

  buildLegend(store) {
    const all = el("button", { class: "tbnb-all", type: "button", text: "all" });
    const none = el("button", { class: "tbnb-none", type: "button", text: "none" });
    all.addEventListener("click", () => {
      for (const r of store.runs) this.toggled.add(r);
      this.selectionChanged();
    });
    none.addEventListener("click", () => {
      this.toggled.clear();
      this.selectionChanged();
    });
    const items = store.runs.map((run) => {
      const box = el("input", { class: "tbnb-run-toggle", type: "checkbox", "data-run": run });
      box.addEventListener("change", () => {
        if (box.checked) this.toggled.add(run);
        else this.toggled.delete(run);
        this.selectionChanged();
      });
      const members = store.members[run];
      const label = el("label", { class: "tbnb-legend-item", "data-run": run, title: members ? members.join("\n") : run },
        box, el("span", { class: "tbnb-swatch", style: `background:${runColor(run)}` }), el("span", { text: run }));
      if (members) label.append(el("span", { class: "tbnb-members", text: `(${members.length})` }));
      return label;
    });
    this.legend.replaceChildren(el("div", { class: "tbnb-legend-buttons" }, all, none), ...items);
  }

  selectionFromToggles() {
    const { re } = compileFilter(this.model.get("run_filter") || "");
    return this.store.runs.filter((r) => this.toggled.has(r) && matches(re, r));
  }

  selectionChanged() {
    this.save({ selected_runs: this.selectionFromToggles() });
    this.update();
  }

  onFilter(which) {
    const input = which === "run" ? this.runFilter : this.tagFilter;
    const msg = which === "run" ? this.runMsg : this.tagMsg;
    const { error } = compileFilter(input.value);
    if (error) {
      input.classList.add("tbnb-invalid");
      msg.textContent = `invalid regex: ${error}`;
      return;
    }
    input.classList.remove("tbnb-invalid");
    msg.textContent = "";
    if (which === "run") {
      this.model.set("run_filter", input.value);
      this.selectionChanged();
    } else {
      this.save({ tag_filter: input.value });
      this.update();
    }
  }

  buildCharts() {
    for (const c of this.charts.values()) if (this.seen) this.seen.unobserve(c.el);
    this.charts.clear();
    const groups = new Map();
    const specs = this.model.get("charts") || [];
    const height = this.model.get("height") || 220;
    for (const spec of specs) {
      let g = groups.get(spec.group);
      if (!g) {
        const grid = el("div", { class: "tbnb-grid" });
        const count = el("span", { class: "tbnb-group-count" });
        const node = el("details", { class: "tbnb-group", "data-group": spec.group, open: "" },
          el("summary", {}, `${spec.group || "(no prefix)"} `, count), grid);
        g = { node, grid, count, charts: [] };
        groups.set(spec.group, g);
      }
      const logy = el("input", { class: "tbnb-logy", type: "checkbox" });
      const outl = el("input", { class: "tbnb-outliers", type: "checkbox" });
      const ymin = el("input", { class: "tbnb-ymin", type: "text", placeholder: "y min" });
      const ymax = el("input", { class: "tbnb-ymax", type: "text", placeholder: "y max" });
      const reset = el("button", { class: "tbnb-reset-zoom", type: "button", text: "reset zoom", hidden: "" });
      const body = el("div", { class: "tbnb-chart-body" });
      const node = el("div", { class: "tbnb-chart", "data-tag": spec.key, "data-series-count": "0" },
        el("div", { class: "tbnb-chart-head" },
          el("span", { class: "tbnb-chart-title", text: spec.key, title: spec.key }),
          el("label", {}, logy, "log y"), el("label", {}, outl, "ignore outliers"), ymin, ymax, reset),
        body);
      g.grid.append(node);
      const c = { spec, el: node, body, logy, outl, ymin, ymax, reset, zoomData: null, dirty: true, visible: !this.seen, pending: null };
      c.chart = new LineChart(body, {
        height,
        onZoom: (domain) => this.onZoom(c, domain),
        tooltip: () => ({ sort: this.sort.value }),
      });
      node.__tbnb = c;
      logy.addEventListener("change", () => this.toggleList("log_y", spec.key, logy.checked));
      outl.addEventListener("change", () => this.toggleList("ignore_outliers", spec.key, outl.checked));
      const onRange = () => {
        const parse = (s) => (s.trim() === "" || !Number.isFinite(Number(s)) ? null : Number(s));
        for (const inp of [ymin, ymax]) {
          inp.classList.toggle("tbnb-invalid", inp.value.trim() !== "" && !Number.isFinite(Number(inp.value)));
        }
        const yr = { ...(this.model.get("y_range") || {}) };
        const lo = parse(ymin.value);
        const hi = parse(ymax.value);
        if (lo === null && hi === null) delete yr[spec.key];
        else yr[spec.key] = [lo, hi];
        this.save({ y_range: yr });
        this.redraw(c);
      };
      ymin.addEventListener("change", onRange);
      ymax.addEventListener("change", onRange);
      reset.addEventListener("click", () => {
        c.chart.zoom = null;
        this.onZoom(c, null);
      });
      this.charts.set(spec.key, c);
      g.charts.push(c);
      if (this.seen) this.seen.observe(node);
    }
    this.groupNodes = groups;
    this.groups.replaceChildren(...[...groups.values()].map((g) => g.node));
    this.syncChartControls();
  }

  toggleList(trait, key, on) {
    const list = new Set(this.model.get(trait) || []);
    if (on) list.add(key);
    else list.delete(key);
    this.save({ [trait]: [...list] });
    const c = this.charts.get(key);
    if (c) this.redraw(c);
  }

  syncControls() {
    const w = Number(this.model.get("smoothing"));
    this.smoothing.value = String(w);
    this.smoothingValue.textContent = w.toFixed(3);
    this.smode.value = this.model.get("smoothing_mode") || "ema";
    this.xaxis.value = this.xMode();
    this.showRaw.checked = !!this.model.get("show_raw");
    for (const [input, trait, msg] of [[this.runFilter, "run_filter", this.runMsg], [this.tagFilter, "tag_filter", this.tagMsg]]) {
      const v = this.model.get(trait) || "";
      if (!input.classList.contains("tbnb-invalid") && input.value !== v) input.value = v;
      if (input.value === v) {
        input.classList.remove("tbnb-invalid");
        msg.textContent = "";
      }
    }
  }

  syncChartControls() {
    const logs = new Set(this.model.get("log_y") || []);
    const outs = new Set(this.model.get("ignore_outliers") || []);
    const yr = this.model.get("y_range") || {};
    for (const c of this.charts.values()) {
      c.logy.checked = logs.has(c.spec.key);
      c.outl.checked = outs.has(c.spec.key);
      const r = yr[c.spec.key] || [null, null];
      const fmt = (v) => (v === null || v === undefined ? "" : String(v));
      if (document.activeElement !== c.ymin) c.ymin.value = fmt(r[0]);
      if (document.activeElement !== c.ymax) c.ymax.value = fmt(r[1]);
    }
  }

  /** Which series each chart draws, the legend and the counts; then redraw. */
  update() {
    const store = this.store;
    const runRe = compileFilter(this.model.get("run_filter") || "").re;
    const tagRe = compileFilter(this.model.get("tag_filter") || "").re;
    const selected = new Set(this.model.get("selected_runs") || []);
    for (const item of this.legend.querySelectorAll(".tbnb-legend-item")) {
      const run = item.getAttribute("data-run");
      item.classList.toggle("tbnb-filtered-out", !matches(runRe, run));
      item.querySelector("input").checked = this.toggled.has(run);
    }
    for (const c of this.charts.values()) {
      const tags = c.spec.tags.filter((t) => matches(tagRe, t));
      c.tags = tags;
      c.records = [];
      for (const tag of tags) {
        for (const run of store.runs) {
          if (!selected.has(run)) continue;
          const rec = store.series.get(run + SEP + tag);
          if (rec) c.records.push(rec);
        }
      }
      const runsDrawn = new Set(c.records.map((r) => r.run));
      c.el.setAttribute("data-series-count", String(runsDrawn.size));
      c.el.classList.toggle("tbnb-hidden", tags.length === 0);
    }
    for (const g of (this.groupNodes || new Map()).values()) {
      const shown = g.charts.filter((c) => c.tags.length > 0).length;
      g.node.classList.toggle("tbnb-hidden", shown === 0);
      g.count.textContent = `(${shown})`;
    }
    const n = store.series.size;
    // selected_runs may name runs not charted (e.g. a linked hparams row's sub-runs)
    const shownRuns = store.runs.filter((r) => selected.has(r)).length;
    this.status.textContent = `${shownRuns}/${store.runs.length} ${store.data.kind === "groups" ? "groups" : "runs"}, ${n} series`;
    this.redrawAll();
  }

  chartSeries(c) {
    const weight = Number(this.model.get("smoothing")) || 0;
    const smode = this.model.get("smoothing_mode") || "ema";
    const xMode = this.xMode();
    const multi = c.spec.tags.length > 1;
    const out = [];
    for (const rec of c.records || []) {
      const zoomed = c.zoomData && c.zoomData.get(rec.run + SEP + rec.tag);
      const d = derived(rec, zoomed || rec.cols, xMode, weight, smode, !zoomed);
      if (!rec.color) rec.color = runColor(rec.run);
      out.push({
        ...d,
        src: zoomed ? null : d,
        color: rec.color,
        label: multi ? `${rec.run} ${rec.tag}` : rec.run,
        dash: multi ? c.spec.tags.indexOf(rec.tag) : 0,
        run: rec.run,
        tag: rec.tag,
        cols: zoomed || rec.cols,
      });
    }
    return out;
  }

  redraw(c, level = "all") {
    c.dirty = LEVELS[level] > LEVELS[c.dirty || "none"] ? level : c.dirty;
    this.schedule();
  }

  /** Mark every chart for redraw: "all" (data, axes) or "smooth" (smoothed lines only). */
  redrawAll(level = "all") {
    for (const c of this.charts.values()) this.redraw(c, level);
  }

  schedule() {
    if (this.frame) return;
    const run = () => {
      this.frame = 0;
      this.drawDirty();
    };
    this.frame = typeof requestAnimationFrame !== "undefined" ? requestAnimationFrame(run) : setTimeout(run, 0);
  }

  drawDirty() {
    const logs = new Set(this.model.get("log_y") || []);
    const outs = new Set(this.model.get("ignore_outliers") || []);
    const yr = this.model.get("y_range") || {};
    const xMode = this.xMode();
    for (const c of this.charts.values()) {
      if (!c.dirty || c.el.classList.contains("tbnb-hidden")) continue;
      if (this.seen && !c.visible) continue;
      const level = c.dirty;
      c.dirty = false;
      c.chart.height = this.model.get("height") || 220;
      c.chart.setData({
        series: this.chartSeries(c),
        xType: xMode === "wall" ? "time" : "linear",
        xLabel: xMode.startsWith("tag:") ? xMode.slice(4) : xMode,
        logY: logs.has(c.spec.key),
        outliers: outs.has(c.spec.key),
        yRange: yr[c.spec.key] || [null, null],
        showRaw: !!this.model.get("show_raw"),
      });
      c.chart.draw(level);
      c.reset.hidden = !c.chart.zoom;
      c.el.setAttribute("data-points", String(c.chart.series.reduce((n, s) => n + s.x.length, 0)));
      c.el.setAttribute("data-zoomed", c.zoomData ? "full" : c.chart.zoom ? "view" : "none");
    }
  }

  onZoom(c, domain) {
    c.reset.hidden = !domain;
    if (!domain) {
      c.zoomData = null;
      this.redraw(c);
      return;
    }
    const xMode = this.xMode();
    const field = xMode === "wall" ? "wall" : xMode === "relative" ? "relative" : xMode.startsWith("tag:") ? "xv" : "step";
    const scale = xMode === "wall" ? 1 / 1000 : 1;
    const id = ++this.requestId;
    c.pending = id;
    try {
      this.model.send({
        type: "range",
        id,
        chart: c.spec.key,
        field,
        lo: domain[0] * scale,
        hi: domain[1] * scale,
        buckets: Math.max(64, Math.round(c.chart.width)),
        runs: [...new Set((c.records || []).map((r) => r.run))],
      });
    } catch (err) {
      // No kernel (saved notebook, exported page): the zoom shows the points already here.
    }
    this.redraw(c);
  }

  onMessage(msg, buffers) {
    if (!msg || typeof msg !== "object") return;
    if (msg.type === "append") {
      applyAppend(this.store, unpack(msg, buffers || []));
      if (this.legend.querySelectorAll(".tbnb-run-toggle").length !== this.store.runs.length) this.rebuild();
      else this.update();
    } else if (msg.type === "range") {
      for (const c of this.charts.values()) {
        if (c.pending !== msg.id) continue;
        c.pending = null;
        if (msg.error) {
          this.status.textContent = `zoom: ${msg.error}`;
          continue;
        }
        const data = unpack(msg, buffers || []);
        if (!c.chart.zoom) continue;
        c.zoomData = new Map(data.series.map((s) => [s.run + SEP + s.tag, s.columns]));
        this.redraw(c);
      }
    }
  }

  /** Rows of every drawn series (unzoomed), raw and smoothed, as CSV text. */
  csv() {
    const weight = Number(this.model.get("smoothing")) || 0;
    const smode = this.model.get("smoothing_mode") || "ema";
    const xMode = this.xMode();
    const groups = this.store.data.kind === "groups";
    const header = ["run", "tag", "step", "wall_time", "value", "smoothed"];
    if (groups) header.push("lo", "hi", "n");
    if (xMode.startsWith("tag:")) header.push("x");
    const rows = [];
    const done = new Set();
    for (const c of this.charts.values()) {
      if (c.el.classList.contains("tbnb-hidden")) continue;
      for (const rec of c.records || []) {
        const key = rec.run + SEP + rec.tag;
        if (done.has(key)) continue;
        done.add(key);
        const d = derived(rec, rec.cols, xMode, weight, smode, true);
        const cols = rec.cols;
        for (let i = 0; i < cols.value.length; i++) {
          const row = [rec.run, rec.tag, cols.step[i], cols.wall[i], cols.value[i], d.ys[i]];
          if (groups) row.push(cols.lo ? cols.lo[i] : null, cols.hi ? cols.hi[i] : null, cols.n ? cols.n[i] : null);
          if (xMode.startsWith("tag:")) row.push(cols.xv ? cols.xv[i] : null);
          rows.push(row);
        }
      }
    }
    return { text: toCSV(header, rows), rows: rows.length };
  }

  downloadCSV() {
    const { text, rows } = this.csv();
    this.download.setAttribute("data-rows", String(rows));
    const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
    const a = el("a", { href: url, download: "tbnb-scalars.csv" });
    this.root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  dispose() {
    if (this.frame && typeof cancelAnimationFrame !== "undefined") cancelAnimationFrame(this.frame);
    for (const d of this.disposers) d();
  }
}

export default { render: renderView(ScalarsView, "scalars") };
