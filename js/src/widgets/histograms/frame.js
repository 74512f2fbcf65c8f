// What every histogram chart shares: the plot box inside the canvas, time values in the
// chosen time axis (step, relative seconds, wall time), their scale and format, the axes,
// and the colour of a step (a run's colour from light, oldest, to full, newest).
import { canvasStyle, drawGrid, drawTicks } from "../../chart/axes.js";
import { linearScale, timeScale } from "../../chart/scales.js";
import { formatDuration, formatNumber, formatWallTime } from "../../core/format.js";

/** @typedef {import("../../chart/scales").Scale} Scale */
/** @typedef {import("./model").ChartData} ChartData */
/** @typedef {import("./model").TimeAxis} TimeAxis */
/** @typedef {{left: number, top: number, right: number, bottom: number}} Box */

/**
 * The plot area of a `width` x `height` chart (room for tick labels left and below).
 * @param {number} width
 * @param {number} height
 * @returns {Box}
 */
export function plotBox(width, height) {
  return { left: 48, top: 6, right: Math.max(width - 10, 58), bottom: Math.max(height - 18, 16) };
}

/**
 * The time value of each step of `data` on `axis`: the step, seconds since the series'
 * first histogram, or wall time in milliseconds (for the time scale).
 * @param {ChartData} data
 * @param {TimeAxis} axis
 * @param {number} wall0  the series' first wall time (seconds)
 * @returns {Float64Array}
 */
export function timeValues(data, axis, wall0) {
  const n = data.steps.length;
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    if (axis === "wall") out[k] = data.wall[k] * 1000;
    else if (axis === "relative") out[k] = data.wall[k] - wall0;
    else out[k] = data.steps[k];
  }
  return out;
}

/**
 * A scale for time values on `axis` over `domain` (values as timeValues gives them).
 * @param {TimeAxis} axis
 * @param {[number, number]} domain
 * @param {[number, number]} range
 * @returns {Scale}
 */
export function timeScaleOf(axis, domain, range) {
  // steps are whole numbers: a chart of four steps ticks 0, 1, 2, 3, never 0.5
  return axis === "wall" ? timeScale(domain, range) : linearScale(domain, range, { integer: axis === "step" });
}

/**
 * A time value as the tooltip reads it.
 * @param {TimeAxis} axis
 * @param {number} value
 */
export function formatTime(axis, value) {
  if (axis === "wall") return formatWallTime(value / 1000);
  if (axis === "relative") return formatDuration(value);
  return formatNumber(value, 12);
}

/**
 * Grid, x ticks below and y ticks left.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Box} box
 * @param {Scale} x
 * @param {Scale} y
 * @param {Element} styled  an element whose text colour and font the ticks take
 * @param {{xCount?: number, yCount?: number}} [counts]
 */
export function drawAxes(ctx, box, x, y, styled, counts = {}) {
  const { color, font } = canvasStyle(styled, 10);
  const xTicks = x.ticks(counts.xCount ?? Math.max(2, Math.floor((box.right - box.left) / 70)));
  const yTicks = y.ticks(counts.yCount ?? Math.max(2, Math.floor((box.bottom - box.top) / 30)));
  drawGrid(ctx, xTicks, yTicks, box, color);
  drawTicks(ctx, xTicks, {
    side: "bottom",
    at: box.bottom,
    color,
    font,
    tick: 3,
    within: [box.left - 20, box.right + 8],
  });
  drawTicks(ctx, yTicks, { side: "left", at: box.left, color, font, tick: 3, maxChars: 9 });
}

/** @param {string} color  #rrggbb or rgb(r,g,b) @returns {[number, number, number]} */
export function rgbOf(color) {
  if (color.startsWith("#") && color.length === 7) {
    const n = Number.parseInt(color.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }
  const m = color.match(/(\d+)\D+(\d+)\D+(\d+)/);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [80, 120, 170];
}

/**
 * The colour of a step at `t` in [0, 1] (0 oldest, 1 newest): the run colour mixed with
 * white, from 80% white to none.
 * @param {[number, number, number]} rgb
 * @param {number} t
 * @param {number} [alpha]
 */
export function stepColor(rgb, t, alpha = 1) {
  const white = 0.8 * (1 - Math.min(Math.max(t, 0), 1));
  const mix = (/** @type {number} */ c) => Math.round(c + (255 - c) * white);
  return `rgba(${mix(rgb[0])},${mix(rgb[1])},${mix(rgb[2])},${alpha})`;
}

/**
 * The run colour darkened by `amount` (0..1), for outlines.
 * @param {[number, number, number]} rgb
 * @param {number} amount
 */
export function darker(rgb, amount) {
  const f = 1 - amount;
  return `rgb(${Math.round(rgb[0] * f)},${Math.round(rgb[1] * f)},${Math.round(rgb[2] * f)})`;
}

/**
 * Bin `j`'s range [lo, hi) of `bins` equal bins over [left, right], as TensorBoard computes it.
 * @param {number} left
 * @param {number} right
 * @param {number} bins
 * @param {number} j
 * @returns {[number, number]}
 */
export function binRange(left, right, bins, j) {
  const dx = (right - left) / bins;
  const lo = left + j * dx;
  return [lo, lo + dx];
}
