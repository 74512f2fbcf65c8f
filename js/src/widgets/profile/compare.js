// The compare tab: two traces side by side: mean step time per category, and the kernels
// and operators whose time changed most.
import { DataTable } from "../../controls/table.js";
import { el, setText } from "../../core/dom.js";
import { decodeTable } from "./data.js";
import { DURATIONS, tableColumns } from "./overview.js";

export class Compare {
  /** @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void}} options */
  constructor(options) {
    this.title = el("div", { class: "tbnb-prof-title" });
    this.steps = new DataTable({ on: options.on });
    this.kernels = new DataTable({ on: options.on });
    this.operators = new DataTable({ on: options.on });
    this.kernels.setPageSize(10);
    this.operators.setPageSize(10);
    this.node = el(
      "div",
      {},
      this.title,
      el(
        "div",
        { class: "tbnb-prof-compare" },
        el("div", { class: "tbnb-prof-card" }, el("h4", { text: "Mean step time" }), this.steps.node),
        el("div", { class: "tbnb-prof-card" }, el("h4", { text: "Kernels (total time)" }), this.kernels.node),
        el("div", { class: "tbnb-prof-card" }, el("h4", { text: "Operators (device time)" }), this.operators.node),
      ),
    );
  }

  /** @param {any} payload  the `_compare` trait, decoded */
  set(payload) {
    if (!payload?.a) {
      setText(this.title, "choose a second trace to compare (or select two runs)");
    } else setText(this.title, `${payload.a}  ⟷  ${payload.b}`);
    for (const key of ["steps", "kernels", "operators"]) {
      const table = /** @type {DataTable} */ (/** @type {any} */ (this)[key]);
      const data = decodeTable(payload?.[key]);
      const durations = new Set([...DURATIONS, ...data.columns.filter((c) => data.numeric(c))]);
      table.setColumns(tableColumns(data, {}, durations));
      table.setRows(Array.from({ length: data.length }, (_, i) => i));
      table.render();
    }
  }
}
