// The overview's step chart and the memory tab's curves, as charts of the kit (axes, the
// hover readout in the view's tooltip, the chart as an image): each step's time stacked by
// category in priority order, and allocated (solid) and reserved (dashed) bytes per device
// over the trace with each peak marked. Category and device colours come with the payloads
// (tbnb/widgets/profile/prepare.py), as the plotly figure draws them.
import { Chart } from "../../chart/chart.js";
import { linearScale } from "../../chart/scales.js";
import { decodeTable, formatBytes, formatDuration } from "./data.js";

/** @typedef {import("../../chart/chart").ChartBaseOptions} ChartBaseOptions */
/** @typedef {import("../../chart/scales").Tick} Tick */
/** @typedef {{on: ChartBaseOptions["on"], tooltip?: ChartBaseOptions["tooltip"]}} ChartHooks */

/**
 * Ticks relabelled (durations, sizes).
 * @param {Tick[]} ticks @param {(v: number) => string} label
 */
const relabel = (ticks, label) => ticks.map((t) => ({ ...t, label: label(t.value) }));

/**
 * A chart of the profiler: a drawing and a hover layer, laid out at the width its tab
 * gives it, its hover cleared with the tooltip.
 * @extends {Chart<ChartBaseOptions>}
 */
class ProfileChart extends Chart {
  /**
   * @param {HTMLElement} container @param {ChartHooks} hooks
   * @param {{height: number, className: string, width: number, margin: import("../../chart/chart").Margin}} shape
   */
  constructor(container, hooks, shape) {
    super(container, { ...hooks, height: shape.height, layers: 2, className: shape.className, margin: shape.margin });
    this.width = shape.width;
  }

  measure() {
    return this.width;
  }

  draw() {
    this.layout();
    const ctx = this.surface.context(0);
    this.surface.context(1);
    if (ctx) this.paint(ctx);
  }

  pointerLeave() {
    this.surface.context(1);
    this.hideTooltip();
  }
}

export class StepsChart extends ProfileChart {
  /** @param {HTMLElement} container @param {ChartHooks} hooks */
  constructor(container, hooks) {
    const margin = { left: 56, right: 8, top: 8, bottom: 20 };
    super(container, hooks, { height: 200, className: "tbnb-prof-steps", width: 400, margin });
    this.steps = decodeTable(null);
    /** @type {string[]} */
    this.categories = [];
    /** @type {string[]} */
    this.labels = [];
    /** @type {string[]} */
    this.colors = [];
    this.top = 0;
  }

  /** @param {any} payload  the `_overview` trait, decoded */
  set(payload) {
    this.steps = decodeTable(payload?.steps);
    this.categories = payload?.categories || [];
    this.labels = payload?.category_labels || this.categories;
    this.colors = payload?.category_colors || [];
    this.top = 0;
    for (let i = 0; i < this.steps.length; i++) this.top = Math.max(this.top, this.steps.number("duration", i));
    this.draw();
  }

  scales() {
    const { width: w, height: h } = this.surface;
    const m = this.margin;
    const x = linearScale([0, Math.max(this.steps.length, 1)], [m.left, w - m.right]);
    const y = linearScale([0, this.top || 1], [h - m.bottom, m.top], { nice: 4 });
    return { x, y };
  }

