// Text labels on the overlay canvas (canvas text: names from logs are never markup).
// The focused point, its neighbours and the hovered point are always labelled; with a label
// column chosen, so is a decluttered sample of the visible points (a grid of cells, first
// come first served in a fixed order, so the same points are labelled frame after frame;
// a label takes every cell its text covers, so labels never overlap).

const CELL_W = 90;
const CELL_H = 18;
const SAMPLE = 6000;
const MAX_LABELS = 160;
const MAX_CHARS = 40;
const CHAR_W = 6.2; // average advance of 11px system-ui, generous

/** @param {string} text */
function clip(text) {
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}

/** Approximate width in CSS pixels of a label as drawLabel draws it. @param {string} text */
export function labelWidth(text) {
  return clip(text).length * CHAR_W + 8;
}

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} text @param {number} x @param {number} y
 * @param {boolean} strong
 */
export function drawLabel(ctx, text, x, y, strong) {
  const shown = clip(text);
  ctx.font = `${strong ? "600 " : ""}11px system-ui, sans-serif`;
  ctx.lineWidth = 3;
  ctx.strokeStyle = "rgba(255,255,255,0.85)";
  ctx.fillStyle = strong ? "#111" : "#333";
  ctx.strokeText(shown, x + 6, y - 4);
  ctx.fillText(shown, x + 6, y - 4);
}

/**
 * Indices of sampled visible points to label, decluttered.
 * @param {Float32Array} screen  CSS pixels of every point (see Scene.screen)
 * @param {number} width @param {number} height
 * @param {Uint8Array | null} priority  points to label first (search matches, selection)
 * @param {(i: number) => number} [widthOf]  a label's width in CSS pixels (default one cell)
 * @returns {number[]}
 */
export function declutter(screen, width, height, priority, widthOf) {
  const n = screen.length / 2;
  const cols = Math.ceil(width / CELL_W);
  const taken = new Set();
  /** @type {number[]} */
  const out = [];
  /** @param {number} i */
  const place = (i) => {
    const x = screen[2 * i];
    const y = screen[2 * i + 1];
    if (!(x >= 0 && x < width && y >= 0 && y < height)) return;
    // the text's box (see drawLabel): x + 6 .. x + 6 + width, y - 15 .. y - 2
    const rows = [Math.floor(Math.max(y - 15, 0) / CELL_H), Math.floor((y - 2) / CELL_H)];
    const first = Math.floor(x / CELL_W);
    const last = Math.min(cols - 1, Math.floor((x + 6 + (widthOf ? widthOf(i) : 1)) / CELL_W));
    for (const row of rows) for (let c = first; c <= last; c++) if (taken.has(row * cols + c)) return;
    for (const row of rows) for (let c = first; c <= last; c++) taken.add(row * cols + c);
    out.push(i);
  };
  if (priority) {
    for (let i = 0; i < n && out.length < MAX_LABELS; i++) if (priority[i]) place(i);
  }
  const stride = Math.max(1, Math.floor(n / SAMPLE));
  for (let i = 0; i < n && out.length < MAX_LABELS; i += stride) place(i);
  return out;
}
