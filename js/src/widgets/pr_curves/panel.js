// One chart card of the PR-curves widget: title and its own step slider, the PR/ROC
// chart, a legend (each run's step and areas) and the area over steps.
import { StepSlider } from "../../controls/step-slider.js";
import { el, setText } from "../../core/dom.js";
import { formatNumber } from "../../core/format.js";
import { AucChart } from "./auc-chart.js";
import { CurveChart } from "./curve-chart.js";

/** @typedef {import("./model").PrChartSpec} PrChartSpec */
/** @typedef {import("./curve-chart").DrawnCurve} DrawnCurve */

/**
 * A legend entry: the run, the step its curve is of, and the areas there.
 * @typedef {object} LegendEntry
 * @property {string} run
 * @property {string} color
 * @property {number} step
 * @property {boolean} exact
 * @property {number} ap
 * @property {number} roc
 */

/**
 * @typedef {object} PanelHooks
 * @property {(t: EventTarget, type: string, h: (e: any) => void) => void} on
 * @property {import("../../chart/tooltip").Tooltip} tooltip
 * @property {(panel: PrPanel, step: number) => void} onStep
 */

export class PrPanel {
  /**
   * @param {PrChartSpec} spec
   * @param {number} height
   * @param {PanelHooks} hooks
   */
  constructor(spec, height, hooks) {
    this.spec = spec;
    /** @type {false | true} */
    this.dirty = true;
    this.visible = true;
    this.shown = true;
    this.slider = new StepSlider({ on: hooks.on, onChange: (step) => hooks.onStep(this, step), label: "step" });
    this.legend = el("div", { class: "tbnb-pr-legend" });
    this.body = el("div", { class: "tbnb-pr-body" });
    this.aucBody = el("div", { class: "tbnb-pr-auc" });
    this.aucTitle = el("div", { class: "tbnb-pr-auc-title" });
    this.node = el(
      "div",
      { class: "tbnb-pr-chart", "data-tag": spec.key, "data-series-count": "0" },
      el(
        "div",
        { class: "tbnb-pr-head" },
        el("span", { class: "tbnb-pr-title", text: spec.key, title: spec.key }),
        this.slider.node,
      ),
      this.body,
      this.legend,
      this.aucTitle,
      this.aucBody,
    );
    this.chart = new CurveChart(this.body, { height, tooltip: hooks.tooltip, on: hooks.on });
    this.auc = new AucChart(this.aucBody, {
      height: 130,
      tooltip: hooks.tooltip,
      on: hooks.on,
      onZoom: () => {},
    });
    /** @type {Map<string, {node: HTMLElement, step: HTMLElement, ap: HTMLElement, roc: HTMLElement}>} */
    this.entries = new Map();
    this.legendRuns = "";
  }

  /**
   * The legend: one entry per run (rebuilt only when the runs change; the numbers are
   * updated in place, so a step change touches text only).
   * @param {LegendEntry[]} entries
   */
  setLegend(entries) {
    const runs = entries.map((e) => e.run).join("\u0000");
    if (runs !== this.legendRuns) {
      this.legendRuns = runs;
      this.entries.clear();
      this.legend.replaceChildren(
        ...entries.map((e) => {
          const step = el("span", { class: "tbnb-pr-step" });
          const ap = el("span", { class: "tbnb-pr-ap" });
          const roc = el("span", { class: "tbnb-pr-roc" });
          const node = el(
            "div",
            { class: "tbnb-pr-entry", "data-run": e.run },
            el("span", { class: "tbnb-swatch", style: { background: e.color } }),
            el("span", { class: "tbnb-pr-run", text: e.run }),
            step,
            ap,
            roc,
          );
          this.entries.set(e.run, { node, step, ap, roc });
          return node;
        }),
      );
    }
    for (const e of entries) {
      const entry = this.entries.get(e.run);
      if (!entry) continue;
      /** @type {HTMLElement} */ (entry.node.firstElementChild).style.background = e.color;
      setText(entry.step, `step ${e.step}${e.exact ? "" : " (nearest sent)"}`);
      setText(entry.ap, `PR-AUC (AP) ${formatNumber(e.ap, 3)}`);
      setText(entry.roc, `ROC-AUC ${formatNumber(e.roc, 3)}`);
      entry.node.setAttribute("data-step", String(e.step));
      entry.node.setAttribute("data-exact", String(e.exact));
    }
  }

  mark() {
    this.dirty = true;
  }
}
