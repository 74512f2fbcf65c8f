// A map that explains itself at low zoom: the points' density on a grid (data space, once per
// layout), its contour lines (marching squares) and a label per dense region: the most
// frequent value of a metadata column among the region's points. Drawing happens per frame
// (density-layer.js); everything here runs when the layout or the column changes.
import { codeOf } from "./metadata.js";

/** Most grid cells along the longer side of the layout's bounding box (fewer for fewer
 * points: `sqrt(n)`, at least 48, so that sparse points do not make a peak each). */
export const GRID = 192;
/** Contour levels, as fractions of the densest cell. */
export const LEVELS = [0.04, 0.12, 0.3, 0.6];
/** Regions are made of the cells above this fraction of the densest one. */
const REGION_LEVEL = 0.08;
/** Regions holding fewer points than this share of all are not labelled. */
const MIN_SHARE = 0.004;

/**
 * @typedef {object} Density
 * @property {Float32Array} grid   w * h, smoothed counts
 * @property {number} w @property {number} h
 * @property {number} x0 @property {number} y0  data coordinates of the grid's corner
 * @property {number} cell  data units per cell
 * @property {number} max
 * @property {Int32Array} cellOf  each point's cell (-1: not finite)
 */

/**
 * Counts of 2-D points per cell of a grid over their bounding box, blurred (three box
 * blurs: close to a Gaussian of ~2 cells).
 * @param {Float32Array} coords  n * 2
 * @returns {Density | null}
 */
export function densityOf(coords) {
  const n = coords.length >> 1;
  if (n < 3) return null;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = coords[2 * i];
    const y = coords[2 * i + 1];
    if (!(Number.isFinite(x) && Number.isFinite(y))) continue;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (!(maxX >= minX && maxY >= minY)) return null;
  const span = Math.max(maxX - minX, maxY - minY, 1e-12);
  const cells = Math.min(Math.max(Math.round(Math.sqrt(n)), 48), GRID);
  const cell = span / (cells - 8);
  const x0 = minX - 4 * cell;
  const y0 = minY - 4 * cell;
  const w = Math.ceil((maxX - minX) / cell) + 9;
  const h = Math.ceil((maxY - minY) / cell) + 9;
  const grid = new Float32Array(w * h);
  const cellOf = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const cx = Math.floor((coords[2 * i] - x0) / cell);
    const cy = Math.floor((coords[2 * i + 1] - y0) / cell);
    if (cx >= 0 && cx < w && cy >= 0 && cy < h) {
      cellOf[i] = cy * w + cx;
      grid[cy * w + cx] += 1;
    } else {
      cellOf[i] = -1;
    }
  }
  const tmp = new Float32Array(w * h);
  for (let pass = 0; pass < 3; pass++) {
    boxBlur(grid, tmp, w, h, w, 1, 1); // along rows
    boxBlur(tmp, grid, h, w, 1, w, 1); // along columns
  }
  let max = 0;
  for (let k = 0; k < grid.length; k++) if (grid[k] > max) max = grid[k];
  return { grid, w, h, x0, y0, cell, max, cellOf };
}

/**
 * A box blur of radius `r` along one axis: `lines` lines of `len` cells, cell `k` of line
 * `l` at `l * lineStep + k * step`.
 * @param {Float32Array} src @param {Float32Array} dst
 * @param {number} len @param {number} lines @param {number} lineStep @param {number} step @param {number} r
 */
function boxBlur(src, dst, len, lines, lineStep, step, r) {
  for (let l = 0; l < lines; l++) {
    const base = l * lineStep;
    for (let k = 0; k < len; k++) {
      let sum = 0;
      for (let q = Math.max(k - r, 0); q <= Math.min(k + r, len - 1); q++) sum += src[base + q * step];
      dst[base + k * step] = sum / (2 * r + 1);
    }
  }
}

/**
 * Contour lines of the density at each of `levels` (fractions of its maximum), by marching
 * squares: per level, line segments in data coordinates (x1, y1, x2, y2, ...).
 * @param {Density} density
 * @param {number[]} [levels]
 * @returns {Float32Array[]}
 */
export function contourLines(density, levels = LEVELS) {
  const { grid, w, h, x0, y0, cell, max } = density;
  const out = [];
  for (const fraction of levels) {
    const level = fraction * max;
    /** @type {number[]} */
    const segs = [];
    const at = (/** @type {number} */ cx, /** @type {number} */ cy) => grid[cy * w + cx];
    // a point on the edge between two corners, where the density crosses the level
    const lerp = (
      /** @type {number} */ ax,
      /** @type {number} */ ay,
      /** @type {number} */ bx,
      /** @type {number} */ by,
    ) => {
      const va = at(ax, ay);
      const vb = at(bx, by);
      const t = va === vb ? 0.5 : (level - va) / (vb - va);
      return [x0 + (ax + (bx - ax) * t + 0.5) * cell, y0 + (ay + (by - ay) * t + 0.5) * cell];
    };
    for (let cy = 0; cy < h - 1; cy++) {
      for (let cx = 0; cx < w - 1; cx++) {
        const code =
          (at(cx, cy) > level ? 1 : 0) |
          (at(cx + 1, cy) > level ? 2 : 0) |
          (at(cx + 1, cy + 1) > level ? 4 : 0) |
          (at(cx, cy + 1) > level ? 8 : 0);
        if (code === 0 || code === 15) continue;
        const bottom = () => lerp(cx, cy, cx + 1, cy);
        const right = () => lerp(cx + 1, cy, cx + 1, cy + 1);
        const top = () => lerp(cx, cy + 1, cx + 1, cy + 1);
        const left = () => lerp(cx, cy, cx, cy + 1);
        for (const [a, b] of EDGES[code]) {
          const p = [bottom, right, top, left][a]();
          const q = [bottom, right, top, left][b]();
          segs.push(p[0], p[1], q[0], q[1]);
        }
      }
    }
    out.push(Float32Array.from(segs));
  }
  return out;
}

