// A canvas line chart (a Chart, chart.js): per-series x arrays (runs log at different
// steps), a faint raw line behind the smoothed one, optional bands (aggregates), linear/log
// y, linear/time x, a hover readout in the view's tooltip and drag-to-zoom (a drag across
// the plot zooms x to the dragged span, reported through `onZoom`; a double-click zooms
// back out). Three stacked canvases: base (axes, raw lines), mid (smoothed lines, bands),
// over (hover, drag).
import { finiteExtent } from "../core/arrays.js";
import { Chart } from "./chart.js";
import { affineMaps, lineScales, MARGIN } from "./line-scales.js";
import { readout, readoutTable } from "./readout.js";
import { makePath } from "./svg-path.js";
import { fillBand, projectX, strokeGrouped, tracePath } from "./trace.js";

/** @typedef {import("./readout").LineSeries} LineSeries */
/** @typedef {import("./readout").ReadoutRow} ReadoutRow */
/** @typedef {import("./scales").Scale} Scale */
/** @typedef {import("./tooltip").Tooltip} Tooltip */
/** @typedef {import("../core/types").Numbers} Numbers */

export { MARGIN };

const DASHES = [[], [6, 3], [2, 3], [8, 3, 2, 3]];
/**
 * Above this many series a chart draws its lines one device pixel wide: Skia rasterises
 * such strokes as hairlines, several times faster than wider ones (100 runs in ten charts:
 * ~500 ms at 1.6 px, ~60 ms as hairlines), and a hundred thick lines read worse anyway.
 */
export const THIN_ABOVE = 24;
const MAX_ROWS = 40;

/**
 * @typedef {object} ChartState
 * @property {LineSeries[]} series
 * @property {"linear" | "time"} xType
 * @property {string} xLabel     "step", "relative", "wall" or a tag name
 * @property {boolean} logY
 * @property {boolean} outliers
 * @property {[number | null, number | null]} yRange  manual ends (null = automatic)
 * @property {boolean} showRaw
 * @property {string} sort       tooltip row order
 */

/**
 * @typedef {object} ChartOptions
 * @property {number} height
 * @property {Tooltip} tooltip
 * @property {(target: EventTarget, type: string, handler: (e: any) => void) => void} on
 * @property {(domain: [number, number] | null) => void} onZoom
 * @property {number} [layers]
 * @property {string} [className]
 * @property {import("./chart").Margin} [margin]
 */

/** @extends {Chart<ChartOptions>} */
export class LineChart extends Chart {
  /**
   * @param {HTMLElement} container
   * @param {ChartOptions} options  (mutable: a view changes its height)
   */
  constructor(container, options) {
    super(container, Object.assign(options, { layers: 3, className: "tbnb-line-chart", margin: MARGIN }));
    /** @type {ChartState} */
    this.state = {
      series: [],
      xType: "linear",
      xLabel: "step",
      logY: false,
      outliers: false,
      yRange: [null, null],
      showRaw: true,
      sort: "value-desc",
    };
    /** @type {[number, number] | null} */
    this.zoom = null;
    /** @type {number | null} */
    this.hoverX = null;
    /** @type {number | null} pointer y in canvas pixels */
    this.pointerY = null;
    /** @type {{a: number, b: number} | null} */
    this.drag = null;
    /** @type {any} */
    this.maps = null;
    this._px = new WeakMap(); // projected x per x array, for the current x map
    this._paths = new WeakMap(); // traced Path2D per owner, for the current maps
    this._extents = new WeakMap(); // finite extent per x array
  }

  /** @param {Partial<ChartState>} state */
  setData(state) {
    Object.assign(this.state, state);
  }

