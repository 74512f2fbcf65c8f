// The scalars data a model holds in the browser: the downsampled series decoded from
// `_data`, plus points appended live. Shared by every view of one model.
import { concatF64 } from "../core/arrays.js";
import { decodeTree } from "../core/codecs.js";

/**
 * The `_data` payload once decoded (tbnb/widgets/scalars/prepare.py: payload()): the
 * series of a scalars or custom-scalars model.
 * @typedef {object} ScalarsData
 * @property {"runs" | "groups"} kind
 * @property {string | null} band
 * @property {string[]} runs                      legend order
 * @property {Record<string, string[]>} members   group -> its runs (aggregating)
 * @property {string[]} tags
 * @property {string | null} x_tag
 * @property {{run: Int32Array, tag: Int32Array, offset: Int32Array | Float64Array, total: Int32Array | Float64Array}} [series]
 * @property {Record<string, import("../core/types").TypedArray>} [columns]  step, wall, value (lo, hi, n, xv)
 */

/** @typedef {import("../core/types").Numbers} Numbers */

/**
 * One (run, tag) series: its columns (step, wall, value; lo, hi, n when aggregating;
 * xv for x = another tag), the number of points it has in Python, and caches.
 * @typedef {object} SeriesRecord
 * @property {string} run
 * @property {string} tag
 * @property {Record<string, Numbers>} cols
 * @property {number} total
 * @property {{mode: string, x: Float64Array, sorted: boolean} | null} xs
 * @property {Map<string, any>} cache
 */

/**
 * @typedef {object} Store
 * @property {unknown} raw
 * @property {ScalarsData} data
 * @property {Map<string, SeriesRecord>} series
 * @property {string[]} runs
 * @property {Record<string, string[]>} members
 */

export const SEP = "\u0000";

/**
 * @param {string} run
 * @param {string} tag
 */
export const seriesKey = (run, tag) => run + SEP + tag;

/**
 * Decode the `_data` trait.
 * @param {unknown} raw
 * @returns {Store}
 */
export function buildStore(raw) {
  /** @type {ScalarsData} */
  const data = decodeTree(raw || {});
  /** @type {Map<string, SeriesRecord>} */
  const series = new Map();
  const S = data.series;
  const C = data.columns || {};
  const runs = data.runs || [];
  const tags = data.tags || [];
  if (S?.run) {
    for (let i = 0; i < S.run.length; i++) {
      const a = Number(S.offset[i]);
      const b = Number(S.offset[i + 1]);
      /** @type {Record<string, Numbers>} */
      const cols = {};
      for (const [name, arr] of Object.entries(C)) cols[name] = arr.subarray(a, b);
      const run = runs[S.run[i]];
      const tag = tags[S.tag[i]];
      series.set(seriesKey(run, tag), { run, tag, cols, total: Number(S.total[i]), xs: null, cache: new Map() });
    }
  }
  return { raw, data, series, runs: [...runs], members: data.members || {} };
}

/** @type {WeakMap<object, Store>} */
const STORES = new WeakMap();

/**
 * The store of a model (rebuilt when `_data` is replaced; appended points survive re-renders).
 * @param {import("../core/types").Model<{_data: Record<string, any>}>} model
 * @returns {Store}
 */
export function storeOf(model) {
  const raw = model.get("_data");
  let store = STORES.get(model);
  if (!store || store.raw !== raw) {
    store = buildStore(raw);
    STORES.set(model, store);
  }
  return store;
}

/**
 * Add the points of an "append" message (tbnb/widgets/scalars/widget.py: _on_reload).
 * Returns whether a new series or run appeared.
 * @param {Store} store
 * @param {{series?: {run: string, tag: string, total: number, columns: Record<string, Numbers>}[]}} msg
 */
export function applyAppend(store, msg) {
  let grew = false;
  for (const s of msg.series || []) {
    const old = store.series.get(seriesKey(s.run, s.tag));
    if (old) {
      for (const [name, arr] of Object.entries(s.columns)) {
        old.cols[name] = concatF64(old.cols[name] || new Float64Array(0), arr);
      }
      old.total = s.total;
      old.cache.clear();
      old.xs = null;
    } else {
      /** @type {Record<string, Numbers>} */
      const cols = {};
      for (const [name, arr] of Object.entries(s.columns)) cols[name] = Float64Array.from(arr);
      store.series.set(seriesKey(s.run, s.tag), {
        run: s.run,
        tag: s.tag,
        cols,
        total: s.total,
        xs: null,
        cache: new Map(),
      });
      if (!store.runs.includes(s.run)) store.runs.push(s.run);
      grew = true;
    }
  }
  return grew;
}

/**
 * x values of one series for an x-axis mode (the time scale takes milliseconds). Relative
 * time counts from `base` (the whole series' first wall time; default the first of `cols`).
 * @param {Record<string, Numbers>} cols
 * @param {string} mode
 * @param {number} [base]
 * @returns {Float64Array}
 */
export function xValues(cols, mode, base = firstFinite(cols.wall)) {
  /** @param {Numbers} src @param {(v: number) => number} f */
  const map = (src, f) => {
    const out = new Float64Array(src.length);
    for (let i = 0; i < src.length; i++) out[i] = f(src[i]);
    return out;
  };
  if (mode === "wall") return map(cols.wall, (v) => v * 1000);
  if (mode === "relative") return map(cols.wall, (v) => v - base);
  if (mode.startsWith("tag:") && cols.xv) return Float64Array.from(cols.xv);
  return Float64Array.from(cols.step);
}

/**
 * The first finite value (0 when none): the origin of relative time.
 * @param {Numbers} values
 */
export function firstFinite(values) {
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i])) return values[i];
  return 0;
}
