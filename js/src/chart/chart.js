// The base every canvas chart of the kit extends (TensorBoard's line_chart_v2 `Drawable`
// is the model): a stack of canvases sized to its container, the margins and the plot box
// they leave, the scales of the current layout and their maps, the theme's colour and font,
// the pointer on the top canvas, the tooltip placed in its parent's coordinates, the chart
// as an image (PNG and SVG from the same paint) and `redraw()`.
//
// A chart type is a subclass that implements
//   scales()          -> {x, y}: any Scale of scales.js over the current size;
//   paint(ctx)        what the chart shows, into any 2D context (the screen's layers are
//                     painted from it; an image export runs it into its own context);
//   draw(level)       which layers to redraw for a change (default: layout, then paint);
// and may override the pointer hooks (pointerMove, pointerLeave, pointerDown, pointerUp,
// doubleClick), `measure()` (the width to lay out at) and `project(x, y)` (faster maps
// than the scales' own for its loops over every point).
import { redrawOnTheme } from "../core/theme.js";
import { canvasStyle, drawGrid, drawTicks } from "./axes.js";
import { CanvasStack } from "./surface.js";

/** @typedef {import("./scales").Scale} Scale */
/** @typedef {import("./scales").Tick} Tick */
/** @typedef {import("./tooltip").Tooltip} Tooltip */
/** @typedef {{columns: import("./tooltip").TooltipColumn[], rows: import("./tooltip").TooltipRow[], more?: number}} TooltipTable */
/** @typedef {import("./image-export").ChartImage} ChartImage */
/** @typedef {{left: number, right: number, top: number, bottom: number}} Margin */

/**
 * The maps of the current layout: scales, size, device pixel ratio, theme, and the value
 * to pixel maps (plus whatever the subclass's `project` adds).
 * @typedef {{x: Scale, y: Scale, w: number, h: number, dpr: number, fg: string, font: string,
 *   fx: (v: number) => number, fy: (v: number) => number, [more: string]: any}} ChartMaps
 */

/**
 * @typedef {object} ChartBaseOptions
 * @property {number} height
 * @property {Tooltip} [tooltip]
 * @property {(target: EventTarget, type: string, handler: (e: any) => void) => void} on
 *   listen (through the owning view, so listeners go with it)
 * @property {number} [layers]     canvases in the stack (the top one takes the pointer)
 * @property {string} [className]  of the stack
 * @property {Margin} [margin]
 */

/** @template {ChartBaseOptions} [O=ChartBaseOptions] the options of the chart type */
export class Chart {
  /**
   * @param {HTMLElement} container
   * @param {O} options
   */
  constructor(container, options) {
    this.container = container;
    this.options = options;
    /** @type {Margin} */
    this.margin = options.margin ?? { left: 54, right: 16, top: 8, bottom: 24 };
    this.surface = new CanvasStack(container, {
      layers: options.layers ?? 1,
      height: options.height,
      className: options.className,
    });
    /** @type {ChartMaps | any} the current layout's maps (null before the first) */
    this.maps = null;
    this.bindPointer();
    redrawOnTheme(this);
  }

  /** The width to lay out at (default: the container's now). */
  measure() {
    return this.container.clientWidth || this.surface.width;
  }

  /**
   * The scales over the current size (subclasses).
   * @returns {{x: Scale, y: Scale}}
   */
  scales() {
    throw new Error(`${this.constructor.name} has no scales()`);
  }

  /**
   * Maps added to the layout's (subclasses: plain affine maps for loops over every point).
   * @param {Scale} _x @param {Scale} _y
   * @returns {Record<string, any>}
   */
  project(_x, _y) {
    return {};
  }

  /** Size the canvases, make the scales and the maps of this layout. */
  layout() {
    this.surface.resize(this.measure(), this.options.height);
    const { x, y } = this.scales();
    const { color, font } = canvasStyle(this.container);
    const { width: w, height: h, dpr } = this.surface;
    this.maps = { x, y, w, h, dpr, fg: color, font, fx: x.map, fy: y.map, ...this.project(x, y) };
  }

  /**
   * The plot area within the margins, in CSS pixels of the current layout.
   * @returns {import("./axes").Box}
   */
  plotBox() {
    const { w, h } = this.maps;
    const m = this.margin;
    return { left: m.left, top: m.top, right: w - m.right, bottom: h - m.bottom };
  }

