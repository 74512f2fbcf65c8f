// The metadata columns as the browser holds them (tbnb/widgets/embeddings/prepare.py makes
// them): categories as codes into labels (most frequent first; a column of distinct values
// has no codes: point i is label i), numbers as float32 (NaN = missing).
import { decodeTree } from "../../core/codecs.js";

/**
 * @typedef {object} Column
 * @property {string} name
 * @property {"category" | "number"} kind
 * @property {string[] | null} labels
 * @property {ArrayLike<number> | null} codes     null when every value is distinct
 * @property {Float32Array | null} values
 * @property {[number, number]} [range]           finite min and max of `values`
 */

/**
 * @param {Record<string, any> | undefined} raw  the `_meta` trait
 * @returns {{n: number, columns: Map<string, Column>}}
 */
export function decodeMeta(raw) {
  const tree = decodeTree(raw || {});
  /** @type {Map<string, Column>} */
  const columns = new Map();
  for (const c of tree.columns || []) {
    /** @type {Column} */
    const column = {
      name: String(c.name),
      kind: c.kind === "number" ? "number" : "category",
      labels: c.labels ? c.labels.map(String) : null,
      codes: c.codes || null,
      values: c.values || null,
    };
    if (column.values) column.range = finiteRange(column.values);
    columns.set(column.name, column);
  }
  return { n: Number(tree.n || 0), columns };
}

/** @param {Float32Array} values @returns {[number, number]} */
function finiteRange(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo <= hi ? [lo, hi] : [0, 0];
}

/**
 * The code of point `i` in a category column (its label index).
 * @param {Column} column @param {number} i
 */
export function codeOf(column, i) {
  return column.codes ? column.codes[i] : i;
}

/**
 * Point `i`'s value of `column` as text.
 * @param {Column | undefined} column @param {number} i
 */
export function textOf(column, i) {
  if (!column) return "";
  if (column.labels) return column.labels[codeOf(column, i)] ?? "";
  const v = column.values ? column.values[i] : Number.NaN;
  return Number.isFinite(v) ? String(Number(v.toPrecision(7))) : "";
}

/**
 * Points whose label in a text column (or one with few distinct numbers) matches `re`:
 * one test per distinct label. Python's `search_mask` gives the same points.
 * @param {Map<string, Column>} columns @param {string} only  one column name, or "" for all
 * @param {RegExp} re @param {number} n
 * @returns {Uint8Array}
 */
export function searchMask(columns, only, re, n) {
  const mask = new Uint8Array(n);
  for (const column of columns.values()) {
    if ((only && column.name !== only) || !column.labels) continue;
    const hit = column.labels.map((label) => re.test(label));
    if (!hit.some(Boolean)) continue;
    for (let i = 0; i < n; i++) if (hit[codeOf(column, i)]) mask[i] = 1;
  }
  return mask;
}