  /** @returns {[number, number]} */
  xDomain() {
    if (this.zoom) return this.zoom;
    let lo = Number.POSITIVE_INFINITY;
    let hi = Number.NEGATIVE_INFINITY;
    for (const s of this.state.series) {
      for (const xs of [s.x, s.sx]) {
        let ext = this._extents.get(xs);
        if (!ext) {
          ext = finiteExtent(xs);
          this._extents.set(xs, ext);
        }
        lo = Math.min(lo, ext[0]);
        hi = Math.max(hi, ext[1]);
      }
    }
    if (lo === Number.POSITIVE_INFINITY) return [0, 1];
    return lo === hi ? [lo - 1, hi + 1] : [lo, hi];
  }

  /** @returns {{x: Scale, y: Scale}} */
  scales() {
    const { width: w, height: h } = this.surface;
    return lineScales(this.state, this.xDomain(), w, h);
  }

  /** Plain affine maps in the loops over every point (scales give domains and ticks). @param {Scale} x @param {Scale} y */
  project(x, y) {
    return affineMaps(x, y, this.state.logY);
  }

  /**
   * Redraw: "all" redraws axes and raw lines (base), smoothed lines and bands (mid) and the
   * hover layer; "smooth" only mid and hover (raw lines and, when drawn, the y range do not
   * depend on the smoothing); "over" only the hover layer.
   * @param {"all" | "smooth" | "over"} [level]
   */
  draw(level = "all") {
    if (!this.maps || level === "all" || (level === "smooth" && !this.state.showRaw)) {
      this.layout();
      this.drawBase();
      this.drawMid();
    } else if (level === "smooth") {
      this.drawMid();
    }
    this.drawOver();
  }

  /** @param {CanvasRenderingContext2D | null} [ctx] another context (an image export) */
  drawBase(ctx = this.surface.context(0)) {
    if (!ctx) return;
    const { x, y, w } = this.maps;
    const xTicks = x.ticks(Math.max(2, Math.floor((w - MARGIN.left) / 90)));
    this.drawAxes(ctx, xTicks, y.ticks(this.state.logY ? 4 : 5), { maxChars: 9 });
    if (!this.state.showRaw) return;
    ctx.save();
    this.clip(ctx);
    ctx.globalAlpha = 0.25;
    const width = this.widths(ctx.getTransform().a)[0];
    const raw = this.state.series.filter((s) => !(s.y === s.sy && s.x === s.sx));
    this.lines(
      ctx,
      raw.map((s) => ({ xs: s.x, ys: s.y, color: s.color, dash: s.dash, owner: s.rawOwner })),
      width,
    );
    ctx.restore();
  }

  /** @param {CanvasRenderingContext2D | null} [ctx] */
  drawMid(ctx = this.surface.context(1)) {
    if (!ctx) return;
    ctx.save();
    this.clip(ctx);
    const width = this.widths(ctx.getTransform().a)[1];
    const series = this.state.series;
    if (series.some((s) => s.lo && s.hi)) {
      for (const s of series) {
        ctx.setLineDash(DASHES[s.dash % DASHES.length]);
        if (s.lo && s.hi) fillBand(ctx, s.sx, s.lo, s.hi, s.color, this.maps.fx, this.maps.fy);
        ctx.globalAlpha = 1;
        this.line(ctx, s.sx, s.sy, s.color, width, s.smoothOwner);
      }
    } else {
      const items = series.map((s) => ({ xs: s.sx, ys: s.sy, color: s.color, dash: s.dash, owner: s.smoothOwner }));
      this.lines(ctx, items, width);
    }
    ctx.restore();
  }

  drawOver() {
    const ctx = this.surface.context(2);
    if (!ctx) return;
    const { h } = this.maps;
    if (this.hoverX !== null) this.hover(ctx);
    else this.hideTooltip();
    if (this.drag) {
      ctx.fillStyle = "rgba(100,100,100,0.15)";
      const a = Math.min(this.drag.a, this.drag.b);
      ctx.fillRect(a, MARGIN.top, Math.abs(this.drag.b - this.drag.a), h - MARGIN.top - MARGIN.bottom);
    }
  }

