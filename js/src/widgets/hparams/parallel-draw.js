// Drawing the parallel coordinates on a canvas: every row faint (cached in an offscreen
// layer), the selected rows in their colours, the hovered row, axes with ticks, NA marks
// and brushes (pure drawing; the state comes from parallel.js).
import { drawTicks } from "../../chart/axes.js";

/** @typedef {import("./parallel").Axis} Axis */
/** @typedef {import("./coloring").Coloring} Coloring */
/** @typedef {import("./model").Brush} Brush */

/**
 * @typedef {object} Frame
 * @property {Axis[]} axes
 * @property {Float32Array[]} ys        y pixel of every row on every axis
 * @property {number} n
 * @property {Uint8Array} mask          selected rows
 * @property {number} hover             hovered row or -1
 * @property {Coloring} coloring
 * @property {Record<string, Brush>} brushes
 * @property {{top: number, bottom: number}} box
 * @property {(u: number) => number} yOf
 * @property {string} fg
 * @property {string} font
 */

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {Axis[]} axes
 * @param {Float32Array[]} ys
 * @param {number} i
 */
function polyline(ctx, axes, ys, i) {
  for (let k = 0; k < axes.length; k++) {
    if (k === 0) ctx.moveTo(axes[k].x, ys[k][i]);
    else ctx.lineTo(axes[k].x, ys[k][i]);
  }
}

/**
 * Every row, faint, into `ctx` (drawn once per layout: a brush move then costs one bitmap
 * copy plus the selected rows).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Axis[]} axes
 * @param {Float32Array[]} ys
 * @param {number} n
 */
export function drawBackground(ctx, axes, ys, n) {
  ctx.lineWidth = 1;
  ctx.strokeStyle = "rgba(140,140,140,0.22)";
  ctx.beginPath();
  for (let i = 0; i < n; i++) polyline(ctx, axes, ys, i);
  ctx.stroke();
}

/**
 * The selected rows (one stroke per colour), then the hovered row.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Frame} f
 */
export function drawSelected(ctx, f) {
  const { axes, ys, n, mask, coloring } = f;
  let shown = 0;
  for (let i = 0; i < n; i++) shown += mask[i];
  ctx.globalAlpha = shown > 500 ? 0.45 : shown > 100 ? 0.7 : 0.95;
  ctx.lineWidth = 1; // hairlines: Skia strokes wider many-segment paths ~30x slower
  /** @type {number[][]} */
  const byColor = coloring.colors.map(() => []);
  for (let i = 0; i < n; i++) if (mask[i]) byColor[coloring.bucket[i]].push(i);
  byColor.forEach((rows, b) => {
    if (!rows.length) return;
    ctx.beginPath();
    for (const i of rows) polyline(ctx, axes, ys, i);
    ctx.strokeStyle = coloring.colors[b];
    ctx.stroke();
  });
  ctx.globalAlpha = 1;
  if (f.hover >= 0 && f.hover < n) {
    ctx.lineWidth = 3;
    ctx.strokeStyle = f.fg;
    ctx.beginPath();
    polyline(ctx, axes, ys, f.hover);
    ctx.stroke();
  }
}

/**
 * Axis lines, ticks (labels left of each axis), NA marks and brushes.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Frame} f
 */
export function drawAxes(ctx, f) {
  const { box, yOf, fg, font } = f;
  for (const ax of f.axes) {
    ctx.strokeStyle = fg;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(ax.x, box.top);
    ctx.lineTo(ax.x, box.bottom);
    ctx.stroke();
    const ticks = ax.scale.ticks(ax.col.kind === "category" ? 24 : 5).map((t) => ({ ...t, pos: yOf(t.pos) }));
    drawTicks(ctx, ticks, { side: "left", at: ax.x, color: fg, font, tick: 3, maxChars: 12, alpha: 1 });
    if (ax.col.missing) {
      ctx.save();
      ctx.fillStyle = fg;
      ctx.font = font;
      ctx.globalAlpha = 0.6;
      ctx.textAlign = "right";
      ctx.textBaseline = "middle";
      ctx.fillText("NA", ax.x - 5, box.bottom + 16);
      ctx.restore();
    }
    const b = f.brushes[ax.name];
    if (b) drawBrush(ctx, ax, b, yOf);
  }
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {Axis} ax
 * @param {Brush} b
 * @param {(u: number) => number} yOf
 */
function drawBrush(ctx, ax, b, yOf) {
  ctx.fillStyle = "rgba(255,165,0,0.35)";
  ctx.strokeStyle = "rgba(200,110,0,0.9)";
  /** @type {[number, number][]} */
  const spans = [];
  if ("range" in b && ax.col.kind === "number") {
    const clamp = (/** @type {number} */ u, /** @type {number} */ fallback) =>
      Number.isFinite(u) ? Math.min(Math.max(u, 0), 1) : fallback;
    spans.push([clamp(ax.scale.map(b.range[0]), 0), clamp(ax.scale.map(b.range[1]), 1)]);
  } else if ("values" in b && ax.col.kind === "category") {
    const labels = ax.col.labels || [];
    const half = 0.5 / Math.max(labels.length, 1);
    for (const label of b.values) {
      const code = labels.indexOf(label);
      if (code >= 0) spans.push([ax.scale.map(code) - half, ax.scale.map(code) + half]);
    }
  }
  for (const [u0, u1] of spans) {
    const y0 = yOf(Math.max(u0, u1));
    const y1 = yOf(Math.min(u0, u1));
    ctx.fillRect(ax.x - 7, y0, 14, Math.max(y1 - y0, 2));
    ctx.strokeRect(ax.x - 7, y0, 14, Math.max(y1 - y0, 2));
  }
}
