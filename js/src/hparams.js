// Front end of tbnb/widgets/hparams.py (widget key "hparams").
// Renders from model state alone (live kernel, saved notebook or exported page):
// parallel coordinates on one canvas (brush, reorder, invert, linear/log/quantile,
// colour by any column, hover linked with the table), a sortable/filterable/paged
// table with CSV download, a scatter row of each hparam against the chosen metric,
// and the parameter-importance panel. Only importance for a newly chosen metric is
// asked of the kernel. Brushes are kept in value space; the selection rule (ranges
// inclusive, missing values never pass a brushed axis) is the same as Python's.
import { format } from "d3-format";
import { scaleLinear, scaleLog } from "d3-scale";
import { decodeTree, unpack } from "./codecs.js";
import { el, renderView } from "./dom.js";
import { naturalCompare, toCSV } from "./util.js";

const CSS = `
.tbnb-hparams{font-family:var(--jp-ui-font-family,system-ui,sans-serif);font-size:12px;color:var(--jp-ui-font-color1,#222);background:var(--jp-layout-color0,transparent)}
.tbnb-hparams .tbnb-toolbar{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;margin:0 0 6px 0}
.tbnb-hparams .tbnb-toolbar label{display:inline-flex;gap:4px;align-items:center}
.tbnb-hparams select,.tbnb-hparams button,.tbnb-hparams input[type=text]{font:inherit;color:inherit;background:var(--jp-layout-color1,#fff);border:1px solid var(--jp-border-color1,#bbb);border-radius:3px;padding:1px 6px}
.tbnb-hparams input[type=text]{width:160px}
.tbnb-hp-status{opacity:.75}
.tbnb-hp-pc{position:relative;width:100%;user-select:none}
.tbnb-hp-pc canvas{display:block}
.tbnb-axis{position:absolute;top:0;width:84px;margin-left:-42px;display:flex;flex-direction:column;align-items:center;pointer-events:none}
.tbnb-axis-head{pointer-events:auto;cursor:grab;max-width:84px;overflow:hidden;font-weight:600;text-align:center;padding:0 2px;font-size:11px;line-height:12px;max-height:24px;white-space:normal;overflow-wrap:anywhere}
.tbnb-axis.tbnb-dragging .tbnb-axis-head{cursor:grabbing;opacity:.6}
.tbnb-axis-tools{pointer-events:auto;display:flex;gap:2px;height:16px}
.tbnb-axis-tools button{font-size:10px;padding:0 3px;line-height:14px}
.tbnb-axis-track{pointer-events:auto;position:absolute;width:28px;cursor:ns-resize}
.tbnb-hp-legend{font-size:11px;display:flex;gap:8px;align-items:center;flex-wrap:wrap;min-height:16px}
.tbnb-hp-legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:3px;vertical-align:-1px}
.tbnb-hp-lower{display:flex;gap:14px;align-items:flex-start;margin-top:8px;flex-wrap:wrap}
.tbnb-hp-scatter{display:flex;flex-wrap:wrap;gap:6px;flex:1 1 420px;min-width:0}
.tbnb-hp-cell{border:1px solid var(--jp-border-color2,#e0e0e0);border-radius:3px;padding:2px}
.tbnb-hp-cell div{font-size:11px;text-align:center;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:170px}
.tbnb-hp-importance{flex:0 1 360px;min-width:260px}
.tbnb-hp-importance table{border-collapse:collapse;width:100%}
.tbnb-hp-importance td,.tbnb-hp-importance th{padding:1px 4px;text-align:left;white-space:nowrap}
.tbnb-hp-bar{display:inline-block;height:9px;background:#4c78a8;vertical-align:middle}
.tbnb-hp-bar.tbnb-neg{background:#e45756}
.tbnb-hp-tablewrap{margin-top:10px;overflow:auto;max-height:520px}
.tbnb-hp-table{border-collapse:collapse;font-variant-numeric:tabular-nums}
.tbnb-hp-table th{position:sticky;top:0;background:var(--jp-layout-color1,#f6f6f6);cursor:pointer;white-space:nowrap;padding:2px 6px;border-bottom:1px solid var(--jp-border-color1,#ccc)}
.tbnb-hp-table td{padding:1px 6px;white-space:nowrap;border-bottom:1px solid var(--jp-border-color2,#eee);max-width:240px;overflow:hidden;text-overflow:ellipsis}
.tbnb-hp-table td.tbnb-num{text-align:right}
.tbnb-hp-row.tbnb-hover td{background:rgba(255,200,0,.25)}
.tbnb-hp-row.tbnb-unselected td{opacity:.45}
.tbnb-hp-pager{display:flex;gap:8px;align-items:center;margin-top:4px}
.tbnb-hp-error{color:#d33;font-size:11px}
`;

