// The density layer of a 2-D projection at low zoom: contour lines and a label per dense
// region (density.js computes them once per layout), drawn on the overlay canvas each frame
// through the camera, fading out as the view zooms in (then points speak for themselves).
import { contourLines, densityOf, regionLabels } from "./density.js";

/** Zoom (over the fitted view) up to which the layer is drawn in full; gone at twice this. */
const FULL_ZOOM = 2.5;
const MAX_REGION_LABELS = 24;
/** Fewer points than this draw no density: each would be a ring of its own. */
export const MIN_POINTS = 500;

/**
 * @typedef {object} DensityMap
 * @property {import("./density").Density} density
 * @property {Float32Array[]} lines
 * @property {import("./density").RegionLabel[]} labels
 * @property {string} column  the column the regions are named by
 */

/**
 * The density, its contours and region labels of a 2-D layout (null in 3-D, or for fewer
 * than MIN_POINTS points).
 * @param {Float32Array} coords @param {number} dims
 * @param {import("./metadata").Column | undefined} column  names the regions (a category column)
 * @param {number} n
 * @returns {DensityMap | null}
 */
export function densityMap(coords, dims, column, n) {
  if (dims !== 2 || n < MIN_POINTS) return null;
  const density = densityOf(coords);
  if (!density) return null;
  return { density, lines: contourLines(density), ...named(density, column, n) };
}

/**
 * The region labels of `map` by another column (the contours stay).
 * @param {import("./density").Density} density
 * @param {import("./metadata").Column | undefined} column @param {number} n
 */
export function named(density, column, n) {
  const usable = column?.labels && column.codes; // a column of distinct values names no group
  return {
    labels: usable ? regionLabels(density, /** @type {any} */ (column), n).slice(0, MAX_REGION_LABELS) : [],
    column: usable ? /** @type {any} */ (column).name : "",
  };
}

/**
 * How much of the layer shows at zoom `zoom` (1: fitted): 1 up to FULL_ZOOM, 0 from twice it.
 * @param {number} zoom
 */
export function layerAlpha(zoom) {
  return Math.min(Math.max((2 * FULL_ZOOM - zoom) / FULL_ZOOM, 0), 1);
}

/**
 * Draw the contours and region labels of `map` under the 2-D camera.
 * @param {CanvasRenderingContext2D} ctx
 * @param {DensityMap} map
 * @param {{center: number[], scale: number}} camera
 * @param {number} width @param {number} height @param {number} alpha
 * @param {boolean} dark
 * @returns {number}  region labels drawn
 */
export function drawDensity(ctx, map, camera, width, height, alpha, dark) {
  if (alpha <= 0) return 0;
  const [cx, cy] = camera.center;
  const s = camera.scale;
  const hx = width / 2 - cx * s;
  const hy = height / 2 + cy * s;
  ctx.save();
  ctx.lineWidth = 1;
  map.lines.forEach((segs, level) => {
    ctx.beginPath();
    for (let k = 0; k < segs.length; k += 4) {
      ctx.moveTo(segs[k] * s + hx, hy - segs[k + 1] * s);
      ctx.lineTo(segs[k + 2] * s + hx, hy - segs[k + 3] * s);
    }
    const a = alpha * (0.3 + 0.12 * level);
    ctx.strokeStyle = dark ? `rgba(220,225,240,${a})` : `rgba(40,45,70,${a})`;
    ctx.stroke();
  });
  ctx.font = "600 12px system-ui, sans-serif";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 3.5;
  ctx.globalAlpha = alpha;
  /** @type {number[][]} */
  const taken = [];
  /** @type {[string, number, number][]} */
  const placed = [];
  let drawn = 0;
  for (const label of map.labels) {
    const x = label.x * s + hx;
    const y = hy - label.y * s;
    const text = label.text.length > 28 ? `${label.text.slice(0, 27)}…` : label.text;
    const half = ctx.measureText(text).width / 2 + 4;
    if (!text || x < -half || x > width + half || y < -10 || y > height + 10) continue;
    const box = [x - half, y - 9, x + half, y + 9];
    if (taken.some((b) => b[0] < box[2] && box[0] < b[2] && b[1] < box[3] && box[1] < b[3])) continue;
    // two peaks of one group: one label
    if (placed.some(([t, px, py]) => t === text && Math.hypot(px - x, py - y) < 120)) continue;
    placed.push([text, x, y]);
    taken.push(box);
    ctx.strokeStyle = dark ? "rgba(20,20,24,0.9)" : "rgba(255,255,255,0.9)";
    ctx.fillStyle = dark ? "#f2f2f5" : "#15151a";
    ctx.strokeText(text, x, y);
    ctx.fillText(text, x, y);
    drawn++;
  }
  ctx.restore();
  return drawn;
}
