// The memory tab: allocated (and reserved) bytes over time per device (a chart of the
// kit), the peak marked and the operator running at it named (as text).
import { saveImageButton } from "../../controls/save-image.js";
import { DataTable } from "../../controls/table.js";
import { el } from "../../core/dom.js";
import { MemoryChart } from "./charts.js";
import { decodeTable, formatBytes } from "./data.js";
import { tableColumns } from "./overview.js";

export class Memory {
  /** @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void,
   *   tooltip?: import("../../chart/tooltip").Tooltip}} options */
  constructor(options) {
    this.chart = el("div", { class: "tbnb-prof-chart", role: "img", "aria-label": "memory over time" });
    this.curves = new MemoryChart(this.chart, { on: options.on, tooltip: options.tooltip });
    this.peaks = new DataTable({ on: options.on });
    this.note = el("div", { class: "tbnb-prof-hint" });
    const save = saveImageButton({ on: options.on, label: "memory", image: () => this.curves.image() });
    this.node = el(
      "div",
      {},
      el("div", { class: "tbnb-prof-head" }, save),
      this.chart,
      this.note,
      el("h4", { text: "Peaks" }),
      this.peaks.node,
    );
  }

  /** @param {any} payload  the `_memory` trait, decoded */
  set(payload) {
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
    this.curves.set(curves);
  }

  /** @param {number} width */
  resize(width) {
    this.curves.width = Math.max(240, width);
    this.curves.draw();
  }
}