  /**
   * Line widths (raw, smoothed) in CSS pixels for this many series: one device pixel of a
   * context at `scale` device pixels per CSS pixel (an image export's, or the screen's).
   * @param {number} [scale]
   */
  widths(scale = this.maps.dpr) {
    const px = 1 / (scale > 0 ? scale : 1);
    if (this.state.series.length > THIN_ABOVE) return [px, px];
    return [1, 1.6];
  }

  /** @param {Numbers} xs */
  projected(xs) {
    const [d0, r0, ax] = this.maps.xmap;
    const hit = this._px.get(xs);
    if (hit && hit.d0 === d0 && hit.r0 === r0 && hit.ax === ax) return hit.px;
    const px = projectX(xs, d0, r0, ax, hit ? hit.px : null);
    this._px.set(xs, { d0, r0, ax, px });
    return px;
  }

  /**
   * One traced line, cached per owner while its arrays and the maps stay the same (a run
   * toggle that leaves the axes as they were re-strokes cached paths).
   * @param {object | null} owner
   * @param {Numbers} xs
   * @param {Numbers} ys
   * @param {CanvasRenderingContext2D} [ctx]  the path is made for it (an SVG context: not cached)
   */
  traced(owner, xs, ys, ctx) {
    const [y0, e0, ay, logY] = this.maps.ymap;
    const [d0, r0, ax] = this.maps.xmap;
    const tol = 0.5 / this.maps.dpr;
    const key = `${y0}|${e0}|${ay}|${logY}|${d0}|${r0}|${ax}|${tol}`;
    if (ctx && "svg" in ctx) owner = null;
    const hit = owner && this._paths.get(owner);
    if (hit && hit.xs === xs && hit.ys === ys && hit.key === key) return hit;
    const path = ctx ? makePath(ctx) : new Path2D();
    const lonely = tracePath(path, this.projected(xs), ys, y0, e0, ay, logY, tol);
    const out = { xs, ys, key, path, lonely };
    if (owner) this._paths.set(owner, out);
    return out;
  }

  /**
   * @param {CanvasRenderingContext2D} ctx
   * @param {Numbers} xs
   * @param {Numbers} ys
   * @param {string} color
   * @param {number} width
   * @param {object | null} owner
   */
  line(ctx, xs, ys, color, width, owner) {
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    const { path, lonely } = this.traced(owner, xs, ys, ctx);
    ctx.stroke(path);
    if (!lonely) return;
    ctx.fillStyle = color;
    ctx.beginPath();
    for (let k = 0; k < lonely.length; k += 2) {
      ctx.moveTo(lonely[k] + width + 1, lonely[k + 1]);
      ctx.arc(lonely[k], lonely[k + 1], width + 1, 0, Math.PI * 2);
    }
    ctx.fill();
  }

  /**
   * Lines in order; above THIN_ABOVE of them on a canvas, one stroke per colour and dash
   * (each line's cached path added to it): 2,000 runs are ~20 strokes, not 2,000.
   * @param {CanvasRenderingContext2D} ctx
   * @param {{xs: Numbers, ys: Numbers, color: string, dash: number, owner: object | null}[]} items
   * @param {number} width
   */
  lines(ctx, items, width) {
    if (items.length <= THIN_ABOVE || "svg" in ctx || typeof Path2D === "undefined") {
      for (const it of items) {
        ctx.setLineDash(DASHES[it.dash % DASHES.length]);
        this.line(ctx, it.xs, it.ys, it.color, width, it.owner);
      }
      return;
    }
    const [y0, e0, ay, logY] = this.maps.ymap;
    const tol = 0.5 / this.maps.dpr;
    strokeGrouped(ctx, items, width, DASHES, (it, path) =>
      tracePath(path, this.projected(it.xs), it.ys, y0, e0, ay, logY, tol),
    );
  }

