// The scale of one parallel-coordinates axis, in u (0 = bottom, 1 = top): kit scales over
// a column, by its kind and chosen scale, inverted on request.
import { categoryScale, linearScale, logScale, quantileScale } from "../../chart/scales.js";

/** @typedef {import("./table-data").Column} Column */
/** @typedef {import("../../chart/scales").Scale} Scale */

/**
 * @param {Column} col
 * @param {"linear" | "log" | "quantile" | "category"} mode
 * @param {boolean} inverted
 * @returns {Scale}
 */
export function axisScale(col, mode, inverted) {
  /** @type {[number, number]} */
  const range = inverted ? [1, 0] : [0, 1];
  if (col.kind === "category") return categoryScale(col.labels || [], range);
  if (mode === "log" && col.minPos > 0) return logScale([col.minPos, Math.max(col.max, col.minPos)], range);
  if (mode === "quantile" && col.sorted.length > 1) return quantileScale(col.sorted, range);
  return linearScale([col.min, col.max], range);
}

/**
 * u of row i on an axis (codes for categories, values for numbers); NaN when missing.
 * @param {Column} col
 * @param {Scale} scale
 * @param {number} i
 */
export function rowU(col, scale, i) {
  if (col.kind === "category") return scale.map(col.codes ? col.codes[i] : -1);
  return scale.map(col.values ? col.values[i] : Number.NaN);
}
