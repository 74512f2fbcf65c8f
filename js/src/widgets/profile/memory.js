// The memory tab: allocated (and reserved) bytes over time per device, the peak marked and
// the operator running at it named (as text).
import { CanvasStack } from "../../chart/surface.js";
import { DataTable } from "../../controls/table.js";
import { el } from "../../core/dom.js";
import { decodeTable, formatDuration } from "./data.js";
import { tableColumns } from "./overview.js";

/** @param {number} b */
export function formatBytes(b) {
  for (const [unit, size] of /** @type {[string, number][]} */ ([
    ["GiB", 2 ** 30],
    ["MiB", 2 ** 20],
    ["KiB", 2 ** 10],
  ])) {
    if (Math.abs(b) >= size) return `${(b / size).toFixed(2)} ${unit}`;
  }
  return `${b} B`;
}

export class Memory {
  /** @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void}} options */
  constructor(options) {
    this.chart = el("div", { class: "tbnb-prof-chart", role: "img", "aria-label": "memory over time" });
    this.surface = new CanvasStack(this.chart, { height: 240, className: "tbnb-prof-memory" });
    this.peaks = new DataTable({ on: options.on });
    this.note = el("div", { class: "tbnb-prof-hint" });
    this.node = el("div", {}, this.chart, this.note, el("h4", { text: "Peaks" }), this.peaks.node);
    /** @type {any} */
    this.payload = null;
    this.width = 600;
  }

  /** @param {any} payload  the `_memory` trait, decoded */
  set(payload) {
    this.payload = payload;
    const peaks = decodeTable(payload?.peaks);
    const columns = tableColumns(peaks, {}, new Set(["time_from_start"])).map((c) =>
      c.key === "peak" || c.key === "reserved"
        ? { ...c, text: (/** @type {number} */ r) => formatBytes(peaks.number(c.key, r)) }
        : c,
    );
    this.peaks.setColumns(columns);
    this.peaks.setRows(Array.from({ length: peaks.length }, (_, i) => i));
    this.peaks.render();
    const curves = payload?.curves || [];
    this.note.textContent = curves.length
      ? "allocated (solid) and reserved (dashed) bytes per device; the dot marks each peak"
      : "no memory samples in this trace (profile_memory=True records them)";
    this.draw();
  }

  /** @param {number} width */
  resize(width) {
    this.width = Math.max(240, width);
    this.draw();
  }

  draw() {
    const curves = this.payload?.curves || [];
    const width = this.width;
    const height = this.surface.height;
    this.surface.resize(width);
    const ctx = this.surface.context(0);
    if (!ctx || !curves.length) return;
    let t0 = Infinity;
    let t1 = -Infinity;
    let top = 0;
    for (const c of curves) {
      for (let i = 0; i < c.time.length; i++) {
        t0 = Math.min(t0, c.time[i]);
        t1 = Math.max(t1, c.time[i]);
        top = Math.max(top, c.allocated[i], Number.isFinite(c.reserved[i]) ? c.reserved[i] : 0);
      }
    }
    const left = 70;
    const bottom = height - 18;
    const x = (/** @type {number} */ t) => left + ((t - t0) / (t1 - t0 || 1)) * (width - left - 10);
    const y = (/** @type {number} */ v) => bottom - (v / (top || 1)) * (bottom - 10);
    ctx.font = "10px sans-serif";
    ctx.fillStyle = "#888";
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (let k = 0; k <= 4; k++) ctx.fillText(formatBytes((top * k) / 4), left - 4, y((top * k) / 4));
    ctx.textAlign = "center";
    ctx.fillText(formatDuration(t1 - t0), (left + width) / 2, height - 6);
    const colors = ["#4477aa", "#ee6677", "#228833", "#ccbb44"];
    curves.forEach((/** @type {any} */ c, /** @type {number} */ n) => {
      const color = colors[n % colors.length];
      for (const [key, dash] of /** @type {[string, number[]][]} */ ([
        ["allocated", []],
        ["reserved", [4, 3]],
      ])) {
        ctx.strokeStyle = color;
        ctx.setLineDash(dash);
        ctx.beginPath();
        for (let i = 0; i < c.time.length; i++) {
          const v = c[key][i];
          if (i === 0) ctx.moveTo(x(c.time[i]), y(v));
          else ctx.lineTo(x(c.time[i]), y(v));
        }
        ctx.stroke();
      }
      ctx.setLineDash([]);
      let peak = 0;
      for (let i = 1; i < c.allocated.length; i++) if (c.allocated[i] > c.allocated[peak]) peak = i;
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(x(c.time[peak]), y(c.allocated[peak]), 4, 0, 2 * Math.PI);
      ctx.fill();
      ctx.textAlign = "left";
      ctx.fillText(
        `${c.device < 0 ? "host" : `GPU ${c.device}`} peak ${formatBytes(c.allocated[peak])}`,
        left + 6,
        12 + 12 * n,
      );
    });
  }
}