  /** What the chart shows: axes, raw and smoothed lines, bands (the image export's). @param {CanvasRenderingContext2D} ctx */
  paint(ctx) {
    this.drawBase(ctx);
    this.drawMid(ctx);
  }

  /**
   * The chart as shown (axes, raw and smoothed lines, bands, zoom) for the save-image
   * button, with the tag as title and a legend of the series drawn.
   * @param {string | {title: string}} title
   * @param {string} [subtitle]
   * @returns {import("./image-export").ChartImage | null}
   */
  image(title, subtitle) {
    if (typeof title !== "string") return super.image(title);
    const seen = new Set();
    const legend = [];
    for (const s of this.state.series) {
      if (seen.has(s.label)) continue;
      seen.add(s.label);
      legend.push({ label: s.label, color: s.color });
    }
    const names = /** @type {Record<string, string>} */ ({
      step: "step",
      relative: "relative time",
      wall: "wall time",
    });
    return super.image({ title, subtitle, xLabel: names[this.state.xLabel] ?? this.state.xLabel, legend });
  }

  /** Rows of the hover readout at x. @param {number} x @returns {ReadoutRow[]} */
  readout(x) {
    return readout(this.state.series, x, this.state.sort);
  }

  /** @param {CanvasRenderingContext2D} ctx */
  hover(ctx) {
    const { fx, fy, h, fg } = this.maps;
    const hoverX = /** @type {number} */ (this.hoverX);
    const rows = this.readout(hoverX);
    const hx = fx(hoverX);
    ctx.globalAlpha = 0.5;
    ctx.strokeStyle = fg;
    ctx.beginPath();
    ctx.moveTo(hx, MARGIN.top);
    ctx.lineTo(hx, h - MARGIN.bottom);
    ctx.stroke();
    ctx.globalAlpha = 1;
    /** @type {{x: number, y: number}[]} */
    const points = [];
    for (const r of rows) {
      const px = fx(r.x);
      const py = fy(r.smoothed);
      if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
      points.push({ x: px, y: py });
      ctx.fillStyle = r.series.color;
      ctx.beginPath();
      ctx.arc(px, py, 3, 0, Math.PI * 2);
      ctx.fill();
    }
    this.showReadout(rows, points, hx);
  }

  /**
   * @param {ReadoutRow[]} rows
   * @param {{x: number, y: number}[]} points  in canvas pixels
   * @param {number} hx
   */
  showReadout(rows, points, hx) {
    if (!rows.length) {
      this.hideTooltip();
      return;
    }
    this.showTooltip(this.readoutTable(rows), points, { x: hx, y: this.pointerY ?? MARGIN.top });
  }

  /**
   * The tooltip's table of the readout rows (subclasses: their own columns).
   * @param {ReadoutRow[]} rows
   * @returns {import("./chart").TooltipTable}
   */
  readoutTable(rows) {
    return readoutTable(rows, this.state.xLabel, MAX_ROWS);
  }

  /** @param {number} x @param {number} y */
  pointerMove(x, y) {
    if (this.drag) this.drag.b = x;
    this.hoverX = this.maps ? this.maps.x.invert(x) : null;
    this.pointerY = y;
    if (this.maps) this.drawOver();
  }

  pointerLeave() {
    this.hoverX = null;
    this.drag = null;
    if (this.maps) this.drawOver();
  }

  /** @param {number} x */
  pointerDown(x) {
    this.drag = { a: x, b: x };
  }

  /** @param {number} x */
  pointerUp(x) {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    d.b = x;
    if (Math.abs(d.b - d.a) > 5 && this.maps) {
      this.zoom = [this.maps.x.invert(Math.min(d.a, d.b)), this.maps.x.invert(Math.max(d.a, d.b))];
      this.options.onZoom(this.zoom);
    }
    this.draw();
  }

  doubleClick() {
    this.zoom = null;
    this.options.onZoom(null);
    this.draw();
  }
}
