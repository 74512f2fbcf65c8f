// What the PR-curves widget shows, as rows (pure; no DOM): the areas table and both CSVs.
import { curvePoints, thresholdAt } from "./curve.js";

/** @typedef {import("./store").PrStore} PrStore */
/** @typedef {import("./curve-chart").DrawnCurve} DrawnCurve */

/**
 * One shown curve: a run of a chart at the row of its step.
 * @typedef {object} ShownCurve
 * @property {string} run
 * @property {string} tag
 * @property {number} row     its row in the steps table (the step asked for)
 * @property {string} color
 * @property {DrawnCurve | null} drawn
 */

/** Columns of the areas table: key, label and the steps-table array they read. */
export const AREA_COLUMNS = [
  { key: "ap", label: "PR-AUC (AP)", field: "average_precision" },
  { key: "trap", label: "PR-AUC (trapezoid)", field: "pr_auc" },
  { key: "roc", label: "ROC-AUC", field: "roc_auc" },
  { key: "pos", label: "positives", field: "positives" },
  { key: "neg", label: "negatives", field: "negatives" },
];

/**
 * The curves CSV: every threshold of every drawn curve (as TensorBoard serves it).
 * @param {ShownCurve[]} shown
 * @param {PrStore} store
 * @returns {{header: string[], rows: unknown[][]}}
 */
export function curveCsv(shown, store) {
  const header = [
    "run",
    "tag",
    "step",
    "threshold",
    "precision",
    "recall",
    "true_positives",
    "false_positives",
    "true_negatives",
    "false_negatives",
    "fpr",
    "tpr",
  ];
  /** @type {unknown[][]} */
  const rows = [];
  for (const s of shown) {
    if (!s.drawn) continue;
    const curve = s.drawn.curve;
    const roc = curvePoints(curve, "roc");
    const step = store.steps.step[curve.row];
    for (let i = 0; i < curve.tp.length; i++) {
      const t = thresholdAt(curve, i);
      rows.push([s.run, s.tag, step, t.threshold, t.precision, t.recall, t.tp, t.fp, t.tn, t.fn, roc.x[i], roc.y[i]]);
    }
  }
  return { header, rows };
}

/**
 * The areas CSV: every step of every shown (run, tag) series.
 * @param {ShownCurve[]} shown
 * @param {PrStore} store
 * @returns {{header: string[], rows: unknown[][]}}
 */
export function areaCsv(shown, store) {
  const header = ["run", "tag", "step", "wall_time", ...AREA_COLUMNS.map((c) => c.field)];
  /** @type {unknown[][]} */
  const rows = [];
  const st = /** @type {Record<string, ArrayLike<number>>} */ (/** @type {unknown} */ (store.steps));
  for (const s of shown) {
    const series = store.seriesOfRow(s.row);
    if (!series) continue;
    for (let r = series.start; r < series.end; r++) {
      rows.push([s.run, s.tag, st.step[r], st.wall[r], ...AREA_COLUMNS.map((c) => st[c.field][r])]);
    }
  }
  return { header, rows };
}
