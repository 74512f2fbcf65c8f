// What the view knows of each chart: the preview in the saved state (every series, few
// steps, 8-bit counts and 16-bit bands; it comes after the first charts, which the kernel
// answers first) and the exact data the kernel sent for the settings asked; `best()` gives a chart's data for any settings at once, exact when the kernel sent
// it, else derived here from the richest data held (re-binned with TensorBoard's rule,
// cut to the step window, sampled as Python samples).
import { decodeTree } from "../../core/codecs.js";
import { BPS, nearestIndex, rebinUniform, sampleIndices } from "./math.js";

/** @typedef {import("./model").ChartData} ChartData */
/** @typedef {import("./model").AtStepData} AtStepData */
/** @typedef {{bins: number, limit: number, window: number[]}} Params */

const BANDS = BPS.length;
const KEEP = 6;

/**
 * The key of a series.
 * @param {string} run
 * @param {string} tag
 */
export const seriesKey = (run, tag) => JSON.stringify([run, tag]);

/**
 * The cache key of settings.
 * @param {Params} p
 */
export const paramsKey = (p) => `${p.bins}|${p.limit}|${p.window.join(",")}`;

export class ChartStore {
  constructor() {
    /** @type {string[]} */
    this.runs = [];
    /** @type {string[]} */
    this.tags = [];
    /** @type {string[]} */
    this.groups = [];
    /** @type {Map<string, number>} series key -> preview index */
    this.index = new Map();
    /** @type {Map<string, Map<string, ChartData>>} series key -> params -> exact data */
    this.exact = new Map();
    /** @type {Map<number, ChartData>} */
    this.previews = new Map();
    /** @type {ArrayLike<number>} each series' first wall time */
    this.wall0 = [];
    this.stepValues = new Float64Array(0);
    this.empty = "";
    /** @type {any} */
    this.preview = null;
    this.previewSteps = 0;
  }

  /**
   * The index of every series (the preview, made for it, comes next: `setPreview`).
   * @param {Record<string, any>} raw  the `_data` trait
   */
  load(raw) {
    const data = decodeTree(raw || {});
    this.runs = data.runs || [];
    this.tags = data.tags || [];
    this.groups = data.groups || [];
    this.empty = data.empty || "";
    this.stepValues = Float64Array.from(data.step_values || []);
    this.index.clear();
    const series = data.series || { run: [], tag: [] };
    this.wall0 = series.wall0 || [];
    for (let i = 0; i < series.run.length; i++) {
      this.index.set(seriesKey(this.runs[series.run[i]], this.tags[series.tag[i]]), i);
    }
    // A reload: the exact data held is drawn until the kernel's new answers replace it
    // (no chart goes back to its coarse preview), but it is no longer exact.
    for (const [key, kept] of this.exact) {
      if (!this.index.has(key)) this.exact.delete(key);
      else for (const [params, data] of kept) kept.set(params, { ...data, exact: false });
    }
    this.setPreview(null);
  }

  /**
   * Hold every chart's preview (or none, until the kernel sends it).
   * @param {Record<string, any> | null} raw  the `_preview` trait
   */
  setPreview(raw) {
    const preview = raw ? decodeTree(raw) : null;
    const offsets = preview?.offsets;
    this.preview = offsets && offsets.length === this.index.size + 1 ? preview : null;
    this.previews.clear();
    let most = 0;
    const at = this.preview?.offsets || [0];
    for (let i = 1; i < at.length; i++) most = Math.max(most, at[i] - at[i - 1]);
    this.previewSteps = most;
  }

  /**
   * A series' first wall time (relative time counts from it), or NaN.
   * @param {string} run
   * @param {string} tag
   */
  wall0Of(run, tag) {
    const i = this.index.get(seriesKey(run, tag));
    return i === undefined ? Number.NaN : Number(this.wall0[i] ?? Number.NaN);
  }

  /** @param {string} run @param {string} tag */
  has(run, tag) {
    return this.index.has(seriesKey(run, tag));
  }

  /**
   * The preview of a series, decoded (once).
   * @param {string} run
   * @param {string} tag
   * @returns {ChartData | null}
   */
  previewOf(run, tag) {
    const i = this.index.get(seriesKey(run, tag));
    if (i === undefined || !this.preview) return null;
    const cached = this.previews.get(i);
    if (cached) return cached;
    const p = this.preview;
    const a = p.offsets[i];
    const b = p.offsets[i + 1];
    const bins = p.bins;
    const n = b - a;
    const steps = new Float64Array(n);
    const wall = new Float64Array(n);
    const counts = new Float64Array(n * bins);
    const bands = new Float64Array(n * BANDS);
    const num = new Float64Array(n);
    const span = p.band_hi[i] - p.band_lo[i];
    for (let k = 0; k < n; k++) {
      steps[k] = p.step[a + k];
      wall[k] = p.wall0[i] + p.wall[a + k];
      num[k] = p.num[a + k];
      const scale = p.scale[a + k] / 255;
      for (let j = 0; j < bins; j++) counts[k * bins + j] = p.counts[(a + k) * bins + j] * scale;
      for (let j = 0; j < BANDS; j++) {
        bands[k * BANDS + j] = p.band_lo[i] + (p.bands[(a + k) * BANDS + j] / 65535) * (span > 0 ? span : 0);
      }
    }
    const data = {
      run,
      tag,
      steps,
      wall,
      left: p.left[i],
      right: p.right[i],
      bins,
      counts,
      bands,
      num,
      total: n,
      exact: false,
      params: "preview",
    };
    this.previews.set(i, data);
    return data;
  }

