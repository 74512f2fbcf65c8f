// TensorBoard's debiased EMA and its time-weighted variant: the mirror of
// tbnb/transforms/smoothing.py (a test runs both on the same data).
// Smoothing applies to the whole series as sampled (what the chart holds), as in
// TensorBoard; a zoomed chart keeps that smoothed line (see series.js).

/** @typedef {import("../core/types").Numbers} Numbers */

export const MAX_WEIGHT = 0.999;

/** @param {Numbers} values */
function isConstant(values) {
  // TensorBoard: every point == the first (a NaN makes it non-constant; empty is constant).
  if (values.length === 0) return true;
  const first = values[0];
  // biome-ignore lint/suspicious/noDoubleEquals: TensorBoard's rule (a NaN is never equal)
  for (let i = 0; i < values.length; i++) if (!(values[i] == first)) return false;
  return true;
}

/** @param {number} weight */
function clampWeight(weight) {
  if (!Number.isFinite(weight)) return 0;
  return Math.max(0, Math.min(weight, MAX_WEIGHT));
}

/**
 * A Float64Array of length n: `out` when it is one (and not `values`), else a new one.
 * @param {Float64Array | null | undefined} out
 * @param {Numbers} values
 * @returns {Float64Array}
 */
function target(out, values) {
  const n = values.length;
  return out instanceof Float64Array && out.length === n && out !== values ? out : new Float64Array(n);
}

/**
 * Debiased EMA over the finite values; non-finite values pass through. Returns a
 * Float64Array: `out` when given one of the right length (redraws reuse their buffers),
 * else a new one.
 * @param {Numbers} values
 * @param {number} weight
 * @param {Float64Array | null} [out]
 * @returns {Float64Array}
 */
export function ema(values, weight, out = null) {
  const w = clampWeight(weight);
  const c = 1 - w;
  const n = values.length;
  const res = target(out, values);
  let last = 0;
  let wk = 1; // w ** (finite values so far), kept as a running product (no pow per point)
  let constant = true;
  const first = n ? values[0] : 0;
  // One pass: smooth, and note whether every value == the first (TensorBoard leaves
  // such a series as it is). `v - v !== 0` is true exactly for NaN and +-inf.
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v !== first) constant = false;
    if (v - v !== 0) {
      res[i] = v;
      continue;
    }
    last = last * w + c * v;
    wk *= w;
    res[i] = last / (1 - wk);
  }
  if (constant) res.set(values);
  return res;
}

/**
 * @param {Numbers} xs
 * @param {Numbers} values
 */
function lowerMedianGap(xs, values) {
  /** @type {number[]} */
  const gaps = [];
  let prev = NaN;
  for (let i = 0; i < xs.length; i++) {
    if (!Number.isFinite(values[i])) continue;
    const x = xs[i];
    if (!Number.isNaN(prev)) {
      const g = x - prev;
      if (Number.isFinite(g) && g > 0) gaps.push(g);
    }
    prev = x;
  }
  if (gaps.length === 0) return 1;
  gaps.sort((a, b) => a - b);
  return gaps[(gaps.length - 1) >> 1];
}

/**
 * EMA whose decay per point is w ** (dx / median gap). Equals ema() on even spacing.
 * @param {Numbers} xs
 * @param {Numbers} values
 * @param {number} weight
 * @param {Float64Array | null} [out]
 * @returns {Float64Array}
 */
export function timeWeightedEma(xs, values, weight, out = null) {
  const w = clampWeight(weight);
  const res = target(out, values);
  res.set(values); // non-finite values pass through; the rest is overwritten
  if (isConstant(values)) return res;
  const unit = lowerMedianGap(xs, values);
  let last = 0;
  let exponent = 0;
  let prevX = NaN;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    const x = xs[i];
    let gap;
    if (Number.isNaN(prevX)) gap = 1;
    else if (Number.isFinite(x)) gap = Math.max(x - prevX, 0) / unit;
    else gap = 0;
    if (Number.isFinite(x)) prevX = x;
    const decay = w ** gap;
    last = last * decay + (1 - decay) * v;
    exponent += gap;
    res[i] = last / (1 - w ** exponent);
  }
  return res;
}

/**
 * smooth(values, weight, {x, mode, out}) with mode "ema" (TensorBoard) or "time";
 * `out` is an optional Float64Array to write into (see ema).
 * @param {Numbers} values
 * @param {number} weight
 * @param {{x?: Numbers | null, mode?: string, out?: Float64Array | null}} [options]
 * @returns {Float64Array}
 */
export function smooth(values, weight, { x = null, mode = "ema", out = null } = {}) {
  if (mode === "time") {
    if (!x) throw new Error("mode 'time' needs x");
    return timeWeightedEma(x, values, weight, out);
  }
  return ema(values, weight, out);
}