  /** @param {CanvasRenderingContext2D} ctx */
  paint(ctx) {
    const n = this.steps.length;
    if (!n) return;
    const { x, y, w, fx, fy } = this.maps;
    const gap = fx(1) - fx(0);
    const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor((w - this.margin.left) / 28))));
    /** @type {Tick[]} */
    const steps = [];
    for (let i = 0; i < n; i += every)
      steps.push({ value: i + 0.5, pos: x.map(i + 0.5), label: String(this.steps.number("step", i)) });
    this.drawAxes(ctx, steps, relabel(y.ticks(4), formatDuration), { maxChars: 9 });
    const barW = Math.max(4, Math.min(60, gap * 0.7));
    for (let i = 0; i < n; i++) {
      const left = fx(i) + (gap - barW) / 2;
      let below = 0;
      this.categories.forEach((c, k) => {
        const v = this.steps.number(c, i) || 0;
        ctx.fillStyle = this.colors[k] || "#999";
        ctx.fillRect(left, fy(below + v), barW, fy(below) - fy(below + v));
        below += v;
      });
    }
  }

  /** @param {number} px @param {number} py */
  pointerMove(px, py) {
    const i = Math.floor(this.maps?.x.invert(px) ?? -1);
    const hover = this.surface.context(1);
    if (!this.maps || !hover || i < 0 || i >= this.steps.length) {
      this.pointerLeave();
      return;
    }
    const { fx } = this.maps;
    const box = this.plotBox();
    hover.fillStyle = this.maps.fg;
    hover.globalAlpha = 0.08;
    hover.fillRect(fx(i), box.top, fx(i + 1) - fx(i), box.bottom - box.top);
    const rows = this.categories.map((c, k) => ({
      color: this.colors[k] || "#999",
      cells: [this.labels[k] || c, formatDuration(this.steps.number(c, i) || 0)],
    }));
    rows.push({ color: "transparent", cells: ["step total", formatDuration(this.steps.number("duration", i))] });
    const columns = [{ label: `step ${this.steps.number("step", i)}`, name: true }, { label: "time" }];
    this.showTooltip({ columns, rows }, [{ x: fx(i + 0.5), y: py }], { x: px, y: py });
  }

  /** The chart as shown, for the save-image button. */
  image() {
    return super.image({
      title: "Step time by category",
      xLabel: "step",
      legend: this.categories.map((c, k) => ({ label: this.labels[k] || c, color: this.colors[k] || "#999" })),
    });
  }
}

export class MemoryChart extends ProfileChart {
  /** @param {HTMLElement} container @param {ChartHooks} hooks */
  constructor(container, hooks) {
    const margin = { left: 70, right: 10, top: 10, bottom: 18 };
    super(container, hooks, { height: 240, className: "tbnb-prof-memory", width: 600, margin });
    /** @type {any[]} */
    this.curves = [];
    this.t0 = 0;
    this.t1 = 1;
    this.top = 0;
  }

  /** @param {any[]} curves  `_memory.curves`, decoded */
  set(curves) {
    this.curves = curves || [];
    this.t0 = Infinity;
    this.t1 = -Infinity;
    this.top = 0;
    for (const c of this.curves) {
      for (let i = 0; i < c.time.length; i++) {
        this.t0 = Math.min(this.t0, c.time[i]);
        this.t1 = Math.max(this.t1, c.time[i]);
        this.top = Math.max(this.top, c.allocated[i], Number.isFinite(c.reserved[i]) ? c.reserved[i] : 0);
      }
    }
    this.draw();
  }

  scales() {
    const { width: w, height: h } = this.surface;
    const m = this.margin;
    const t0 = Number.isFinite(this.t0) ? this.t0 : 0;
    const t1 = Number.isFinite(this.t1) && this.t1 > t0 ? this.t1 : t0 + 1;
    const x = linearScale([0, t1 - t0], [m.left, w - m.right]);
    const y = linearScale([0, (this.top || 1) / this.unit()[1]], [h - m.bottom, m.top]);
    return { x, y };
  }

  /** The binary unit the y axis counts in (round ticks: 0.5 GiB, not 536.9 MB). */
  unit() {
    const units = /** @type {[string, number][]} */ ([
      ["GiB", 2 ** 30],
      ["MiB", 2 ** 20],
      ["KiB", 2 ** 10],
    ]);
    return units.find(([, size]) => this.top >= size) || ["B", 1];
  }

  /** Bytes to the y scale's units. @param {import("../../chart/scales").Scale} _x @param {import("../../chart/scales").Scale} y */
  project(_x, y) {
    const size = this.unit()[1];
    return { fy: (/** @type {number} */ v) => y.map(v / size) };
  }

