// The scatter row: the chosen metric (y) against each hparam (x), one small chart each, with
// ticks on both axes. Selected rows in their line colour, the others faint grey.

import { canvasStyle, drawTicks } from "../../chart/axes.js";
import { saveImageButton } from "../../controls/save-image.js";
import { el } from "../../core/dom.js";
import { axisScale, rowU } from "./axis-scale.js";

/** @typedef {import("./table-data").Table} Table */
/** @typedef {import("./table-data").Column} Column */
/** @typedef {import("./parallel").Axis} Axis */

const W = 200;
const H = 156;
const M = { left: 44, right: 8, top: 6, bottom: 20 };

/**
 * @param {{table: Table, metric: Column, metricMode: "linear" | "log" | "quantile", axes: Axis[],
 *   mask: Uint8Array, color: (row: number) => string, style: Element,
 *   on?: (t: EventTarget, type: string, h: (e: any) => void) => void}} input
 * @returns {HTMLElement[]}
 */
export function scatterCells({ table, metric, metricMode, axes, mask, color, style, on }) {
  const ys = axisScale(metric, metricMode, false);
  const dpr = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
  const { color: fg, font } = canvasStyle(style, 9);
  const px = (/** @type {number} */ u) => M.left + (Number.isFinite(u) ? u : -0.04) * (W - M.left - M.right);
  const py = (/** @type {number} */ u) => H - M.bottom - u * (H - M.top - M.bottom);
  return axes.map((ax) => {
    const xs = axisScale(ax.col, ax.mode, false);
    const canvas = el("canvas", { class: "tbnb-hp-scatter-canvas" });
    canvas.width = W * dpr;
    canvas.height = H * dpr;
    canvas.style.width = `${W}px`;
    canvas.style.height = `${H}px`;
    const xTicks = xs.ticks(ax.col.kind === "category" ? 6 : 4).map((t) => ({ ...t, pos: px(t.pos) }));
    const yTicks = ys.ticks(4).map((t) => ({ ...t, pos: py(t.pos) }));
    const paint = (/** @type {CanvasRenderingContext2D} */ ctx) => {
      ctx.strokeStyle = "rgba(128,128,128,.5)";
      ctx.strokeRect(M.left + 0.5, M.top + 0.5, W - M.left - M.right - 1, H - M.top - M.bottom - 1);
      drawTicks(ctx, yTicks, { side: "left", at: M.left, color: fg, font, tick: 3, maxChars: 8 });
      drawTicks(ctx, xTicks, { side: "bottom", at: H - M.bottom, color: fg, font, tick: 3, maxChars: 8 });
      const n = table.n;
      const jitter = ax.col.kind === "category" ? 0.6 / Math.max((ax.col.labels || []).length, 1) : 0;
      // One path per colour (unselected grey first, then each line colour): a fill per
      // colour, not per point.
      /** @type {Map<string, number[]>} */
      const byColor = new Map([["rgba(150,150,150,.35)", []]]);
      const uy0 = metric.values ? Array.from(metric.values, (v) => ys.map(v)) : [];
      for (let i = 0; i < n; i++) {
        const uy = uy0[i];
        if (!Number.isFinite(uy)) continue;
        let ux = rowU(ax.col, xs, i);
        if (jitter && Number.isFinite(ux)) ux += (((i * 2654435761) % 1000) / 1000 - 0.5) * jitter;
        const key = mask[i] ? color(i) : "rgba(150,150,150,.35)";
        let list = byColor.get(key);
        if (!list) {
          list = [];
          byColor.set(key, list);
        }
        list.push(px(ux), py(uy));
      }
      let grey = true;
      for (const [fill, points] of byColor) {
        const r = grey ? 2 : 3;
        grey = false;
        ctx.fillStyle = fill;
        ctx.beginPath();
        for (let k = 0; k < points.length; k += 2) {
          ctx.moveTo(points[k] + r, points[k + 1]);
          ctx.arc(points[k], points[k + 1], r, 0, 2 * Math.PI);
        }
        ctx.fill();
      }
    };
    const ctx = canvas.getContext("2d");
    if (ctx) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      paint(ctx);
    }
    /** @returns {import("../../chart/image-export").ChartImage} */
    const image = () => ({
      title: `${metric.name} against ${ax.name}`,
      width: W,
      height: H,
      element: style,
      xLabel: ax.name,
      draw: paint,
    });
    const save = on ? [saveImageButton({ on, label: `${metric.name} against ${ax.name}`, image })] : [];
    const labels = (/** @type {import("../../chart/scales").Tick[]} */ ticks) => ticks.map((t) => t.label).join("|");
    return el(
      "div",
      { class: "tbnb-hp-cell", "data-column": ax.name, "data-x-ticks": labels(xTicks), "data-y-ticks": labels(yTicks) },
      el(
        "div",
        { class: "tbnb-hp-cell-head" },
        el("div", { class: "tbnb-hp-cell-title", title: `${metric.name} against ${ax.name}`, text: `${ax.name} →` }),
        ...save,
      ),
      canvas,
    );
  });
}
