// A chart as an image for papers and slides: the title, the chart drawn again by its own
// draw function (or its canvases composed, for raster-only charts), an x axis label and a
// legend, on the theme's background. The same composition runs into a canvas at twice the
// device pixel ratio or more (PNG) and into an SvgContext (SVG), so both show one chart.
import { SvgContext } from "./svg-context.js";

/**
 * What a chart card offers for export.
 * @typedef {object} ChartImage
 * @property {string} title      the tag (drawn as text, and the file name)
 * @property {string} [subtitle] e.g. the run of a per-run chart, or the step
 * @property {number} width      the chart's CSS size
 * @property {number} height
 * @property {Element} element   where theme colours and fonts are read
 * @property {(ctx: CanvasRenderingContext2D, scale: number) => void} [draw]  draws the
 *   chart into a context of its own (origin at its top left, `scale` device pixels per CSS
 *   pixel already set as the transform; a draw that sets its own transform multiplies by
 *   it): vector, the source of both formats
 * @property {() => HTMLCanvasElement[]} [layers]  else: canvases composed (PNG only), each
 *   at its place within `element` (hidden ones left out)
 * @property {boolean} [pixelated]  raster layers scaled up without smoothing (images)
 * @property {string} [xLabel]
 * @property {{label: string, color: string}[]} [legend]
 */

const PAD = 12;
const TITLE = 15;
const SUB = 12;
const LEGEND_ROW = 16;
const MAX_LEGEND = 60;

/**
 * A file name from a tag: path separators and anything unusual become "_", at most 100
 * characters, "chart" when nothing is left.
 * @param {string} name
 * @param {string} ext
 */
export function imageFileName(name, ext) {
  const base = String(name)
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N}._-]+/gu, "_")
    .replace(/^[._]+|[._]+$/g, "")
    .slice(0, 100);
  return `${base || "chart"}.${ext}`;
}

/**
 * The first opaque background colour at or above `element` (white when there is none), and
 * its text colour and font family.
 * @param {Element} element
 */
export function themeOf(element) {
  const style = getComputedStyle(element);
  let background = "#ffffff";
  for (let e = /** @type {Element | null} */ (element); e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor;
    if (bg && bg !== "transparent" && !/rgba\([^)]*,\s*0\)$/.test(bg)) {
      background = bg;
      break;
    }
  }
  return { background, color: style.color || "#222", family: style.fontFamily || "sans-serif" };
}

/**
 * Legend entries placed in rows of `width` (a swatch and the whole label each).
 * @param {{measureText: (s: string) => {width: number}, font: string}} ctx
 * @param {{label: string, color: string}[]} items
 * @param {number} width
 * @param {string} font
 */
export function legendLayout(ctx, items, width, font) {
  ctx.font = font;
  /** @type {{label: string, color: string, x: number, row: number}[]} */
  const out = [];
  let x = PAD;
  let row = 0;
  const shown = items.slice(0, MAX_LEGEND);
  for (const item of shown) {
    const w = 16 + ctx.measureText(item.label).width + 14;
    if (x > PAD && x + w > width - PAD) {
      row++;
      x = PAD;
    }
    out.push({ ...item, x, row });
    x += w;
  }
  if (items.length > shown.length) {
    out.push({ label: `… and ${items.length - shown.length} more`, color: "", x: PAD, row: row + 1 });
  }
  return { entries: out, rows: out.length ? out[out.length - 1].row + 1 : 0 };
}

/**
 * The whole image's size and parts for `image`.
 * @param {ChartImage} image
 * @param {{measureText: (s: string) => {width: number}, font: string}} measure
 */
export function imageLayout(image, measure) {
  const theme = themeOf(image.element);
  const font = (/** @type {number} */ size, bold = false) => `${bold ? "bold " : ""}${size}px ${theme.family}`;
  const width = Math.max(Math.round(image.width), 160);
  const head = PAD + TITLE + (image.subtitle ? SUB + 2 : 0) + 6;
  const xLabel = image.xLabel ? 16 : 0;
  const legend = legendLayout(measure, image.legend || [], width, font(11));
  const height = Math.round(head + image.height + xLabel + (legend.rows ? legend.rows * LEGEND_ROW + 8 : 0) + PAD / 2);
  return { theme, font, width, height, head, xLabel, legend };
}

/**
 * Draw the whole image (title, chart, x label, legend) into `ctx`, in CSS pixels;
 * `placeChart(ctx, y)` draws the chart with its top at y.
 * @param {CanvasRenderingContext2D} ctx
 * @param {ChartImage} image
 * @param {ReturnType<typeof imageLayout>} layout
 * @param {(ctx: CanvasRenderingContext2D, y: number) => void} placeChart
 */
