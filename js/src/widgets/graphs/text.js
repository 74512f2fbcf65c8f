// Short numbers for boxes and tables: counts with k/M/G, bytes, microseconds.

/**
 * `1234` -> `1.2k`, `25557032` -> `25.6M` (three significant digits, at most).
 * @param {number} value
 */
export function formatCount(value) {
  if (!Number.isFinite(value)) return "";
  const abs = Math.abs(value);
  for (const [unit, size] of /** @type {[string, number][]} */ ([
    ["G", 1e9],
    ["M", 1e6],
    ["k", 1e3],
  ])) {
    if (abs >= size) return `${Number((value / size).toPrecision(3))}${unit}`;
  }
  return String(Number(value.toPrecision(abs >= 1 ? 3 : 2)));
}

/**
 * Bytes in binary units: `2048` -> `2 KiB`.
 * @param {number} value
 */
export function formatBytes(value) {
  if (!Number.isFinite(value)) return "";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let v = value;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Number(v.toPrecision(3))} ${units[u]}`;
}

/**
 * Microseconds as `850 µs`, `12.3 ms`, `1.5 s`.
 * @param {number} micros
 */
export function formatMicros(micros) {
  if (!Number.isFinite(micros)) return "";
  if (micros < 1000) return `${Number(micros.toPrecision(3))} µs`;
  if (micros < 1e6) return `${Number((micros / 1000).toPrecision(3))} ms`;
  return `${Number((micros / 1e6).toPrecision(3))} s`;
}
