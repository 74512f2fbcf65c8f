// The area under each run's curve over every step, under the curve chart: the kit's line
// chart (zoom by dragging, double-click to reset) with its own readout (run, area, step)
// and a mark at the step the curve chart shows (an element over the canvases).
import { LineChart, MARGIN } from "../../chart/line-chart.js";
import { el } from "../../core/dom.js";
import { formatNumber } from "../../core/format.js";

/** @typedef {import("../../chart/readout").LineSeries} LineSeries */
/** @typedef {import("../../chart/readout").ReadoutRow} ReadoutRow */
/** @typedef {import("../../core/types").Numbers} Numbers */

/**
 * A run's area over steps as a line the kit's chart draws (no smoothing: the smoothed
 * line is the line).
 * @param {{run: string, color: string, steps: Numbers, values: Numbers, wall: Numbers}} s
 * @returns {LineSeries}
 */
export function areaSeries(s) {
  const x = Float64Array.from(s.steps);
  return {
    key: s.run,
    label: s.run,
    color: s.color,
    dash: 0,
    x,
    y: s.values,
    step: s.steps,
    wall: s.wall,
    wall0: s.wall.length ? s.wall[0] : 0,
    sx: x,
    sy: s.values,
    lo: null,
    hi: null,
    loRaw: null,
    hiRaw: null,
    sorted: true,
    rawOwner: null,
    smoothOwner: null,
  };
}

export class AucChart extends LineChart {
  /**
   * @param {HTMLElement} container
   * @param {import("../../chart/line-chart").ChartOptions} options
   */
  constructor(container, options) {
    super(container, options);
    /** @type {number | null} the step the curve chart shows */
    this.marker = null;
    /** the area's name in the readout */
    this.metric = "AP";
    this.mark = el("div", { class: "tbnb-pr-auc-mark", hidden: true });
    container.append(this.mark);
  }

  drawOver() {
    super.drawOver();
    this.placeMarker();
  }

  /**
   * The mark at the shown step: a line element moved by a transform, so a step change
   * redraws no canvas of this chart.
   */
  placeMarker() {
    const maps = this.maps;
    const x = this.marker === null || !maps ? Number.NaN : maps.fx(this.marker);
    const show = Number.isFinite(x) && x >= MARGIN.left && x <= maps.w - MARGIN.right;
    if (this.mark.hidden === show) this.mark.hidden = !show;
    if (!show) return;
    const top = `${MARGIN.top}px`;
    const height = `${Math.max(maps.h - MARGIN.top - MARGIN.bottom, 0)}px`;
    const style = this.mark.style;
    if (style.top !== top) style.top = top;
    if (style.height !== height) style.height = height;
    style.transform = `translateX(${Math.round(x)}px)`;
  }

  /**
   * @param {ReadoutRow[]} rows
   * @returns {import("../../chart/chart").TooltipTable}
   */
  readoutTable(rows) {
    const columns = [{ label: "run", name: true }, { label: this.metric }, { label: "step" }];
    const shown = rows.slice(0, 40).map((r) => ({
      color: r.series.color,
      cells: [r.series.label, formatNumber(r.value, 4), String(r.step)],
    }));
    return { columns, rows: shown, more: Math.max(rows.length - 40, 0) };
  }
}
