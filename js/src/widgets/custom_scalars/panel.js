// One custom-scalars chart: its title, log-y toggle, notes (what could not be drawn and
// why), the line chart and a legend of its series.
import { renderLegend } from "../../chart/legend.js";
import { saveImageButton } from "../../controls/save-image.js";
import { el, setText } from "../../core/dom.js";
import { ScalarChart } from "./scalar-chart.js";

/** @typedef {import("./model").CustomChartSpec} CustomChartSpec */

export class CustomPanel {
  /**
   * @param {CustomChartSpec} spec
   * @param {number} height
   * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void,
   *   tooltip: import("../../chart/tooltip").Tooltip,
   *   onLogY: (panel: CustomPanel, on: boolean) => void}} hooks
   */
  constructor(spec, height, hooks) {
    this.spec = spec;
    /** @type {false | "over" | "smooth" | "all"} */
    this.dirty = "all";
    this.visible = true;
    this.logy = el("input", { class: "tbnb-logy", type: "checkbox" });
    this.notes = el("div", { class: "tbnb-cs-notes" });
    this.body = el("div", { class: "tbnb-chart-body" });
    this.legend = el("div", { class: "tbnb-cs-legend" });
    const kind = spec.kind === "margin" ? "margin" : "multiline";
    const what = spec.kind === "margin" ? "value, lower and upper tags" : "tag regexes";
    this.node = el(
      "div",
      { class: "tbnb-chart tbnb-cs-chart", "data-chart": spec.key, "data-kind": kind, "data-series-count": "0" },
      el(
        "div",
        { class: "tbnb-chart-head" },
        el("span", { class: "tbnb-chart-title", text: spec.title, title: `${what}: ${spec.tags.join(", ")}` }),
        el("label", {}, this.logy, "log y"),
        saveImageButton({ on: hooks.on, label: spec.title, image: () => this.chart.image(spec.title) }),
      ),
      this.notes,
      this.body,
      this.legend,
    );
    for (const note of spec.notes) this.notes.append(el("div", { class: "tbnb-msg", text: note }));
    this.chart = new ScalarChart(this.body, { height, tooltip: hooks.tooltip, on: hooks.on, onZoom: () => {} });
    hooks.on(this.logy, "change", () => hooks.onLogY(this, this.logy.checked));
    this.count = 0;
  }

  /** @param {{label: string, color: string}[]} items */
  setLegend(items) {
    renderLegend(this.legend, "", items);
    this.count = items.length;
    this.node.setAttribute("data-series-count", String(items.length));
    if (!items.length && !this.spec.notes.length) {
      setText(this.legend, "no selected run has data for this chart");
    }
  }

  /** @param {"over" | "smooth" | "all"} level */
  mark(level) {
    const order = { over: 1, smooth: 2, all: 3 };
    if (!this.dirty || order[level] > order[this.dirty]) this.dirty = level;
  }
}
