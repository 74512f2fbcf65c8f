// The scalars data a model holds in the browser: the preview of every series decoded from
// `_data` (downsampled into the widget's state budget), the series of charts in view at
// screen resolution once the kernel sent them (`applySeries`), and points appended live.
// Shared by every view of one model.
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
 * @property {number} [buckets]  min/max buckets of each series' preview
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
 * @property {Record<string, Numbers>} cols   what is drawn: the preview, or the series at `level`
 * @property {Record<string, Numbers>} preview  the series as `_data` holds it (kept when `cols` is dropped)
 * @property {number} level   min/max buckets `cols` was downsampled to
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
 * @property {Map<string, number>} detailed  series whose `cols` the kernel sent (key -> points), least recently drawn first
 * @property {number} detailPoints  points of those
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
      const level = Number(data.buckets) || 0;
      series.set(seriesKey(run, tag), {
        run,
        tag,
        cols,
        preview: cols,
        level,
        total: Number(S.total[i]),
        xs: null,
        cache: new Map(),
      });
    }
  }
  return {
    raw,
    data,
    series,
    runs: [...runs],
    members: data.members || {},
    detailed: new Map(),
    detailPoints: 0,
  };
}

/** Points of series sent at screen resolution the browser keeps (the least recently drawn go back to their preview). */
export const MAX_DETAIL_POINTS = 4_000_000;

/**
 * Whether the kernel holds more of `rec` than the browser draws at `buckets` min/max buckets.
 * @param {SeriesRecord} rec
 * @param {number} buckets
 */
export function needsDetail(rec, buckets) {
  return rec.level < buckets && (rec.cols.value?.length ?? 0) < rec.total;
}

/**
 * Put the series of a `"series"` reply in the store (tbnb/widgets/scalars/widget.py:
 * _request_series); returns the keys that changed.
 * @param {Store} store
 * @param {{buckets: number, series?: {run: string, tag: string, total: number, columns: Record<string, Numbers>}[]}} reply
 */
export function applySeries(store, reply) {
  /** @type {string[]} */
  const changed = [];
  for (const s of reply.series || []) {
    const key = seriesKey(s.run, s.tag);
    const rec = store.series.get(key);
    if (!rec || rec.level >= reply.buckets) continue;
    forget(store, key);
    rec.cols = s.columns;
    rec.level = Number(reply.buckets);
    rec.total = Math.max(rec.total, Number(s.total));
    rec.cache.clear();
    rec.xs = null;
    const n = rec.cols.value?.length ?? 0;
    store.detailed.set(key, n);
    store.detailPoints += n;
    changed.push(key);
  }
  while (store.detailPoints > MAX_DETAIL_POINTS && store.detailed.size > 1) {
    const oldest = /** @type {string} */ (store.detailed.keys().next().value);
    const rec = store.series.get(oldest);
    forget(store, oldest);
    if (rec) {
      rec.cols = rec.preview;
      rec.level = Number(store.data.buckets) || 0;
      rec.cache.clear();
      rec.xs = null;
    }
  }
  return changed;
}

/**
 * Mark `key`'s series as drawn now (the last to go back to its preview).
 * @param {Store} store
 * @param {string} key
 */
export function touch(store, key) {
  const n = store.detailed.get(key);
  if (n === undefined) return;
  store.detailed.delete(key);
  store.detailed.set(key, n);
}

/** @param {Store} store @param {string} key */
function forget(store, key) {
  const n = store.detailed.get(key);
  if (n === undefined) return;
  store.detailed.delete(key);
  store.detailPoints -= n;
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
      const both = old.preview !== old.cols;
      for (const [name, arr] of Object.entries(s.columns)) {
        old.cols[name] = concatF64(old.cols[name] || new Float64Array(0), arr);
        if (both) old.preview[name] = concatF64(old.preview[name] || new Float64Array(0), arr);
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
        preview: cols,
        level: Number(store.data.buckets) || 0,
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
