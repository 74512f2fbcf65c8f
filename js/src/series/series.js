// From stored series to the lines a chart draws (pure; no DOM).
//
// Smoothing is TensorBoard's: over the series the chart holds for the whole run (the
// downsampled overview). A zoomed chart draws the full-resolution points of its range as
// the raw line and for the readout, but keeps the overview's smoothed line, so a smoothed
// value at a step is the same zoomed or not, and every run of a chart is smoothed alike.
import { isSorted } from "../core/arrays.js";
import { smooth } from "./smoothing.js";
import { firstFinite, xValues } from "./store.js";

/** @typedef {import("./store").SeriesRecord} SeriesRecord */
/** @typedef {import("../chart/readout").LineSeries} LineSeries */
/** @typedef {import("../core/types").Numbers} Numbers */

/**
 * The whole series smoothed: x, whether x is sorted, the smoothed values and band.
 * @typedef {object} Smoothed
 * @property {Float64Array} x
 * @property {boolean} sorted
 * @property {Numbers} sy
 * @property {Numbers | null} lo
 * @property {Numbers | null} hi
 */

/**
 * x of a record's overview for an x mode (cached on the record across smoothing changes).
 * @param {SeriesRecord} rec
 * @param {string} xMode
 */
export function overviewX(rec, xMode) {
  if (!rec.xs || rec.xs.mode !== xMode) {
    const x = xValues(rec.cols, xMode);
    rec.xs = { mode: xMode, x, sorted: isSorted(x) };
  }
  return rec.xs;
}

/**
 * The overview smoothed with `weight` (`mode` "ema" or "time"), cached per record: one
 * entry, whose arrays a smoothing change rewrites in place (no allocation per point); the
 * entry object itself is new per setting, so path caches keyed on it never go stale.
 * @param {SeriesRecord} rec
 * @param {string} xMode
 * @param {number} weight
 * @param {"ema" | "time"} mode
 * @returns {Smoothed}
 */
export function smoothedOverview(rec, xMode, weight, mode) {
  const key = `${xMode}|${weight}|${mode}`;
  const hit = rec.cache.get(key);
  if (hit) return hit;
  const { x, sorted } = overviewX(rec, xMode);
  /** @type {Smoothed | null} */
  let prev = null;
  for (const old of rec.cache.values()) prev = old;
  /** @param {Numbers} values @param {Numbers | null | undefined} old */
  const sm = (values, old) =>
    weight > 0
      ? smooth(values, weight, { x, mode, out: old && old !== values ? /** @type {Float64Array} */ (old) : null })
      : values;
  const cols = rec.cols;
  /** @type {Smoothed} */
  const out = {
    x,
    sorted,
    sy: sm(cols.value, prev?.sy),
    lo: cols.lo ? sm(cols.lo, prev?.lo) : null,
    hi: cols.hi ? sm(cols.hi, prev?.hi) : null,
  };
  rec.cache.clear();
  rec.cache.set(key, out);
  return out;
}

/**
 * The line of one record as a chart draws it.
 * @param {SeriesRecord} rec
 * @param {{xMode: string, weight: number, mode: "ema" | "time", color: string, label: string,
 *   dash: number, zoomCols?: Record<string, Numbers> | null, zoomX?: Float64Array | null}} options
 *   `zoomCols`: the full-resolution points of a zoomed range (`zoomX` their x, if known)
 * @returns {LineSeries}
 */
export function lineSeries(rec, options) {
  const { xMode, weight, mode, zoomCols } = options;
  const whole = smoothedOverview(rec, xMode, weight, mode);
  const wall0 = firstFinite(rec.cols.wall);
  const raw = zoomCols || rec.cols;
  const x = zoomCols ? options.zoomX || xValues(zoomCols, xMode, wall0) : whole.x;
  return {
    key: `${rec.run}\u0000${rec.tag}`,
    label: options.label,
    color: options.color,
    dash: options.dash,
    x,
    y: raw.value,
    step: raw.step,
    wall: raw.wall,
    wall0,
    sx: whole.x,
    sy: whole.sy,
    lo: whole.lo,
    hi: whole.hi,
    loRaw: rec.cols.lo || null,
    hiRaw: rec.cols.hi || null,
    sorted: whole.sorted && (!zoomCols || isSorted(x)),
    rawOwner: raw.value,
    smoothOwner: whole,
  };
}
