// One number format for axes, tooltips and tables, and the time formats.

/**
 * A number in at most `digits` significant digits, trailing zeros dropped; exponent
 * notation below 1e-3 and from 1e5 (so 0.0001234 reads `1.234e-4`, not `0.0001234`).
 * @param {number} value
 * @param {number} [digits]
 * @returns {string}
 */
export function formatNumber(value, digits = 4) {
  if (typeof value !== "number") return value === null || value === undefined ? "" : String(value);
  if (Number.isNaN(value)) return "NaN";
  if (!Number.isFinite(value)) return value > 0 ? "∞" : "-∞";
  if (value === 0) return "0";
  const abs = Math.abs(value);
  if (abs >= 1e5 || abs < 1e-3) {
    const [mantissa, exponent] = value.toExponential(digits - 1).split("e");
    return `${trimZeros(mantissa)}e${Number(exponent)}`;
  }
  return String(Number(value.toPrecision(digits)));
}

/** @param {string} text */
function trimZeros(text) {
  return text.includes(".") ? text.replace(/\.?0+$/, "") : text;
}

/**
 * Labels for tick values in the one number format, with the fewest significant digits
 * (at least 1, at most 12) that read each tick exactly and tell every tick apart.
 * @param {ArrayLike<number>} values
 * @returns {string[]}
 */
export function formatTicks(values) {
  const list = Array.from(values);
  const exact = (/** @type {string} */ label, /** @type {number} */ v) =>
    !Number.isFinite(v) || Math.abs(Number(label) - v) <= 1e-9 * Math.max(Math.abs(v), 1e-300);
  for (let digits = 1; digits <= 12; digits++) {
    const labels = list.map((v) => formatNumber(v, digits));
    if (new Set(labels).size === new Set(list).size && labels.every((label, i) => exact(label, list[i]))) return labels;
  }
  return list.map((v) => formatNumber(v, 12));
}

/**
 * The format of one table column: 4 significant digits, and exponent notation for every
 * cell or for none (a column mixing 0.5 and 2e-5 reads 5e-1 and 2e-5), so digits line up.
 * @param {ArrayLike<number>} values
 * @returns {(v: number) => string}
 */
export function columnFormatter(values) {
  let big = 0;
  let small = Number.POSITIVE_INFINITY;
  for (let i = 0; i < values.length; i++) {
    const a = Math.abs(values[i]);
    if (!Number.isFinite(a) || a === 0) continue;
    big = Math.max(big, a);
    small = Math.min(small, a);
  }
  if (!(big >= 1e5 || small < 1e-3)) return (v) => formatNumber(v);
  return (v) => {
    if (!Number.isFinite(v) || v === 0) return formatNumber(v);
    const [mantissa, exponent] = v.toExponential(3).split("e");
    return `${mantissa.includes(".") ? mantissa.replace(/\.?0+$/, "") : mantissa}e${Number(exponent)}`;
  };
}

/** @param {number} n */
const pad2 = (n) => String(n).padStart(2, "0");

/**
 * A wall time (seconds since the epoch) as local `YYYY-MM-DD HH:MM:SS`.
 * @param {number} seconds
 * @returns {string}
 */
export function formatWallTime(seconds) {
  if (!Number.isFinite(seconds)) return "";
  const d = new Date(seconds * 1000);
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(
    d.getMinutes(),
  )}:${pad2(d.getSeconds())}`;
}

/**
 * A duration in seconds as TensorBoard's relative time reads: `12.3s`, `4m 05s`, `2h 03m`,
 * `3d 4h`.
 * @param {number} seconds
 * @returns {string}
 */
export function formatDuration(seconds) {
  if (!Number.isFinite(seconds)) return "";
  const sign = seconds < 0 ? "-" : "";
  const s = Math.abs(seconds);
  if (s < 60) return `${sign}${s < 10 ? s.toFixed(2) : s.toFixed(1)}s`;
  const total = Math.round(s);
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (d) return `${sign}${d}d ${h}h`;
  if (h) return `${sign}${h}h ${pad2(m)}m`;
  return `${sign}${m}m ${pad2(sec)}s`;
}
