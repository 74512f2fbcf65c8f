// Ridgelines (offset: steps stacked back to front, the newest in front at the bottom) and the
// overlay (every step on one baseline), coloured by step; hover picks a step's histogram and
// the bin under the pointer.
import { linearScale } from "../../chart/scales.js";
import { formatNumber } from "../../core/format.js";
import { binRange, darker, drawAxes, formatTime, rgbOf, stepColor, timeScaleOf, timeValues } from "./frame.js";

/** @typedef {import("./model").ChartData} ChartData */
/** @typedef {import("./frame").Box} Box */
/**
 * @typedef {object} Hover
 * @property {{columns: {label: string, name?: boolean}[], rows: {color: string, cells: string[]}[]}} table
 * @property {{x: number, y: number}[]} points
 * @property {(ctx: CanvasRenderingContext2D) => void} highlight
 * @property {string} describe   a stable text of what is hovered (tests read it)
 */
/** @typedef {{pick: (x: number, y: number) => Hover | null}} Drawn */
/**
 * @typedef {object} DrawOptions
 * @property {import("./model").TimeAxis} axis
 * @property {string} color        the run colour
 * @property {number} wall0        the series' first wall time
 * @property {Element} styled      tick colour and font come from it
 */

const RIDGE = 0.42; // a ridge's full height, as a fraction of the plot

/**
 * The x positions of bin centres and the two outer edges.
 * @param {ChartData} data
 * @param {import("../../chart/scales").Scale} x
 */
function binXs(data, x) {
  const dx = (data.right - data.left) / data.bins;
  const xs = new Float64Array(data.bins);
  for (let j = 0; j < data.bins; j++) xs[j] = x.map(data.left + (j + 0.5) * dx);
  return { xs, x0: x.map(data.left), x1: x.map(data.left + (data.bins - 1) * dx + dx) };
}

/** @param {ChartData} data */
function maxCount(data) {
  let most = 0;
  for (let i = 0; i < data.counts.length; i++) if (data.counts[i] > most) most = data.counts[i];
  return most || 1;
}

/**
 * The row of the tooltip of step `k`, bin `j`.
 * @param {ChartData} data
 * @param {number} k
 * @param {number} j
 * @param {DrawOptions} o
 * @param {Float64Array} times
 */
export function binReadout(data, k, j, o, times) {
  const [lo, hi] = binRange(data.left, data.right, data.bins, j);
  const count = data.counts[k * data.bins + j];
  const approx = data.exact ? "" : "≈";
  const cells = [
    formatNumber(data.steps[k], 12),
    o.axis === "step" ? formatTime("wall", data.wall[k] * 1000) : formatTime(o.axis, times[k]),
    `[${formatNumber(lo)}, ${formatNumber(hi)})`,
    `${approx}${formatNumber(count, 4)}`,
    formatNumber(data.num[k], 6),
  ];
  return {
    table: {
      columns: [
        { label: "step" },
        { label: o.axis === "step" ? "wall time" : o.axis },
        { label: "bin" },
        { label: "count" },
        { label: "total" },
      ],
      rows: [{ color: o.color, cells }],
    },
    describe: `step ${data.steps[k]} bin ${j} count ${count}`,
  };
}

/**
 * Draw ridgelines: the oldest step at the top and back, the newest at the bottom in front.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Box} box
 * @param {ChartData} data
 * @param {DrawOptions} o
 * @returns {Drawn}
 */
