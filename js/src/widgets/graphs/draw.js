// Drawing the scene on a canvas through the camera (pan and zoom): expanded groups as
// framed areas with a title bar, edges as smoothed polylines with arrowheads (thicker for
// several edges drawn as one, dashed for control edges), nodes and collapsed groups as
// filled boxes (a series with its shadow boxes), outlines for the selection, search
// matches and the hovered box. Only what is in view is drawn; labels only when legible.

import { label, SERIES } from "./graph-data.js";
import { FRAME } from "./layout-jobs.js";
import { BOLD, FONT, groupSubtitle, KIND, leafText, SMALL, STACK } from "./scene.js";

/** @typedef {import("./scene").Scene} Scene */
/** @typedef {import("./graph-data").GraphData} GraphData */
/** @typedef {import("./colors").Coloring} Coloring */

export class Camera {
  constructor() {
    this.k = 1;
    this.tx = 0;
    this.ty = 0;
  }

  /** Graph point under screen point. @param {number} sx @param {number} sy */
  toGraph(sx, sy) {
    return [(sx - this.tx) / this.k, (sy - this.ty) / this.k];
  }

  /**
   * Zoom by `factor` keeping screen point (sx, sy) fixed.
   * @param {number} sx @param {number} sy @param {number} factor
   */
  zoomAt(sx, sy, factor) {
    const k = Math.min(Math.max(this.k * factor, 0.02), 4);
    const [gx, gy] = this.toGraph(sx, sy);
    this.k = k;
    this.tx = sx - gx * k;
    this.ty = sy - gy * k;
  }

  /**
   * Fit a `width` x `height` graph area into the view (never zooming in past 1).
   * @param {number} width @param {number} height @param {number} viewW @param {number} viewH
   */
  fit(width, height, viewW, viewH) {
    const k = Math.min(1, viewW / Math.max(width, 1), viewH / Math.max(height, 1));
    this.k = Math.max(k, 0.02);
    this.tx = (viewW - width * this.k) / 2;
    this.ty = Math.max((viewH - height * this.k) / 2, 0);
  }

  /** Centre graph point (gx, gy) in a view. @param {number} gx @param {number} gy @param {number} viewW @param {number} viewH */
  centre(gx, gy, viewW, viewH) {
    this.tx = viewW / 2 - gx * this.k;
    this.ty = viewH / 2 - gy * this.k;
  }
}

/**
 * @typedef {object} DrawState
 * @property {Camera} camera
 * @property {number} width   view size in CSS pixels
 * @property {number} height
 * @property {number} dpr
 * @property {Coloring} colors
 * @property {number} selected   item (-1: none)
 * @property {number} hover
 * @property {Set<number>} matches
 * @property {boolean} dark
 */

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {Scene} s
 * @param {GraphData} d
 * @param {DrawState} st
 */
