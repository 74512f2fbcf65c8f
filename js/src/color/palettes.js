// Colours. Run colours are decided in Python (tbnb/widgets/colors.py: the same run gets
// the same colour in every widget built from one experiment) and arrive in the
// `run_colors` trait; this module holds the same categorical palettes for colouring
// anything else by category (hparams lines by an optimizer, ...), and the viridis gradient
// for numbers. A test checks these palettes equal Python's.

/**
 * 20 colours told apart at a glance (pairwise CIEDE2000 >= 18), each readable on white and
 * on a dark theme: Tableau's blue, orange, red, green and purple, then each next colour the
 * one farthest from those before it.
 */
export const DEFAULT_PALETTE = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#59a14f",
  "#b07aa1",
  "#694e05",
  "#7f0fbd",
  "#2cc5ce",
  "#095e48",
  "#c8b40c",
  "#843a50",
  "#9f3000",
  "#aaaef4",
  "#496b00",
  "#93834f",
  "#3fb1fa",
  "#9964fb",
  "#08878d",
  "#e7a391",
  "#4f4d7d",
];

/**
 * Paul Tol's "muted" scheme: 9 colours that stay distinct under protanopia, deuteranopia
 * and tritanopia (pairwise CIEDE2000 >= 11 in each simulation).
 */
export const COLORBLIND_PALETTE = [
  "#cc6677",
  "#332288",
  "#ddcc77",
  "#117733",
  "#88ccee",
  "#882255",
  "#44aa99",
  "#999933",
  "#aa4499",
];

/** @type {Record<string, string[]>} */
export const PALETTES = { default: DEFAULT_PALETTE, colorblind: COLORBLIND_PALETTE };

/** Colour of missing values. */
export const MISSING_COLOR = "rgb(150,150,150)";

/**
 * The palette called `name` (the default one for an unknown name).
 * @param {string | undefined} name
 * @returns {string[]}
 */
export function palette(name) {
  return PALETTES[name || "default"] || DEFAULT_PALETTE;
}

/**
 * Colour of category `i` (cycling through the palette).
 * @param {number} i
 * @param {string} [name]  palette name
 */
export function categoryColor(i, name) {
  const p = palette(name);
  return i < 0 ? MISSING_COLOR : p[i % p.length];
}

const VIRIDIS = [
  "#440154",
  "#482878",
  "#3e4989",
  "#31688e",
  "#26828e",
  "#1f9e89",
  "#35b779",
  "#6ece58",
  "#b5de2b",
  "#fde725",
];

/** @param {string} hex @returns {[number, number, number]} */
function hexToRgb(hex) {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
const VIRIDIS_RGB = VIRIDIS.map(hexToRgb);

/**
 * Viridis at t in [0, 1] (perceptually uniform, readable in greyscale and with colour
 * blindness); grey for a non-finite t.
 * @param {number} t
 */
export function viridis(t) {
  if (!Number.isFinite(t)) return MISSING_COLOR;
  const x = Math.min(Math.max(t, 0), 1) * (VIRIDIS_RGB.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS_RGB.length - 2);
  const f = x - i;
  const a = VIRIDIS_RGB[i];
  const b = VIRIDIS_RGB[i + 1];
  const mix = (/** @type {number} */ k) => Math.round(a[k] + (b[k] - a[k]) * f);
  return `rgb(${mix(0)},${mix(1)},${mix(2)})`;
}

/**
 * The colour of a run: from the widget's `run_colors` trait, else the palette by position.
 * @param {Record<string, string> | undefined} runColors
 * @param {string} run
 * @param {number} index  the run's position (fallback)
 */
export function runColor(runColors, run, index) {
  return runColors?.[run] || categoryColor(index);
}
