// Histogram math, the mirror of tbnb/transforms/histograms.py and the bands of
// tbnb/kinds/distributions.py: TensorBoard's re-binning (equal display bins, counts spread by
// overlap, the same arithmetic in the same order as its webapp), its compressor's nine
// percentile bands, and the deterministic choice of steps to draw. The view uses them to
// redraw at once from the data it holds (a bin-count change, a saved page without a kernel)
// while the kernel computes the exact data from every writer bucket.

/** TensorBoard's distribution basis points (normal sigmas -inf, -1.5, ..., +inf). */
export const BPS = [0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000];

/**
 * Counts of one histogram (equal bins `edges` = [left, right] in `n` bins, `counts[n]`) on
 * `bins` equal bins over [left, right]: TensorBoard's rebuildBins.
 * @param {ArrayLike<number>} counts  input counts
 * @param {number} inLeft  input bins span [inLeft, inRight] in counts.length equal bins
 * @param {number} inRight
 * @param {number} bins
 * @param {number} left   output range
 * @param {number} right
 * @param {Float64Array} [out]
 * @returns {Float64Array}
 */
export function rebinUniform(counts, inLeft, inRight, bins, left, right, out = new Float64Array(bins)) {
  const n = counts.length;
  const inDx = (inRight - inLeft) / n;
  const xs = new Float64Array(n);
  const dxs = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const x = inLeft + j * inDx;
    xs[j] = x;
    dxs[j] = x + inDx - x;
  }
  return rebinBuckets(xs, dxs, counts, bins, left, right, out);
}

/**
 * TensorBoard's rebuildBins on buckets given as left edges `xs`, widths `dxs`, counts `ys`
 * (sorted, not overlapping): `bins` equal bins over [left, right], each bucket adding
 * `y * overlap / dx` in bucket order; a zero-width bucket adds its count to the bin holding
 * it (a point on a boundary goes right, except past the last bin).
 * @param {ArrayLike<number>} xs
 * @param {ArrayLike<number>} dxs
 * @param {ArrayLike<number>} ys
 * @param {number} bins
 * @param {number} left
 * @param {number} right
 * @param {Float64Array} [out]
 * @returns {Float64Array}
 */
export function rebinBuckets(xs, dxs, ys, bins, left, right, out = new Float64Array(bins)) {
  const dx = (right - left) / bins;
  let index = 0;
  let next = 0;
  for (let i = 0; i < bins; i++) {
    const lo = left + i * dx;
    const hi = lo + dx;
    const last = i === bins - 1;
    let y = next;
    next = 0;
    while (index < xs.length) {
      const bl = xs[index];
      const bw = dxs[index];
      const br = bl + bw;
      const by = ys[index];
      if (!(bl > hi || br < lo)) {
        if (bw === 0) {
          if (!last && br >= hi) next += by;
          else y += by;
        } else {
          y += (by * (Math.min(br, hi) - Math.max(bl, lo))) / bw;
        }
      }
      if (br > hi) break;
      index++;
    }
    out[i] = y;
  }
  return out;
}

/**
 * TensorBoard's compress_histogram: the values below which each basis point of the mass
 * lies, interpolated inside buckets (`rights[i]` the right edge of bucket i, `lo`/`hi` the
 * outer edges).
 * @param {ArrayLike<number>} counts
 * @param {ArrayLike<number>} rights
 * @param {number} lo
 * @param {number} hi
 * @param {number[]} [bps]
 * @returns {number[]}
 */
export function compress(counts, rights, lo, hi, bps = BPS) {
  const n = counts.length;
  if (n === 0) return bps.map(() => 0);
  let total = 0;
  for (let i = 0; i < n; i++) total += counts[i];
  if (total === 0) total = 1;
  const weights = new Float64Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) {
    acc += (counts[i] * bps[bps.length - 1]) / total;
    weights[i] = acc;
  }
  /** @type {number[]} */
  const out = [];
  let b = 0;
  while (b < bps.length) {
    let i = upperBound(weights, bps[b]);
    let found = false;
    while (i < n) {
      const cum = weights[i];
      const prev = i > 0 ? weights[i - 1] : 0;
      if (cum === prev) {
        i++;
        continue;
      }
      const lhs = !i || !prev ? lo : Math.max(rights[i - 1], lo);
      const rhs = Math.min(rights[i], hi);
      out.push(lhs + ((bps[b] - prev) * (rhs - lhs)) / (cum - prev));
      b++;
      found = true;
      break;
    }
    if (!found) break;
  }
  while (out.length < bps.length) out.push(hi);
  return out;
}

/**
 * Index of the first element of sorted `a` greater than `v`.
 * @param {ArrayLike<number>} a
 * @param {number} v
 */
function upperBound(a, v) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Indices of at most `limit` of sorted `steps`: the steps nearest `limit` evenly spaced
 * values from the first to the last (each once; ties to the earlier), so the first and the
 * last are always in (tbnb.transforms.histograms.sample_indices).
 * @param {ArrayLike<number>} steps
 * @param {number} limit
 * @returns {number[]}
 */
export function sampleIndices(steps, limit) {
  const n = steps.length;
  if (n === 0) return [];
  if (limit < 2) return [n - 1];
  if (n <= limit) return Array.from({ length: n }, (_, i) => i);
  const first = steps[0];
  const last = steps[n - 1];
  const picks = new Set([0, n - 1]);
  const step = (last - first) / (limit - 1); // numpy's linspace, to the last bit
  for (let j = 0; j < limit; j++) {
    const target = j === limit - 1 ? last : j * step + first;
    let after = lowerBound(steps, target);
    after = Math.min(Math.max(after, 1), n - 1);
    const before = after - 1;
    picks.add(target - steps[before] <= steps[after] - target ? before : after);
  }
  return [...picks].sort((a, b) => a - b);
}

/**
 * Index of the first element of sorted `a` not less than `v`.
 * @param {ArrayLike<number>} a
 * @param {number} v
 */
export function lowerBound(a, v) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Index of the element of sorted `a` nearest `v` (ties to the earlier), -1 when empty.
 * @param {ArrayLike<number>} a
 * @param {number} v
 */
export function nearestIndex(a, v) {
  const n = a.length;
  if (!n) return -1;
  const after = Math.min(Math.max(lowerBound(a, v), 1), n - 1);
  if (n === 1) return 0;
  return v - a[after - 1] <= a[after] - v ? after - 1 : after;
}
