// The overview tab: each step's time stacked by category (canvas), the findings with their
// numbers, and the top operators and kernels. Every string from the trace is DOM text.
import { CanvasStack } from "../../chart/surface.js";
import { DataTable } from "../../controls/table.js";
import { el, setText } from "../../core/dom.js";
import { formatNumber } from "../../core/format.js";
import { CATEGORY_STYLE, decodeTable, formatDuration } from "./data.js";

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
  /** @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void, onSpan: (name: string) => void}} options */
  constructor(options) {
    this.options = options;
    this.chart = el("div", { class: "tbnb-prof-chart", role: "img", "aria-label": "step time by category" });
    this.surface = new CanvasStack(this.chart, { height: 200, className: "tbnb-prof-steps" });
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
          el("h4", { text: "Step time by category" }),
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
    this.width = 400;
    this.hover = -1;
  }

  /** @param {any} payload  the `_overview` trait, decoded */
  set(payload) {
    this.payload = payload;
    const findings = /** @type {string[]} */ (payload?.findings || []);
    this.findings.replaceChildren(...findings.map((f) => el("li", { text: f })));
    const problems = /** @type {string[]} */ (payload?.problems || []);
    this.problems.replaceChildren(...problems.map((p) => el("li", { text: p })));
    const categories = /** @type {string[]} */ (payload?.categories || []);
    this.legend.replaceChildren(
      ...categories.map((c) => {
        const style = CATEGORY_STYLE[/** @type {keyof typeof CATEGORY_STYLE} */ (c)];
        return el(
          "span",
          {},
          el("span", { class: "tbnb-swatch", style: { background: style?.color || "#999" } }),
          style?.label || c,
        );
      }),
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
    this.draw();
  }

  /** @param {number} width */
  resize(width) {
    this.width = Math.max(200, width);
    this.draw();
  }

  draw() {
    const steps = decodeTable(this.payload?.steps);
    const categories = /** @type {string[]} */ (this.payload?.categories || []);
    const width = this.width;
    const height = this.surface.height;
    this.surface.resize(width);
    const ctx = this.surface.context(0);
    if (!ctx || !steps.length) return;
    let top = 0;
    for (let i = 0; i < steps.length; i++) top = Math.max(top, steps.number("duration", i));
    const left = 56;
    const bottom = height - 20;
    const plotW = width - left - 8;
    const barW = Math.max(4, Math.min(60, (plotW / steps.length) * 0.7));
    const gap = plotW / steps.length;
    const scale = (bottom - 8) / (top || 1);
    ctx.font = "11px sans-serif";
    ctx.fillStyle = "#888";
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (let k = 0; k <= 4; k++) {
      const v = (top * k) / 4;
      const y = bottom - v * scale;
      ctx.fillText(formatDuration(v), left - 4, y);
      ctx.fillRect(left, y, plotW, 0.5);
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    for (let i = 0; i < steps.length; i++) {
      const x = left + gap * i + (gap - barW) / 2;
      let y = bottom;
      for (const c of categories) {
        const h = steps.number(c, i) * scale;
        const style = CATEGORY_STYLE[/** @type {keyof typeof CATEGORY_STYLE} */ (c)];
        ctx.fillStyle = style?.color || "#999";
        ctx.fillRect(x, y - h, barW, h);
        y -= h;
      }
      ctx.fillStyle = "#666";
      ctx.fillText(String(steps.number("step", i)), x + barW / 2, bottom + 4);
    }
  }
}
