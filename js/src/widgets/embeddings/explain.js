// What explains the projector's map beside the points: the density layer (contours and
// region labels) recomputed as layouts and columns change, the side panel's distribution
// of a column, the sprite atlas and a point's sprite and metadata for the neighbour and
// hover lists.
// Functions of the view's state, as overlay.js and status.js are.
import { decodeTree } from "../../core/codecs.js";
import { el } from "../../core/dom.js";
import { mediaBlob } from "../../media/media-type.js";
import { densityMap, named } from "./density-layer.js";
import { textOf } from "./metadata.js";

/** @typedef {import("./view.js").ProjectorView} View */

/** Streaming layouts recompute the density at most this often (milliseconds). */
const REMAP_MS = 400;

/** The column naming dense regions: the colour column if it groups points, else the label one. @param {View} view */
export function regionColumn(view) {
  const columns = view.meta.columns;
  const color = columns.get(view.model.get("color_by") || "");
  if (color?.labels && color.codes) return color;
  return columns.get(view.model.get("label_by") || "");
}

/**
 * Density contours and region labels of the layout shown (at most every REMAP_MS while a
 * layout streams in; always when `now`).
 * @param {View} view @param {boolean} now
 */
export function remap(view, now) {
  const stamp = performance.now();
  if (!now && stamp - view.mapAt < REMAP_MS) return;
  view.mapAt = stamp;
  const color = getComputedStyle(view.root)
    .color.match(/\d+(\.\d+)?/g)
    ?.map(Number) || [0, 0, 0];
  view.dark = 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2] > 128;
  view.map =
    view.model.get("density") === false ? null : densityMap(view.coords, view.dims, regionColumn(view), view.meta.n);
  const segments = view.map ? view.map.lines.reduce((a, l) => a + l.length / 4, 0) : 0;
  view.root.setAttribute("data-contours", String(segments));
  view.scene.frames.request();
}

/** Name the regions again (the colour or label column changed). @param {View} view */
export function rename(view) {
  if (view.map) Object.assign(view.map, named(view.map.density, regionColumn(view), view.meta.n));
  view.scene.frames.request();
}

/** The side panel's distribution of `histogram_by` (or the colour column). @param {View} view */
export function renderHistogram(view) {
  const names = [...view.meta.columns.keys()];
  const name = view.model.get("histogram_by") || view.model.get("color_by") || names[0] || "";
  const count = view.selectedCount || 0;
  view.panel.setHistogram(view.meta.columns.get(name), names, view.meta.n, view.selected, count);
}

/** Point `i`'s sprite image in a small canvas (null without a sprite). @param {View} view @param {number} i */
export function thumb(view, i) {
  const sprite = view.sprite;
  if (!sprite || i < 0) return null;
  const x = (i % sprite.columns) * sprite.width;
  const y = Math.floor(i / sprite.columns) * sprite.height;
  if (y + sprite.height > sprite.image.height) return null;
  const canvas = el("canvas", { class: "tbnb-pj-thumb", width: "28", height: "28" });
  canvas.getContext("2d")?.drawImage(sprite.image, x, y, sprite.width, sprite.height, 0, 0, 28, 28);
  return canvas;
}

/** Point `i`'s colour-column value beside its label (`column: value`), or "". @param {View} view @param {number} i */
export function detailOf(view, i) {
  const label = view.model.get("label_by") || "";
  const name = view.model.get("color_by") || "";
  const column = name && name !== label ? view.meta.columns.get(name) : undefined;
  return column ? `${column.name}: ${textOf(column, i)}` : "";
}

/** Decode the `_sprite` atlas for the renderer and the thumbnails. @param {View} view */
export async function loadSprite(view) {
  const raw = decodeTree(view.model.get("_sprite") || {});
  view.toolbar.spritesLabel.hidden = !raw.png;
  if (!raw.png || typeof createImageBitmap === "undefined") {
    view.scene.renderer.setSprite(null);
    view.sprite = null;
    return;
  }
  try {
    const image = await createImageBitmap(mediaBlob(raw.png, "image"));
    if (view.disposed) return;
    const why = view.scene.renderer.setSprite(image, Number(raw.width), Number(raw.height));
    const width = Number(raw.width) || 1;
    const columns = Math.max(Math.floor(image.width / width), 1);
    view.sprite = why ? null : { image, width, height: Number(raw.height) || 1, columns };
    view.onNeighbors();
    view.panel.setMessage(why);
    view.root.setAttribute("data-sprite", why ? "too-large" : "ready");
  } catch (err) {
    view.panel.setMessage(`sprite could not be decoded: ${err}`);
  }
  view.scene.frames.request();
}
