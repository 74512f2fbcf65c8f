// The hparams table in the browser: columns decoded from `_table`, the brush rule (the same
// as Python's: ranges inclusive, missing values never pass a brushed axis) and cell text in
// the one number format (pure; no DOM).
import { decodeTree } from "../../core/codecs.js";
import { columnFormatter } from "../../core/format.js";

/** @typedef {import("./model").Brush} Brush */

/**
 * @typedef {object} Column
 * @property {string} name
 * @property {"number" | "category"} kind
 * @property {"hparam" | "metric"} role
 * @property {Float64Array} [values]   numbers (NaN = missing)
 * @property {Int32Array} [codes]      category codes (-1 = missing)
 * @property {string[]} [labels]
 * @property {Float64Array} sorted     finite values, ascending (numbers)
 * @property {number} min
 * @property {number} max
 * @property {number} minPos           smallest positive value (NaN if none)
 * @property {boolean} missing
 */

/**
 * @typedef {object} Table
 * @property {unknown} raw
 * @property {string[]} runs
 * @property {Record<string, string[]>} members
 * @property {Map<string, Column>} columns
 * @property {number} n
 */

/**
 * Decode the `_table` trait.
 * @param {unknown} raw
 * @returns {Table}
 */
export function buildTable(raw) {
  const data = decodeTree(raw || {});
  const runs = data.runs || [];
  /** @type {Map<string, Column>} */
  const columns = new Map();
  for (const c of data.columns || []) {
    /** @type {Column} */
    const col = {
      ...c,
      sorted: new Float64Array(0),
      min: Number.NaN,
      max: Number.NaN,
      minPos: Number.NaN,
      missing: false,
    };
    if (col.kind === "number" && col.values) {
      const finite = Array.from(col.values)
        .filter(Number.isFinite)
        .sort((a, b) => a - b);
      col.sorted = Float64Array.from(finite);
      col.min = finite.length ? finite[0] : Number.NaN;
      col.max = finite.length ? finite[finite.length - 1] : Number.NaN;
      col.minPos = finite.find((v) => v > 0) ?? Number.NaN;
      col.missing = col.values.some((v) => Number.isNaN(v));
    } else if (col.codes) {
      col.missing = col.codes.some((code) => code < 0);
    }
    columns.set(col.name, col);
  }
  return { raw, runs, members: data.members || {}, columns, n: runs.length };
}

/**
 * Whether row i passes brush b on column col.
 * @param {Column} col
 * @param {Brush} b
 * @param {number} i
 */
export function passes(col, b, i) {
  if ("range" in b) {
    if (col.kind !== "number" || !col.values) return true;
    const v = col.values[i];
    return v >= b.range[0] && v <= b.range[1];
  }
  if (col.kind === "number" && col.values) {
    const v = col.values[i];
    return Number.isFinite(v) && b.values.some((s) => Number(s) === v);
  }
  const code = col.codes ? col.codes[i] : -1;
  return code >= 0 && b.values.includes(/** @type {string[]} */ (col.labels)[code]);
}

/**
 * 1 for every row passing every brush.
 * @param {Table} table
 * @param {Record<string, Brush>} brushes
 * @returns {Uint8Array}
 */
export function selectionMask(table, brushes) {
  const mask = new Uint8Array(table.n).fill(1);
  for (const [name, b] of Object.entries(brushes || {})) {
    const col = table.columns.get(name);
    if (!col) continue;
    for (let i = 0; i < table.n; i++) if (mask[i] && !passes(col, b, i)) mask[i] = 0;
  }
  return mask;
}

/**
 * The runs of the selected rows: each row's members (its add_hparams sub-run, metric groups).
 * @param {Table} table
 * @param {Uint8Array} mask
 */
export function selectedRuns(table, mask) {
  /** @type {string[]} */
  const runs = [];
  for (let i = 0; i < table.n; i++) {
    if (!mask[i]) continue;
    const run = table.runs[i];
    for (const m of table.members[run] || [run]) runs.push(m);
  }
  return runs;
}

/** @type {WeakMap<Column, (v: number) => string>} */
const FORMATS = new WeakMap();

/**
 * One number format per column (see columnFormatter).
 * @param {Column} col
 */
function formatOf(col) {
  let format = FORMATS.get(col);
  if (!format) {
    format = columnFormatter(col.sorted);
    FORMATS.set(col, format);
  }
  return format;
}

/**
 * What a cell shows ("" when missing).
 * @param {Column | undefined} col
 * @param {number} i
 */
export function cellText(col, i) {
  if (!col) return "";
  if (col.kind === "number" && col.values) {
    const v = col.values[i];
    return Number.isNaN(v) ? "" : formatOf(col)(v);
  }
  const code = col.codes ? col.codes[i] : -1;
  return code < 0 ? "" : /** @type {string[]} */ (col.labels)[code];
}

/**
 * A cell's value (null when missing): for sorting and CSV.
 * @param {Column} col
 * @param {number} i
 * @returns {number | string | null}
 */
export function cellValue(col, i) {
  if (col.kind === "number" && col.values) {
    const v = col.values[i];
    return Number.isNaN(v) ? null : v;
  }
  const code = col.codes ? col.codes[i] : -1;
  return code < 0 ? null : /** @type {string[]} */ (col.labels)[code];
}
