// The y range of a line chart (pure; no DOM).
import { quantileSorted } from "../core/arrays.js";

/** @typedef {import("../core/types").Numbers} Numbers */

/**
 * @typedef {object} DomainSeries
 * @property {Numbers} x
 * @property {Numbers} y
 * @property {Numbers} sx
 * @property {Numbers} sy
 * @property {Numbers | null} [lo]
 * @property {Numbers | null} [hi]
 * @property {Numbers | null} [loRaw]
 * @property {Numbers | null} [hiRaw]
 */

/**
 * The y range of the points inside the x range. With raw lines drawn their values bound the
 * smoothed ones too (a debiased EMA is a weighted mean of raw values), so the range does not
 * move with the smoothing weight; without them, the smoothed values decide. `outliers`:
 * TensorBoard's "ignore outliers", the 5th to 95th percentile. Padded by 5% (linear).
 * @param {DomainSeries[]} series
 * @param {[number, number]} xDomain
 * @param {{logY?: boolean, outliers?: boolean, showRaw?: boolean}} [options]
 * @returns {[number, number]}
 */
export function yDomain(series, xDomain, { logY = false, outliers = false, showRaw = true } = {}) {
  const [x0, x1] = xDomain;
  /** @type {number[] | null} */
  const vals = outliers ? [] : null;
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const s of series) {
    /** @type {Array<[Numbers, Numbers | null | undefined]>} */
    const pairs = showRaw
      ? [
          [s.x, s.y],
          [s.sx, s.loRaw],
          [s.sx, s.hiRaw],
        ]
      : [
          [s.sx, s.sy],
          [s.sx, s.lo],
          [s.sx, s.hi],
        ];
    for (const [xs, a] of pairs) {
      if (!a) continue;
      const n = Math.min(xs.length, a.length);
      for (let i = 0; i < n; i++) {
        const x = xs[i];
        if (!(x >= x0 && x <= x1)) continue;
        const v = a[i];
        if (!Number.isFinite(v) || (logY && !(v > 0))) continue;
        if (vals) vals.push(v);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    }
  }
  if (lo === Number.POSITIVE_INFINITY) return logY ? [0.1, 10] : [0, 1];
  if (vals) {
    const sorted = Float64Array.from(vals).sort();
    lo = quantileSorted(sorted, 0.05);
    hi = quantileSorted(sorted, 0.95);
  }
  if (logY) return lo === hi ? [lo / 2, hi * 2] : [lo, hi];
  if (lo === hi) {
    const pad = Math.abs(lo) * 0.1 || 1;
    return [lo - pad, hi + pad];
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}
