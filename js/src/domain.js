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
  // Values of every series inside the x domain (raw when drawn, smoothed, band).
  const vals = [];
  const [x0, x1] = xDomain;
  for (const s of series) {
    const arrays = [s.ys];
    if (showRaw && s.y !== s.ys) arrays.push(s.y);
    if (s.lo) arrays.push(s.lo, s.hi);
    for (let i = 0; i < s.x.length; i++) {
      const x = s.x[i];
      if (!(x >= x0 && x <= x1)) continue;
      for (const a of arrays) {
        const v = a[i];
        if (Number.isFinite(v) && (!logY || v > 0)) vals.push(v);
      }
    }
  }
  if (!vals.length) return logY ? [0.1, 10] : [0, 1];
  let lo;
  let hi;
  if (outliers) {
    // TensorBoard's "ignore outliers": the 5th to 95th percentile of the values.
    vals.sort((a, b) => a - b);
    lo = quantileSorted(vals, 0.05);
    hi = quantileSorted(vals, 0.95);
  } else {
    [lo, hi] = finiteExtent(vals, Infinity, -Infinity);
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
