// The distribution of one metadata column over every point, and over the selection beside
// it (the panel's linked view): bars of a category column's most frequent values (then the
// rest), or bins of a numeric one. A bar knows its points, so a click selects them.
import { codeOf } from "./metadata.js";

const TOP = 12;
const BINS = 16;

/**
 * @typedef {object} Bar
 * @property {string} label
 * @property {number} total   points with this value
 * @property {number} chosen  of them, selected
 * @property {(i: number) => boolean} has  whether point i falls in this bar
 */

/**
 * @param {import("./metadata").Column} column
 * @param {number} n
 * @param {Uint8Array} selected  a mask (empty: no selection)
 * @returns {Bar[]}
 */
export function bars(column, n, selected) {
  const useNumbers = column.values && column.range && (!column.labels || column.labels.length > 20);
  if (useNumbers && column.values && column.range) {
    const values = column.values;
    const [lo, hi] = column.range;
    const width = (hi - lo) / BINS || 1;
    const bin = (/** @type {number} */ v) => Math.min(Math.floor((v - lo) / width), BINS - 1);
    const out = Array.from({ length: BINS }, (_, b) => {
      const from = lo + b * width;
      return {
        label: `${format(from)} – ${format(from + width)}`,
        total: 0,
        chosen: 0,
        has: (/** @type {number} */ i) => Number.isFinite(values[i]) && bin(values[i]) === b,
      };
    });
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (!Number.isFinite(v)) continue;
      const b = out[bin(v)];
      b.total++;
      if (selected[i]) b.chosen++;
    }
    return out;
  }
  const labels = column.labels || [];
  const shown = Math.min(labels.length, TOP);
  const total = new Uint32Array(shown + 1);
  const chosen = new Uint32Array(shown + 1);
  for (let i = 0; i < n; i++) {
    const code = Math.min(codeOf(column, i), shown);
    total[code]++;
    if (selected[i]) chosen[code]++;
  }
  const out = [];
  for (let code = 0; code < shown; code++) {
    out.push({
      label: labels[code] || "(empty)",
      total: total[code],
      chosen: chosen[code],
      has: (/** @type {number} */ i) => codeOf(column, i) === code,
    });
  }
  if (labels.length > shown) {
    out.push({
      label: `other (${labels.length - shown} values)`,
      total: total[shown],
      chosen: chosen[shown],
      has: (/** @type {number} */ i) => codeOf(column, i) >= shown,
    });
  }
  return out;
}

/**
 * The points of `bar` (for a click that selects them).
 * @param {Bar} bar @param {number} n
 */
export function pointsOf(bar, n) {
  const out = new Int32Array(bar.total);
  let k = 0;
  for (let i = 0; i < n && k < out.length; i++) if (bar.has(i)) out[k++] = i;
  return out.subarray(0, k);
}

/** @param {number} v */
function format(v) {
  const a = Math.abs(v);
  return a !== 0 && (a >= 1e5 || a < 1e-3) ? v.toExponential(2) : String(Number(v.toPrecision(3)));
}