export function drawScene(ctx, s, d, st) {
  const { camera: cam, dpr } = st;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, st.width, st.height);
  ctx.setTransform(dpr * cam.k, 0, 0, dpr * cam.k, dpr * cam.tx, dpr * cam.ty);
  const [vx0, vy0] = cam.toGraph(0, 0);
  const [vx1, vy1] = cam.toGraph(st.width, st.height);
  const inView = (/** @type {number} */ k) =>
    s.x[k] <= vx1 && s.x[k] + s.w[k] >= vx0 && s.y[k] <= vy1 && s.y[k] + s.h[k] >= vy0;
  const text = cam.k * 11 >= 6;
  const ink = st.dark ? "#ddd" : "#222";
  const muted = st.dark ? "#aaa" : "#666";
  for (let k = 0; k < s.items.length; k++) {
    if (s.kind[k] !== KIND.OPEN || !inView(k)) continue;
    const g = s.items[k] - d.n;
    ctx.fillStyle = st.dark ? "rgba(255,255,255,0.04)" : "rgba(60,80,120,0.045)";
    ctx.strokeStyle = st.dark ? "#555" : "#b8c0cc";
    ctx.lineWidth = 1 / cam.k;
    box(ctx, s.x[k], s.y[k], s.w[k], s.h[k], 6);
    ctx.fill();
    ctx.stroke();
    if (text) {
      ctx.fillStyle = ink;
      ctx.font = BOLD;
      ctx.textBaseline = "middle";
      const title = `− ${label(d, d.groupLabel[g])}${d.groupKind[g] === SERIES ? " (series)" : ""}`;
      ctx.fillText(fit(ctx, title, s.w[k] - 12), s.x[k] + 8, s.y[k] + FRAME.header / 2);
    }
  }
  drawEdges(ctx, s, st, vx0, vy0, vx1, vy1);
  for (let k = 0; k < s.items.length; k++) {
    if (s.kind[k] === KIND.OPEN || !inView(k)) continue;
    const item = s.items[k];
    const paint = item < d.n ? st.colors.node(item) : st.colors.group(item - d.n);
    const series = item >= d.n && d.groupKind[item - d.n] === SERIES;
    const h = series ? s.h[k] - STACK : s.h[k];
    ctx.lineWidth = 1 / cam.k;
    ctx.strokeStyle = paint.stroke;
    ctx.fillStyle = paint.fill;
    if (series) {
      for (const off of [STACK, STACK / 2]) {
        box(ctx, s.x[k] + off, s.y[k] + off, s.w[k] - STACK, h, 4);
        ctx.fill();
        ctx.stroke();
      }
    }
    box(ctx, s.x[k], s.y[k], series ? s.w[k] - STACK : s.w[k], h, item < d.n ? 11 : 4);
    ctx.fill();
    ctx.stroke();
    if (!text) continue;
    ctx.textBaseline = "middle";
    if (item < d.n) {
      const [main, extra] = leafText(d, item);
      ctx.font = FONT;
      ctx.fillStyle = "#222";
      const shown = fit(ctx, main, s.w[k] - 12);
      ctx.fillText(shown, s.x[k] + 8, s.y[k] + h / 2);
      if (extra && shown === main) {
        const at = ctx.measureText(main).width + 4;
        ctx.font = SMALL;
        ctx.fillStyle = "#555";
        ctx.fillText(fit(ctx, extra, s.w[k] - 12 - at), s.x[k] + 8 + at, s.y[k] + h / 2 + 0.5);
      }
    } else {
      const g = item - d.n;
      const width = (series ? s.w[k] - STACK : s.w[k]) - 30;
      ctx.font = BOLD;
      ctx.fillStyle = "#222";
      ctx.fillText(fit(ctx, label(d, d.groupLabel[g]), width), s.x[k] + 8, s.y[k] + 13);
      ctx.font = SMALL;
      ctx.fillStyle = "#555";
      ctx.fillText(fit(ctx, groupSubtitle(d, g), width), s.x[k] + 8, s.y[k] + 28);
      ctx.font = BOLD;
      ctx.fillText("+", s.x[k] + (series ? s.w[k] - STACK : s.w[k]) - 15, s.y[k] + h / 2);
    }
  }
  outline(ctx, s, st.matches, "#f28e2b", 2.5 / cam.k);
  if (st.hover >= 0) outline(ctx, s, new Set([st.hover]), muted, 1.5 / cam.k);
  if (st.selected >= 0) outline(ctx, s, new Set([st.selected]), "#1f6feb", 3 / cam.k);
  void ink;
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {Scene} s
 * @param {DrawState} st
 * @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1
 */
