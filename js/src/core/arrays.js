// Small pure helpers on arrays of numbers (no DOM).

/** @typedef {import("./types").Numbers} Numbers */

/**
 * Quantile of sorted finite numbers, linear between order statistics (d3's R-7).
 * @param {Numbers} sorted
 * @param {number} p
 */
export function quantileSorted(sorted, p) {
  const n = sorted.length;
  if (!n) return Number.NaN;
  if (p <= 0 || n < 2) return sorted[0];
  if (p >= 1) return sorted[n - 1];
  const i = (n - 1) * p;
  const i0 = Math.floor(i);
  return sorted[i0] + (sorted[i0 + 1] - sorted[i0]) * (i - i0);
}

/**
 * Index of the element of sorted `xs` nearest to x (NaN-free xs); -1 when empty.
 * @param {Numbers} xs
 * @param {number} x
 */
export function nearestSorted(xs, x) {
  const n = xs.length;
  if (!n) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(xs[lo - 1] - x) <= Math.abs(xs[lo] - x)) return lo - 1;
  return lo;
}

/**
 * Nearest index by linear scan, skipping non-finite x (for unsorted x such as a tag's value).
 * @param {Numbers} xs
 * @param {number} x
 */
export function nearestScan(xs, x) {
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  for (let i = 0; i < xs.length; i++) {
    const d = Math.abs(xs[i] - x);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** @param {Numbers} xs */
export function isSorted(xs) {
  for (let i = 1; i < xs.length; i++) if (!(xs[i] >= xs[i - 1])) return false;
  return true;
}

/**
 * The value of the polyline (xs, ys) at x (xs sorted): exact at its points, linear between
 * them, the end values beyond them, NaN when empty or when a neighbour is not finite.
 * @param {Numbers} xs
 * @param {Numbers} ys
 * @param {number} x
 */
export function interpolateSorted(xs, ys, x) {
  const n = Math.min(xs.length, ys.length);
  if (!n || !Number.isFinite(x)) return Number.NaN;
  if (x <= xs[0]) return ys[0];
  if (x >= xs[n - 1]) return ys[n - 1];
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] <= x) lo = mid;
    else hi = mid;
  }
  if (xs[lo] === x) return ys[lo];
  const f = (x - xs[lo]) / (xs[hi] - xs[lo]);
  return ys[lo] + (ys[hi] - ys[lo]) * f;
}

/**
 * Finite min and max of `arr`, widening [lo, hi].
 * @param {Numbers} arr
 * @param {number} lo
 * @param {number} hi
 * @returns {[number, number]}
 */
export function finiteExtent(arr, lo = Number.POSITIVE_INFINITY, hi = Number.NEGATIVE_INFINITY) {
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i];
    if (Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return [lo, hi];
}

/**
 * Concatenate two arrays of numbers into a Float64Array.
 * @param {Numbers} a
 * @param {Numbers} b
 */
export function concatF64(a, b) {
  const out = new Float64Array(a.length + b.length);
  out.set(/** @type {ArrayLike<number>} */ (a), 0);
  out.set(/** @type {ArrayLike<number>} */ (b), a.length);
  return out;
}

/**
 * Natural order ("run2" before "run10").
 * @param {string} a
 * @param {string} b
 */
export function naturalCompare(a, b) {
  return a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" });
}
