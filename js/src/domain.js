// Axis domains of a chart (pure; no DOM, no d3).
import { quantileSorted } from "./util.js";

export function finiteExtent(arr, lo, hi) {
  for (let i = 0; i < arr.length; i++) {
    const v = arr[i];
    if (Number.isFinite(v)) {
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  }
  return [lo, hi];
}

export function yDomain(series, xDomain, { logY = false, outliers = false, showRaw = true } = {}) {
  // With raw lines drawn, their values bound the smoothed ones too (a debiased
  // EMA is a weighted mean of raw values), so the range does not move with the
  // smoothing weight; without them, the smoothed values decide.
  const [x0, x1] = xDomain;
  const vals = outliers ? [] : null;
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of series) {
    const arrays = (showRaw ? [s.y, s.loRaw, s.hiRaw] : [s.ys, s.lo, s.hi]).filter((a) => a);
    const xs = s.x;
    for (const a of arrays) {
      for (let i = 0; i < xs.length; i++) {
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
  if (lo === Infinity) return logY ? [0.1, 10] : [0, 1];
  if (vals) {
    // TensorBoard's "ignore outliers": the 5th to 95th percentile of the values.
    const sorted = Float64Array.from(vals).sort();
    lo = quantileSorted(sorted, 0.05);
    hi = quantileSorted(sorted, 0.95);
  }
  if (logY) {
    if (lo === hi) return [lo / 2, hi * 2];
    return [lo, hi];
  }
  if (lo === hi) {
    const pad = Math.abs(lo) * 0.1 || 1;
    return [lo - pad, hi + pad];
  }
  const pad = (hi - lo) * 0.05;
  return [lo - pad, hi + pad];
}
