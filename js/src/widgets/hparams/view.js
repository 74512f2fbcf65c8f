// The hparams widget's view: renders from model state alone (live kernel, saved notebook or
// exported page): brushing, axis order, invert, scales, colouring, hover linked with the
// table, table sorting, filtering, paging and CSV. Only importance for a newly chosen metric
// is asked of the kernel. Brushes are kept in value space; the selection rule is Python's.

import { renderLegend } from "../../chart/legend.js";
import { csvButton } from "../../controls/csv-button.js";
import { filterInput } from "../../controls/filter-input.js";
import { saveImageButton } from "../../controls/save-image.js";
import { DataTable } from "../../controls/table.js";
import { decodeTree } from "../../core/codecs.js";
import { el, setText } from "../../core/dom.js";
import { RequestError } from "../../core/request.js";
import { View } from "../../core/view.js";
import { coloring } from "./coloring.js";
import { importanceNodes } from "./importance.js";
import { Parallel } from "./parallel.js";
import { scatterCells } from "./scatter.js";
import { buildTable, cellText, cellValue, selectedRuns, selectionMask } from "./table-data.js";

/** @typedef {import("./model").HParamsTraits} HParamsTraits */
/** @typedef {import("./model").Brush} Brush */

const SCALES = /** @type {const} */ (["linear", "log", "quantile"]);

/** @extends {View<HParamsTraits>} */
export class HParamsView extends View {
  /**
   * @param {import("./model").HParamsModel} model
   * @param {HTMLElement} host
   */
  constructor(model, host) {
    super(model, host, "hparams");
    this.data = buildTable(null);
    /** @type {Uint8Array} */
    this.mask = new Uint8Array(0);
    /** @type {Record<string, Brush> | null} brushes while dragging (not yet saved) */
    this.live = null;
    this.hover = -1;
    /** @type {{key: string, value: import("./coloring").Coloring} | null} */
    this.colorCache = null;
    /** @type {Map<string, string>} metric -> note (asked, or the kernel's error) */
    this.notes = new Map();
    /** @type {RegExp | null} */
    this.rowFilter = null;
    this.frames = this.scheduler(() => this.parallel.draw());
    const on = this.on.bind(this);
    this.metricSel = el("select", {
      class: "tbnb-hp-metric",
      title: "metric of the scatter plots and the importance panel",
    });
    this.colorSel = el("select", { class: "tbnb-hp-color", title: "colour lines by" });
    this.reset = el("button", { class: "tbnb-hp-reset", type: "button", text: "Clear brushes" });
    this.status = el("span", { class: "tbnb-hp-status" });
    this.parallel = new Parallel(this);
    this.legend = el("div", { class: "tbnb-hp-legend" });
    this.scatter = el("div", { class: "tbnb-hp-scatter" });
    this.importance = el("div", { class: "tbnb-hp-importance" });
    this.filter = filterInput({
      className: "tbnb-hp-filter",
      placeholder: "filter rows (regex)",
      on,
      onChange: (_text, re) => {
        this.rowFilter = re;
        this.table.goto(0);
        this.renderTable();
      },
    });
    this.onlySelected = el("input", { class: "tbnb-hp-only-selected", type: "checkbox", checked: true });
    this.csvButton = csvButton({
      className: "tbnb-hp-csv",
      filename: "tbnb-hparams.csv",
      parent: this.root,
      on,
      rows: () => this.csv(),
    });
    this.table = new DataTable({
      on,
      onPageSize: (size) => this.save({ page_size: size }),
      onHover: (i) => this.setHover(i),
      rowAttrs: (i) => ({
        key: this.data.runs[i],
        classes: this.mask[i] ? [] : ["tbnb-dim"],
        swatch: this.coloring().color(i),
      }),
    });
  }

