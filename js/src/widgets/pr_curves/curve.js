// The geometry of one PR curve (pure; no DOM): the points a view draws, the threshold
// nearest to the pointer, and what the readout says about it.

/** @typedef {import("./store").Curve} Curve */

/**
 * The points of a curve in a view: PR, (recall, precision) as stored; ROC, (FPR, TPR) from
 * the counts (NaN where a denominator is 0). Cached on the curve per view.
 * @param {Curve} curve
 * @param {"pr" | "roc"} view
 * @returns {{x: Float32Array, y: Float32Array}}
 */
export function curvePoints(curve, view) {
  const cache = /** @type {any} */ (curve);
  if (view === "pr") return { x: curve.recall, y: curve.precision };
  if (!cache._roc) {
    const n = curve.tp.length;
    const x = new Float32Array(n);
    const y = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const neg = curve.fp[i] + curve.tn[i];
      const pos = curve.tp[i] + curve.fn[i];
      x[i] = neg > 0 ? curve.fp[i] / neg : Number.NaN;
      y[i] = pos > 0 ? curve.tp[i] / pos : Number.NaN;
    }
    cache._roc = { x, y };
  }
  return cache._roc;
}

/**
 * Index of the point of (xs, ys) nearest to the pixel (px, py), with its squared distance.
 * @param {ArrayLike<number>} xs
 * @param {ArrayLike<number>} ys
 * @param {number} px
 * @param {number} py
 * @param {(v: number) => number} fx
 * @param {(v: number) => number} fy
 * @returns {{i: number, d2: number}}
 */
export function nearestPoint(xs, ys, px, py, fx, fy) {
  let best = -1;
  let bestD = Number.POSITIVE_INFINITY;
  for (let i = 0; i < xs.length; i++) {
    const dx = fx(xs[i]) - px;
    const dy = fy(ys[i]) - py;
    const d = dx * dx + dy * dy;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return { i: best, d2: bestD };
}

/**
 * What the readout shows of threshold `i` of a curve.
 * @param {Curve} curve
 * @param {number} i
 */
export function thresholdAt(curve, i) {
  return {
    threshold: i * curve.spacing,
    precision: curve.precision[i],
    recall: curve.recall[i],
    tp: curve.tp[i],
    fp: curve.fp[i],
    tn: curve.tn[i],
    fn: curve.fn[i],
  };
}