export function drawOffset(ctx, box, data, o) {
  const n = data.steps.length;
  const times = timeValues(data, o.axis, o.wall0);
  const height = box.bottom - box.top;
  const ridge = n > 1 ? height * RIDGE : height * 0.9;
  const tLo = n ? times[0] : 0;
  const tHi = n ? times[n - 1] : 1;
  const y = timeScaleOf(o.axis, [tLo, tHi], [box.top + ridge, box.bottom]);
  const x = linearScale([data.left, data.right], [box.left, box.right]);
  drawAxes(ctx, box, x, n > 1 ? y : linearScale([tLo, tLo], [box.bottom, box.bottom]), o.styled);
  if (!n || !Number.isFinite(data.left)) return { pick: () => null };
  const { xs, x0, x1 } = binXs(data, x);
  const h = ridge / maxCount(data);
  const rgb = rgbOf(o.color);
  const base = (/** @type {number} */ k) => (n > 1 ? y.map(times[k]) : box.bottom);
  /** @param {CanvasRenderingContext2D} c @param {number} k */
  const trace = (c, k) => {
    const b = base(k);
    c.beginPath();
    c.moveTo(x0, b);
    for (let j = 0; j < data.bins; j++) c.lineTo(xs[j], b - data.counts[k * data.bins + j] * h);
    c.lineTo(x1, b);
  };
  /** The outline where there is mass (empty bins leave the baseline unstroked: 50
   * baselines across the chart would hatch it). @param {number} k */
  const outline = (k) => {
    const b = base(k);
    const at = (/** @type {number} */ j) => data.counts[k * data.bins + j];
    ctx.beginPath();
    let pen = false;
    for (let j = 0; j < data.bins; j++) {
      const near = at(j) > 0 || (j > 0 && at(j - 1) > 0) || (j < data.bins - 1 && at(j + 1) > 0);
      if (!near) {
        pen = false;
        continue;
      }
      const y = b - at(j) * h;
      if (!pen) ctx.moveTo(j === 0 ? x0 : xs[j], j === 0 ? b : y);
      ctx.lineTo(xs[j], y);
      pen = true;
    }
    if (pen) ctx.lineTo(x1, b);
  };
  ctx.lineWidth = 1;
  ctx.strokeStyle = darker(rgb, 0.25);
  for (let k = 0; k < n; k++) {
    trace(ctx, k);
    ctx.fillStyle = stepColor(rgb, n > 1 ? k / (n - 1) : 1);
    ctx.fill();
    outline(k);
    ctx.stroke();
  }
  return {
    pick(px, py) {
      if (px < x0 || px > x1) return null;
      const j = Math.min(
        Math.max(Math.floor(((x.invert(px) - data.left) / (data.right - data.left)) * data.bins), 0),
        data.bins - 1,
      );
      // the front-most ridge under the pointer, else the nearest baseline below it
      let k = -1;
      for (let i = n - 1; i >= 0; i--) {
        const b = base(i);
        if (py <= b && py >= b - data.counts[i * data.bins + j] * h - 1) {
          k = i;
          break;
        }
      }
      if (k < 0) {
        let best = Number.POSITIVE_INFINITY;
        for (let i = 0; i < n; i++) {
          const d = Math.abs(base(i) - py);
          if (d < best) [best, k] = [d, i];
        }
      }
      const top = base(k) - data.counts[k * data.bins + j] * h;
      return {
        ...binReadout(data, k, j, o, times),
        points: [{ x: xs[j], y: top }],
        highlight(c) {
          trace(c, k);
          c.lineWidth = 2;
          c.strokeStyle = "#111";
          c.stroke();
        },
      };
    },
  };
}

/**
 * Draw every step's histogram on one baseline, the newest last.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Box} box
 * @param {ChartData} data
 * @param {DrawOptions} o
 * @returns {Drawn}
 */
export function drawOverlay(ctx, box, data, o) {
  const n = data.steps.length;
  const times = timeValues(data, o.axis, o.wall0);
  const x = linearScale([data.left, data.right], [box.left, box.right]);
  const y = linearScale([0, maxCount(data)], [box.bottom, box.top], { nice: 4 });
  drawAxes(ctx, box, x, y, o.styled);
  if (!n || !Number.isFinite(data.left)) return { pick: () => null };
  const { xs } = binXs(data, x);
  const rgb = rgbOf(o.color);
  /** @param {CanvasRenderingContext2D} c @param {number} k */
  const trace = (c, k) => {
    c.beginPath();
    for (let j = 0; j < data.bins; j++) {
      const py = y.map(data.counts[k * data.bins + j]);
      if (j) c.lineTo(xs[j], py);
      else c.moveTo(xs[j], py);
    }
  };
  ctx.lineWidth = 1.2;
  for (let k = 0; k < n; k++) {
    trace(ctx, k);
    ctx.strokeStyle = stepColor(rgb, n > 1 ? k / (n - 1) : 1);
    ctx.stroke();
  }
  return {
    pick(px, py) {
      if (px < box.left || px > box.right) return null;
      const j = Math.min(
        Math.max(Math.floor(((x.invert(px) - data.left) / (data.right - data.left)) * data.bins), 0),
        data.bins - 1,
      );
      let k = 0;
      let best = Number.POSITIVE_INFINITY;
      for (let i = n - 1; i >= 0; i--) {
        const d = Math.abs(y.map(data.counts[i * data.bins + j]) - py);
        if (d < best) [best, k] = [d, i];
      }
      return {
        ...binReadout(data, k, j, o, times),
        points: [{ x: xs[j], y: y.map(data.counts[k * data.bins + j]) }],
        highlight(c) {
          trace(c, k);
          c.lineWidth = 2.2;
          c.strokeStyle = "#111";
          c.stroke();
        },
      };
    },
  };
}
