// The parallel coordinates: one canvas for the lines and one DOM column per axis (its title
// to drag for reordering, invert and scale buttons, and a track to brush on). Axes sit so
// that the first axis' tick labels and the last axis' title fit inside the widget.

import { canvasStyle } from "../../chart/axes.js";
import { breakableText, el } from "../../core/dom.js";
import { axisScale, rowU } from "./axis-scale.js";
import { drawAxes, drawBackground, drawSelected } from "./parallel-draw.js";

/** @typedef {import("./table-data").Column} Column */
/** @typedef {import("./model").Brush} Brush */
/** @typedef {import("../../chart/scales").Scale} Scale */

/**
 * @typedef {object} Axis
 * @property {string} name
 * @property {Column} col
 * @property {"linear" | "log" | "quantile" | "category"} mode
 * @property {boolean} inverted
 * @property {number} x
 * @property {Scale} scale
 */

export const PAD = { top: 50, bottom: 30 };
const SCALE_TEXT = { linear: "lin", log: "log", quantile: "q" };

export class Parallel {
  /** @param {import("./view").HParamsView} v  the owning view (state and callbacks) */
  constructor(v) {
    this.v = v;
    this.canvas = el("canvas", { class: "tbnb-hp-canvas" });
    this.node = el("div", { class: "tbnb-hp-pc" }, this.canvas);
    /** @type {Axis[]} */
    this.axes = [];
    /** @type {Float32Array[]} */
    this.ys = [];
    this.ysKey = "";
    /** @type {unknown} the table `ys` were computed for */
    this.ysTable = null;
    /** @type {HTMLCanvasElement | null} */
    this.bg = null;
    this.bgKey = "";
    this.width = 0;
    v.on(this.canvas, "pointermove", (/** @type {PointerEvent} */ e) => this.onHover(e));
    v.on(this.canvas, "pointerleave", () => v.setHover(-1));
  }

  get height() {
    return this.v.model.get("height") || 320;
  }

  /** @param {number} u */
  yOf(u) {
    const bottom = this.height - PAD.bottom;
    return Number.isFinite(u) ? bottom - u * (bottom - PAD.top) : bottom + 16;
  }

  /** Axis positions and scales from the traits and the width. */
  computeAxes() {
    const m = this.v.model;
    const data = this.v.data;
    const order = (m.get("order") || []).filter((name) => data.columns.has(name));
    const inverted = new Set(m.get("inverted") || []);
    const scales = m.get("scales") || {};
    const width = Math.max(this.node.clientWidth || 800, 200);
    /** @type {Omit<Axis, "x">[]} */
    const axes = order.map((name) => {
      const col = /** @type {Column} */ (data.columns.get(name));
      const mode = col.kind === "number" ? scales[name] || "linear" : "category";
      return { name, col, mode, inverted: inverted.has(name), scale: axisScale(col, mode, inverted.has(name)) };
    });
    // Room left of the first axis for its tick labels, right of the last for half its title.
    const { font } = canvasStyle(this.node);
    const ctx = this.canvas.getContext("2d");
    let labels = 30;
    if (ctx && axes.length) {
      ctx.font = font;
      for (const t of axes[0].scale.ticks(24)) labels = Math.max(labels, ctx.measureText(t.label.slice(0, 12)).width);
    }
    const left = Math.min(Math.ceil(labels) + 12, 110);
    const n = axes.length;
    let head = 84;
    for (let pass = 0; pass < 2; pass++) {
      const span = Math.max(width - left - head / 2 - 6, 1);
      head = Math.max(30, Math.min(84, n > 1 ? span / (n - 1) - 6 : 84));
    }
    const span = Math.max(width - left - head / 2 - 6, 1);
    this.headWidth = head;
    this.width = width;
    this.axes = axes.map((a, k) => ({ ...a, x: left + (n > 1 ? (span * k) / (n - 1) : span / 2) }));
  }

