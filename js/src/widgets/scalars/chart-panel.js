// One chart of the scalars widget: its head (title, log y, ignore outliers, y range, reset
// zoom) and its LineChart. The panel keeps its zoom and the full-resolution points of it.
// Only the title and a box of the chart's height exist until the panel first comes into
// view (`ensure()`): a logdir of 10,000 tags builds 10,000 light boxes, and charts only
// for those scrolled to.

import { LineChart } from "../../chart/line-chart.js";
import { saveImageButton } from "../../controls/save-image.js";
import { el, isFocused } from "../../core/dom.js";

/** @typedef {import("./model").ChartSpec} ChartSpec */
/** @typedef {import("../../series/store").SeriesRecord} SeriesRecord */
/** @typedef {import("../../core/types").Numbers} Numbers */

/**
 * @typedef {object} PanelHooks
 * @property {(t: EventTarget, type: string, h: (e: any) => void) => void} on
 * @property {import("../../chart/tooltip").Tooltip} tooltip
 * @property {(panel: ChartPanel, trait: "log_y" | "ignore_outliers", on: boolean) => void} onToggle
 * @property {(panel: ChartPanel, range: [number | null, number | null] | null) => void} onRange
 * @property {(panel: ChartPanel, domain: [number, number] | null) => void} onZoom
 */

/** @param {string} s */
const parseEnd = (s) => (s.trim() === "" || !Number.isFinite(Number(s)) ? null : Number(s));

export class ChartPanel {
  /**
   * @param {ChartSpec} spec
   * @param {number} height
   * @param {PanelHooks} hooks
   */
  constructor(spec, height, hooks) {
    this.spec = spec;
    /** @type {string[]} tags shown (after the tag filter) */
    this.tags = [...spec.tags];
    /** @type {SeriesRecord[]} */
    this.records = [];
    /** @type {Map<string, {cols: Record<string, Numbers>, x: Float64Array | null}> | null} */
    this.zoomData = null;
    /** @type {number} id of the zoom whose points are awaited */
    this.zoomSerial = 0;
    /** @type {false | "over" | "smooth" | "all"} */
    this.dirty = "all";
    this.visible = true;
    this.hooks = hooks;
    this.height = height;
    /** @type {{logY: boolean, outliers: boolean, range: [number | null, number | null] | undefined} | null} */
    this.settings = null;
    this.body = el("div", { class: "tbnb-chart-body", style: { "min-height": `${height}px` } });
    this.head = el(
      "div",
      { class: "tbnb-chart-head" },
      el("span", { class: "tbnb-chart-title", text: spec.key, title: spec.key }),
    );
    this.node = el(
      "div",
      { class: "tbnb-chart", "data-tag": spec.key, "data-series-count": "0", "data-zoomed": "none" },
      this.head,
      this.body,
    );
    /** @type {LineChart | null} built by ensure() */
    this.chart = null;
    /** @type {{logy: HTMLInputElement, outliers: HTMLInputElement, ymin: HTMLInputElement, ymax: HTMLInputElement, reset: HTMLButtonElement} | null} */
    this.controls = null;
  }

  /** The head's controls (made with the chart). */
  get reset() {
    return this.controls?.reset ?? null;
  }

  /** Build the controls and the chart (once, when the panel first comes into view). */
  ensure() {
    if (this.chart) return this.chart;
    const { hooks, spec } = this;
    const { on } = hooks;
    const c = {
      logy: el("input", { class: "tbnb-logy", type: "checkbox" }),
      outliers: el("input", { class: "tbnb-outliers", type: "checkbox" }),
      ymin: el("input", { class: "tbnb-ymin", type: "text", placeholder: "y min" }),
      ymax: el("input", { class: "tbnb-ymax", type: "text", placeholder: "y max" }),
      reset: el("button", { class: "tbnb-reset-zoom", type: "button", text: "reset zoom", hidden: true }),
    };
    this.controls = c;
    this.head.append(
      el("label", {}, c.logy, "log y"),
      el("label", {}, c.outliers, "ignore outliers"),
      c.ymin,
      c.ymax,
      c.reset,
      saveImageButton({ on, label: spec.key, image: () => /** @type {LineChart} */ (this.chart).image(spec.key) }),
    );
    this.body.style.minHeight = "";
    const chart = new LineChart(this.body, {
      height: this.height,
      tooltip: hooks.tooltip,
      on,
      onZoom: (domain) => hooks.onZoom(this, domain),
    });
    this.chart = chart;
    on(c.logy, "change", () => hooks.onToggle(this, "log_y", c.logy.checked));
    on(c.outliers, "change", () => hooks.onToggle(this, "ignore_outliers", c.outliers.checked));
    const onRange = () => {
      for (const box of [c.ymin, c.ymax]) {
        box.classList.toggle("tbnb-invalid", box.value.trim() !== "" && !Number.isFinite(Number(box.value)));
      }
      const lo = parseEnd(c.ymin.value);
      const hi = parseEnd(c.ymax.value);
      hooks.onRange(this, lo === null && hi === null ? null : [lo, hi]);
    };
    on(c.ymin, "change", onRange);
    on(c.ymax, "change", onRange);
    on(c.reset, "click", () => {
      chart.zoom = null;
      hooks.onZoom(this, null);
    });
    if (this.settings) this.sync(this.settings);
    return chart;
  }

  /**
   * Show the traits' per-chart settings (a box being edited keeps its text).
   * @param {{logY: boolean, outliers: boolean, range: [number | null, number | null] | undefined}} s
   */
  sync(s) {
    this.settings = s;
    const c = this.controls;
    if (!c) return;
    c.logy.checked = s.logY;
    c.outliers.checked = s.outliers;
    const [lo, hi] = s.range || [null, null];
    const show = (/** @type {number | null} */ v) => (v === null || v === undefined ? "" : String(v));
    if (!isFocused(c.ymin)) c.ymin.value = show(lo);
    if (!isFocused(c.ymax)) c.ymax.value = show(hi);
  }

  /**
   * Ask for a redraw at `level` (the view draws dirty, visible panels once per frame).
   * @param {"over" | "smooth" | "all"} level
   */
  mark(level) {
    const order = { over: 1, smooth: 2, all: 3 };
    if (!this.dirty || order[level] > order[this.dirty]) this.dirty = level;
  }

  /** Whether the panel is shown (its tags pass the tag filter). */
  get shown() {
    return this.tags.length > 0;
  }
}