  build() {
    const on = this.on.bind(this);
    this.root.append(
      el(
        "div",
        { class: "tbnb-toolbar" },
        el("label", {}, "Metric", this.metricSel),
        el("label", {}, "Colour", this.colorSel),
        this.reset,
        this.status,
        saveImageButton({ on, label: "parallel coordinates", image: () => this.parallel.image() }),
      ),
      this.parallel.node,
      this.legend,
      el("div", { class: "tbnb-hp-lower" }, this.scatter, this.importance),
      el(
        "div",
        { class: "tbnb-toolbar tbnb-hp-tablebar" },
        this.filter.node,
        el("label", {}, this.onlySelected, "selected only"),
        this.csvButton,
      ),
      this.table.node,
    );

    on(this.metricSel, "change", () => this.save({ metric: this.metricSel.value }));
    on(this.colorSel, "change", () => this.save({ color_by: this.colorSel.value }));
    on(this.reset, "click", () => this.commitBrushes({}));
    on(this.onlySelected, "change", () => {
      this.table.goto(0);
      this.renderTable();
    });

    this.listen("change:_table", () => this.rebuild());
    this.listen("change:order change:inverted change:scales change:height", () => this.layout());
    this.listen("change:brushes", () => {
      this.live = null;
      this.update();
    });
    this.listen("change:color_by change:run_colors change:palette", () => {
      this.colorCache = null;
      this.update();
    });
    this.listen("change:metric", () => {
      this.syncSelects();
      this.renderScatter();
      this.renderImportance();
    });
    this.listen("change:_importance", () => this.renderImportance());
    this.listen("change:page_size", () => {
      this.table.setPageSize(this.model.get("page_size") || 25);
    });
    this.observeSize(this.parallel.node, () => this.frames.request());
    this.rebuild();
  }

  rebuild() {
    this.data = buildTable(this.model.get("_table"));
    this.colorCache = null;
    this.table.setPageSize(this.model.get("page_size") || 25);
    this.layout();
  }

  layout() {
    this.parallel.layout();
    this.update();
  }

  syncSelects() {
    const columns = [...this.data.columns.values()];
    const metrics = columns.filter((c) => c.role === "metric" && c.kind === "number").map((c) => c.name);
    /** @param {HTMLSelectElement} select @param {[string, string][]} options @param {string} value */
    const fill = (select, options, value) => {
      const key = options.map((o) => o.join("\u0001")).join("\u0000");
      if (select.getAttribute("data-options") !== String(key.length) || select.options.length !== options.length) {
        select.replaceChildren(...options.map(([v, text]) => el("option", { value: v, text })));
        select.setAttribute("data-options", String(key.length));
      }
      select.value = value;
    };
    fill(
      this.metricSel,
      metrics.map((m) => [m, m]),
      this.model.get("metric") || "",
    );
    const colorOptions = /** @type {[string, string][]} */ ([
      ["run", "run (run colours)"],
      ...columns.map((c) => [c.name, c.name]),
    ]);
    fill(this.colorSel, colorOptions, this.model.get("color_by") || "");
  }

  /** @returns {Record<string, Brush>} */
  brushes() {
    return this.live || this.model.get("brushes") || {};
  }

  /** The selection while dragging (else the committed one). */
  liveMask() {
    return this.live ? selectionMask(this.data, this.live) : this.mask;
  }

  coloring() {
    const by = this.model.get("color_by") || "";
    const palette = this.model.get("palette") || "default";
    const dark = this.root.classList.contains("tbnb-dark");
    const key = `${by}|${palette}|${dark}`;
    if (!this.colorCache || this.colorCache.key !== key) {
      const runColors = this.model.get("run_colors") || {};
      this.colorCache = { key, value: coloring(this.data, by, { runColors, palette, dark }) };
    }
    return this.colorCache.value;
  }

  /** Brushes being dragged: redraw the lines only. @param {Record<string, Brush> | null} brushes */
  liveBrush(brushes) {
    this.live = brushes;
    this.frames.request();
  }

  /** @param {Record<string, Brush>} brushes */
  commitBrushes(brushes) {
    this.live = null;
    this.save({ brushes, selected_runs: selectedRuns(this.data, selectionMask(this.data, brushes)) });
    this.update();
  }

  /** @param {string[]} order */
  setOrder(order) {
    this.save({ order });
    this.layout();
  }

  /** @param {string} name */
  toggleInverted(name) {
    const inverted = new Set(this.model.get("inverted") || []);
    if (inverted.has(name)) inverted.delete(name);
    else inverted.add(name);
    this.save({ inverted: [...inverted] });
    this.layout();
  }

