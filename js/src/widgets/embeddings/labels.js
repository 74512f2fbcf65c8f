// Text labels on the overlay canvas (canvas text: names from logs are never markup).
// The focused point, its neighbours and the hovered point are always labelled; with a label
// column chosen, so is a decluttered sample of the visible points (a grid of cells, first
// come first served in a fixed order, so the same points are labelled frame after frame).

const CELL_W = 90;
const CELL_H = 18;
const SAMPLE = 6000;
const MAX_LABELS = 160;

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {string} text @param {number} x @param {number} y
 * @param {boolean} strong
 */
export function drawLabel(ctx, text, x, y, strong) {
  const shown = text.length > 40 ? `${text.slice(0, 39)}…` : text;
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
 * @returns {number[]}
 */
export function declutter(screen, width, height, priority) {
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
    const cell = Math.floor(y / CELL_H) * cols + Math.floor(x / CELL_W);
    if (taken.has(cell)) return;
    taken.add(cell);
    out.push(i);
  };
  if (priority) {
    for (let i = 0; i < n && out.length < MAX_LABELS; i++) if (priority[i]) place(i);
  }
  const stride = Math.max(1, Math.floor(n / SAMPLE));
  for (let i = 0; i < n && out.length < MAX_LABELS; i += stride) place(i);
  return out;
}