function drawEdges(ctx, s, st, x0, y0, x1, y1) {
  const k = st.camera.k;
  const base = st.dark ? "rgba(200,200,200,0.55)" : "rgba(90,100,115,0.6)";
  const chosen = st.selected;
  for (const pass of [0, 1]) {
    for (const e of s.edges) {
      const touching = chosen >= 0 && (e.a === chosen || e.b === chosen);
      if ((pass === 1) !== touching) continue;
      const p = e.points;
      let minX = Infinity;
      let maxX = -Infinity;
      let minY = Infinity;
      let maxY = -Infinity;
      for (let i = 0; i < p.length; i += 2) {
        minX = Math.min(minX, p[i]);
        maxX = Math.max(maxX, p[i]);
        minY = Math.min(minY, p[i + 1]);
        maxY = Math.max(maxY, p[i + 1]);
      }
      if (maxX < x0 || minX > x1 || maxY < y0 || minY > y1) continue;
      const width = (touching ? 2 : 1) * (1 + Math.min(Math.log2(e.count), 3));
      ctx.strokeStyle = touching ? "#1f6feb" : base;
      ctx.fillStyle = ctx.strokeStyle;
      ctx.lineWidth = width / k;
      ctx.setLineDash(e.control ? [4 / k, 3 / k] : []);
      ctx.beginPath();
      ctx.moveTo(p[0], p[1]);
      for (let i = 2; i < p.length - 2; i += 2) {
        ctx.quadraticCurveTo(p[i], p[i + 1], (p[i] + p[i + 2]) / 2, (p[i + 1] + p[i + 3]) / 2);
      }
      ctx.lineTo(p[p.length - 2], p[p.length - 1]);
      ctx.stroke();
      ctx.setLineDash([]);
      arrow(ctx, p, (4 + width) / k);
    }
  }
}

/**
 * An arrowhead at the end of polyline `p`.
 * @param {CanvasRenderingContext2D} ctx @param {number[]} p @param {number} size
 */
function arrow(ctx, p, size) {
  const n = p.length;
  const ex = p[n - 2];
  const ey = p[n - 1];
  const angle = Math.atan2(ey - p[n - 3], ex - p[n - 4]);
  ctx.beginPath();
  ctx.moveTo(ex, ey);
  ctx.lineTo(ex - size * Math.cos(angle - 0.45), ey - size * Math.sin(angle - 0.45));
  ctx.lineTo(ex - size * Math.cos(angle + 0.45), ey - size * Math.sin(angle + 0.45));
  ctx.closePath();
  ctx.fill();
}

/**
 * @param {CanvasRenderingContext2D} ctx @param {Scene} s @param {Set<number>} items
 * @param {string} color @param {number} width
 */
function outline(ctx, s, items, color, width) {
  if (!items.size) return;
  ctx.strokeStyle = color;
  ctx.lineWidth = width;
  for (const item of items) {
    const k = s.index.get(item);
    if (k === undefined) continue;
    box(ctx, s.x[k] - 2 * width, s.y[k] - 2 * width, s.w[k] + 4 * width, s.h[k] + 4 * width, 8);
    ctx.stroke();
  }
}

/**
 * A rounded rectangle path.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x @param {number} y @param {number} w @param {number} h @param {number} r
 */
function box(ctx, x, y, w, h, r) {
  ctx.beginPath();
  const radius = Math.min(r, w / 2, h / 2);
  if (typeof ctx.roundRect === "function") ctx.roundRect(x, y, w, h, radius);
  else ctx.rect(x, y, w, h);
}

/**
 * `text` cut with an ellipsis to fit `width` pixels in the current font.
 * @param {CanvasRenderingContext2D} ctx @param {string} text @param {number} width
 */
export function fit(ctx, text, width) {
  if (width <= 0) return "";
  if (ctx.measureText(text).width <= width) return text;
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ctx.measureText(`${text.slice(0, mid)}…`).width <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo ? `${text.slice(0, lo)}…` : "";
}

/** @param {HTMLElement} node  whether the page's text is light (a dark theme) */
export function isDark(node) {
  const m = getComputedStyle(node).color.match(/\d+/g);
  return !!m && Number(m[0]) + Number(m[1]) + Number(m[2]) > 450;
}