export function composeImage(ctx, image, layout, placeChart) {
  const { theme, font, width, height, head } = layout;
  ctx.save();
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = theme.color;
  ctx.textAlign = "left";
  ctx.textBaseline = "top";
  ctx.font = font(TITLE - 2, true);
  ctx.fillText(image.title, PAD, PAD, width - 2 * PAD);
  if (image.subtitle) {
    ctx.globalAlpha = 0.7;
    ctx.font = font(SUB - 1);
    ctx.fillText(image.subtitle, PAD, PAD + TITLE + 2, width - 2 * PAD);
    ctx.globalAlpha = 1;
  }
  ctx.restore();
  placeChart(ctx, head);
  let y = head + image.height;
  ctx.save();
  ctx.fillStyle = theme.color;
  if (image.xLabel) {
    ctx.font = font(11);
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.globalAlpha = 0.8;
    ctx.fillText(image.xLabel, width / 2, y + 1);
    ctx.globalAlpha = 1;
    y += layout.xLabel;
  }
  ctx.font = font(11);
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (const entry of layout.legend.entries) {
    const cy = y + 8 + entry.row * LEGEND_ROW + LEGEND_ROW / 2;
    if (entry.color) {
      ctx.fillStyle = entry.color;
      ctx.fillRect(entry.x, cy - 5, 10, 10);
    }
    ctx.fillStyle = theme.color;
    ctx.fillText(entry.label, entry.x + (entry.color ? 16 : 0), cy);
  }
  ctx.restore();
}

/**
 * The image as a PNG blob at `scale` pixels per CSS pixel (at least 2).
 * @param {ChartImage} image
 * @param {number} [scale]
 * @returns {Promise<{blob: Blob, width: number, height: number}>}
 */
export async function chartPNG(image, scale) {
  const s = Math.max(2, scale ?? (globalThis.devicePixelRatio || 1));
  const canvas = document.createElement("canvas");
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  const layout = imageLayout(image, ctx);
  canvas.width = Math.round(layout.width * s);
  canvas.height = Math.round(layout.height * s);
  ctx.setTransform(s, 0, 0, s, 0, 0);
  composeImage(ctx, image, layout, (c, y) => {
    if (!image.draw) {
      placeLayers(c, image, y);
      return;
    }
    const chart = document.createElement("canvas");
    chart.width = Math.round(image.width * s);
    chart.height = Math.round(image.height * s);
    const cc = /** @type {CanvasRenderingContext2D} */ (chart.getContext("2d"));
    cc.setTransform(s, 0, 0, s, 0, 0);
    image.draw(cc, s);
    c.drawImage(chart, 0, y, image.width, image.height);
  });
  const blob = await new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("the browser made no PNG"))), "image/png"),
  );
  return { blob, width: canvas.width, height: canvas.height };
}

/**
 * Raster layers drawn where they are shown within `image.element`.
 * @param {CanvasRenderingContext2D} ctx @param {ChartImage} image @param {number} y
 */
function placeLayers(ctx, image, y) {
  const box = image.element.getBoundingClientRect();
  ctx.save();
  ctx.imageSmoothingEnabled = !image.pixelated;
  for (const layer of image.layers ? image.layers() : []) {
    const r = layer.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0 && layer.width > 0 && layer.height > 0)) continue;
    const filter = getComputedStyle(layer).filter; // brightness and contrast as shown
    ctx.filter = filter && filter !== "none" ? filter : "none";
    ctx.drawImage(layer, r.left - box.left, y + r.top - box.top, r.width, r.height);
  }
  ctx.restore();
}

/**
 * A raster card (an image, an audio waveform and spectrogram, a WebGL scene) for the
 * save-image button: its canvases as shown inside `element`.
 * @param {HTMLElement} element
 * @param {string} title
 * @param {string} [subtitle]
 * @param {{pixelated?: boolean, legend?: {label: string, color: string}[]}} [options]
 * @returns {ChartImage | null}
 */
export function rasterImage(element, title, subtitle, options = {}) {
  const canvases = element instanceof HTMLCanvasElement ? [element] : [...element.querySelectorAll("canvas")];
  const width = element.clientWidth;
  const height = element.clientHeight;
  if (!canvases.length || !(width > 0 && height > 0)) return null;
  return { title, subtitle, width, height, element, layers: () => canvases, ...options };
}

/**
 * The image as an SVG document (only for charts with a `draw` function).
 * @param {ChartImage} image
 * @returns {string}
 */
export function chartSVG(image) {
  if (!image.draw) throw new Error("this chart is raster only: save it as PNG");
  const probe = new SvgContext(1, 1);
  const layout = imageLayout(image, /** @type {any} */ (probe));
  const ctx = new SvgContext(layout.width, layout.height, { title: image.title });
  const draw = image.draw;
  composeImage(/** @type {any} */ (ctx), image, layout, (_, y) => {
    const chart = new SvgContext(image.width, image.height, { ids: "k" });
    draw(/** @type {any} */ (chart), 1);
    ctx.embed(chart, 0, y);
  });
  return ctx.toString();
}
