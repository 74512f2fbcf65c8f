// The runs table as the browser holds it: `_table` decoded (one column per (section, key),
// numbers as float64, text as codes into one string table), how each cell reads, and the
// comparison of runs: which keys differ between them.

import { decodeTree } from "../../core/codecs.js";
import { formatDuration, formatNumber, formatWallTime } from "../../core/format.js";

/**
 * @typedef {object} InfoColumn
 * @property {string} section
 * @property {string} key
 * @property {string} kind          "number", "text", "time", "duration" or "bytes"
 * @property {Float64Array} [values]
 * @property {Int32Array} [codes]
 */

/** @typedef {{runs: string[], labels: string[], columns: InfoColumn[]}} InfoTable */

/** @param {any} raw @returns {InfoTable} */
export function decodeTable(raw) {
  const t = raw ? decodeTree(raw) : {};
  return { runs: t.runs || [], labels: t.labels || [], columns: t.columns || [] };
}

/** @param {number} bytes */
function formatBytes(bytes) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number(v.toPrecision(3))} ${units[u]}`;
}

/**
 * What a cell shows.
 * @param {InfoTable} t @param {InfoColumn} c @param {number} i
 */
export function cellText(t, c, i) {
  if (c.codes) return c.codes[i] >= 0 ? t.labels[c.codes[i]] : "";
  const v = c.values ? c.values[i] : Number.NaN;
  if (Number.isNaN(v)) return "";
  if (c.kind === "time") return formatWallTime(v);
  if (c.kind === "duration") return formatDuration(v);
  if (c.kind === "bytes") return formatBytes(v);
  return formatNumber(v, 6);
}

/**
 * What a cell sorts by and exports as (null: missing).
 * @param {InfoTable} t @param {InfoColumn} c @param {number} i
 * @returns {number | string | null}
 */
export function cellValue(t, c, i) {
  if (c.codes) return c.codes[i] >= 0 ? t.labels[c.codes[i]] : null;
  const v = c.values ? c.values[i] : Number.NaN;
  return Number.isNaN(v) ? null : v;
}

/**
 * Whether the runs `rows` hold different values in column `c`: numbers by value, text by
 * its string; missing equals missing and differs from anything present (the rule of
 * tbnb.analysis.runinfo.same_value).
 * @param {InfoColumn} c @param {number[]} rows
 */
export function differs(c, rows) {
  const seen = new Set();
  for (const i of rows) {
    if (c.codes) seen.add(c.codes[i]);
    else seen.add(c.values && !Number.isNaN(c.values[i]) ? c.values[i] : "missing");
  }
  return seen.size > 1;
}

/**
 * Whether every run in `rows` lacks column `c`.
 * @param {InfoColumn} c @param {number[]} rows
 */
export function allMissing(c, rows) {
  return rows.every((i) => (c.codes ? c.codes[i] < 0 : !c.values || Number.isNaN(c.values[i])));
}

/**
 * The keys of the side-by-side view: columns present for some of `rows`, only the
 * differing ones when asked (and when there are two runs or more).
 * @param {InfoTable} t @param {number[]} rows @param {boolean} onlyDifferences
 * @returns {{column: InfoColumn, differs: boolean}[]}
 */
export function comparison(t, rows, onlyDifferences) {
  const out = [];
  for (const column of t.columns) {
    if (allMissing(column, rows)) continue;
    const d = rows.length > 1 && differs(column, rows);
    if (onlyDifferences && rows.length > 1 && !d) continue;
    out.push({ column, differs: d });
  }
  return out;
}
