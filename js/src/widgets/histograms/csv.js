// The CSV of the histograms widget: what the shown charts draw, in Python's columns
// (tbnb/widgets/histograms/frames.py): display bins, or the nine bands in the distribution
// mode.
import { binRange } from "./frame.js";
import { BPS } from "./math.js";

/** @typedef {import("./model").ChartData} ChartData */
/** @typedef {import("./model").AtStepData} AtStepData */

export const BIN_HEADER = ["run", "tag", "step", "wall_time", "bin_left", "bin_right", "count"];
export const BAND_HEADER = ["run", "tag", "step", "wall_time", ...BPS.map((bp) => `p${bp}`)];

/**
 * Rows of display bins of charts (`ChartData`) and runs-at-step charts (`AtStepData`).
 * @param {(ChartData | AtStepData)[]} charts
 * @returns {unknown[][]}
 */
export function binRows(charts) {
  /** @type {unknown[][]} */
  const rows = [];
  for (const chart of charts) {
    if ("items" in chart) {
      for (const item of chart.items) {
        for (let j = 0; j < chart.bins; j++) {
          const [lo, hi] = binRange(chart.left, chart.right, chart.bins, j);
          rows.push([item.run, chart.tag, item.step, item.wall, lo, hi, item.counts[j]]);
        }
      }
      continue;
    }
    for (let k = 0; k < chart.steps.length; k++) {
      for (let j = 0; j < chart.bins; j++) {
        const [lo, hi] = binRange(chart.left, chart.right, chart.bins, j);
        rows.push([chart.run, chart.tag, chart.steps[k], chart.wall[k], lo, hi, chart.counts[k * chart.bins + j]]);
      }
    }
  }
  return rows;
}

/**
 * Rows of the nine bands of each step of charts.
 * @param {ChartData[]} charts
 * @returns {unknown[][]}
 */
export function bandRows(charts) {
  /** @type {unknown[][]} */
  const rows = [];
  for (const chart of charts) {
    for (let k = 0; k < chart.steps.length; k++) {
      const bands = Array.from(chart.bands.subarray(k * BPS.length, (k + 1) * BPS.length));
      rows.push([chart.run, chart.tag, chart.steps[k], chart.wall[k], ...bands]);
    }
  }
  return rows;
}