  /** @param {string} name @param {string} mode */
  cycleScale(name, mode) {
    const scales = { ...this.model.get("scales") };
    const next = SCALES[(SCALES.indexOf(/** @type {"linear"} */ (mode)) + 1) % SCALES.length];
    scales[name] = next;
    this.save({ scales });
    this.layout();
  }

  /** @param {number} i  row, or -1 */
  setHover(i) {
    if (i === this.hover) return;
    this.hover = i;
    const run = i >= 0 ? this.data.runs[i] : "";
    this.root.setAttribute("data-hover", run);
    if (this.parallel) this.parallel.canvas.title = run;
    this.table.setHover(i);
    this.frames.request();
  }

  update() {
    const data = this.data;
    this.mask = selectionMask(data, this.brushes());
    let k = 0;
    for (let i = 0; i < data.n; i++) k += this.mask[i];
    setText(this.status, `${k} of ${data.n} runs selected`);
    this.root.setAttribute("data-selected", String(k));
    this.syncSelects();
    const brushes = this.brushes();
    for (const node of this.parallel.node.querySelectorAll(".tbnb-axis")) {
      const b = brushes[node.getAttribute("data-column") || ""];
      if (b) node.setAttribute("data-brush", JSON.stringify(b));
      else node.removeAttribute("data-brush");
    }
    this.frames.request();
    const colors = this.coloring();
    renderLegend(this.legend, colors.name ? `colour: ${colors.name}` : "", colors.legend);
    if (!this.live) {
      this.renderTable();
      this.renderScatter();
      this.renderImportance();
    }
  }

  renderTable() {
    const table = this.table;
    if (!table) return;
    const d = this.data;
    const names = [...d.columns.keys()];
    table.setColumns([
      { key: "run", label: "run", text: (i) => d.runs[i], value: (i) => d.runs[i] },
      ...names.map((name) => {
        const col = /** @type {import("./table-data").Column} */ (d.columns.get(name));
        return {
          key: name,
          label: name,
          numeric: col.kind === "number",
          text: (/** @type {number} */ i) => cellText(col, i),
          value: (/** @type {number} */ i) => cellValue(col, i),
        };
      }),
    ]);
    const only = this.onlySelected.checked;
    const re = this.rowFilter;
    /** @type {number[]} */
    const rows = [];
    for (let i = 0; i < d.n; i++) {
      if (only && !this.mask[i]) continue;
      if (re && !re.test(d.runs[i]) && !names.some((name) => re.test(cellText(d.columns.get(name), i)))) continue;
      rows.push(i);
    }
    table.setRows(rows);
    table.render();
  }

  csv() {
    const d = this.data;
    const names = [...d.columns.keys()];
    const rows = this.table
      .sorted()
      .map((i) => [d.runs[i], ...names.map((name) => cellValue(/** @type {any} */ (d.columns.get(name)), i))]);
    return { header: ["run", ...names], rows };
  }

  renderScatter() {
    const scatter = this.scatter;
    const metric = this.data.columns.get(this.model.get("metric"));
    if (metric?.kind !== "number") {
      scatter.replaceChildren(el("span", { text: "no metric column" }));
      return;
    }
    const axes = (this.parallel.axes || []).filter((a) => a.col.role === "hparam").slice(0, 16);
    const scales = this.model.get("scales") || {};
    const cells = scatterCells({
      table: this.data,
      metric,
      metricMode: scales[metric.name] || "linear",
      axes,
      mask: this.mask,
      color: this.coloring().color,
      style: this.root,
      // cells are remade on every selection: listeners die with their nodes
      on: (t, type, h) => t.addEventListener(type, h),
    });
    scatter.replaceChildren(
      el("div", { class: "tbnb-hp-scatter-title", text: `${metric.name} (y) against each hparam (x)` }),
      ...cells,
    );
  }

  renderImportance() {
    const metric = this.model.get("metric");
    const all = decodeTree(this.model.get("_importance") || {});
    const entry = all[metric];
    if (metric && !entry && !this.notes.has(metric)) {
      this.notes.set(metric, "");
      this.request("importance", { metric }).catch((err) => {
        if (this.disposed) return;
        this.notes.set(metric, err instanceof RequestError ? err.message : "importance needs the kernel");
        this.renderImportance();
      });
    }
    this.importance.replaceChildren(...importanceNodes(metric, entry, this.notes.get(metric) || null));
  }
}
