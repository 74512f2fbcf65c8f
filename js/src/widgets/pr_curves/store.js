// The PR-curves data a model holds in the browser: series (run, tag) with every step and
// its areas, and the curves of some steps (sent with the widget, or fetched on request).
// Pure: no DOM. tbnb/widgets/pr_curves/prepare.py: payload() and curve_block() make it.
import { nearestSorted } from "../../core/arrays.js";
import { decodeTree } from "../../core/codecs.js";

/** @typedef {import("../../core/types").Numbers} Numbers */

/**
 * One curve as TensorBoard serves it (thresholds trimmed where nothing is predicted).
 * Counts arrive as uint16 (whole numbers below 65,536) or float32.
 * @typedef {object} Curve
 * @property {number} row          its row in the steps table
 * @property {number} spacing      threshold i is i * spacing
 * @property {Uint16Array | Float32Array} tp
 * @property {Uint16Array | Float32Array} fp
 * @property {Uint16Array | Float32Array} tn
 * @property {Uint16Array | Float32Array} fn
 * @property {Float32Array} precision
 * @property {Float32Array} recall
 */

/**
 * @typedef {object} Series
 * @property {string} run
 * @property {string} tag
 * @property {number} start   first row in the steps table
 * @property {number} end     one past the last
 * @property {Numbers} steps  its steps, ascending (a view of the steps table)
 */

/**
 * @typedef {object} Steps
 * @property {Int32Array | Float64Array} step
 * @property {Float64Array} wall
 * @property {Int32Array} curve
 * @property {Float32Array} average_precision
 * @property {Float32Array} pr_auc
 * @property {Float32Array} roc_auc
 * @property {Float32Array} positives
 * @property {Float32Array} negatives
 */

export const SEP = "\u0000";

/**
 * @param {string} run
 * @param {string} tag
 */
export const seriesKey = (run, tag) => run + SEP + tag;

/**
 * Precision and recall as every writer stores them (float32 of TP / max(1e-7, TP + FP)
 * and TP / max(1e-7, TP + FN)): what a block leaves out when they are exactly that
 * (tbnb/widgets/pr_curves/prepare.py: curve_block()).
 * @param {ArrayLike<number>} tp
 * @param {ArrayLike<number>} fp
 * @param {ArrayLike<number>} fn
 */
export function derivedRates(tp, fp, fn) {
  const n = tp.length;
  const precision = new Float32Array(n);
  const recall = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    precision[i] = Math.fround(tp[i] / Math.max(1e-7, tp[i] + fp[i]));
    recall[i] = Math.fround(tp[i] / Math.max(1e-7, tp[i] + fn[i]));
  }
  return { precision, recall };
}

/**
 * The curves of a block (``curve_block`` in Python), by row.
 * @param {Record<string, any>} block
 * @returns {Curve[]}
 */
export function curvesOf(block) {
  /** @type {Curve[]} */
  const out = [];
  if (!block?.rows) return out;
  const rates = block.derived
    ? derivedRates(block.true_positives, block.false_positives, block.false_negatives)
    : { precision: block.precision, recall: block.recall };
  const off = block.offset;
  for (let i = 0; i < block.rows.length; i++) {
    const a = off[i];
    const b = off[i + 1];
    out.push({
      row: block.rows[i],
      spacing: block.spacing[i],
      tp: block.true_positives.subarray(a, b),
      fp: block.false_positives.subarray(a, b),
      tn: block.true_negatives.subarray(a, b),
      fn: block.false_negatives.subarray(a, b),
      precision: rates.precision.subarray(a, b),
      recall: rates.recall.subarray(a, b),
    });
  }
  return out;
}

