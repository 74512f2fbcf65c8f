// The parameter-importance panel: importance and correlation of each hparam for the chosen
// metric. Python computes it in the background (the view shows before it is ready) and sets
// the `_importance` trait; a metric not yet rated is asked for through the request channel.
import { el } from "../../core/dom.js";

/** What the panel says while the kernel computes (tbnb.widgets.hparams.importance.COMPUTING). */
export const COMPUTING = "computing importance…";

/**
 * @typedef {object} ImportanceEntry
 * @property {string[]} [feature]
 * @property {Float64Array} [importance]
 * @property {Float64Array} [pearson]
 * @property {string} [note]  why a column is empty (importance without scikit-learn)
 * @property {string} [error]  the computation failed: why
 * @property {string} [pending]  not ready when the state was saved: why there are no bars
 */

/** @param {string} state @param {string} text */
const message = (state, text) =>
  el("div", {
    class: "tbnb-hp-importance-pending",
    "data-state": state,
    "aria-busy": String(state === "computing"),
    text,
  });

/** @param {number} v @param {number} digits */
const fixed = (v, digits) => (Number.isFinite(v) ? v.toFixed(digits) : "–");

/**
 * @param {string} metric
 * @param {ImportanceEntry | undefined} entry
 * @param {string | null} note  a message (the kernel's error) shown instead of the table;
 *   none and no entry: the kernel is computing it
 * @returns {HTMLElement[]}
 */
export function importanceNodes(metric, entry, note) {
  const title = el("div", { class: "tbnb-hp-importance-title", text: `Parameter importance for ${metric || "—"}` });
  if (!metric) return [title];
  if (!entry) return [title, message(note ? "note" : "computing", note || COMPUTING)];
  if (entry.error) return [title, message("error", entry.error)];
  const { feature, importance, pearson } = entry;
  if (!feature || !importance || !pearson) return [title, message("note", entry.pending || COMPUTING)];
  const rows = feature.map((feature, k) => {
    const imp = importance[k];
    const cor = pearson[k];
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
