// Point colours: by a category column (its N most frequent values get the palette's colours,
// the rest one grey "other"), by a numeric column (viridis from its min to its max), or one
// colour. Returns RGBA bytes for the GPU and what the legend or colour bar shows.
//
// Categories take their own palettes, not the run colours: the projector lists runs in their
// run colours beside the legend, and a value coloured like a run reads as that run.
import { codeOf } from "./metadata.js";

/**
 * Category colours: CARTO's "Bold" (11 colours; its order starts where the run palette's
 * does not: purple, green, blue, where runs start blue, orange, red), then 9 more each the
 * farthest from those before it. Pairwise CIEDE2000 >= 12; each differs from the run colour
 * of the same position by >= 17 (tests/widgets/test_embeddings_widget.py).
 */
export const CATEGORY_PALETTE = [
  "#7f3c8d",
  "#11a579",
  "#3969ac",
  "#f2b701",
  "#e73f74",
  "#80ba5a",
  "#e68310",
  "#008695",
  "#cf1c90",
  "#f97b72",
  "#4b4b8f",
  "#66470a",
  "#29660a",
  "#8c0e19",
  "#6cd0d9",
  "#8c820e",
  "#6ca3d9",
  "#a36cd9",
  "#d93616",
  "#0a6657",
];

/** Okabe & Ito's colours for colour-blind readers (without black): the `colorblind` palette. */
export const CATEGORY_COLORBLIND = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7"];

/** The category colours of palette `name` (`default` or `colorblind`). @param {string} name */
export function categoryPalette(name) {
  return name === "colorblind" ? CATEGORY_COLORBLIND : CATEGORY_PALETTE;
}

const PLAIN = [78, 121, 167];
const OTHER = [176, 176, 176];
const MISSING = [200, 200, 200];
const VIRIDIS = [
  [68, 1, 84],
  [72, 40, 120],
  [62, 73, 137],
  [49, 104, 142],
  [38, 130, 142],
  [31, 158, 137],
  [53, 183, 121],
  [110, 206, 88],
  [181, 222, 43],
  [253, 231, 37],
];

/**
 * @typedef {object} Coloring
 * @property {Uint8Array} rgba                  n * 4
 * @property {"none" | "category" | "number"} kind
 * @property {{label: string, color: string, count: number}[]} legend   categories (top N, then other)
 * @property {[number, number] | null} range    the colour bar's ends (numbers)
 * @property {string} column
 */

/** @param {string} hex */
function rgbOf(hex) {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** @param {number[]} c */
export function cssOf(c) {
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

/**
 * Viridis at t in [0, 1].
 * @param {number} t
 * @returns {number[]}
 */
export function viridisRgb(t) {
  const x = Math.min(Math.max(t, 0), 1) * (VIRIDIS.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS.length - 2);
  const f = x - i;
  return [0, 1, 2].map((k) => Math.round(VIRIDIS[i][k] + (VIRIDIS[i + 1][k] - VIRIDIS[i][k]) * f));
}

/**
 * @param {import("./metadata").Column | undefined} column
 * @param {number} n
 * @param {{topN: number, palette: string}} options
 * @returns {Coloring}
 */
export function colorPoints(column, n, { topN, palette: name }) {
  const rgba = new Uint8Array(n * 4);
  if (!column) {
    for (let i = 0; i < n; i++) rgba.set([...PLAIN, 255], i * 4);
    return { rgba, kind: "none", legend: [], range: null, column: "" };
  }
  const useNumbers = column.values && (!column.labels || column.labels.length > 20);
  if (useNumbers && column.values && column.range) {
    const [lo, hi] = column.range;
    const span = hi - lo || 1;
    for (let i = 0; i < n; i++) {
      const v = column.values[i];
      rgba.set([...(Number.isFinite(v) ? viridisRgb((v - lo) / span) : MISSING), 255], i * 4);
    }
    return { rgba, kind: "number", legend: [], range: [lo, hi], column: column.name };
  }
  const labels = column.labels || [];
  const colors = categoryPalette(name).map(rgbOf);
  const shown = Math.min(Math.max(topN, 0), labels.length);
  const counts = new Uint32Array(labels.length);
  for (let i = 0; i < n; i++) {
    const code = codeOf(column, i);
    counts[code]++;
    const c = code < shown ? colors[code % colors.length] : OTHER;
    rgba[i * 4] = c[0];
    rgba[i * 4 + 1] = c[1];
    rgba[i * 4 + 2] = c[2];
    rgba[i * 4 + 3] = 255;
  }
  const legend = [];
  for (let code = 0; code < shown; code++) {
    legend.push({ label: labels[code], color: cssOf(colors[code % colors.length]), count: counts[code] });
  }
  if (shown < labels.length) {
    let rest = 0;
    for (let code = shown; code < labels.length; code++) rest += counts[code];
    legend.push({ label: `other (${labels.length - shown} values)`, color: cssOf(OTHER), count: rest });
  }
  return { rgba, kind: "category", legend, range: null, column: column.name };
}
