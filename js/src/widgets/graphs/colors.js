// Box colours: by op type (a group: the op most common inside it), by device, or by compute
// time or memory from the run metadata (viridis on a log scale; grey where unknown). Fills
// are the colour lightened so labels stay readable; outlines are the colour itself.

import { categoryColor, MISSING_COLOR, viridis } from "../../color/palettes.js";
import { label } from "./graph-data.js";
import { formatBytes, formatMicros } from "./text.js";

/** @typedef {import("./graph-data").GraphData} GraphData */
/** @typedef {{fill: string, stroke: string}} Paint */
/**
 * @typedef {object} Coloring
 * @property {(i: number) => Paint} node
 * @property {(k: number) => Paint} group
 * @property {{label: string, color: string}[]} legend
 * @property {string} title
 */

/** @param {string} color @returns {[number, number, number]} */
function rgb(color) {
  if (color.startsWith("#")) {
    const v = Number.parseInt(color.slice(1), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  const m = color.match(/\d+(\.\d+)?/g) || ["150", "150", "150"];
  return [Number(m[0]), Number(m[1]), Number(m[2])];
}

/**
 * `color` mixed with white: `amount` 0 keeps it, 1 is white.
 * @param {string} color
 * @param {number} amount
 */
export function lighten(color, amount) {
  const [r, g, b] = rgb(color);
  const mix = (/** @type {number} */ c) => Math.round(c + (255 - c) * amount);
  return `rgb(${mix(r)},${mix(g)},${mix(b)})`;
}

/** @type {Map<string, Paint>} */
const PAINTS = new Map();

/** The fill and outline of a colour (made once per colour). @param {string} color @returns {Paint} */
function paint(color) {
  let p = PAINTS.get(color);
  if (!p) {
    p = { fill: lighten(color, 0.72), stroke: color };
    PAINTS.set(color, p);
  }
  return p;
}
const NONE = { fill: "rgb(240,240,240)", stroke: MISSING_COLOR };

/**
 * @param {GraphData} d
 * @param {string} mode  "op", "device", "compute" or "memory"
 * @param {string} palette
 * @returns {Coloring}
 */
export function coloring(d, mode, palette) {
  if (mode === "device") return byCategory(d, d.nodeDevice, d.groupDevice, palette, "device");
  if (mode === "compute" || mode === "memory") return byValue(d, mode);
  return byOp(d, palette);
}

/** @param {GraphData} d @param {string} palette @returns {Coloring} */
function byOp(d, palette) {
  const color = (/** @type {number} */ op) => (op < 0 ? NONE : paint(categoryColor(d.opRank.get(op) ?? -1, palette)));
  const legend = d.ops.slice(0, 14).map((name, i) => ({ label: name, color: categoryColor(i, palette) }));
  if (d.ops.length > 14) legend.push({ label: `+${d.ops.length - 14} more ops`, color: MISSING_COLOR });
  return { node: (i) => color(d.nodeOp[i]), group: (k) => color(d.groupOp[k]), legend, title: "op" };
}

/**
 * @param {GraphData} d
 * @param {Int32Array} nodeCodes
 * @param {Int32Array} groupCodes
 * @param {string} palette
 * @param {string} title
 * @returns {Coloring}
 */
function byCategory(d, nodeCodes, groupCodes, palette, title) {
  /** @type {Map<number, number>} */
  const rank = new Map();
  for (let i = 0; i < d.n; i++) {
    const code = nodeCodes[i];
    if (label(d, code) && !rank.has(code)) rank.set(code, rank.size);
  }
  const color = (/** @type {number} */ code) =>
    rank.has(code) ? paint(categoryColor(/** @type {number} */ (rank.get(code)), palette)) : NONE;
  const legend = [...rank.entries()].map(([code, i]) => ({ label: label(d, code), color: categoryColor(i, palette) }));
  if (!legend.length) legend.push({ label: `no ${title} recorded`, color: MISSING_COLOR });
  return { node: (i) => color(nodeCodes[i]), group: (k) => color(groupCodes[k]), legend, title };
}

/** @param {GraphData} d @param {string} mode @returns {Coloring} */
function byValue(d, mode) {
  const nodes = mode === "compute" ? d.nodeCompute : d.nodeMemory;
  const groups = mode === "compute" ? d.groupCompute : d.groupMemory;
  let lo = Infinity;
  let hi = -Infinity;
  const see = (/** @type {number} */ v) => {
    if (v > 0 && Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  };
  for (let i = 0; i < d.n; i++) see(nodes[i]);
  for (let k = 1; k < d.g; k++) see(groups[k]);
  const span = Math.log(hi) - Math.log(lo);
  const color = (/** @type {number} */ v) => {
    if (!(v > 0) || !Number.isFinite(lo)) return NONE;
    return paint(viridis(span > 0 ? (Math.log(v) - Math.log(lo)) / span : 1));
  };
  const format = mode === "compute" ? formatMicros : formatBytes;
  const legend = Number.isFinite(lo)
    ? [0, 0.5, 1].map((t) => ({ label: format(Math.exp(Math.log(lo) + t * span)), color: viridis(t) }))
    : [{ label: "no run metadata with step statistics", color: MISSING_COLOR }];
  return {
    node: (i) => color(nodes[i]),
    group: (k) => color(groups[k]),
    legend,
    title: mode === "compute" ? "compute time" : "memory",
  };
}