const VIRIDIS = ["#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];
const PALETTE = ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#eeca3b", "#b279a2", "#ff9da6", "#9d755d", "#bab0ac"];
const fmt = format(".4~g");
const SCALES = ["linear", "log", "quantile"];
const SCALE_TEXT = { linear: "lin", log: "log", quantile: "q" };
const PAD = { top: 50, bottom: 30, side: 56 };
const BINS = 32;
const GREY = "rgb(150,150,150)";

function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
const VIRIDIS_RGB = VIRIDIS.map(hexToRgb);

/** Viridis colour at t in [0, 1] (NaN -> grey). */
export function viridis(t) {
  if (!Number.isFinite(t)) return "rgb(150,150,150)";
  const x = Math.min(Math.max(t, 0), 1) * (VIRIDIS_RGB.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS_RGB.length - 2);
  const f = x - i;
  const a = VIRIDIS_RGB[i];
  const b = VIRIDIS_RGB[i + 1];
  return `rgb(${Math.round(a[0] + (b[0] - a[0]) * f)},${Math.round(a[1] + (b[1] - a[1]) * f)},${Math.round(a[2] + (b[2] - a[2]) * f)})`;
}

// ---------------------------------------------------------------- data

/** Decode the _table trait into runs, members and columns by name. */
export function buildTable(raw) {
  const data = decodeTree(raw || {});
  const runs = data.runs || [];
  const columns = new Map();
  for (const c of data.columns || []) {
    const col = { ...c };
    if (col.kind === "number") {
      const finite = Array.from(col.values).filter(Number.isFinite).sort((a, b) => a - b);
      col.sorted = Float64Array.from(finite);
      col.min = finite.length ? finite[0] : NaN;
      col.max = finite.length ? finite[finite.length - 1] : NaN;
      const pos = finite.filter((v) => v > 0);
      col.minPos = pos.length ? pos[0] : NaN;
    }
    columns.set(col.name, col);
  }
  return { raw, runs, members: data.members || {}, columns, n: runs.length };
}

/** Whether row i passes brush b on column col (ranges inclusive; missing never passes). */
export function passes(col, b, i) {
  if (b.range) {
    if (col.kind !== "number") return true;
    const v = col.values[i];
    return v >= b.range[0] && v <= b.range[1];
  }
  if (col.kind === "number") {
    const v = col.values[i];
    return Number.isFinite(v) && b.values.some((s) => Number(s) === v);
  }
  const code = col.codes[i];
  return code >= 0 && b.values.includes(col.labels[code]);
}

/** Boolean mask of the rows passing every brush. */
export function selectionMask(table, brushes) {
  const mask = new Uint8Array(table.n).fill(1);
  for (const [name, b] of Object.entries(brushes || {})) {
    const col = table.columns.get(name);
    if (!col) continue;
    for (let i = 0; i < table.n; i++) if (mask[i] && !passes(col, b, i)) mask[i] = 0;
  }
  return mask;
}

/** An axis scale: value -> u in [0, 1] (bottom to top) and back; NaN when not drawable. */
export function axisScale(col, mode, inverted) {
  let toU;
  let fromU;
  let ticks;
  if (col.kind === "category") {
    const k = Math.max(col.labels.length, 1);
    toU = (code) => (code < 0 ? NaN : (code + 0.5) / k);
    fromU = (u) => Math.min(k - 1, Math.max(0, Math.floor(u * k)));
    const step = Math.ceil(k / 24);
    ticks = col.labels.map((label, i) => ({ u: (i + 0.5) / k, label })).filter((_, i) => i % step === 0);
  } else if (mode === "log" && col.minPos > 0) {
    const lo = col.minPos;
    const hi = Math.max(col.max, lo);
    const s = scaleLog().domain(lo === hi ? [lo / 10, hi * 10] : [lo, hi]).range([0, 1]);
    toU = (v) => (v > 0 ? s(v) : NaN);
    fromU = (u) => s.invert(u);
    ticks = s.ticks(5).filter((_, i, a) => a.length <= 8 || Math.abs(Math.log10(a[i]) % 1) < 1e-9)
      .map((v) => ({ u: s(v), label: fmt(v) }));
  } else if (mode === "quantile" && col.sorted.length > 1) {
    const xs = col.sorted;
    const n = xs.length;
    toU = (v) => {
      if (!Number.isFinite(v)) return NaN;
      if (v <= xs[0]) return 0;
      if (v >= xs[n - 1]) return 1;
      let lo = 0;
      let hi = n - 1;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (xs[mid] <= v) lo = mid;
        else hi = mid;
      }
      // ties: average rank of equal values
      let a = lo;
      while (a > 0 && xs[a - 1] === xs[lo]) a--;
      const base = xs[lo] === v ? (a + lo) / 2 : lo + (v - xs[lo]) / (xs[hi] - xs[lo]);
      return base / (n - 1);
    };
    fromU = (u) => {
      const x = Math.min(Math.max(u, 0), 1) * (n - 1);
      const i = Math.min(Math.floor(x), n - 2);
      return xs[i] + (xs[i + 1] - xs[i]) * (x - i);
    };
    ticks = [0, 0.25, 0.5, 0.75, 1].map((p) => ({ u: toU(fromU(p)), label: fmt(fromU(p)) }));
  } else {
    let lo = col.min;
    let hi = col.max;
    if (!Number.isFinite(lo)) {
      lo = 0;
      hi = 1;
    } else if (lo === hi) {
      lo -= 0.5;
      hi += 0.5;
    }
    const s = scaleLinear().domain([lo, hi]).range([0, 1]);
    toU = (v) => (Number.isFinite(v) ? s(v) : NaN);
    fromU = (u) => s.invert(u);
    ticks = s.ticks(5).map((v) => ({ u: s(v), label: fmt(v) }));
  }
  if (inverted) {
    const t0 = toU;
    const f0 = fromU;
    toU = (v) => 1 - t0(v);
    fromU = (u) => f0(1 - u);
    ticks = ticks.map((t) => ({ u: 1 - t.u, label: t.label }));
  }
  return { toU, fromU, ticks, kind: col.kind };
}

/** u of row i on a column (codes for categories, values for numbers). */
function rowU(col, scale, i) {
  return col.kind === "category" ? scale.toU(col.codes[i]) : scale.toU(col.values[i]);
}

