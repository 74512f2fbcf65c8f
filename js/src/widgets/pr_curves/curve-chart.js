// The PR (or ROC) chart of one tag (a Chart of the kit): every shown run's curve at its
// step on fixed [0, 1] axes, the chance diagonal in the ROC view, and a hover readout of the
// threshold nearest to the pointer on each curve. Three stacked canvases: axes (redrawn on
// resize or a view change), curves (redrawn on a step change), over (hover). The width
// comes from the owner's resize observer, so a redraw never forces the page's layout.
import { Chart } from "../../chart/chart.js";
import { linearScale } from "../../chart/scales.js";
import { formatNumber } from "../../core/format.js";
import { curvePoints, nearestPoint, thresholdAt } from "./curve.js";

/** @typedef {import("./store").Curve} Curve */
/** @typedef {import("../../chart/tooltip").Tooltip} Tooltip */

export const MARGIN = { left: 40, right: 12, top: 8, bottom: 34 };
const MAX_ROWS = 40;

/**
 * One drawn curve.
 * @typedef {object} DrawnCurve
 * @property {string} run
 * @property {string} color
 * @property {number} step      the step the curve is of
 * @property {boolean} exact    false: the nearest held step's curve while the asked one loads
 * @property {Curve} curve
 */

/** @typedef {import("../../chart/chart").ChartBaseOptions} ChartBaseOptions */

/** @extends {Chart<ChartBaseOptions>} */
export class CurveChart extends Chart {
  /**
   * @param {HTMLElement} container
   * @param {{height: number, tooltip: Tooltip,
   *   on: (t: EventTarget, type: string, h: (e: any) => void) => void}} options
   */
  constructor(container, options) {
    super(container, { ...options, layers: 3, className: "tbnb-pr-canvas", margin: MARGIN });
    /** @type {number} CSS width (0: not known yet, read once from the container) */
    this.width = 0;
    /** @type {DrawnCurve[]} */
    this.curves = [];
    /** @type {"pr" | "roc"} */
    this.view = "pr";
    /** @type {{x: number, y: number} | null} */
    this.pointer = null;
    /** whether the hover layer holds marks */
    this.overDrawn = false;
  }

  /**
   * @param {DrawnCurve[]} curves
   * @param {"pr" | "roc"} view
   */
  setData(curves, view) {
    this.curves = curves;
    this.view = view;
  }

  /** The width from the owner's resize observer (read once from the container at first). */
  measure() {
    if (!this.width) this.width = this.container.clientWidth;
    return this.width || this.surface.width;
  }

  scales() {
    const { width: w, height: h } = this.surface;
    const x = linearScale([0, 1], [MARGIN.left, Math.max(w, 120) - MARGIN.right]);
    const y = linearScale([0, 1], [h - MARGIN.bottom, MARGIN.top]);
    return { x, y };
  }

  /** What the chart shows: axes and curves (the image export's). @param {CanvasRenderingContext2D} ctx */
  paint(ctx) {
    this.drawFrame(ctx);
    this.drawCurves(ctx);
  }

  /**
   * The chart as shown, for the save-image button.
   * @param {string | {title: string}} title
   * @returns {import("../../chart/image-export").ChartImage | null}
   */
  image(title) {
    return super.image({
      title: typeof title === "string" ? title : title.title,
      subtitle: this.view === "roc" ? "ROC curve" : "precision-recall curve",
      legend: this.curves.map((c) => ({ label: `${c.run} (step ${c.step})`, color: c.color })),
    });
  }

  /**
   * "all": axes, curves and hover (after a resize or a change of view); "curves": the
   * curves and the hover only (a step change).
   * @param {"all" | "curves"} [level]
   */
  draw(level = "all") {
    if (level === "all" || !this.maps) {
      this.layout();
      this.drawFrame();
    }
    this.drawCurves();
    this.drawOver();
  }

  /** Axes, their titles and the ROC chance line. @param {CanvasRenderingContext2D | null} [ctx] another context (an image export) */
  drawFrame(ctx = this.surface.context(0)) {
    if (!ctx) return;
    const { x, y, w, h, fg, font, fx, fy } = this.maps;
    const box = this.plotBox();
    this.drawAxes(ctx, x.ticks(Math.max(2, Math.min(5, Math.floor((w - MARGIN.left) / 60)))), y.ticks(5));
    const roc = this.view === "roc";
    ctx.save();
    ctx.fillStyle = fg;
    ctx.globalAlpha = 0.75;
    ctx.font = font;
    ctx.textAlign = "center";
    ctx.fillText(roc ? "false positive rate" : "recall", (box.left + box.right) / 2, h - 9);
    ctx.translate(9, (box.top + box.bottom) / 2);
    ctx.rotate(-Math.PI / 2);
    ctx.fillText(roc ? "true positive rate" : "precision", 0, 0);
    ctx.restore();
    if (roc) {
      ctx.save();
      ctx.strokeStyle = fg;
      ctx.globalAlpha = 0.35;
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      ctx.moveTo(fx(0), fy(0));
      ctx.lineTo(fx(1), fy(1));
      ctx.stroke();
      ctx.restore();
    }
  }