  /** Rebuild the axis columns (titles, buttons, brush tracks) and redraw. */
  layout() {
    this.computeAxes();
    const v = this.v;
    for (const node of this.node.querySelectorAll(".tbnb-axis")) node.remove();
    const head = this.headWidth || 84;
    const fits = 2 * Math.max(3, Math.floor(head / 6.2)); // two lines of 11 px bold
    for (const ax of this.axes) {
      // Long titles keep their end, where names differ ("…/val_loss.last"); the whole
      // name is the tooltip. Lines prefer breaking after a "/".
      const short = ax.name.length > fits ? `…${ax.name.slice(-(fits - 1))}` : ax.name;
      const title = el("div", { class: "tbnb-axis-head", title: `${ax.name} (drag to reorder)` }, breakableText(short));
      title.style.maxWidth = `${head}px`;
      const invert = el("button", { class: "tbnb-axis-invert", type: "button", title: "invert", text: "⇅" });
      const tools = el("div", { class: "tbnb-axis-tools" }, invert);
      if (ax.col.kind === "number") {
        const scale = el("button", {
          class: "tbnb-axis-scale",
          type: "button",
          title: "scale: linear / log / quantile",
          text: SCALE_TEXT[/** @type {"linear"} */ (ax.mode)] || "lin",
          "data-scale": ax.mode,
        });
        v.on(scale, "click", () => v.cycleScale(ax.name, ax.mode));
        tools.append(scale);
      }
      const track = el("div", { class: "tbnb-axis-track" });
      track.style.top = `${PAD.top - 4}px`;
      track.style.height = `${this.height - PAD.bottom - PAD.top + 8}px`;
      const node = el(
        "div",
        {
          class: "tbnb-axis",
          "data-column": ax.name,
          "data-kind": ax.col.kind,
          "data-inverted": ax.inverted ? "true" : null,
          "data-ticks": ax.scale
            .ticks(ax.col.kind === "category" ? 24 : 5)
            .map((t) => t.label)
            .join("|"),
        },
        title,
        tools,
        track,
      );
      node.style.left = `${ax.x}px`;
      node.style.width = `${head}px`;
      node.style.marginLeft = `${-head / 2}px`;
      node.style.height = `${this.height}px`;
      v.on(invert, "click", () => v.toggleInverted(ax.name));
      this.bindBrush(track, ax);
      this.bindReorder(title, node, ax);
      this.node.append(node);
    }
    this.node.style.height = `${this.height}px`;
  }

  /** @param {number} y  pixels from the top @returns {number} */
  uAt(y) {
    const bottom = this.height - PAD.bottom;
    return Math.min(Math.max((bottom - y) / (bottom - PAD.top), 0), 1);
  }

  /**
   * The brush of dragging from u0 to u1 on an axis.
   * @param {Axis} ax
   * @param {number} u0
   * @param {number} u1
   * @returns {Brush}
   */
  brushFor(ax, u0, u1) {
    const lo = Math.min(u0, u1);
    const hi = Math.max(u0, u1);
    if (ax.col.kind === "category") {
      const labels = ax.col.labels || [];
      return { values: labels.filter((_, code) => ax.scale.map(code) >= lo && ax.scale.map(code) <= hi) };
    }
    const a = ax.scale.invert(lo);
    const b = ax.scale.invert(hi);
    return { range: [Math.min(a, b), Math.max(a, b)] };
  }

  /** @param {HTMLElement} track @param {Axis} ax */
  bindBrush(track, ax) {
    const v = this.v;
    /** @type {number | null} */
    let start = null;
    const uOf = (/** @type {PointerEvent} */ e) => this.uAt(e.clientY - this.node.getBoundingClientRect().top);
    const pixels = (/** @type {number} */ u) =>
      Math.abs(u - /** @type {number} */ (start)) * (this.height - PAD.bottom - PAD.top);
    const current = () => this.axes.find((a) => a.name === ax.name) || ax;
    v.on(track, "pointerdown", (/** @type {PointerEvent} */ e) => {
      e.preventDefault();
      start = uOf(e);
      track.setPointerCapture?.(e.pointerId);
    });
    v.on(track, "pointermove", (/** @type {PointerEvent} */ e) => {
      if (start === null) return;
      const u = uOf(e);
      if (pixels(u) < 3) return;
      v.liveBrush({ ...v.model.get("brushes"), [ax.name]: this.brushFor(current(), start, u) });
    });
    v.on(track, "pointerup", (/** @type {PointerEvent} */ e) => {
      if (start === null) return;
      const u = uOf(e);
      const brushes = { ...v.model.get("brushes") };
      const cur = current();
      if (pixels(u) >= 3) {
        brushes[ax.name] = this.brushFor(cur, start, u);
      } else if (cur.col.kind === "category") {
        // a click toggles the category under the pointer
        const labels = cur.col.labels || [];
        const label = labels[cur.scale.invert(u)];
        const old = brushes[ax.name];
        const set = new Set(old && "values" in old ? old.values : []);
        if (set.has(label)) set.delete(label);
        else set.add(label);
        if (set.size) brushes[ax.name] = { values: labels.filter((l) => set.has(l)) };
        else delete brushes[ax.name];
      } else {
        delete brushes[ax.name];
      }
      start = null;
      v.commitBrushes(brushes);
    });
    v.on(track, "pointercancel", () => {
      start = null;
      v.liveBrush(null);
    });
  }

  /** @param {HTMLElement} title @param {HTMLElement} node @param {Axis} ax */
  bindReorder(title, node, ax) {
    const v = this.v;
    /** @type {number | null} */
    let startX = null;
    v.on(title, "pointerdown", (/** @type {PointerEvent} */ e) => {
      e.preventDefault();
      startX = e.clientX;
      node.classList.add("tbnb-dragging");
      title.setPointerCapture?.(e.pointerId);
    });
    v.on(title, "pointermove", (/** @type {PointerEvent} */ e) => {
      if (startX !== null) node.style.left = `${ax.x + e.clientX - startX}px`;
    });
    v.on(title, "pointerup", (/** @type {PointerEvent} */ e) => {
      if (startX === null) return;
      const x = ax.x + e.clientX - startX;
      startX = null;
      node.classList.remove("tbnb-dragging");
      const order = this.axes.map((a) => a.name).filter((name) => name !== ax.name);
      let k = 0;
      while (k < order.length && /** @type {Axis} */ (this.axes.find((a) => a.name === order[k])).x < x) k++;
      order.splice(k, 0, ax.name);
      v.setOrder(order);
    });
  }