/** Whether a column has a missing value (cached on the column). */
function hasMissing(col) {
  if (col.missing === undefined) {
    const a = col.kind === "number" ? col.values : col.codes;
    col.missing = col.kind === "number" ? a.some((v) => Number.isNaN(v)) : a.some((c) => c < 0);
  }
  return col.missing;
}

/** One number format per column: exponents for all or for none of its cells. */
function columnFormat(col) {
  if (col.format === undefined) {
    let big = 0;
    for (const v of col.values) if (Number.isFinite(v) && v !== 0) big = Math.max(big, Math.abs(v));
    let small = Infinity;
    for (const v of col.values) if (Number.isFinite(v) && v !== 0) small = Math.min(small, Math.abs(v));
    col.format = big >= 1e6 || small < 1e-4 ? format(".4~e") : fmt;
  }
  return col.format;
}

function cellText(col, i) {
  if (!col) return "";
  if (col.kind === "number") {
    const v = col.values[i];
    return Number.isNaN(v) ? "" : columnFormat(col)(v);
  }
  const c = col.codes[i];
  return c < 0 ? "" : col.labels[c];
}

function cellValue(col, i) {
  if (col.kind === "number") {
    const v = col.values[i];
    return Number.isNaN(v) ? null : v;
  }
  const c = col.codes[i];
  return c < 0 ? null : col.labels[c];
}

// ---------------------------------------------------------------- view

class HParamsView {
  constructor(model, host) {
    this.model = model;
    this.host = host;
    this.disposers = [];
    this.hover = -1;
    this.page = 0;
    this.sortBy = null;
    this.sortDesc = false;
    this.frame = 0;
    this.live = null; // brushes while dragging (not yet saved)
    this.requested = new Set();
  }

  on(event, fn) {
    this.model.on(event, fn);
    this.disposers.push(() => this.model.off(event, fn));
  }

  save(values) {
    for (const [k, v] of Object.entries(values)) this.model.set(k, v);
    this.model.save_changes();
  }

  build() {
    this.root = el("div", { class: "tbnb-hparams" });
    this.metricSel = el("select", { class: "tbnb-hp-metric", title: "metric of the scatter plots and the importance panel" });
    this.colorSel = el("select", { class: "tbnb-hp-color", title: "colour lines by" });
    this.reset = el("button", { class: "tbnb-hp-reset", type: "button", text: "Clear brushes" });
    this.status = el("span", { class: "tbnb-hp-status" });
    const toolbar = el("div", { class: "tbnb-toolbar" },
      el("label", {}, "Metric", this.metricSel), el("label", {}, "Colour", this.colorSel), this.reset, this.status);
    this.pc = el("div", { class: "tbnb-hp-pc" });
    this.canvas = el("canvas", { class: "tbnb-hp-canvas" });
    this.pc.append(this.canvas);
    this.legend = el("div", { class: "tbnb-hp-legend" });
    this.scatter = el("div", { class: "tbnb-hp-scatter" });
    this.importance = el("div", { class: "tbnb-hp-importance" });
    const lower = el("div", { class: "tbnb-hp-lower" }, this.scatter, this.importance);
    this.filter = el("input", { class: "tbnb-hp-filter", type: "text", placeholder: "filter rows (text)", spellcheck: "false" });
    this.onlySel = el("input", { class: "tbnb-hp-only-selected", type: "checkbox" });
    this.onlySel.checked = true;
    this.csvBtn = el("button", { class: "tbnb-hp-csv", type: "button", text: "Download CSV" });
    this.pageSize = el("select", { class: "tbnb-hp-page-size" });
    for (const n of [10, 25, 50, 100, 500]) this.pageSize.append(el("option", { value: String(n), text: String(n) }));
    this.prev = el("button", { class: "tbnb-hp-prev", type: "button", text: "‹" });
    this.next = el("button", { class: "tbnb-hp-next", type: "button", text: "›" });
    this.pageInfo = el("span", { class: "tbnb-hp-page" });
    const tableBar = el("div", { class: "tbnb-toolbar" }, this.filter, el("label", {}, this.onlySel, "selected only"), this.csvBtn);
    this.table = el("table", { class: "tbnb-hp-table" });
    const pager = el("div", { class: "tbnb-hp-pager" }, this.prev, this.pageInfo, this.next, el("label", {}, "rows/page", this.pageSize));
    this.root.append(toolbar, this.pc, this.legend, lower, tableBar, el("div", { class: "tbnb-hp-tablewrap" }, this.table), pager);
    this.host.replaceChildren(el("style", { text: CSS }), this.root);

    this.metricSel.addEventListener("change", () => this.save({ metric: this.metricSel.value }));
    this.colorSel.addEventListener("change", () => this.save({ color_by: this.colorSel.value }));
    this.reset.addEventListener("click", () => this.commitBrushes({}));
    this.filter.addEventListener("input", () => {
      this.page = 0;
      this.renderTable();
    });
    this.onlySel.addEventListener("change", () => {
      this.page = 0;
      this.renderTable();
    });
    this.csvBtn.addEventListener("click", () => this.downloadCSV());
    this.pageSize.addEventListener("change", () => this.save({ page_size: Number(this.pageSize.value) }));
    this.prev.addEventListener("click", () => {
      this.page = Math.max(0, this.page - 1);
      this.renderTable();
    });
    this.next.addEventListener("click", () => {
      this.page += 1;
      this.renderTable();
    });
    this.canvas.addEventListener("pointermove", (e) => this.onCanvasHover(e));
    this.canvas.addEventListener("pointerleave", () => this.setHover(-1));

    this.on("change:_table", () => this.rebuild());
    this.on("change:order change:inverted change:scales change:height", () => this.layoutAxes());
    this.on("change:brushes", () => {
      this.live = null;
      this.update();
    });
    this.on("change:color_by", () => {
      this.colors = null;
      this.update();
    });
    this.on("change:metric", () => {
      this.syncSelects();
      this.renderScatter();
      this.renderImportance();
    });
    this.on("change:_importance", () => this.renderImportance());
    this.on("change:page_size", () => {
      this.page = 0;
      this.syncSelects();
      this.renderTable();
    });
    this.on("msg:custom", (msg, buffers) => this.onMessage(msg, buffers));
    if (typeof ResizeObserver !== "undefined") {
      this.resizer = new ResizeObserver(() => this.layoutAxes());
      this.resizer.observe(this.pc);
      this.disposers.push(() => this.resizer.disconnect());
    }
    this.rebuild();
  }