  /**
   * Keep exact data the kernel sent.
   * @param {any} item  one item of a "series" reply (typed arrays)
   * @param {Params} params
   * @returns {ChartData}
   */
  putExact(item, params) {
    const bins = params.bins;
    const n = item.steps.length;
    /** @type {ChartData} */
    const data = {
      run: item.run,
      tag: item.tag,
      steps: Float64Array.from(item.steps),
      wall: Float64Array.from(item.wall),
      left: item.left,
      right: item.right,
      bins,
      counts: Float64Array.from(item.counts || new Float64Array(n * bins)),
      bands: Float64Array.from(item.bands || new Float64Array(n * BANDS)),
      num: Float64Array.from(item.num),
      total: item.total,
      exact: true,
      params: paramsKey(params),
    };
    const key = seriesKey(item.run, item.tag);
    let kept = this.exact.get(key);
    if (!kept) {
      kept = new Map();
      this.exact.set(key, kept);
    }
    kept.delete(data.params);
    kept.set(data.params, data);
    while (kept.size > KEEP) kept.delete(/** @type {string} */ (kept.keys().next().value));
    return data;
  }

  /**
   * A chart's data for `params`: the exact data if the kernel sent it, else derived from the
   * richest data held (exact data of the same window first, then the preview).
   * @param {string} run
   * @param {string} tag
   * @param {Params} params
   * @returns {ChartData | null}
   */
  best(run, tag, params) {
    const key = seriesKey(run, tag);
    const kept = this.exact.get(key);
    const wanted = paramsKey(params);
    const hit = kept?.get(wanted);
    if (hit) return hit;
    let source = this.previewOf(run, tag);
    const window = params.window.join(",");
    for (const data of kept?.values() || []) {
      if (
        data.params.endsWith(`|${window}`) &&
        (!source || source.exact === false || data.steps.length > source.steps.length)
      ) {
        source = data;
      }
    }
    if (!source) return null;
    return derive(source, params);
  }
}

/**
 * `source` cut to the step window, sampled to `limit` steps and re-binned to `bins` bins
 * over the same range (TensorBoard's rule applied to the bins held): not exact.
 * @param {ChartData} source
 * @param {Params} params
 * @returns {ChartData}
 */
export function derive(source, params) {
  const { bins, limit, window } = params;
  /** @type {number[]} */
  const inside = [];
  for (let k = 0; k < source.steps.length; k++) {
    const s = source.steps[k];
    if (!window.length || (s >= window[0] && s <= window[1])) inside.push(k);
  }
  const picked = sampleIndices(
    inside.map((k) => source.steps[k]),
    limit,
  ).map((j) => inside[j]);
  const n = picked.length;
  const out = {
    ...source,
    steps: new Float64Array(n),
    wall: new Float64Array(n),
    counts: new Float64Array(n * bins),
    bands: new Float64Array(n * BANDS),
    num: new Float64Array(n),
    bins,
    total: inside.length,
    exact: false,
    params: paramsKey(params),
  };
  const row = new Float64Array(bins);
  picked.forEach((k, j) => {
    out.steps[j] = source.steps[k];
    out.wall[j] = source.wall[k];
    out.num[j] = source.num[k];
    out.bands.set(source.bands.subarray(k * BANDS, (k + 1) * BANDS), j * BANDS);
    const counts = source.counts.subarray(k * source.bins, (k + 1) * source.bins);
    if (source.bins === bins) out.counts.set(counts, j * bins);
    else if (Number.isFinite(source.left)) {
      out.counts.set(rebinUniform(counts, source.left, source.right, bins, source.left, source.right, row), j * bins);
    }
  });
  return out;
}

/**
 * Several runs of a tag at the step nearest `step`, on bins common to all of them, derived
 * from each run's data (not exact).
 * @param {ChartData[]} charts  one per run
 * @param {string} tag
 * @param {number} step
 * @param {number} bins
 * @returns {AtStepData}
 */
export function atStepFrom(charts, tag, step, bins) {
  const usable = charts.filter((c) => c.steps.length && Number.isFinite(c.left));
  const left = Math.min(...usable.map((c) => c.left));
  const right = Math.max(...usable.map((c) => c.right));
  const items = usable.map((c) => {
    const k = nearestIndex(c.steps, step);
    const counts = rebinUniform(c.counts.subarray(k * c.bins, (k + 1) * c.bins), c.left, c.right, bins, left, right);
    return {
      run: c.run,
      step: c.steps[k],
      wall: c.wall[k],
      num: c.num[k],
      counts,
      bands: c.bands.slice(k * BANDS, (k + 1) * BANDS),
    };
  });
  return { tag, left, right, bins, items, exact: false, params: "" };
}