  /** @param {CanvasRenderingContext2D} ctx */
  paint(ctx) {
    if (!this.curves.length) return;
    const { x, y, fx, fy, font } = this.maps;
    const [unit] = this.unit();
    const yTicks = relabel(y.ticks(4), (v) => `${Number(v.toPrecision(4))} ${unit}`);
    this.drawAxes(ctx, relabel(x.ticks(6), formatDuration), yTicks, { maxChars: 11 });
    ctx.save();
    ctx.font = font;
    this.curves.forEach((c, n) => {
      const color = c.color || "#4477aa";
      ctx.strokeStyle = color;
      for (const [key, dash] of /** @type {[string, number[]][]} */ ([
        ["allocated", []],
        ["reserved", [4, 3]],
      ])) {
        ctx.setLineDash(dash);
        ctx.beginPath();
        for (let i = 0; i < c.time.length; i++) {
          const px = fx(c.time[i] - this.t0);
          const py = fy(c[key][i]);
          if (i === 0) ctx.moveTo(px, py);
          else ctx.lineTo(px, py);
        }
        ctx.stroke();
      }
      ctx.setLineDash([]);
      const peak = peakOf(c);
      ctx.fillStyle = color;
      ctx.beginPath();
      ctx.arc(fx(c.time[peak] - this.t0), fy(c.allocated[peak]), 4, 0, 2 * Math.PI);
      ctx.fill();
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      ctx.fillText(`${where(c)} peak ${formatBytes(c.allocated[peak])}`, this.margin.left + 6, 12 + 12 * n);
    });
    ctx.restore();
  }

  /** @param {number} px @param {number} py */
  pointerMove(px, py) {
    const hover = this.surface.context(1);
    if (!this.maps || !hover || !this.curves.length) return;
    const { fx, fy, fg } = this.maps;
    const t = this.t0 + this.maps.x.invert(px);
    const box = this.plotBox();
    if (px < box.left || px > box.right) {
      this.pointerLeave();
      return;
    }
    const points = [];
    const rows = [];
    for (const c of this.curves) {
      const i = nearest(c.time, t);
      if (i < 0) continue;
      points.push({ x: fx(c.time[i] - this.t0), y: fy(c.allocated[i]) });
      rows.push({
        color: c.color || "#4477aa",
        cells: [where(c), formatBytes(c.allocated[i]), formatBytes(c.reserved[i] || 0)],
      });
    }
    hover.strokeStyle = fg;
    hover.globalAlpha = 0.35;
    hover.beginPath();
    hover.moveTo(Math.round(px) + 0.5, box.top);
    hover.lineTo(Math.round(px) + 0.5, box.bottom);
    hover.stroke();
    const columns = [{ label: formatDuration(t - this.t0), name: true }, { label: "allocated" }, { label: "reserved" }];
    this.showTooltip({ columns, rows }, points, { x: px, y: py });
  }

  /** The chart as shown, for the save-image button. */
  image() {
    return super.image({
      title: "Memory",
      subtitle: "allocated (solid) and reserved (dashed)",
      xLabel: "time since the trace began",
      legend: this.curves.map((c) => ({ label: where(c), color: c.color || "#4477aa" })),
    });
  }
}

/** @param {any} curve */
const where = (curve) => (curve.device < 0 ? "host" : `GPU ${curve.device}`);

/** @param {any} curve  the index of its highest allocation */
function peakOf(curve) {
  let peak = 0;
  for (let i = 1; i < curve.allocated.length; i++) if (curve.allocated[i] > curve.allocated[peak]) peak = i;
  return peak;
}

/**
 * The index of the sample of sorted `times` nearest to `t` (-1 when there is none).
 * @param {ArrayLike<number>} times @param {number} t
 */
function nearest(times, t) {
  let lo = 0;
  let hi = times.length - 1;
  if (hi < 0) return -1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && t - times[lo - 1] < times[lo] - t ? lo - 1 : lo;
}
