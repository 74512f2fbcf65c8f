// HiDPI canvases stacked in one box that sizes to its container.
//
// The owner tells the surface its width from a ResizeObserver on the container (never the
// window: a chart in a narrow cell, a side panel or a VS Code webview fits where it is) and
// whether it is visible (IntersectionObserver): draw requests while invisible are kept and
// run when the surface comes into view.
import { el } from "../core/dom.js";

export class CanvasStack {
  /**
   * @param {HTMLElement} container
   * @param {{layers?: number, height?: number, className?: string}} [options]
   */
  constructor(container, options = {}) {
    const layers = options.layers ?? 1;
    this.node = el("div", { class: `tbnb-canvas-stack ${options.className || ""}`.trim() });
    /** @type {HTMLCanvasElement[]} */
    this.canvases = [];
    for (let i = 0; i < layers; i++) this.canvases.push(el("canvas", { class: `tbnb-layer-${i}` }));
    this.node.append(...this.canvases);
    container.append(this.node);
    this.width = Math.max(container.clientWidth, 0) || 360;
    this.height = options.height ?? 200;
    this.dpr = 1;
    this.visible = true;
    this.node.style.height = `${this.height}px`;
  }

  /** The top canvas (pointer events land there). */
  get top() {
    return this.canvases[this.canvases.length - 1];
  }

  /**
   * Set the CSS size; canvas bitmaps follow at the device pixel ratio. Returns whether
   * anything changed.
   * @param {number} width
   * @param {number} height
   */
  resize(width, height = this.height) {
    const dpr = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
    const w = Math.max(Math.floor(width), 1);
    const h = Math.max(Math.floor(height), 1);
    const changed = w !== this.width || h !== this.height || dpr !== this.dpr || this.canvases[0].width === 0;
    this.width = w;
    this.height = h;
    this.dpr = dpr;
    this.node.style.height = `${h}px`;
    for (const c of this.canvases) {
      const bw = Math.round(w * dpr);
      const bh = Math.round(h * dpr);
      if (c.width !== bw || c.height !== bh) {
        c.width = bw;
        c.height = bh;
        c.style.width = `${w}px`;
        c.style.height = `${h}px`;
      }
    }
    return changed;
  }

  /**
   * The 2D context of layer `i`, cleared, in CSS pixels.
   * @param {number} i
   * @returns {CanvasRenderingContext2D | null}
   */
  context(i) {
    const ctx = this.canvases[i].getContext("2d");
    if (!ctx) return null;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, this.width, this.height);
    return ctx;
  }
}