/** Marching squares: for each corner code, the pairs of cell edges (0 bottom, 1 right, 2 top, 3 left) joined. */
const EDGES = [
  [],
  [[3, 0]],
  [[0, 1]],
  [[3, 1]],
  [[1, 2]],
  [
    [3, 2],
    [0, 1],
  ],
  [[0, 2]],
  [[3, 2]],
  [[2, 3]],
  [[2, 0]],
  [
    [3, 0],
    [1, 2],
  ],
  [[2, 1]],
  [[1, 3]],
  [[1, 0]],
  [[0, 3]],
  [],
];

/**
 * @typedef {object} RegionLabel
 * @property {number} x @property {number} y  data coordinates (the region's densest cell)
 * @property {string} text   the most frequent value
 * @property {number} count  points in the region
 * @property {number} share  share of the region's points holding that value
 */

/**
 * A label per dense region (the cells above a fraction of the maximum density that climb to
 * the same peak), each named after the most frequent value of `column` among its points.
 * @param {Density} density
 * @param {import("./metadata").Column} column  a category column
 * @param {number} n  points
 * @returns {RegionLabel[]}  largest regions first
 */
export function regionLabels(density, column, n) {
  const { grid, w, h, x0, y0, cell, max, cellOf } = density;
  if (!column.labels || !n) return [];
  const level = REGION_LEVEL * max;
  // each cell above the level climbs to its highest neighbour until a peak: one region per
  // peak (regions of overlapping groups stay apart where a threshold alone would merge them)
  const region = new Int32Array(w * h).fill(-1);
  /** @type {{peak: number, peakValue: number}[]} */
  const regions = [];
  const path = [];
  for (let start = 0; start < grid.length; start++) {
    if (region[start] !== -1 || grid[start] <= level) continue;
    let c = start;
    let id = -1;
    for (;;) {
      path.push(c);
      const cx = c % w;
      const cy = (c - cx) / w;
      let up = c;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const x = cx + dx;
          const y = cy + dy;
          if (x < 0 || y < 0 || x >= w || y >= h) continue;
          const m = y * w + x;
          if (grid[m] > grid[up]) up = m;
        }
      }
      if (up === c) {
        id = regions.length;
        regions.push({ peak: c, peakValue: grid[c] });
        break;
      }
      if (region[up] !== -1) {
        id = region[up];
        break;
      }
      c = up;
    }
    for (const q of path) region[q] = id;
    path.length = 0;
  }
  if (!regions.length) return [];
  // most frequent value per region: counts of (region, code) for the region's points
  const kinds = column.labels.length;
  const wide = regions.length * kinds <= 4_000_000;
  const counts = wide ? new Uint32Array(regions.length * kinds) : null;
  const sizes = new Uint32Array(regions.length);
  /** @type {Map<number, number>[]} */
  const sparse = wide ? [] : regions.map(() => new Map());
  for (let i = 0; i < n; i++) {
    const c = cellOf[i];
    const r = c >= 0 ? region[c] : -1;
    if (r < 0) continue;
    const code = codeOf(column, i);
    sizes[r]++;
    if (counts) counts[r * kinds + code]++;
    else sparse[r].set(code, (sparse[r].get(code) || 0) + 1);
  }
  const out = [];
  for (let r = 0; r < regions.length; r++) {
    if (sizes[r] < Math.max(MIN_SHARE * n, 3)) continue;
    let best = -1;
    let bestCount = 0;
    if (counts) {
      for (let code = 0; code < kinds; code++) {
        if (counts[r * kinds + code] > bestCount) {
          best = code;
          bestCount = counts[r * kinds + code];
        }
      }
    } else {
      for (const [code, count] of sparse[r]) {
        if (count > bestCount) {
          best = code;
          bestCount = count;
        }
      }
    }
    const peak = regions[r].peak;
    out.push({
      x: x0 + ((peak % w) + 0.5) * cell,
      y: y0 + (Math.floor(peak / w) + 0.5) * cell,
      text: column.labels[best] ?? "",
      count: sizes[r],
      share: bestCount / sizes[r],
    });
  }
  return out.sort((a, b) => b.count - a.count);
}
