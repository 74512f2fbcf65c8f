// The heatmap: time along x (one column per step, as wide as the time to its neighbours),
// value along y (the display bins), colour = count (viridis, or on a log scale); empty bins
// stay blank. Drawn as one image per chart, a pixel column per screen pixel: readable at
// thousands of steps.
import { linearScale } from "../../chart/scales.js";
import { viridis } from "../../color/palettes.js";
import { drawAxes, rgbOf, timeScaleOf, timeValues } from "./frame.js";
import { binReadout } from "./ridges.js";

/** @typedef {import("./model").ChartData} ChartData */
/** @typedef {import("./frame").Box} Box */
/** @typedef {import("./ridges").Drawn} Drawn */

/** 256 viridis colours, rgb. */
const LUT = (() => {
  const out = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) out.set(rgbOf(viridis(i / 255)), i * 3);
  return out;
})();

/**
 * Each step's column edges in time: halfway to its neighbours (the ends as wide as their
 * inner half).
 * @param {Float64Array} times
 */
function columnEdges(times) {
  const n = times.length;
  const edges = new Float64Array(n + 1);
  for (let k = 1; k < n; k++) edges[k] = (times[k - 1] + times[k]) / 2;
  edges[0] = n > 1 ? times[0] - (edges[1] - times[0]) : times[0] - 0.5;
  edges[n] = n > 1 ? times[n - 1] + (times[n - 1] - edges[n - 1]) : times[0] + 0.5;
  return edges;
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {Box} box
 * @param {ChartData} data
 * @param {import("./ridges").DrawOptions & {log: boolean}} o
 * @returns {Drawn}
 */
export function drawHeatmap(ctx, box, data, o) {
  const n = data.steps.length;
  const times = timeValues(data, o.axis, o.wall0);
  const edges = columnEdges(times);
  const x = timeScaleOf(o.axis, n ? [edges[0], edges[n]] : [0, 1], [box.left, box.right]);
  const y = linearScale(Number.isFinite(data.left) ? [data.left, data.right] : [0, 1], [box.bottom, box.top]);
  if (n && Number.isFinite(data.left)) paint(ctx, box, data, o.log, x, edges);
  drawAxes(ctx, box, x, y, o.styled);
  if (!n || !Number.isFinite(data.left)) return { pick: () => null };
  return {
    pick(px, py) {
      if (px < box.left || px > box.right || py < box.top || py > box.bottom) return null;
      const t = x.invert(px);
      let k = 0;
      while (k < n - 1 && edges[k + 1] <= t) k++;
      const j = Math.min(
        Math.max(Math.floor(((y.invert(py) - data.left) / (data.right - data.left)) * data.bins), 0),
        data.bins - 1,
      );
      const cx = x.map(times[k]);
      const cy = y.map(data.left + ((j + 0.5) * (data.right - data.left)) / data.bins);
      return {
        ...binReadout(data, k, j, o, times),
        points: [{ x: cx, y: cy }],
        highlight(c) {
          const x0 = Math.max(x.map(edges[k]), box.left);
          const x1 = Math.min(x.map(edges[k + 1]), box.right);
          const y0 = y.map(data.left + ((j + 1) * (data.right - data.left)) / data.bins);
          const y1 = y.map(data.left + (j * (data.right - data.left)) / data.bins);
          c.lineWidth = 1.5;
          c.strokeStyle = "#e8175d";
          c.strokeRect(x0, y0, Math.max(x1 - x0, 1.5), Math.max(y1 - y0, 1.5));
        },
      };
    },
  };
}

/**
 * One image: a pixel column per device pixel of the plot, a row per bin.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Box} box
 * @param {ChartData} data
 * @param {boolean} log
 * @param {import("../../chart/scales").Scale} x
 * @param {Float64Array} edges
 */
function paint(ctx, box, data, log, x, edges) {
  const dpr = ctx.getTransform().a || 1;
  const width = Math.max(Math.round((box.right - box.left) * dpr), 1);
  const bins = data.bins;
  let most = 0;
  for (let i = 0; i < data.counts.length; i++) if (data.counts[i] > most) most = data.counts[i];
  if (!(most > 0)) return;
  const norm = log ? 1 / Math.log1p(most) : 1 / most;
  const image = new ImageData(width, bins);
  const px = image.data;
  const n = data.steps.length;
  for (let k = 0; k < n; k++) {
    const a = Math.max(Math.round((x.map(edges[k]) - box.left) * dpr), 0);
    const b = Math.min(Math.round((x.map(edges[k + 1]) - box.left) * dpr), width);
    if (b <= a) continue;
    for (let j = 0; j < bins; j++) {
      const c = data.counts[k * bins + j];
      if (!(c > 0)) continue;
      const level = Math.min(255, Math.round((log ? Math.log1p(c) : c) * norm * 255));
      const row = (bins - 1 - j) * width;
      for (let p = a; p < b; p++) {
        const at = (row + p) * 4;
        px[at] = LUT[level * 3];
        px[at + 1] = LUT[level * 3 + 1];
        px[at + 2] = LUT[level * 3 + 2];
        px[at + 3] = 255;
      }
    }
  }
  const off = document.createElement("canvas");
  off.width = width;
  off.height = bins;
  off.getContext("2d")?.putImageData(image, 0, 0);
  ctx.save();
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(off, box.left, box.top, box.right - box.left, box.bottom - box.top);
  ctx.restore();
}
