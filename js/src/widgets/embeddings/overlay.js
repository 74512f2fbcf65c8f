// What the projector draws over its points (density contours and region labels at low
// zoom, point labels, the hovered ring) and the CSV of the shown points: functions of the
// view's state, drawn on the overlay canvas.

import { drawDensity, layerAlpha } from "./density-layer.js";
import { declutter, drawLabel, labelWidth } from "./labels.js";
import { textOf } from "./metadata.js";

/** @typedef {import("./view.js").ProjectorView} View */

/**
 * Labels, the hovered point's ring, on the overlay canvas.
 * @param {View} view @param {CanvasRenderingContext2D} ctx
 */
export function decorate(view, ctx) {
  const n = view.meta.n;
  if (!n || !view.coords.length) return;
  const scene = view.scene;
  const map = view.model.get("density") !== false && scene.dims === 2 ? view.map : null;
  const alpha = map ? layerAlpha(scene.zoom()) : 0;
  const regions = map ? drawDensity(ctx, map, scene.camera2, scene.width, scene.height, alpha, view.dark) : 0;
  view.root.setAttribute("data-regions", String(regions));
  // region labels name the map at low zoom; point labels take over as it zooms in
  const label = alpha >= 1 && regions ? "" : view.model.get("label_by");
  const screen = label ? view.scene.screen() : null;
  const labelled = screen
    ? declutter(screen, view.scene.width, view.scene.height, view.matched.length ? view.matched : null, (i) =>
        labelWidth(view.labelOf(i)),
      )
    : [];
  const at = (/** @type {number} */ i) => (screen ? [screen[2 * i], screen[2 * i + 1]] : view.scene.pointOnScreen(i));
  for (const i of labelled) {
    const [x, y] = at(i);
    drawLabel(ctx, view.labelOf(i), x, y, false);
  }
  const strong = [];
  const focus = view.model.get("focus") ?? -1;
  if (view.found) strong.push(...Array.from(view.found.indices));
  if (focus >= 0 && focus < n) strong.push(focus);
  for (const i of strong) {
    const [x, y] = at(i);
    drawLabel(ctx, view.labelOf(i) || `#${i}`, x, y, true);
  }
  const h = view.hoverIndex;
  const [hx, hy] = h >= 0 && h < n ? at(h) : [Number.NaN, Number.NaN];
  if (Number.isFinite(hx)) {
    ctx.beginPath();
    ctx.arc(hx, hy, Math.max(view.scene.style.size + 4, 7), 0, 2 * Math.PI);
    ctx.strokeStyle = "#111";
    ctx.lineWidth = 1.5;
    ctx.stroke();
    drawLabel(ctx, view.labelOf(h) || `#${h}`, hx, hy, true);
  }
}

/** The shown points (the selection, if any) with their coordinates and metadata. @param {View} view */
export function csvRows(view) {
  const axes = ["x", "y", "z"].slice(0, view.dims);
  const columns = [...view.meta.columns.values()];
  const header = ["index", ...axes, ...columns.map((c) => c.name)];
  const n = view.meta.n;
  const any = view.selected.some((v) => v);
  const rows = [];
  for (let i = 0; i < n; i++) {
    if (any && !view.selected[i]) continue;
    /** @type {(number | string)[]} */
    const row = [i];
    for (let d = 0; d < view.dims; d++) row.push(view.coords[i * view.dims + d]);
    for (const c of columns) row.push(c.kind === "number" && c.values ? c.values[i] : textOf(c, i));
    rows.push(row);
  }
  return { header, rows };
}
