// Axes on a canvas: grid lines and tick labels of a Scale (see scales.js).

/** @typedef {import("./scales").Scale} Scale */
/** @typedef {import("./scales").Tick} Tick */

/**
 * @typedef {object} Box
 * @property {number} left
 * @property {number} top
 * @property {number} right
 * @property {number} bottom
 */

/**
 * Faint grid lines at the ticks of the x and y scales, inside `box`.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Tick[]} xTicks
 * @param {Tick[]} yTicks
 * @param {Box} box
 * @param {string} color
 */
export function drawGrid(ctx, xTicks, yTicks, box, color) {
  ctx.save();
  ctx.strokeStyle = color;
  ctx.globalAlpha = 0.12;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of yTicks) {
    const y = Math.round(t.pos) + 0.5;
    ctx.moveTo(box.left, y);
    ctx.lineTo(box.right, y);
  }
  for (const t of xTicks) {
    const x = Math.round(t.pos) + 0.5;
    ctx.moveTo(x, box.top);
    ctx.lineTo(x, box.bottom);
  }
  ctx.stroke();
  ctx.restore();
}

/**
 * Tick marks and labels along one side. `side` "left": labels right-aligned left of x=`at`;
 * "bottom": labels centred below y=`at`, shifted inside `within` ([left, right], default the
 * canvas) so the first and last are never cut. Labels longer than `maxChars` end in "…".
 * @param {CanvasRenderingContext2D} ctx
 * @param {Tick[]} ticks
 * @param {{side: "left" | "bottom", at: number, color: string, font: string, tick?: number,
 *   maxChars?: number, alpha?: number, within?: [number, number]}} options
 */
export function drawTicks(ctx, ticks, options) {
  const { side, at, color, font, tick = 0, maxChars = 14, alpha = 0.75 } = options;
  const [minX, maxX] = options.within || [0, ctx.canvas.width / (ctx.getTransform().a || 1)];
  ctx.save();
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  ctx.font = font;
  ctx.globalAlpha = alpha;
  ctx.lineWidth = 1;
  if (tick) {
    ctx.beginPath();
    for (const t of ticks) {
      if (side === "left") {
        ctx.moveTo(at - tick, Math.round(t.pos) + 0.5);
        ctx.lineTo(at, Math.round(t.pos) + 0.5);
      } else {
        ctx.moveTo(Math.round(t.pos) + 0.5, at);
        ctx.lineTo(Math.round(t.pos) + 0.5, at + tick);
      }
    }
    ctx.stroke();
  }
  ctx.textAlign = side === "left" ? "right" : "center";
  ctx.textBaseline = side === "left" ? "middle" : "top";
  for (const t of ticks) {
    const label = t.label.length > maxChars ? `${t.label.slice(0, maxChars - 1)}…` : t.label;
    if (side === "left") ctx.fillText(label, at - tick - 3, t.pos);
    else {
      const half = ctx.measureText(label).width / 2;
      ctx.fillText(label, Math.min(Math.max(t.pos, minX + half), maxX - half), at + tick + 3);
    }
  }
  ctx.restore();
}

/**
 * The text colour and font of `element` for canvas drawing.
 * @param {Element} element
 * @param {number} [size]  font size in px
 */
export function canvasStyle(element, size = 10) {
  const style = getComputedStyle(element);
  return { color: style.color || "#333", font: `${size}px ${style.fontFamily || "sans-serif"}` };
}
