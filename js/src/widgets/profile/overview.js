// The overview tab: each step's time stacked by category (a chart of the kit), the
// findings with their numbers, and the top operators and kernels. Every string from the
// trace is DOM text.
import { saveImageButton } from "../../controls/save-image.js";
import { DataTable } from "../../controls/table.js";
import { el, setText } from "../../core/dom.js";
import { formatNumber } from "../../core/format.js";
import { StepsChart } from "./charts.js";
import { decodeTable, formatDuration } from "./data.js";

/** @typedef {import("./data").Table} Table */

/**
 * Columns of a decoded table for DataTable: numbers formatted, text as is.
 * @param {Table} table
 * @param {Record<string, string>} [labels]  header labels by column
 * @param {Set<string>} [durations]  columns holding microseconds
 */
export function tableColumns(table, labels = {}, durations = new Set()) {
  return table.columns.map((key) => {
    const numeric = table.numeric(key);
    return {
      key,
      label: labels[key] || key.replace(/_/g, " "),
      numeric,
      text: (/** @type {number} */ row) => {
        if (!numeric) return table.text(key, row);
        const v = table.number(key, row);
        if (Number.isNaN(v)) return "";
        return durations.has(key) ? formatDuration(v) : formatNumber(v, 6);
      },
      value: (/** @type {number} */ row) => {
        if (!numeric) return table.text(key, row);
        const v = table.number(key, row);
        return Number.isNaN(v) ? null : v;
      },
    };
  });
}

export const DURATIONS = new Set([
  "duration",
  "total_cpu",
  "self_cpu",
  "device_total",
  "device_self",
  "total",
  "mean",
  "max",
  "min",
  "kernel",
  "memcpy",
  "memset",
  "runtime",
  "data_loading",
  "cpu",
  "idle",
  "device_busy",
  "delta",
]);

export class Overview {
  /** @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void, onSpan: (name: string) => void,
   *   tooltip?: import("../../chart/tooltip").Tooltip}} options */
  constructor(options) {
    this.options = options;
    this.chart = el("div", { class: "tbnb-prof-chart", role: "img", "aria-label": "step time by category" });
    this.steps = new StepsChart(this.chart, { on: options.on, tooltip: options.tooltip });
    this.legend = el("div", { class: "tbnb-prof-legend" });
    this.findings = el("ul", { class: "tbnb-prof-findings" });
    this.problems = el("ul", { class: "tbnb-prof-problems" });
    this.summary = el("div", { class: "tbnb-prof-hint" });
    this.ops = new DataTable({ on: options.on });
    this.kernels = new DataTable({ on: options.on });
    this.ops.setPageSize(10);
    this.kernels.setPageSize(10);
    this.node = el(
      "div",
      { class: "tbnb-prof-overview" },
      this.problems,
      this.findings,
      el(
        "div",
        { class: "tbnb-prof-grid" },
        el(
          "div",
          { class: "tbnb-prof-card" },
          el(
            "h4",
            { class: "tbnb-prof-head" },
            "Step time by category",
            saveImageButton({ on: options.on, label: "step time", image: () => this.steps.image() }),
          ),
          this.legend,
          this.chart,
          this.summary,
        ),
        el(
          "div",
          { class: "tbnb-prof-card" },
          el("h4", { text: "Top operators (device time)" }),
          this.ops.node,
          el("h4", { text: "Top kernels" }),
          this.kernels.node,
        ),
      ),
    );
    /** @type {any} */
    this.payload = null;
  }

  /** @param {any} payload  the `_overview` trait, decoded */
  set(payload) {
    this.payload = payload;
    const findings = /** @type {string[]} */ (payload?.findings || []);
    this.findings.replaceChildren(...findings.map((f) => el("li", { text: f })));
    const problems = /** @type {string[]} */ (payload?.problems || []);
    this.problems.replaceChildren(...problems.map((p) => el("li", { text: p })));
    const categories = /** @type {string[]} */ (payload?.categories || []);
    const labels = /** @type {string[]} */ (payload?.category_labels || categories);
    const colors = /** @type {string[]} */ (payload?.category_colors || []);
    this.legend.replaceChildren(
      ...categories.map((c, k) =>
        el(
          "span",
          {},
          el("span", { class: "tbnb-swatch", style: { background: colors[k] || "#999" } }),
          labels[k] || c,
        ),
      ),
    );
    for (const [table, key] of [
      [this.ops, "operators"],
      [this.kernels, "kernels"],
    ]) {
      const decoded = decodeTable(payload?.[/** @type {string} */ (key)]);
      const t = /** @type {DataTable} */ (table);
      t.setColumns(tableColumns(decoded, {}, DURATIONS));
      t.setRows(Array.from({ length: decoded.length }, (_, i) => i));
      t.render();
    }
    const steps = decodeTable(payload?.steps);
    if (!steps.length) setText(this.summary, "no steps found (no ProfilerStep#N or step annotation in the trace)");
    else {
      let busy = 0;
      let total = 0;
      for (let i = 0; i < steps.length; i++) {
        busy += steps.number("device_busy", i);
        total += steps.number("duration", i);
      }
      const util = payload?.has_device
        ? ` · GPU busy ${((100 * busy) / (total || 1)).toFixed(0)}%`
        : " · no device activity";
      setText(
        this.summary,
        `${steps.length} steps · mean ${formatDuration(total / steps.length)}${util} · ${payload?.events ?? 0} events`,
      );
    }
    this.steps.set(payload);
  }

  /** @param {number} width */
  resize(width) {
    this.steps.width = Math.max(200, width);
    this.steps.draw();
  }
}
