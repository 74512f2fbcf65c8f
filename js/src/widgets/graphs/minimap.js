// The minimap: the whole scene small in a corner, the view as a rectangle on it; click or
// drag on it to move the view there. The scene is drawn into a cached bitmap once per
// layout; each frame adds only the rectangle.

import { el } from "../../core/dom.js";
import { KIND } from "./scene.js";

/** @typedef {import("./scene").Scene} Scene */
/** @typedef {import("./draw").Camera} Camera */

export const MINIMAP = { width: 180, height: 120 };

export class Minimap {
  /**
   * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void,
   *   onMove: (gx: number, gy: number) => void}} options
   */
  constructor(options) {
    this.canvas = el("canvas", { class: "tbnb-graph-minimap", title: "overview: click or drag to move the view" });
    this.options = options;
    /** @type {HTMLCanvasElement | null} */
    this.cache = null;
    this.scale = 1;
    this.offX = 0;
    this.offY = 0;
    this.dragging = false;
    const move = (/** @type {PointerEvent} */ e) => {
      const r = this.canvas.getBoundingClientRect();
      const gx = (e.clientX - r.left - this.offX) / this.scale;
      const gy = (e.clientY - r.top - this.offY) / this.scale;
      this.options.onMove(gx, gy);
    };
    options.on(this.canvas, "pointerdown", (/** @type {PointerEvent} */ e) => {
      this.dragging = true;
      this.canvas.setPointerCapture?.(e.pointerId);
      move(e);
      e.stopPropagation();
    });
    options.on(this.canvas, "pointermove", (/** @type {PointerEvent} */ e) => {
      if (this.dragging) move(e);
    });
    options.on(this.canvas, "pointerup", () => {
      this.dragging = false;
    });
  }

  /**
   * Draw the scene into the cached bitmap.
   * @param {Scene} s
   * @param {(k: number) => string} color  fill of the box at position k
   * @param {number} dpr
   */
  setScene(s, color, dpr) {
    // the scene's shape within at most MINIMAP (a tall graph gets a narrow minimap, which
    // hides less of the view), never under 48 px a side
    this.scale = Math.min((MINIMAP.width - 8) / Math.max(s.width, 1), (MINIMAP.height - 8) / Math.max(s.height, 1));
    const width = Math.max(48, Math.ceil(s.width * this.scale + 8));
    const height = Math.max(48, Math.ceil(s.height * this.scale + 8));
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.offX = (width - s.width * this.scale) / 2;
    this.offY = (height - s.height * this.scale) / 2;
    const cache = document.createElement("canvas");
    cache.width = this.canvas.width;
    cache.height = this.canvas.height;
    const ctx = /** @type {CanvasRenderingContext2D} */ (cache.getContext("2d"));
    ctx.setTransform(dpr * this.scale, 0, 0, dpr * this.scale, dpr * this.offX, dpr * this.offY);
    // one path per colour: a few fills however many boxes
    /** @type {Map<string, number[]>} */
    const byColor = new Map();
    ctx.beginPath();
    for (let k = 0; k < s.items.length; k++) {
      if (s.kind[k] === KIND.OPEN) ctx.rect(s.x[k], s.y[k], s.w[k], s.h[k]);
      else {
        const c = color(k);
        const list = byColor.get(c);
        if (list) list.push(k);
        else byColor.set(c, [k]);
      }
    }
    ctx.strokeStyle = "rgba(100,110,130,0.6)";
    ctx.lineWidth = 1 / this.scale;
    ctx.stroke();
    for (const [c, list] of byColor) {
      ctx.beginPath();
      for (const k of list) ctx.rect(s.x[k], s.y[k], s.w[k], s.h[k]);
      ctx.fillStyle = c;
      ctx.fill();
    }
    this.cache = cache;
  }

  /**
   * Redraw: the cached scene and the view rectangle.
   * @param {Camera} cam @param {number} viewW @param {number} viewH @param {number} dpr
   */
  draw(cam, viewW, viewH, dpr) {
    const ctx = this.canvas.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    if (this.cache) ctx.drawImage(this.cache, 0, 0);
    const [gx0, gy0] = cam.toGraph(0, 0);
    const [gx1, gy1] = cam.toGraph(viewW, viewH);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.strokeStyle = "#1f6feb";
    ctx.lineWidth = 1.5;
    ctx.strokeRect(
      this.offX + gx0 * this.scale,
      this.offY + gy0 * this.scale,
      (gx1 - gx0) * this.scale,
      (gy1 - gy0) * this.scale,
    );
  }
}
