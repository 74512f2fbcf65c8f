// Decoding the profiler's payloads: tables as columns (numbers, or codes into one list of
// distinct strings), the colours of the span kinds, durations and sizes as text.

/**
 * @typedef {object} Table
 * @property {string[]} columns
 * @property {number} length
 * @property {(column: string, row: number) => number} number
 * @property {(column: string, row: number) => string} text
 * @property {(column: string) => boolean} numeric
 */

/**
 * A table payload (tbnb/widgets/profile/prepare.py: table_payload) as accessors.
 * @param {any} payload
 * @returns {Table}
 */
export function decodeTable(payload) {
  const columns = /** @type {string[]} */ (payload?.columns || []);
  const labels = /** @type {string[]} */ (payload?.labels || []);
  /** @type {Record<string, ArrayLike<number>>} */
  const data = payload?.data || {};
  const first = columns.length ? data[columns[0]] : null;
  return {
    columns,
    length: first ? first.length : 0,
    number: (column, row) => Number(data[column]?.[row]),
    text: (column, row) => {
      const values = data[column];
      if (!values) return "";
      return values instanceof Int32Array ? String(labels[values[row]] ?? "") : String(values[row]);
    },
    numeric: (column) => !(data[column] instanceof Int32Array),
  };
}

/** Span kinds (tbnb/kinds/profile/trace.py KINDS_OF_EVENT order): fill colours. */
export const KIND_COLORS = {
  kernel: "#4477aa",
  memcpy: "#ee7733",
  memset: "#aa3377",
  runtime: "#cc3311",
  data_loading: "#228833",
  cpu_op: "#6f8fb3",
  annotation: "#ccbb44",
  step: "#bbbbbb",
  python: "#c7ccd6",
  other: "#9e9e9e",
};

/**
 * Microseconds as text with a fitting unit.
 * @param {number} us
 */
export function formatDuration(us) {
  const a = Math.abs(us);
  if (a === 0) return "0";
  if (a >= 1e6) return `${(us / 1e6).toPrecision(4)} s`;
  if (a >= 1e3) return `${(us / 1e3).toPrecision(4)} ms`;
  if (a >= 1) return `${us.toPrecision(4)} µs`;
  return `${(us * 1e3).toPrecision(3)} ns`;
}

/** @param {number} b  bytes, with a binary unit */
export function formatBytes(b) {
  for (const [unit, size] of /** @type {[string, number][]} */ ([
    ["GiB", 2 ** 30],
    ["MiB", 2 ** 20],
    ["KiB", 2 ** 10],
  ])) {
    if (Math.abs(b) >= size) return `${(b / size).toFixed(2)} ${unit}`;
  }
  return `${b} B`;
}
