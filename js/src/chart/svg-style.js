// Attribute values for the SVG context: XML escaping, CSS colours as paint and opacity,
// font shorthands as font attributes, text alignment and baselines, embedded images.
import { num } from "./svg-path.js";

/** @param {unknown} s */
export function escapeXML(s) {
  return String(s)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;")
    .replace(/\p{Cc}|[\ufffe\uffff]/gu, (c) => (c === "\t" || c === "\n" || c === "\r" ? c : "\ufffd"));
}

/**
 * A CSS colour as SVG paint and opacity (rgba() and #rrggbbaa split, for SVG 1.1 readers).
 * @param {unknown} color
 * @returns {[string, number]}
 */
export function paint(color) {
  if (typeof color !== "string") return ["#000", 1]; // gradients and patterns: not drawn by our charts
  const c = color.trim();
  const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/i.exec(c);
  if (m) {
    const a = m[4] === undefined ? 1 : m[4].endsWith("%") ? Number.parseFloat(m[4]) / 100 : Number(m[4]);
    return [`rgb(${m[1]},${m[2]},${m[3]})`, a];
  }
  const h = /^#([0-9a-f]{8}|[0-9a-f]{4})$/i.exec(c);
  if (h) {
    const s = h[1].length === 4 ? [...h[1]].map((x) => x + x).join("") : h[1];
    return [`#${s.slice(0, 6)}`, Number.parseInt(s.slice(6), 16) / 255];
  }
  return [c, 1];
}

/**
 * A CSS font shorthand ("bold 12px Inter, sans-serif") as SVG font attributes.
 * @param {string} font
 */
export function fontAttributes(font) {
  const m = /^\s*((?:[a-z-]+|\d{3})\s+)*?([\d.]+)px(?:\/\S+)?\s+(.+)$/i.exec(font || "");
  if (!m) return 'font-family="sans-serif" font-size="10"';
  const words = font.slice(0, font.indexOf(m[2])).trim().split(/\s+/);
  const weight = words.find((w) => /^(bold|bolder|lighter|\d{3})$/i.test(w));
  const style = words.find((w) => /^(italic|oblique)$/i.test(w));
  let out = `font-family="${escapeXML(m[3])}" font-size="${num(Number(m[2]))}"`;
  if (weight) out += ` font-weight="${escapeXML(weight)}"`;
  if (style) out += ` font-style="${escapeXML(style)}"`;
  return out;
}

export const ANCHOR = /** @type {Record<string, string>} */ ({
  left: "start",
  start: "start",
  center: "middle",
  right: "end",
  end: "end",
});
export const BASELINE = /** @type {Record<string, string>} */ ({
  top: "hanging",
  hanging: "hanging",
  middle: "central",
  alphabetic: "alphabetic",
  ideographic: "ideographic",
  bottom: "text-after-edge",
});

/** A 2D context for text widths, when there is a document. */
export function defaultMeasurer() {
  if (typeof document === "undefined") return null;
  return document.createElement("canvas").getContext("2d");
}

/**
 * A PNG data URL of the (sx, sy, sw, sh) part of an image source, or "" when there is none.
 * @param {any} src @param {number} sx @param {number} sy @param {number} sw @param {number} sh
 */
export function imageURL(src, sx, sy, sw, sh) {
  const whole = sx === 0 && sy === 0 && sw === src.width && sh === src.height;
  if (whole && typeof src.toDataURL === "function") return src.toDataURL("image/png");
  if (typeof document === "undefined" || !(sw > 0 && sh > 0)) return "";
  const c = document.createElement("canvas");
  c.width = Math.round(sw);
  c.height = Math.round(sh);
  const ctx = c.getContext("2d");
  if (!ctx) return "";
  ctx.drawImage(src, sx, sy, sw, sh, 0, 0, c.width, c.height);
  return c.toDataURL("image/png");
}