export class PrStore {
  /** @param {unknown} raw  the `_data` trait */
  constructor(raw) {
    this.raw = raw;
    const data = decodeTree(raw || {});
    /** @type {string[]} */
    this.runs = data.runs || [];
    /** @type {string[]} */
    this.tags = data.tags || [];
    /** @type {Steps} */
    this.steps = data.steps || emptySteps();
    this.total = Number(data.total || 0);
    this.sent = Number(data.sent || 0);
    /** @type {Map<string, Series>} */
    this.series = new Map();
    /** series of each row of the steps table */
    /** @type {Series[]} */
    this.rowSeries = new Array(this.steps.step.length);
    /** @type {Map<string, Series[]>} */
    this.byTag = new Map();
    const S = data.series;
    if (S?.run) {
      for (let i = 0; i < S.run.length; i++) {
        const start = S.offset[i];
        const end = S.offset[i + 1];
        const series = {
          run: this.runs[S.run[i]],
          tag: this.tags[S.tag[i]],
          start,
          end,
          steps: this.steps.step.subarray(start, end),
        };
        this.series.set(seriesKey(series.run, series.tag), series);
        for (let r = start; r < end; r++) this.rowSeries[r] = series;
        const list = this.byTag.get(series.tag) || [];
        list.push(series);
        this.byTag.set(series.tag, list);
      }
    }
    /** @type {Map<number, Curve>} curves held, by row */
    this.curves = new Map();
    /** rows with a sent curve, ascending, per series key */
    /** @type {Map<string, number[]>} */
    this.loadedRows = new Map();
    for (const c of curvesOf(data.curves)) this.addCurve(c);
  }

  /** @param {Curve} curve */
  addCurve(curve) {
    if (this.curves.has(curve.row)) return;
    this.curves.set(curve.row, curve);
    const series = this.seriesOfRow(curve.row);
    if (!series) return;
    const key = seriesKey(series.run, series.tag);
    const rows = this.loadedRows.get(key) || [];
    rows.push(curve.row);
    rows.sort((a, b) => a - b);
    this.loadedRows.set(key, rows);
  }

  /** @param {number} row */
  seriesOfRow(row) {
    return this.rowSeries[row] || null;
  }

  /**
   * Every step of a chart (any run), ascending and unique.
   * @param {string} tag
   * @returns {number[]}
   */
  chartSteps(tag) {
    const all = new Set();
    for (const s of this.byTag.get(tag) || []) for (let i = 0; i < s.steps.length; i++) all.add(s.steps[i]);
    return [...all].sort((a, b) => a - b);
  }

  /** Every step of every series, ascending and unique. @returns {number[]} */
  allSteps() {
    return [...new Set(Array.from(this.steps.step))].sort((a, b) => a - b);
  }

  /**
   * The row of a series at the step nearest to `step` (the latest when `step` is null).
   * @param {Series} series
   * @param {number | null} step
   */
  rowAt(series, step) {
    if (series.end <= series.start) return -1;
    if (step === null || !Number.isFinite(step)) return series.end - 1;
    return series.start + nearestSorted(series.steps, step);
  }

  /**
   * The curve to draw for a row: its own when held, else the held one of the nearest step
   * of its series (`exact` false), or null when the series has none.
   * @param {Series} series
   * @param {number} row
   * @returns {{curve: Curve, exact: boolean} | null}
   */
  curveFor(series, row) {
    const own = this.curves.get(row);
    if (own) return { curve: own, exact: true };
    const rows = this.loadedRows.get(seriesKey(series.run, series.tag));
    if (!rows?.length) return null;
    const step = this.steps.step[row];
    let best = rows[0];
    for (const r of rows) if (Math.abs(this.steps.step[r] - step) < Math.abs(this.steps.step[best] - step)) best = r;
    const curve = this.curves.get(best);
    return curve ? { curve, exact: false } : null;
  }
}

/** @returns {Steps} */
function emptySteps() {
  const f = () => new Float32Array(0);
  return {
    step: new Int32Array(0),
    wall: new Float64Array(0),
    curve: new Int32Array(0),
    average_precision: f(),
    pr_auc: f(),
    roc_auc: f(),
    positives: f(),
    negatives: f(),
  };
}

/** @type {WeakMap<object, PrStore>} */
const STORES = new WeakMap();

/**
 * The store of a model (rebuilt when `_data` is replaced; fetched curves survive re-renders).
 * @param {import("./model").PrCurvesModel} model
 * @returns {PrStore}
 */
export function storeOf(model) {
  const raw = model.get("_data");
  let store = STORES.get(model);
  if (!store || store.raw !== raw) {
    store = new PrStore(raw);
    STORES.set(model, store);
  }
  return store;
}