  rebuild() {
    this.data = buildTable(this.model.get("_table"));
    this.colors = null;
    this.page = 0;
    this.syncSelects();
    this.layoutAxes();
  }

  syncSelects() {
    const d = this.data;
    const metrics = [...d.columns.values()].filter((c) => c.role === "metric" && c.kind === "number").map((c) => c.name);
    const fill = (sel, names, value) => {
      if (sel.__names !== names.join("\u0000")) {
        sel.replaceChildren(...names.map((n) => el("option", { value: n, text: n })));
        sel.__names = names.join("\u0000");
      }
      sel.value = value;
    };
    fill(this.metricSel, metrics, this.model.get("metric") || "");
    fill(this.colorSel, [...d.columns.keys()], this.model.get("color_by") || "");
    this.pageSize.value = String(this.model.get("page_size") || 25);
  }

  brushes() {
    return this.live || this.model.get("brushes") || {};
  }

  commitBrushes(brushes) {
    this.live = null;
    const mask = selectionMask(this.data, brushes);
    const runs = [];
    for (let i = 0; i < this.data.n; i++) {
      if (!mask[i]) continue;
      const run = this.data.runs[i];
      for (const m of this.data.members[run] || [run]) runs.push(m);
    }
    this.save({ brushes, selected_runs: runs });
    this.update();
  }

  axes() {
    const order = (this.model.get("order") || []).filter((n) => this.data.columns.has(n));
    const inverted = new Set(this.model.get("inverted") || []);
    const scales = this.model.get("scales") || {};
    const width = Math.max(this.pc.clientWidth || 800, 200);
    const n = order.length;
    const span = Math.max(width - 2 * PAD.side, 1);
    return order.map((name, k) => {
      const col = this.data.columns.get(name);
      const mode = col.kind === "number" ? scales[name] || "linear" : "category";
      return { name, col, mode, inverted: inverted.has(name), x: PAD.side + (n > 1 ? (span * k) / (n - 1) : span / 2), scale: axisScale(col, mode, inverted.has(name)) };
    });
  }

  plotBox() {
    const h = this.model.get("height") || 320;
    return { top: PAD.top, bottom: h - PAD.bottom, height: h };
  }

  yOf(u) {
    const { top, bottom } = this.plotBox();
    return Number.isFinite(u) ? bottom - u * (bottom - top) : bottom + 16;
  }

