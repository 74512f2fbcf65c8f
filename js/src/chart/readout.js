// What a line chart reads out at a hovered x (pure; no DOM).
import { interpolateSorted, naturalCompare, nearestScan, nearestSorted } from "../core/arrays.js";
import { formatDuration, formatNumber, formatWallTime } from "../core/format.js";

/** @typedef {import("../core/types").Numbers} Numbers */

/**
 * The series shape a line chart draws. The raw line (x, y, with step and wall time per
 * point) may be a full-resolution slice of a zoomed range; the smoothed line (sx, sy) is
 * always the whole series, so a smoothed value at a step is the same zoomed or not.
 * @typedef {object} LineSeries
 * @property {string} key        unique within the chart
 * @property {string} label      the whole run name (and tag), shown as text
 * @property {string} color
 * @property {number} dash       index into the dash patterns
 * @property {Numbers} x         raw points' x
 * @property {Numbers} y         raw values
 * @property {Numbers} step      raw points' steps
 * @property {Numbers} wall      raw points' wall times (seconds)
 * @property {number} wall0      the series' first wall time (origin of relative time)
 * @property {Numbers} sx        the smoothed line's x
 * @property {Numbers} sy        smoothed values
 * @property {Numbers | null} lo     band, smoothed, on sx
 * @property {Numbers | null} hi
 * @property {Numbers | null} loRaw  band before smoothing, on sx
 * @property {Numbers | null} hiRaw
 * @property {boolean} sorted    x and sx ascending
 * @property {object | null} rawOwner     cache identity of the raw line's path
 * @property {object | null} smoothOwner  cache identity of the smoothed line's path
 */

/**
 * @typedef {object} ReadoutRow
 * @property {LineSeries} series
 * @property {number} i          index of the raw point
 * @property {number} x
 * @property {number} step
 * @property {number} value
 * @property {number} smoothed   the smoothed line at x (exact at its own points)
 * @property {number} wall
 * @property {number} relative   seconds since the series' first point
 */

/**
 * The smoothed line of `s` at the raw point `i`.
 * @param {LineSeries} s
 * @param {number} i
 */
export function smoothedAt(s, i) {
  if (s.sx === s.x) return s.sy[i];
  const x = s.x[i];
  if (s.sorted) return interpolateSorted(s.sx, s.sy, x);
  const j = nearestScan(s.sx, x);
  return j < 0 ? Number.NaN : s.sy[j];
}

/**
 * One row per series: its raw point nearest to `x`, sorted by `sort` ("value-desc",
 * "value-asc" by smoothed value, "name", "nearest" x).
 * @param {LineSeries[]} series
 * @param {number} x
 * @param {string} [sort]
 * @returns {ReadoutRow[]}
 */
export function readout(series, x, sort = "value-desc") {
  /** @type {ReadoutRow[]} */
  const rows = [];
  for (const s of series) {
    const i = s.sorted ? nearestSorted(s.x, x) : nearestScan(s.x, x);
    if (i < 0) continue;
    const wall = s.wall ? s.wall[i] : Number.NaN;
    rows.push({
      series: s,
      i,
      x: s.x[i],
      step: s.step ? s.step[i] : s.x[i],
      value: s.y[i],
      smoothed: smoothedAt(s, i),
      wall,
      relative: wall - s.wall0,
    });
  }
  /** @param {number} v */
  const key = (v) => (Number.isNaN(v) ? Number.NEGATIVE_INFINITY : v);
  if (sort === "name") rows.sort((a, b) => naturalCompare(a.series.label, b.series.label));
  else if (sort === "value-asc") rows.sort((a, b) => key(a.smoothed) - key(b.smoothed));
  else if (sort === "value-desc") rows.sort((a, b) => key(b.smoothed) - key(a.smoothed));
  else if (sort === "nearest") rows.sort((a, b) => Math.abs(a.x - x) - Math.abs(b.x - x));
  return rows;
}

/**
 * The tooltip table of readout rows: the whole name, smoothed and raw value, step, the x
 * value when x is another tag, wall time and time since the series' first point.
 * @param {ReadoutRow[]} rows
 * @param {string} xLabel  "step", "relative", "wall" or a tag name
 * @param {number} [maxRows]
 * @returns {{columns: {label: string, name?: boolean}[], rows: {color: string, cells: string[]}[], more: number}}
 */
export function readoutTable(rows, xLabel, maxRows = 40) {
  const xExtra = xLabel !== "step" && xLabel !== "wall" && xLabel !== "relative";
  const columns = [
    { label: "run", name: true },
    { label: "smoothed" },
    { label: "value" },
    { label: "step" },
    ...(xExtra ? [{ label: xLabel }] : []),
    { label: "wall time" },
    { label: "relative" },
  ];
  const shown = rows.slice(0, maxRows).map((r) => ({
    color: r.series.color,
    cells: [
      r.series.label,
      formatNumber(r.smoothed, 6),
      formatNumber(r.value, 6),
      String(r.step),
      ...(xExtra ? [formatNumber(r.x, 6)] : []),
      formatWallTime(r.wall),
      formatDuration(r.relative),
    ],
  }));
  return { columns, rows: shown, more: Math.max(rows.length - maxRows, 0) };
}