  /** @param {CanvasRenderingContext2D | null} [ctx] */
  drawCurves(ctx = this.surface.context(1)) {
    if (!ctx) return;
    const { fx, fy } = this.maps;
    const roc = this.view === "roc";
    ctx.save();
    this.clip(ctx, 3);
    // over 8 curves: 1 px lines, easier to tell apart, and drawn by the 2D canvas as
    // hairlines (a 1.6 px stroke is filled as a polygon: twice the raster time per step)
    ctx.lineWidth = this.curves.length > 8 ? 1 : 1.6;
    for (const c of this.curves) {
      const { x: xs, y: ys } = curvePoints(c.curve, this.view);
      ctx.globalAlpha = c.exact ? 1 : 0.55;
      ctx.setLineDash(c.exact ? [] : [5, 3]);
      ctx.strokeStyle = c.color;
      ctx.beginPath();
      let pen = false;
      if (roc) {
        // a ROC curve runs from (1, 1) (everything predicted positive) to (0, 0)
        ctx.moveTo(fx(1), fy(1));
        pen = true;
      }
      for (let i = 0; i < xs.length; i++) {
        const px = fx(xs[i]);
        const py = fy(ys[i]);
        if (!Number.isFinite(px) || !Number.isFinite(py)) {
          pen = false;
          continue;
        }
        if (pen) ctx.lineTo(px, py);
        else ctx.moveTo(px, py);
        pen = true;
      }
      if (roc && pen) ctx.lineTo(fx(0), fy(0));
      ctx.stroke();
      if (xs.length === 1 && !roc) {
        ctx.fillStyle = c.color;
        ctx.beginPath();
        ctx.arc(fx(xs[0]), fy(ys[0]), 2.5, 0, Math.PI * 2);
        ctx.fill();
      }
    }
    ctx.restore();
  }

  drawOver() {
    if (!this.maps) return;
    if (!this.pointer || !this.curves.length) {
      // a blank hover layer stays untouched: clearing it would make the browser upload
      // and composite the canvas again on every step of a slider drag
      if (this.overDrawn) this.surface.context(2);
      this.overDrawn = false;
      this.hideTooltip();
      return;
    }
    const ctx = this.surface.context(2);
    if (!ctx) return;
    this.overDrawn = true;
    const { fx, fy } = this.maps;
    const { x: px, y: py } = this.pointer;
    const rows = [];
    for (const c of this.curves) {
      const { x: xs, y: ys } = curvePoints(c.curve, this.view);
      const { i, d2 } = nearestPoint(xs, ys, px, py, fx, fy);
      if (i < 0) continue;
      rows.push({ c, i, d2, x: fx(xs[i]), y: fy(ys[i]) });
    }
    rows.sort((a, b) => a.d2 - b.d2);
    /** @type {{x: number, y: number}[]} */
    const points = [];
    for (const r of rows) {
      if (!Number.isFinite(r.x) || !Number.isFinite(r.y)) continue;
      points.push({ x: r.x, y: r.y });
      ctx.fillStyle = r.c.color;
      ctx.strokeStyle = this.maps.fg;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.arc(r.x, r.y, 3.5, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
    }
    const shown = rows.slice(0, MAX_ROWS).map((r) => {
      const t = thresholdAt(r.c.curve, r.i);
      return {
        color: r.c.color,
        cells: [
          r.c.run,
          `${r.c.step}${r.c.exact ? "" : " ≈"}`,
          formatNumber(t.threshold, 4),
          formatNumber(t.precision, 4),
          formatNumber(t.recall, 4),
          formatNumber(t.tp, 6),
          formatNumber(t.fp, 6),
          formatNumber(t.tn, 6),
          formatNumber(t.fn, 6),
        ],
      };
    });
    const columns = ["run", "step", "threshold", "precision", "recall", "TP", "FP", "TN", "FN"].map((label) => ({
      label,
      name: label === "run",
    }));
    this.showTooltip({ columns, rows: shown, more: Math.max(rows.length - MAX_ROWS, 0) }, points, { x: px, y: py });
  }

  /** @param {number} x @param {number} y */
  pointerMove(x, y) {
    this.pointer = { x, y };
    if (this.maps) this.drawOver();
  }

  pointerLeave() {
    this.pointer = null;
    if (this.maps) this.drawOver();
  }
}
