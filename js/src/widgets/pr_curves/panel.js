// One chart card of the PR-curves widget: title and its own step slider, the PR/ROC
// chart, a legend (each run's step and areas) and the area over steps. A step change
// (place) touches only the curves, the legend's text and the areas chart's step mark.
import { saveImageButton } from "../../controls/save-image.js";
import { StepSlider } from "../../controls/step-slider.js";
import { nearestSorted } from "../../core/arrays.js";
import { el, setText } from "../../core/dom.js";
import { formatNumber } from "../../core/format.js";
import { AucChart, areaSeries } from "./auc-chart.js";
import { CurveChart } from "./curve-chart.js";

/** @typedef {import("./model").PrChartSpec} PrChartSpec */
/** @typedef {import("./curve-chart").DrawnCurve} DrawnCurve */
/** @typedef {import("./store").PrStore} PrStore */
/** @typedef {import("./store").Series} Series */
/** @typedef {import("./rows").ShownCurve} ShownCurve */

/**
 * @typedef {object} Member
 * @property {string} run
 * @property {Series} series
 * @property {string} color
 */

/**
 * One member's place at a step: its row and the curve drawn for it (null while none is held).
 * @typedef {object} Placed
 * @property {string} run
 * @property {number} row
 * @property {DrawnCurve | null} drawn
 */

/**
 * @typedef {object} PanelHooks
 * @property {(t: EventTarget, type: string, h: (e: any) => void) => void} on
 * @property {import("../../chart/tooltip").Tooltip} tooltip
 * @property {(panel: PrPanel, step: number) => void} onStep
 */

/**
 * Show `text` in `node`: the existing text node's data when it differs (no new node, no
 * relayout when nothing changed), else a text node.
 * @param {HTMLElement} node
 * @param {string} text
 */
function showText(node, text) {
  const first = node.firstChild;
  if (first && first.nodeType === 3 && first === node.lastChild) {
    if (/** @type {Text} */ (first).data !== text) /** @type {Text} */ (first).data = text;
  } else setText(node, text);
}

/**
 * @param {Element} node
 * @param {string} name
 * @param {string} value
 */