  layoutAxes() {
    if (!this.data) return;
    this.axesCache = this.axes();
    const { top, bottom, height } = this.plotBox();
    for (const node of this.pc.querySelectorAll(".tbnb-axis")) node.remove();
    const spacing = this.axesCache.length > 1 ? Math.abs(this.axesCache[1].x - this.axesCache[0].x) : 84;
    const headWidth = Math.max(30, Math.min(84, spacing - 6));
    const fits = 2 * Math.max(3, Math.floor(headWidth / 6.2));  // two lines of 11 px bold
    for (const ax of this.axesCache) {
      // Titles wrap onto two lines; a longer one keeps its end, where names differ
      // ("…/val_loss.last").
      const short = ax.name.length > fits ? `…${ax.name.slice(-(fits - 1))}` : ax.name;
      const shown = short.replace(/\//g, "/\u200b");  // prefer breaking after a "/"
      const head = el("div", { class: "tbnb-axis-head", title: `${ax.name} (drag to reorder)`, text: shown });
      head.style.maxWidth = `${headWidth}px`;
      const inv = el("button", { class: "tbnb-axis-invert", type: "button", title: "invert", text: "⇅" });
      const tools = el("div", { class: "tbnb-axis-tools" }, inv);
      if (ax.col.kind === "number") {
        const sc = el("button", { class: "tbnb-axis-scale", type: "button", title: "scale: linear / log / quantile", text: SCALE_TEXT[ax.mode] || "lin" });
        sc.setAttribute("data-scale", ax.mode);
        sc.addEventListener("click", () => {
          const scales = { ...(this.model.get("scales") || {}) };
          scales[ax.name] = SCALES[(SCALES.indexOf(ax.mode) + 1) % SCALES.length];
          if (scales[ax.name] === "linear") delete scales[ax.name];
          this.save({ scales });
          this.layoutAxes();
        });
        tools.append(sc);
      }
      const track = el("div", { class: "tbnb-axis-track" });
      track.style.top = `${top - 4}px`;
      track.style.height = `${bottom - top + 8}px`;
      const node = el("div", { class: "tbnb-axis", "data-column": ax.name, "data-kind": ax.col.kind }, head, tools, track);
      if (ax.inverted) node.setAttribute("data-inverted", "true");
      node.style.left = `${ax.x}px`;
      node.style.height = `${height}px`;
      inv.addEventListener("click", () => {
        const cur = new Set(this.model.get("inverted") || []);
        if (cur.has(ax.name)) cur.delete(ax.name);
        else cur.add(ax.name);
        this.save({ inverted: [...cur] });
        this.layoutAxes();
      });
      this.bindBrush(track, ax);
      this.bindReorder(head, node, ax);
      this.pc.append(node);
    }
    this.update();
  }

  bindBrush(track, ax) {
    let start = null;
    const uAt = (e) => {
      const { top, bottom } = this.plotBox();
      const rect = this.pc.getBoundingClientRect();
      const y = e.clientY - rect.top;
      return Math.min(Math.max((bottom - y) / (bottom - top), 0), 1);
    };
    const brushFor = (u0, u1) => {
      const cur = this.axesCache.find((a) => a.name === ax.name) || ax;
      const lo = Math.min(u0, u1);
      const hi = Math.max(u0, u1);
      if (cur.col.kind === "category") {
        const labels = cur.col.labels.filter((_, code) => {
          const u = cur.scale.toU(code);
          return u >= lo && u <= hi;
        });
        return { values: labels };
      }
      const a = cur.scale.fromU(lo);
      const b = cur.scale.fromU(hi);
      return { range: [Math.min(a, b), Math.max(a, b)] };
    };
    track.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      start = uAt(e);
      if (track.setPointerCapture) track.setPointerCapture(e.pointerId);
    });
    track.addEventListener("pointermove", (e) => {
      if (start === null) return;
      const u = uAt(e);
      if (Math.abs(u - start) * (this.plotBox().bottom - this.plotBox().top) < 3) return;
      this.live = { ...(this.model.get("brushes") || {}), [ax.name]: brushFor(start, u) };
      this.schedule();
    });
    const end = (e) => {
      if (start === null) return;
      const u = uAt(e);
      const px = Math.abs(u - start) * (this.plotBox().bottom - this.plotBox().top);
      const brushes = { ...(this.model.get("brushes") || {}) };
      const cur = this.axesCache.find((a) => a.name === ax.name) || ax;
      if (px >= 3) {
        brushes[ax.name] = brushFor(start, u);
      } else if (cur.col.kind === "category") {
        // a click toggles the nearest category
        const code = cur.scale.fromU(u);
        const label = cur.col.labels[code];
        const set = new Set(brushes[ax.name] && brushes[ax.name].values ? brushes[ax.name].values : []);
        if (set.has(label)) set.delete(label);
        else set.add(label);
        if (set.size) brushes[ax.name] = { values: cur.col.labels.filter((l) => set.has(l)) };
        else delete brushes[ax.name];
      } else {
        delete brushes[ax.name];
      }
      start = null;
      this.commitBrushes(brushes);
    };
    track.addEventListener("pointerup", end);
    track.addEventListener("pointercancel", () => {
      start = null;
      this.live = null;
      this.schedule();
    });
  }

  bindReorder(head, node, ax) {
    let startX = null;
    head.addEventListener("pointerdown", (e) => {
      e.preventDefault();
      startX = e.clientX;
      node.classList.add("tbnb-dragging");
      if (head.setPointerCapture) head.setPointerCapture(e.pointerId);
    });
    head.addEventListener("pointermove", (e) => {
      if (startX === null) return;
      node.style.left = `${ax.x + e.clientX - startX}px`;
    });
    head.addEventListener("pointerup", (e) => {
      if (startX === null) return;
      const x = ax.x + e.clientX - startX;
      startX = null;
      node.classList.remove("tbnb-dragging");
      const order = this.axesCache.map((a) => a.name).filter((n) => n !== ax.name);
      let k = 0;
      while (k < order.length && this.axesCache.find((a) => a.name === order[k]).x < x) k++;
      order.splice(k, 0, ax.name);
      this.save({ order });
      this.layoutAxes();
    });
  }

  schedule() {
    if (this.frame) return;
    const run = () => {
      this.frame = 0;
      this.drawLines();
    };
    if (typeof requestAnimationFrame === "undefined") run();
    else this.frame = requestAnimationFrame(run);
  }

  colorer() {
    // Every row gets a colour bucket (<= 33 colours) so lines are stroked per bucket.
    const name = this.model.get("color_by");
    const col = this.data.columns.get(name);
    const n = this.data.n;
    const bucket = new Uint8Array(n);
    let colors;
    let legend = [];
    if (!col) {
      colors = ["#4c78a8"];
    } else if (col.kind === "category") {
      colors = [...PALETTE, GREY];
      for (let i = 0; i < n; i++) bucket[i] = col.codes[i] < 0 ? PALETTE.length : col.codes[i] % PALETTE.length;
      legend = col.labels.slice(0, 20).map((l, k) => ({ label: l, color: PALETTE[k % PALETTE.length] }));
    } else {
      const lo = col.min;
      const span = col.max > lo ? col.max - lo : 1;
      colors = Array.from({ length: BINS }, (_, k) => viridis(k / (BINS - 1)));
      colors.push(GREY);
      for (let i = 0; i < n; i++) {
        const v = col.values[i];
        bucket[i] = Number.isFinite(v) ? Math.round(((v - lo) / span) * (BINS - 1)) : BINS;
      }
      if (Number.isFinite(lo)) legend = [{ label: fmt(lo), color: colors[0] }, { label: fmt(col.max), color: colors[BINS - 1] }];
    }
    return { color: (i) => colors[bucket[i]], bucket, colors, legend, name };
  }

  colorState() {
    if (!this.colors || this.colors.key !== this.model.get("color_by")) {
      this.colors = { key: this.model.get("color_by"), ...this.colorer() };
    }
    return this.colors;
  }

  update() {
    if (!this.data) return;
    this.mask = selectionMask(this.data, this.brushes());
    let k = 0;
    for (let i = 0; i < this.data.n; i++) k += this.mask[i];
    this.selectedCount = k;
    this.status.textContent = `${k} of ${this.data.n} runs selected`;
    this.status.setAttribute("data-selected", String(k));
    this.root.setAttribute("data-selected", String(k));
    this.syncSelects();
    const brushes = this.brushes();
    for (const node of this.pc.querySelectorAll(".tbnb-axis")) {
      const b = brushes[node.getAttribute("data-column")];
      if (b) node.setAttribute("data-brush", JSON.stringify(b));
      else node.removeAttribute("data-brush");
    }
    this.drawLines();
    this.renderLegend();
    if (!this.live) {
      this.renderTable();
      this.renderScatter();
      this.renderImportance();
    }
  }

  /** y of every row on every axis (cached per layout; reused for hover). */
  rowYs(axes) {
    const key = `${axes.map((a) => `${a.name}|${a.mode}|${a.inverted}|${a.x}`).join(";")}|${this.model.get("height")}`;
    if (this.ysKey !== key || this.ysTable !== this.data) {
      const n = this.data.n;
      this.ys = axes.map((ax) => {
        const out = new Float32Array(n);
        for (let i = 0; i < n; i++) out[i] = this.yOf(rowU(ax.col, ax.scale, i));
        return out;
      });
      this.ysKey = key;
      this.ysTable = this.data;
    }
    return this.ys;
  }

  drawLines() {
    const axes = this.axesCache || [];
    const { top, bottom, height } = this.plotBox();
    const width = Math.max(this.pc.clientWidth || 800, 200);
    const dpr = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
    const c = this.canvas;
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    const ctx = c.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const mask = this.live ? selectionMask(this.data, this.live) : this.mask;
    this.liveMask = mask;
    const n = this.data.n;
    const ys = this.rowYs(axes);
    if (!this.fg) this.fg = getComputedStyle(this.root).color || "#222";
    const fg = this.fg;
    // Every row, faint, drawn once per layout into an offscreen layer: a brush
    // move then costs one bitmap copy plus the selected rows only.
    const bgKey = `${this.ysKey}|${c.width}x${c.height}`;
    if (!this.bg || this.bgKey !== bgKey) {
      this.bg = this.bg || document.createElement("canvas");
      this.bg.width = c.width;
      this.bg.height = c.height;
      const b = this.bg.getContext("2d");
      if (b) {
        b.setTransform(dpr, 0, 0, dpr, 0, 0);
        b.clearRect(0, 0, width, height);
        b.lineWidth = 1;
        b.strokeStyle = "rgba(140,140,140,0.22)";
        b.beginPath();
        for (let i = 0; i < n; i++) {
          for (let k = 0; k < axes.length; k++) {
            if (k === 0) b.moveTo(axes[k].x, ys[k][i]);
            else b.lineTo(axes[k].x, ys[k][i]);
          }
        }
        b.stroke();
      }
      this.bgKey = bgKey;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(this.bg, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const { bucket, colors } = this.colorState();
    let shown = 0;
    for (let i = 0; i < n; i++) shown += mask[i];
    ctx.globalAlpha = shown > 500 ? 0.45 : shown > 100 ? 0.7 : 0.95;
    ctx.lineWidth = 1; // hairlines: Skia strokes wider many-segment paths ~30x slower
    for (let b = 0; b < colors.length; b++) {
      let any = false;
      ctx.beginPath();
      for (let i = 0; i < n; i++) {
        if (!mask[i] || bucket[i] !== b) continue;
        any = true;
        for (let k = 0; k < axes.length; k++) {
          if (k === 0) ctx.moveTo(axes[k].x, ys[k][i]);
          else ctx.lineTo(axes[k].x, ys[k][i]);
        }
      }
      if (!any) continue;
      ctx.strokeStyle = colors[b];
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    if (this.hover >= 0 && this.hover < n) {
      ctx.lineWidth = 3;
      ctx.strokeStyle = fg;
      ctx.beginPath();
      for (let k = 0; k < axes.length; k++) {
        if (k === 0) ctx.moveTo(axes[k].x, ys[k][this.hover]);
        else ctx.lineTo(axes[k].x, ys[k][this.hover]);
      }
      ctx.stroke();
    }
    // axes, ticks, NA row and brushes
    const brushes = this.brushes();
    ctx.font = "10px sans-serif";
    for (const ax of axes) {
      ctx.strokeStyle = fg;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(ax.x, top);
      ctx.lineTo(ax.x, bottom);
      ctx.stroke();
      ctx.fillStyle = fg;
      ctx.textAlign = "right";
      ctx.textBaseline = "middle";
      for (const t of ax.scale.ticks) {
        const y = this.yOf(t.u);
        ctx.beginPath();
        ctx.moveTo(ax.x - 3, y);
        ctx.lineTo(ax.x, y);
        ctx.stroke();
        const label = t.label.length > 12 ? `${t.label.slice(0, 11)}…` : t.label;
        ctx.fillText(label, ax.x - 5, y);
      }
      if (hasMissing(ax.col)) {
        ctx.globalAlpha = 0.6;
        ctx.fillText("NA", ax.x - 5, bottom + 16);
        ctx.globalAlpha = 1;
      }
      const b = brushes[ax.name];
      if (b) {
        ctx.fillStyle = "rgba(255,165,0,0.35)";
        ctx.strokeStyle = "rgba(200,110,0,0.9)";
        const spans = [];
        if (b.range && ax.col.kind === "number") {
          const u0 = ax.scale.toU(b.range[0]);
          const u1 = ax.scale.toU(b.range[1]);
          const clamp = (u, fb) => (Number.isFinite(u) ? Math.min(Math.max(u, 0), 1) : fb);
          spans.push([clamp(u0, 0), clamp(u1, 1)]);
        } else if (b.values) {
          const k = Math.max(ax.col.kind === "category" ? ax.col.labels.length : 1, 1);
          for (const label of b.values) {
            const code = ax.col.kind === "category" ? ax.col.labels.indexOf(label) : -1;
            if (code < 0) continue;
            const u = ax.scale.toU(code);
            spans.push([u - 0.5 / k, u + 0.5 / k]);
          }
        }
        for (const [u0, u1] of spans) {
          const y0 = this.yOf(Math.max(u0, u1));
          const y1 = this.yOf(Math.min(u0, u1));
          ctx.fillRect(ax.x - 7, y0, 14, Math.max(y1 - y0, 2));
          ctx.strokeRect(ax.x - 7, y0, 14, Math.max(y1 - y0, 2));
        }
      }
    }
  }

  renderLegend() {
    const { legend, name } = this.colorState();
    this.legend.replaceChildren(el("span", { text: name ? `colour: ${name}` : "" }),
      ...legend.map((item) => {
        const i = el("i");
        i.style.background = item.color;
        return el("span", {}, i, item.label);
      }));
  }

  onCanvasHover(e) {
    const axes = this.axesCache || [];
    if (axes.length < 1 || !this.ys) return;
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    let k = 0;
    while (k < axes.length - 2 && axes[k + 1].x < x) k++;
    const mask = this.liveMask || this.mask;
    let best = -1;
    let bestD = 6;
    for (let i = 0; i < this.data.n; i++) {
      let yi;
      if (axes.length === 1) yi = this.ys[0][i];
      else {
        const x0 = axes[k].x;
        const x1 = axes[k + 1].x;
        const f = Math.min(Math.max((x - x0) / (x1 - x0), 0), 1);
        yi = this.ys[k][i] + (this.ys[k + 1][i] - this.ys[k][i]) * f;
      }
      const d = Math.abs(yi - y) + (mask[i] ? 0 : 3);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    this.setHover(best);
  }

  setHover(i) {
    if (i === this.hover) return;
    this.hover = i;
    const run = i >= 0 ? this.data.runs[i] : null;
    this.root.setAttribute("data-hover", run === null ? "" : run);
    this.canvas.title = run === null ? "" : run;
    for (const tr of this.table.querySelectorAll(".tbnb-hp-row")) {
      tr.classList.toggle("tbnb-hover", tr.__row === i);
    }
    this.schedule();
  }

  // ------------------------------------------------------------ table
  rowsShown() {
    const d = this.data;
    const names = [...d.columns.keys()];
    const text = this.filter.value.trim().toLowerCase();
    let rows = [];
    for (let i = 0; i < d.n; i++) {
      if (this.onlySel.checked && !this.mask[i]) continue;
      if (text) {
        let hit = d.runs[i].toLowerCase().includes(text);
        for (let k = 0; !hit && k < names.length; k++) hit = cellText(d.columns.get(names[k]), i).toLowerCase().includes(text);
        if (!hit) continue;
      }
      rows.push(i);
    }
    if (this.sortBy !== null) {
      const col = this.sortBy === "run" ? null : d.columns.get(this.sortBy);
      const key = (i) => (col ? cellValue(col, i) : d.runs[i]);
      const dir = this.sortDesc ? -1 : 1;
      rows = rows.sort((a, b) => {
        const va = key(a);
        const vb = key(b);
        if (va === null && vb === null) return a - b;
        if (va === null) return 1; // missing last either way
        if (vb === null) return -1;
        const c = typeof va === "number" && typeof vb === "number" ? va - vb : naturalCompare(String(va), String(vb));
        return c === 0 ? a - b : c * dir;
      });
    }
    return rows;
  }

  renderTable() {
    const d = this.data;
    if (!d || !this.mask) return;
    const names = [...d.columns.keys()];
    const rows = this.rowsShown();
    const size = this.model.get("page_size") || 25;
    const pages = Math.max(1, Math.ceil(rows.length / size));
    this.page = Math.min(this.page, pages - 1);
    const first = this.page * size;
    const shown = rows.slice(first, first + size);
    const head = el("tr");
    for (const name of ["run", ...names]) {
      const mark = this.sortBy === name ? (this.sortDesc ? " ▼" : " ▲") : "";
      const th = el("th", { "data-column": name, title: `sort by ${name}`, text: name + mark });
      th.addEventListener("click", () => {
        if (this.sortBy === name) this.sortDesc = !this.sortDesc;
        else {
          this.sortBy = name;
          this.sortDesc = false;
        }
        this.renderTable();
      });
      head.append(th);
    }
    const { color } = this.colorState();
    const body = shown.map((i) => {
      const swatch = el("i");
      swatch.style.cssText = `display:inline-block;width:9px;height:9px;border-radius:2px;margin-right:4px;background:${color(i)}`;
      const tr = el("tr", { class: "tbnb-hp-row", "data-run": d.runs[i] }, el("td", {}, swatch, d.runs[i]));
      tr.__row = i;
      if (!this.mask[i]) tr.classList.add("tbnb-unselected");
      if (i === this.hover) tr.classList.add("tbnb-hover");
      for (const name of names) {
        const col = d.columns.get(name);
        tr.append(el("td", { class: col.kind === "number" ? "tbnb-num" : "", text: cellText(col, i) }));
      }
      tr.addEventListener("pointerenter", () => this.setHover(i));
      tr.addEventListener("pointerleave", () => this.setHover(-1));
      return tr;
    });
    this.table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
    this.pageInfo.textContent = rows.length ? `${first + 1}–${first + shown.length} of ${rows.length}` : "no rows";
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= pages - 1;
  }

  csv() {
    const d = this.data;
    const names = [...d.columns.keys()];
    const rows = this.rowsShown().map((i) => [d.runs[i], ...names.map((n) => cellValue(d.columns.get(n), i))]);
    return { text: toCSV(["run", ...names], rows), rows: rows.length };
  }

  downloadCSV() {
    const { text, rows } = this.csv();
    this.csvBtn.setAttribute("data-rows", String(rows));
    const url = URL.createObjectURL(new Blob([text], { type: "text/csv" }));
    const a = el("a", { href: url, download: "tbnb-hparams.csv" });
    this.root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  // ------------------------------------------------------------ scatter row
  renderScatter() {
    const d = this.data;
    if (!d || !this.mask) return;
    const metric = this.data.columns.get(this.model.get("metric"));
    const axes = (this.axesCache || []).filter((a) => a.col.role === "hparam").slice(0, 16);
    if (!metric || metric.kind !== "number") {
      this.scatter.replaceChildren(el("span", { text: "no metric column" }));
      return;
    }
    const ms = axisScale(metric, "linear", false);
    const { color } = this.colorState();
    const W = 170;
    const H = 130;
    const dpr = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
    const cells = axes.map((ax) => {
      const cv = el("canvas");
      cv.width = W * dpr;
      cv.height = H * dpr;
      cv.style.width = `${W}px`;
      cv.style.height = `${H}px`;
      const ctx = cv.getContext("2d");
      if (ctx) {
        ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
        const px = (u) => 8 + (Number.isFinite(u) ? u : -0.04) * (W - 16);
        const py = (u) => H - 8 - u * (H - 16);
        ctx.strokeStyle = "rgba(128,128,128,.5)";
        ctx.strokeRect(0.5, 0.5, W - 1, H - 1);
        for (const pass of [0, 1]) {
          for (let i = 0; i < d.n; i++) {
            if ((pass === 1) !== Boolean(this.mask[i])) continue;
            const uy = ms.toU(metric.values[i]);
            if (!Number.isFinite(uy)) continue;
            let ux = rowU(ax.col, ax.scale, i);
            if (ax.col.kind === "category" && Number.isFinite(ux)) ux += (((i * 2654435761) % 1000) / 1000 - 0.5) * (0.6 / ax.col.labels.length);
            ctx.fillStyle = pass ? color(i) : "rgba(150,150,150,.35)";
            ctx.beginPath();
            ctx.arc(px(ux), py(uy), pass ? 3 : 2, 0, 2 * Math.PI);
            ctx.fill();
          }
        }
      }
      return el("div", { class: "tbnb-hp-cell", "data-column": ax.name }, el("div", { title: `${metric.name} vs ${ax.name}`, text: `${ax.name} →` }), cv);
    });
    this.scatter.replaceChildren(el("div", { style: "flex:1 1 100%;font-size:11px;opacity:.7", text: `${metric.name} (y) against each hparam (x)` }), ...cells);
  }

  // ------------------------------------------------------------ importance
  renderImportance() {
    const metric = this.model.get("metric");
    const all = decodeTree(this.model.get("_importance") || {});
    const entry = all[metric];
    const title = el("div", { style: "font-weight:600;margin-bottom:2px", text: `Parameter importance for ${metric || "—"}` });
    if (!metric) {
      this.importance.replaceChildren(title);
      return;
    }
    if (!entry) {
      const note = el("div", { class: "tbnb-hp-importance-pending", text: "computing… (needs the kernel)" });
      this.importance.replaceChildren(title, note);
      if (!this.requested.has(metric)) {
        this.requested.add(metric);
        this.model.send({ type: "importance", id: metric, metric });
      }
      return;
    }
    const rows = entry.feature.map((f, k) => {
      const imp = entry.importance[k];
      const cor = entry.pearson[k];
      const bar = el("span", { class: "tbnb-hp-bar" });
      bar.style.width = `${Number.isFinite(imp) ? Math.round(imp * 100) : 0}px`;
      const cbar = el("span", { class: `tbnb-hp-bar${cor < 0 ? " tbnb-neg" : ""}` });
      cbar.style.width = `${Number.isFinite(cor) ? Math.round(Math.abs(cor) * 60) : 0}px`;
      return el("tr", { class: "tbnb-hp-imp-row", "data-feature": f },
        el("td", { text: f }), el("td", {}, bar, ` ${Number.isFinite(imp) ? imp.toFixed(3) : "–"}`),
        el("td", {}, cbar, ` ${Number.isFinite(cor) ? cor.toFixed(2) : "–"}`));
    });
    const table = el("table", {}, el("thead", {}, el("tr", {}, el("th", { text: "hparam" }), el("th", { text: "importance" }), el("th", { text: "correlation" }))), el("tbody", {}, ...rows));
    this.importance.replaceChildren(title, table);
  }

  onMessage(msg, buffers) {
    const content = unpack(msg, buffers || []);
    if (content && content.type === "importance" && content.error) {
      this.importance.append(el("div", { class: "tbnb-hp-error", text: content.error }));
    }
  }

  dispose() {
    if (this.frame && typeof cancelAnimationFrame !== "undefined") cancelAnimationFrame(this.frame);
    for (const d of this.disposers) d();
  }
}

export default { render: renderView(HParamsView, "hparams") };
