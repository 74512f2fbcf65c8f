// Small pure helpers shared by the widgets (no DOM).

/** Compile a case-insensitive filter; {re: RegExp|null, error: string|null}. Empty = no filter. */
export function compileFilter(text) {
  if (!text) return { re: null, error: null };
  try {
    return { re: new RegExp(text, "i"), error: null };
  } catch (err) {
    return { re: null, error: String(err && err.message ? err.message : err) };
  }
}

export function matches(re, name) {
  return re === null || re.test(name);
}

/** Quantile of sorted finite numbers, linear between order statistics (d3's R-7). */
export function quantileSorted(sorted, p) {
  const n = sorted.length;
  if (!n) return NaN;
  if (p <= 0 || n < 2) return sorted[0];
  if (p >= 1) return sorted[n - 1];
  const i = (n - 1) * p;
  const i0 = Math.floor(i);
  return sorted[i0] + (sorted[i0 + 1] - sorted[i0]) * (i - i0);
}

/** Index of the element of sorted `xs` nearest to x (NaN-free xs). -1 when empty. */
export function nearestSorted(xs, x) {
  const n = xs.length;
  if (!n) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  if (lo > 0 && Math.abs(xs[lo - 1] - x) <= Math.abs(xs[lo] - x)) return lo - 1;
  return lo;
}

/** Nearest index by linear scan, skipping non-finite x (for unsorted x such as x = tag value). */
export function nearestScan(xs, x) {
  let best = -1;
  let bestD = Infinity;
  for (let i = 0; i < xs.length; i++) {
    const d = Math.abs(xs[i] - x);
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

export function isSorted(xs) {
  for (let i = 1; i < xs.length; i++) if (!(xs[i] >= xs[i - 1])) return false;
  return true;
}

/** Natural order ("run2" before "run10"). */
export function naturalCompare(a, b) {
  return a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" });
}

function csvCell(v) {
  if (v === null || v === undefined) return "";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? "nan" : v > 0 ? "inf" : "-inf";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** CSV text from a header and rows of values (RFC 4180 quoting; non-finite as nan/inf/-inf). */
export function toCSV(header, rows) {
  const lines = [header.map(csvCell).join(",")];
  for (const row of rows) lines.push(row.map(csvCell).join(","));
  return lines.join("\n") + "\n";
}

/** Concatenate typed arrays (or arrays) into a Float64Array. */
export function concatF64(a, b) {
  const out = new Float64Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}