  /** y of every row on every axis (cached per layout; reused for hover). */
  rowYs() {
    const key = `${this.axes.map((a) => `${a.name}|${a.mode}|${a.inverted}|${a.x}`).join(";")}|${this.height}`;
    const data = this.v.data;
    if (this.ysKey !== key || this.ysTable !== data) {
      this.ys = this.axes.map((ax) => {
        const out = new Float32Array(data.n);
        for (let i = 0; i < data.n; i++) out[i] = this.yOf(rowU(ax.col, ax.scale, i));
        return out;
      });
      this.ysKey = key;
      this.ysTable = data;
    }
    return this.ys;
  }

  draw() {
    const v = this.v;
    const width = Math.max(this.node.clientWidth || 800, 200);
    if (Math.abs(width - this.width) > 0.5) this.layout();
    const height = this.height;
    const dpr = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
    const c = this.canvas;
    if (c.width !== Math.round(width * dpr) || c.height !== Math.round(height * dpr)) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    const ctx = c.getContext("2d");
    if (!ctx) return;
    const ys = this.rowYs();
    const n = v.data.n;
    const bgKey = `${this.ysKey}|${c.width}x${c.height}`;
    if (!this.bg || this.bgKey !== bgKey) {
      this.bg = this.bg || document.createElement("canvas");
      this.bg.width = c.width;
      this.bg.height = c.height;
      const b = this.bg.getContext("2d");
      if (b) {
        b.setTransform(dpr, 0, 0, dpr, 0, 0);
        b.clearRect(0, 0, width, height);
        drawBackground(b, this.axes, ys, n);
      }
      this.bgKey = bgKey;
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, c.width, c.height);
    ctx.drawImage(this.bg, 0, 0);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const frame = this.frame(ys, v.hover);
    drawSelected(ctx, frame);
    drawAxes(ctx, frame);
  }

  /**
   * What the foreground draws from.
   * @param {Float32Array[]} ys
   * @param {number} hover  row or -1
   */
  frame(ys, hover) {
    const v = this.v;
    const { color: fg, font } = canvasStyle(this.node);
    return {
      axes: this.axes,
      ys,
      n: v.data.n,
      mask: v.liveMask(),
      hover,
      coloring: v.coloring(),
      brushes: v.brushes(),
      box: { top: PAD.top, bottom: this.height - PAD.bottom },
      yOf: (/** @type {number} */ u) => this.yOf(u),
      fg,
      font,
    };
  }

  /**
   * The chart as shown (lines, axes, brushes, axis titles; no hover), for the save-image
   * button.
   * @returns {import("../../chart/image-export").ChartImage | null}
   */
  image() {
    if (!this.axes.length || !this.width) return null;
    const ys = this.rowYs();
    const colors = this.v.coloring();
    return {
      title: "parallel coordinates",
      subtitle: colors.name ? `colour: ${colors.name}` : undefined,
      width: this.width,
      height: this.height,
      element: this.node,
      legend: colors.legend,
      draw: (ctx) => {
        drawBackground(ctx, this.axes, ys, this.v.data.n);
        const frame = this.frame(ys, -1);
        drawSelected(ctx, frame);
        drawAxes(ctx, frame);
        ctx.save();
        ctx.fillStyle = frame.fg;
        ctx.font = `bold ${frame.font}`;
        ctx.textAlign = "center";
        ctx.textBaseline = "bottom";
        const fits = Math.max(4, Math.floor((this.headWidth || 84) / 6));
        for (const ax of this.axes) {
          ctx.fillText(ax.name.length > fits ? `…${ax.name.slice(-(fits - 1))}` : ax.name, ax.x, PAD.top - 8);
        }
        ctx.restore();
      },
    };
  }

  /** The row whose line passes nearest the pointer (selected rows first). @param {PointerEvent} e */
  onHover(e) {
    const axes = this.axes;
    if (!axes.length || !this.ys.length) return;
    const rect = this.canvas.getBoundingClientRect();
    const x = e.clientX - rect.left;
    const y = e.clientY - rect.top;
    let k = 0;
    while (k < axes.length - 2 && axes[k + 1].x < x) k++;
    const mask = this.v.liveMask();
    let best = -1;
    let bestD = 6;
    for (let i = 0; i < this.v.data.n; i++) {
      let yi = this.ys[0][i];
      if (axes.length > 1) {
        const f = Math.min(Math.max((x - axes[k].x) / (axes[k + 1].x - axes[k].x), 0), 1);
        yi = this.ys[k][i] + (this.ys[k + 1][i] - this.ys[k][i]) * f;
      }
      const d = Math.abs(yi - y) + (mask[i] ? 0 : 3);
      if (d < bestD) {
        bestD = d;
        best = i;
      }
    }
    this.v.setHover(best);
  }
}
