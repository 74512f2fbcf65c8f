// Scales: value -> position, position -> value, and ticks with labels in the one number
// format. Linear, log and time scales use d3-scale for "nice" tick values; quantile
// (rank) and category scales are our own. A constant domain gets one tick at its value.
import { scaleLinear, scaleLog, scaleTime } from "d3-scale";
import { formatTicks } from "../core/format.js";

/** @typedef {import("../core/types").Numbers} Numbers */

/**
 * @typedef {object} Tick
 * @property {number} value
 * @property {number} pos    position in range units
 * @property {string} label
 */

/**
 * @typedef {object} Scale
 * @property {"linear" | "log" | "time" | "quantile" | "category"} kind
 * @property {[number, number]} domain
 * @property {[number, number]} range
 * @property {(v: number) => number} map     NaN when `v` cannot be drawn (log of v <= 0, NaN)
 * @property {(p: number) => number} invert
 * @property {(count?: number) => Tick[]} ticks
 */

/**
 * @param {number[]} values
 * @param {(v: number) => number} map
 * @returns {Tick[]}
 */
function labelled(values, map) {
  const labels = formatTicks(values);
  return values.map((value, i) => ({ value, pos: map(value), label: labels[i] }));
}

/**
 * A linear scale. A constant domain ([v, v]) maps v to the middle of the range and has one
 * tick, at v.
 * @param {[number, number]} domain
 * @param {[number, number]} range
 * @param {{nice?: number, integer?: boolean}} [options]  `nice`: extend the domain to round
 *   ticks (about this many); `integer`: the values are whole numbers (steps), so ticks are too
 *   (a chart of steps 0 to 3 ticks 0, 1, 2, 3, never 0.5)
 * @returns {Scale}
 */
export function linearScale(domain, range, options = {}) {
  let [lo, hi] = domain;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (lo === hi) {
    const value = lo;
    const span = Math.abs(value) * 0.5 || 1;
    const s = scaleLinear()
      .domain([value - span, value + span])
      .range(range);
    return {
      kind: "linear",
      domain: [value, value],
      range,
      map: (v) => (Number.isFinite(v) ? s(v) : Number.NaN),
      invert: (p) => s.invert(p),
      ticks: () => labelled([value], s),
    };
  }
  const s = scaleLinear().domain([lo, hi]).range(range);
  if (options.nice) s.nice(options.nice);
  const d = /** @type {[number, number]} */ (s.domain());
  return {
    kind: "linear",
    domain: d,
    range,
    map: (v) => (Number.isFinite(v) ? s(v) : Number.NaN),
    invert: (p) => s.invert(p),
    ticks: (count = 5) => labelled(options.integer ? integerTicks(s, count) : s.ticks(count), s),
  };
}

/**
 * Whole-number ticks of a linear d3 scale: about `count`, never more than the integers in
 * its domain (d3 would step by fractions to reach `count`).
 * @param {ReturnType<typeof scaleLinear>} s
 * @param {number} count
 * @returns {number[]}
 */
function integerTicks(s, count) {
  const [a, b] = /** @type {[number, number]} */ (s.domain());
  const whole = Math.floor(Math.max(a, b)) - Math.ceil(Math.min(a, b)) + 1;
  if (whole <= 0) return [];
  return s.ticks(Math.max(1, Math.min(count, whole - 1))).filter((v) => Number.isInteger(v));
}

/**
 * A log scale (base 10) over a positive domain; values <= 0 map to NaN. Ticks are powers of
 * ten when the domain spans enough of them, else d3's 1-2-5 steps.
 * @param {[number, number]} domain
 * @param {[number, number]} range
 * @returns {Scale}
 */