  /**
   * Grid lines at the ticks and their labels, left and below the plot box.
   * @param {CanvasRenderingContext2D} ctx
   * @param {Tick[]} xTicks @param {Tick[]} yTicks
   * @param {{maxChars?: number}} [options]  longest y label
   */
  drawAxes(ctx, xTicks, yTicks, options = {}) {
    const { fg, font } = this.maps;
    const box = this.plotBox();
    drawGrid(ctx, xTicks, yTicks, box, fg);
    drawTicks(ctx, yTicks, { side: "left", at: box.left - 1, color: fg, font, maxChars: options.maxChars });
    drawTicks(ctx, xTicks, { side: "bottom", at: box.bottom + 2, color: fg, font });
  }

  /**
   * Clip `ctx` to the plot box grown by `pad` pixels.
   * @param {CanvasRenderingContext2D} ctx
   * @param {number} [pad]
   */
  clip(ctx, pad = 0) {
    const box = this.plotBox();
    ctx.beginPath();
    ctx.rect(box.left - pad, box.top - pad, box.right - box.left + 2 * pad, box.bottom - box.top + 2 * pad);
    ctx.clip();
  }

  /**
   * What the chart shows, into `ctx` (subclasses).
   * @param {CanvasRenderingContext2D} _ctx
   */
  paint(_ctx) {}

  /**
   * Redraw for a change; subclasses redraw only the layers it touches.
   * @param {string} [_level]
   */
  draw(_level) {
    this.layout();
    this.paint(/** @type {CanvasRenderingContext2D} */ (this.surface.context(0)));
  }

  /** Lay out again and draw every layer (a resize, a theme change). */
  redraw() {
    this.draw("all");
  }

  /**
   * Show `table` in the tooltip at points and an anchor given in canvas pixels.
   * @param {TooltipTable} table
   * @param {{x: number, y: number}[]} points
   * @param {{x: number, y: number}} anchor
   */
  showTooltip(table, points, anchor) {
    const tip = this.options.tooltip;
    if (!tip) return;
    const canvas = this.surface.top.getBoundingClientRect();
    const parent = tip.parent.getBoundingClientRect();
    const dx = canvas.left - parent.left;
    const dy = canvas.top - parent.top;
    const shift = (/** @type {{x: number, y: number}} */ p) => ({ x: p.x + dx, y: p.y + dy });
    tip.show(table, { points: points.map(shift), anchor: shift(anchor) }, this);
  }

  hideTooltip() {
    this.options.tooltip?.hide(this);
  }

  /**
   * The chart as shown, for the save-image button: `paint` runs again into the export's
   * context (PNG and SVG).
   * @param {{title: string, subtitle?: string, xLabel?: string, legend?: {label: string, color: string}[]}} what
   * @returns {ChartImage | null}
   */
  image(what) {
    if (!this.maps) return null;
    return {
      ...what,
      width: this.maps.w,
      height: this.maps.h,
      element: this.container,
      draw: (ctx) => this.paint(ctx),
    };
  }

  /**
   * Pointer hooks, in canvas pixels (subclasses).
   * @param {number} _x @param {number} _y
   */
  pointerMove(_x, _y) {}
  pointerLeave() {}
  /** @param {number} _x @param {number} _y */
  pointerDown(_x, _y) {}
  /** @param {number} _x @param {number} _y */
  pointerUp(_x, _y) {}
  doubleClick() {}

  /** The top canvas's mouse events, as canvas pixels, to the hooks. */
  bindPointer() {
    const c = this.surface.top;
    const on = this.options.on;
    const at = (/** @type {MouseEvent} */ e, /** @type {(x: number, y: number) => void} */ hook) => {
      const r = c.getBoundingClientRect();
      hook.call(this, e.clientX - r.left, e.clientY - r.top);
    };
    on(c, "mousemove", (/** @type {MouseEvent} */ e) => at(e, this.pointerMove));
    on(c, "mouseleave", () => this.pointerLeave());
    on(c, "mousedown", (/** @type {MouseEvent} */ e) => at(e, this.pointerDown));
    on(c, "mouseup", (/** @type {MouseEvent} */ e) => at(e, this.pointerUp));
    on(c, "dblclick", () => this.doubleClick());
  }
}
