// The line chart's axes as numbers: its margins, the x and y scales of a chart state
// (zoom, log y, outliers clipped, manual y ends) and the plain affine maps its loops over
// every point use (the scales give domains and ticks).
import { yDomain } from "./domain.js";
import { linearScale, logScale, timeScale } from "./scales.js";

/** @typedef {import("./scales").Scale} Scale */

export const MARGIN = { left: 54, right: 16, top: 8, bottom: 24 };

/**
 * The x and y scales of a chart `width` x `height` CSS pixels showing x domain `xd`.
 * @param {import("./line-chart").ChartState} st
 * @param {[number, number]} xd
 * @param {number} w @param {number} h
 * @returns {{x: Scale, y: Scale}}
 */
export function lineScales(st, xd, w, h) {
  const xRange = /** @type {[number, number]} */ ([MARGIN.left, Math.max(w, 120) - MARGIN.right]);
  // steps are whole numbers: a chart of four steps ticks 0, 1, 2, 3, never 0.5
  const integer = st.xLabel === "step";
  const x = st.xType === "time" ? timeScale(xd, xRange) : linearScale(xd, xRange, { integer });
  let yd = yDomain(st.series, xd, { logY: st.logY, outliers: st.outliers, showRaw: st.showRaw });
  const [mlo, mhi] = st.yRange || [null, null];
  const usable = (/** @type {number | null} */ v) => v !== null && Number.isFinite(v) && (!st.logY || v > 0);
  if (usable(mlo)) yd = [/** @type {number} */ (mlo), yd[1]];
  if (usable(mhi)) yd = [yd[0], /** @type {number} */ (mhi)];
  if (!(yd[1] > yd[0])) yd = [yd[0], yd[0] + (st.logY ? yd[0] : 1)];
  const yRange = /** @type {[number, number]} */ ([h - MARGIN.bottom, MARGIN.top]);
  const manual = usable(mlo) || usable(mhi);
  const y = st.logY ? logScale(yd, yRange) : linearScale(yd, yRange, { nice: st.outliers || manual ? 0 : 5 });
  return { x, y };
}

/**
 * Plain affine maps of the scales: `fx`, `fy` (NaN for y <= 0 on a log axis) and their
 * coefficients `xmap` [d0, r0, ax] and `ymap` [q0, e0, ay, logY] for the tracing loops.
 * @param {Scale} x @param {Scale} y @param {boolean} logY
 */
export function affineMaps(x, y, logY) {
  const [d0, d1] = x.domain;
  const [r0, r1] = x.range;
  const ax = (r1 - r0) / (d1 - d0 || 1);
  const [e0, e1] = y.domain.map((v) => (logY ? Math.log(v) : v));
  const [q0, q1] = y.range;
  const ay = (q1 - q0) / (e1 - e0 || 1);
  return {
    fx: (/** @type {number} */ v) => r0 + (v - d0) * ax,
    fy: logY
      ? (/** @type {number} */ v) => (v > 0 ? q0 + (Math.log(v) - e0) * ay : Number.NaN)
      : (/** @type {number} */ v) => q0 + (v - e0) * ay,
    xmap: [d0, r0, ax],
    ymap: [q0, e0, ay, logY],
  };
}