export function logScale(domain, range) {
  let [lo, hi] = domain;
  if (!(lo > 0) || !(hi > 0)) [lo, hi] = [1, 10];
  const constant = lo === hi;
  const s = scaleLog()
    .domain(constant ? [lo / 10, hi * 10] : [lo, hi])
    .range(range);
  return {
    kind: "log",
    domain: [lo, hi],
    range,
    map: (v) => (v > 0 && Number.isFinite(v) ? s(v) : Number.NaN),
    invert: (p) => s.invert(p),
    ticks: (count = 5) => {
      if (constant) return labelled([lo], s);
      let values = s.ticks(count);
      const powers = values.filter((v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9);
      if (values.length > 2 * count && powers.length >= 2) values = powers;
      if (values.length > 2 * count) values = values.filter((_, i) => i % Math.ceil(values.length / (2 * count)) === 0);
      return labelled(values, s);
    },
  };
}

/**
 * A time scale over milliseconds since the epoch (local time labels, d3's multi-format).
 * @param {[number, number]} domain  milliseconds
 * @param {[number, number]} range
 * @returns {Scale}
 */
export function timeScale(domain, range) {
  let [lo, hi] = domain;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (lo === hi) [lo, hi] = [lo - 1000, hi + 1000];
  const s = scaleTime()
    .domain([new Date(lo), new Date(hi)])
    .range(range);
  const format = s.tickFormat();
  return {
    kind: "time",
    domain: [lo, hi],
    range,
    map: (v) => (Number.isFinite(v) ? s(new Date(v)) : Number.NaN),
    invert: (p) => s.invert(p).getTime(),
    ticks: (count = 5) => s.ticks(count).map((d) => ({ value: d.getTime(), pos: s(d), label: format(d) })),
  };
}

/**
 * A rank scale: a value maps to its mean rank among `sorted` (finite, ascending), so equal
 * counts of values lie between equal distances. Ticks at the quartiles.
 * @param {Numbers} sorted
 * @param {[number, number]} range
 * @returns {Scale}
 */
export function quantileScale(sorted, range) {
  const n = sorted.length;
  const [r0, r1] = range;
  if (n < 2) {
    const only = n ? sorted[0] : 0;
    return linearScale([only, only], range);
  }
  /** @param {number} v */
  const toU = (v) => {
    if (!Number.isFinite(v)) return Number.NaN;
    if (v <= sorted[0]) return 0;
    if (v >= sorted[n - 1]) return 1;
    let lo = 0;
    let hi = n - 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (sorted[mid] <= v) lo = mid;
      else hi = mid;
    }
    let first = lo; // ties: the mean rank of equal values
    while (first > 0 && sorted[first - 1] === sorted[lo]) first--;
    const rank = sorted[lo] === v ? (first + lo) / 2 : lo + (v - sorted[lo]) / (sorted[hi] - sorted[lo]);
    return rank / (n - 1);
  };
  /** @param {number} u */
  const fromU = (u) => {
    const x = Math.min(Math.max(u, 0), 1) * (n - 1);
    const i = Math.min(Math.floor(x), n - 2);
    return sorted[i] + (sorted[i + 1] - sorted[i]) * (x - i);
  };
  /** @param {number} v */
  const map = (v) => r0 + toU(v) * (r1 - r0);
  return {
    kind: "quantile",
    domain: [sorted[0], sorted[n - 1]],
    range,
    map,
    invert: (p) => fromU((p - r0) / (r1 - r0 || 1)),
    ticks: () => {
      const values = [...new Set([0, 0.25, 0.5, 0.75, 1].map(fromU))];
      return labelled(values, map);
    },
  };
}

/**
 * A category scale: code i (0..k-1) sits in the middle of the i-th of k equal bands; a
 * negative code (missing) maps to NaN. Ticks carry the labels (at most `max` of them).
 * @param {string[]} labels
 * @param {[number, number]} range
 * @returns {Scale}
 */
export function categoryScale(labels, range) {
  const k = Math.max(labels.length, 1);
  const [r0, r1] = range;
  /** @param {number} code */
  const map = (code) => (code >= 0 && code < k ? r0 + ((code + 0.5) / k) * (r1 - r0) : Number.NaN);
  return {
    kind: "category",
    domain: [0, k - 1],
    range,
    map,
    invert: (p) => Math.min(k - 1, Math.max(0, Math.floor(((p - r0) / (r1 - r0 || 1)) * k))),
    ticks: (max = 24) => {
      const step = Math.ceil(labels.length / Math.max(max, 1));
      return labels.map((label, i) => ({ value: i, pos: map(i), label })).filter((_, i) => i % step === 0);
    },
  };
}
