// Line colours of the hparams view: by a column (viridis for numbers, the categorical
// palette for categories) or by run (the run colours every widget shares). Rows are put in
// colour buckets so lines are stroked once per colour.

import { categoryColor, MISSING_COLOR, runColor, viridis } from "../../color/palettes.js";
import { formatNumber } from "../../core/format.js";

/** @typedef {import("./table-data").Table} Table */

const BINS = 32;

/**
 * @typedef {object} Coloring
 * @property {string} name                     what colours the lines ("run" or a column)
 * @property {Uint16Array} bucket              row -> index into colors
 * @property {string[]} colors
 * @property {{label: string, color: string}[]} legend
 * @property {(row: number) => string} color
 */

/**
 * @param {Table} table
 * @param {string} by  a column name, or "run"
 * @param {{runColors: Record<string, string>, palette: string, dark?: boolean}} options  dark: a dark theme (viridis without its darkest quarter)
 * @returns {Coloring}
 */
export function coloring(table, by, { runColors, palette, dark = false }) {
  const n = table.n;
  const bucket = new Uint16Array(n);
  /** @type {string[]} */
  let colors = ["#4e79a7"];
  /** @type {{label: string, color: string}[]} */
  let legend = [];
  const col = table.columns.get(by);
  if (by === "run") {
    colors = table.runs.map((run, i) => runColor(runColors, run, i));
    for (let i = 0; i < n; i++) bucket[i] = i;
    legend = table.runs.slice(0, 20).map((run, i) => ({ label: run, color: colors[i] }));
  } else if (col && col.kind === "category") {
    const labels = col.labels || [];
    colors = [...labels.map((_, k) => categoryColor(k, palette)), MISSING_COLOR];
    const codes = col.codes || new Int32Array(n);
    for (let i = 0; i < n; i++) bucket[i] = codes[i] < 0 ? labels.length : codes[i];
    legend = labels.slice(0, 20).map((label, k) => ({ label, color: colors[k] }));
  } else if (col?.values) {
    const lo = col.min;
    const span = col.max > lo ? col.max - lo : 1;
    // on a dark theme viridis starts a quarter in: its darkest purples vanish on the background
    const from = dark ? 0.25 : 0;
    colors = Array.from({ length: BINS }, (_, k) => viridis(from + ((1 - from) * k) / (BINS - 1)));
    colors.push(MISSING_COLOR);
    for (let i = 0; i < n; i++) {
      const v = col.values[i];
      bucket[i] = Number.isFinite(v) ? Math.round(((v - lo) / span) * (BINS - 1)) : BINS;
    }
    if (Number.isFinite(lo)) {
      legend = [
        { label: formatNumber(lo), color: colors[0] },
        { label: formatNumber(col.max), color: colors[BINS - 1] },
      ];
    }
  }
  return { name: by, bucket, colors, legend, color: (i) => colors[bucket[i]] };
}
