// The parameter-importance panel: importance and correlation of each hparam for the chosen
// metric (computed in Python; a metric not yet rated is asked for through the request channel).
import { el } from "../../core/dom.js";

/**
 * @typedef {object} ImportanceEntry
 * @property {string[]} feature
 * @property {Float64Array} importance
 * @property {Float64Array} pearson
 * @property {string} [note]  why a column is empty (importance without scikit-learn)
 */

/** @param {number} v @param {number} digits */
const fixed = (v, digits) => (Number.isFinite(v) ? v.toFixed(digits) : "–");

/**
 * @param {string} metric
 * @param {ImportanceEntry | undefined} entry
 * @param {string | null} note  a message (pending, error) shown instead of the table
 * @returns {HTMLElement[]}
 */
export function importanceNodes(metric, entry, note) {
  const title = el("div", { class: "tbnb-hp-importance-title", text: `Parameter importance for ${metric || "—"}` });
  if (!metric) return [title];
  if (!entry) return [title, el("div", { class: "tbnb-hp-importance-pending", text: note || "computing…" })];
  const rows = entry.feature.map((feature, k) => {
    const imp = entry.importance[k];
    const cor = entry.pearson[k];
    const bar = el("span", { class: "tbnb-hp-bar" });
    bar.style.width = `${Number.isFinite(imp) ? Math.round(imp * 100) : 0}px`;
    const cbar = el("span", { class: `tbnb-hp-bar${cor < 0 ? " tbnb-neg" : ""}` });
    cbar.style.width = `${Number.isFinite(cor) ? Math.round(Math.abs(cor) * 60) : 0}px`;
    return el(
      "tr",
      { class: "tbnb-hp-imp-row", "data-feature": feature },
      el("td", { class: "tbnb-hp-feature", text: feature }),
      el("td", {}, bar, ` ${fixed(imp, 3)}`),
      el("td", {}, cbar, ` ${fixed(cor, 2)}`),
    );
  });
  const head = el(
    "tr",
    {},
    el("th", { text: "hparam" }),
    el("th", { text: "importance" }),
    el("th", { text: "correlation" }),
  );
  const table = el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows));
  if (!entry.note) return [title, table];
  return [title, el("div", { class: "tbnb-hp-importance-note", text: entry.note }), table];
}