function showAttribute(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

export class PrPanel {
  /**
   * @param {PrChartSpec} spec
   * @param {number} height
   * @param {PanelHooks} hooks
   */
  constructor(spec, height, hooks) {
    this.spec = spec;
    /** @type {false | "curves" | "all"} */
    this.curveDirty = "all";
    /** @type {false | "over" | "all"} */
    this.aucDirty = "all";
    this.visible = true;
    this.shown = true;
    /** @type {Member[]} the selected runs with this tag */
    this.members = [];
    /** @type {PrStore | null} the store the slider's steps come from */
    this.stepsOf = null;
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
        saveImageButton({ on: hooks.on, label: spec.key, image: () => this.chart.image(spec.key) }),
      ),
      this.body,
      this.legend,
      this.aucTitle,
      this.aucBody,
    );
    /** the `height` trait: the chart's height at a card's narrowest */
    this.height = height;
    this.chart = new CurveChart(this.body, { height, tooltip: hooks.tooltip, on: hooks.on });
    this.auc = new AucChart(this.aucBody, { height: 130, tooltip: hooks.tooltip, on: hooks.on, onZoom: () => {} });
    /** @type {Map<string, {node: HTMLElement, step: HTMLElement, ap: HTMLElement, roc: HTMLElement}>} */
    this.entries = new Map();
    /** @type {{store: PrStore, rows: Placed[], offline: boolean, index: number} | null} what the last place chose */
    this.placed = null;
    /** the legend does not show `placed` yet (written when the card is drawn) */
    this.legendStale = false;
  }

  /**
   * The runs drawn (selection or colours changed): legend entries and the areas chart.
   * @param {Member[]} members
   * @param {PrStore} store
   * @param {"pr" | "roc"} view
   */
  setMembers(members, store, view) {
    this.members = members;
    this.entries.clear();
    this.legend.replaceChildren(
      ...members.map((m) => {
        const step = el("span", { class: "tbnb-pr-step" });
        const ap = el("span", { class: "tbnb-pr-ap" });
        const roc = el("span", { class: "tbnb-pr-roc" });
        const node = el(
          "div",
          { class: "tbnb-pr-entry", "data-run": m.run },
          el("span", { class: "tbnb-swatch", style: { background: m.color } }),
          el("span", { class: "tbnb-pr-run", text: m.run }),
          step,
          ap,
          roc,
        );
        this.entries.set(m.run, { node, step, ap, roc });
        return node;
      }),
    );
    const field = view === "roc" ? store.steps.roc_auc : store.steps.average_precision;
    this.auc.metric = view === "roc" ? "ROC-AUC" : "PR-AUC (AP)";
    setText(this.aucTitle, `${this.auc.metric} over steps`);
    this.auc.setData({
      series: members.map((m) =>
        areaSeries({
          run: m.run,
          color: m.color,
          steps: m.series.steps,
          values: field.subarray(m.series.start, m.series.end),
          wall: store.steps.wall.subarray(m.series.start, m.series.end),
        }),
      ),
      xType: "linear",
      xLabel: "step",
      showRaw: false,
      yRange: [null, 1],
    });
    this.node.setAttribute("data-view", view);
    this.aucDirty = "all";
    this.curveDirty = "all";
  }

  /**
   * Show every member at its step nearest to `step` (null: the latest): the curve held
   * for it (or the nearest held while it loads), the legend's numbers, the areas mark.
   * @param {PrStore} store
   * @param {number | null} step
   * @param {"pr" | "roc"} view
   * @param {{offline: boolean, wanted: Set<number>, shown: ShownCurve[]}} out
   */
  place(store, step, view, out) {
    /** @type {DrawnCurve[]} */
    const curves = [];
    /** @type {Placed[]} */
    const placed = [];
    for (const m of this.members) {
      const row = store.rowAt(m.series, step);
      const held = store.curveFor(m.series, row);
      if (!held?.exact) out.wanted.add(row);
      const drawn = held
        ? { run: m.run, color: m.color, step: store.steps.step[held.curve.row], exact: held.exact, curve: held.curve }
        : null;
      if (drawn) curves.push(drawn);
      if (this.shown) out.shown.push({ run: m.run, tag: this.spec.tag, row, color: m.color, drawn });
      placed.push({ run: m.run, row, drawn });
    }
    const steps = this.slider.steps;
    const index = step === null ? steps.length - 1 : nearestSorted(steps, step);
    const at = steps.length ? steps[index] : Number.NaN;
    this.placed = { store, rows: placed, offline: out.offline, index };
    this.legendStale = true;
    this.chart.setData(curves, view);
    this.auc.marker = steps.length ? at : null;
    showAttribute(this.node, "data-series-count", String(curves.length));
    showAttribute(this.node, "data-step", String(at));
    if (!this.curveDirty) this.curveDirty = "curves";
    if (!this.aucDirty) this.aucDirty = "over";
  }

  /**
   * The card's step slider and legend numbers of what `place` chose: written when the card
   * is drawn, so a card out of view costs no DOM change (and no layout) while a slider moves.
   */
  showLegend() {
    this.legendStale = false;
    if (!this.placed) return;
    const { store, rows, offline, index } = this.placed;
    if (this.slider.steps.length && this.slider.index !== index) this.slider.select(index, false);
    for (const { run, row, drawn } of rows) {
      const entry = this.entries.get(run);
      if (!entry) continue;
      const at = store.steps.step[row];
      const note = drawn?.exact
        ? ""
        : ` (curve of step ${drawn ? drawn.step : "—"}, ${offline ? "nearest sent" : "loading"})`;
      showText(entry.step, `step ${at}${note}`);
      showText(entry.ap, `PR-AUC (AP) ${formatNumber(store.steps.average_precision[row], 3)}`);
      showText(entry.roc, `ROC-AUC ${formatNumber(store.steps.roc_auc[row], 3)}`);
      showAttribute(entry.node, "data-step", String(at));
      showAttribute(entry.node, "data-exact", String(!!drawn?.exact));
      showAttribute(entry.node, "data-curve-step", drawn ? String(drawn.step) : "");
    }
  }

  /**
   * Draw what changed (the view calls this for visible panels, once per frame).
   * @param {boolean} [legend]  write the legend's numbers too (else they stay stale)
   */
  draw(legend = true) {
    if (this.legendStale && legend) this.showLegend();
    if (this.curveDirty) this.chart.draw(this.curveDirty);
    if (this.aucDirty === "all" || !this.auc.maps) this.auc.draw();
    else if (this.aucDirty === "over") this.auc.placeMarker();
    this.curveDirty = false;
    this.aucDirty = false;
  }

  get dirty() {
    return this.curveDirty || !!this.aucDirty || this.legendStale;
  }

  markAll() {
    this.curveDirty = "all";
    this.aucDirty = "all";
  }

  /**
   * The card's width changed (from the owner's resize observer): the chart takes it, and a
   * wide card a taller chart (half its width, up to twice the `height` trait), so a curve
   * over [0, 1] x [0, 1] is not flattened into a strip.
   * @param {number} width
   */
  resized(width) {
    this.chart.width = Math.floor(width);
    this.chart.options.height = Math.round(Math.max(this.height, Math.min(width / 2, 2 * this.height)));
    this.markAll();
  }
}
