// Tracing lines into canvas paths: per-pixel vertex thinning, breaks at non-finite points.

/** @typedef {import("../core/types").Numbers} Numbers */
/** @typedef {{moveTo(x: number, y: number): void, lineTo(x: number, y: number): void}} PathSink */

/**
 * Trace one series into the current path: `px` holds projected x (pixels, NaN where not
 * drawable), `ys` the values, y projected as `y0 + (v - e0) * ay` (of log(v) when `logY`).
 *
 * Vertices are thinned by the "swinging door" rule: from the last vertex, a point is left
 * out while one straight segment passes within `tol` pixels (vertically) of it and of
 * every other point left out since, so the drawn line never strays more than `tol` from
 * any point (spikes stay; a smooth curve of a thousand points over a few hundred pixels
 * needs a fraction of the vertices). Non-finite points break the line; single drawable
 * points between breaks are returned as [x, y, ...] for the caller to draw as dots (a
 * line needs two). Nothing is allocated unless there are such points.
 * @param {PathSink} ctx
 * @param {Numbers} px
 * @param {Numbers} ys
 * @param {number} y0
 * @param {number} e0
 * @param {number} ay
 * @param {boolean} logY
 * @param {number} [tol]
 * @returns {number[] | null}
 */
export function tracePath(ctx, px, ys, y0, e0, ay, logY, tol = 0.5) {
  let pen = false; // a segment is open
  let ax0 = 0; // the last vertex (the door's hinge)
  let ay0 = 0;
  let lo = -Infinity; // slopes from the hinge that keep every point left out within tol
  let hi = Infinity;
  let pending = false; // (lx, ly) is left out so far, drawn if the segment ends on it
  let lx = 0;
  let ly = 0;
  let run = 0; // drawable points in the current segment
  /** @type {number[] | null} */
  let lonely = null;
  const n = Math.min(px.length, ys.length);
  for (let i = 0; i < n; i++) {
    const x = px[i];
    const v = ys[i];
    const y = logY ? (v > 0 ? y0 + (Math.log(v) - e0) * ay : NaN) : y0 + (v - e0) * ay;
    if (x - x !== 0 || y - y !== 0) {
      // not drawable (NaN or +-inf): close the segment
      if (pending) ctx.lineTo(lx, ly);
      if (run === 1) lonely = pushPoint(lonely, lx, ly);
      pen = false;
      pending = false;
      run = 0;
      continue;
    }
    run += 1;
    if (!pen) {
      ctx.moveTo(x, y);
      pen = true;
      ax0 = lx = x;
      ay0 = ly = y;
      lo = -Infinity;
      hi = Infinity;
      continue;
    }
    let dx = x - ax0;
    if (dx > 0) {
      const inv = 1 / dx;
      const s = (y - ay0) * inv;
      if (s >= lo && s <= hi) {
        const d = tol * inv;
        if (s - d > lo) lo = s - d;
        if (s + d < hi) hi = s + d;
        lx = x;
        ly = y;
        pending = true;
        continue;
      }
    }
    // The door closes: the last point left out becomes a vertex, and the new point
    // opens the next door from it (or is drawn at once when x went back).
    if (pending) {
      ctx.lineTo(lx, ly);
      ax0 = lx;
      ay0 = ly;
      pending = false;
      dx = x - ax0;
    }
    if (dx > 0) {
      const s = (y - ay0) / dx;
      const d = tol / dx;
      lo = s - d;
      hi = s + d;
      pending = true;
    } else {
      ctx.lineTo(x, y);
      ax0 = x;
      ay0 = y;
      lo = -Infinity;
      hi = Infinity;
    }
    lx = x;
    ly = y;
  }
  if (pending) ctx.lineTo(lx, ly);
  if (run === 1) lonely = pushPoint(lonely, lx, ly);
  return lonely;
}

/**
 * @param {number[] | null} list
 * @param {number} x
 * @param {number} y
 * @returns {number[]}
 */
function pushPoint(list, x, y) {
  const out = list || [];
  out.push(x, y);
  return out;
}

/**
 * x values projected to pixels (`r0 + (v - d0) * ax`) as a Float32Array; NaN if not finite.
 * @param {Numbers} xs
 * @param {number} d0
 * @param {number} r0
 * @param {number} ax
 * @param {Float32Array | null} [out]
 * @returns {Float32Array}
 */
export function projectX(xs, d0, r0, ax, out = null) {
  const n = xs.length;
  const res = out && out.length === n ? out : new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const p = r0 + (xs[i] - d0) * ax;
    res[i] = p - p === 0 ? p : NaN;
  }
  return res;
}

/**
 * Fill a band between `lo` and `hi` over `xs`: one polygon per run of points where x, lo and
 * hi are all drawable (fx/fy map values to pixels, NaN when not drawable).
 * @param {CanvasRenderingContext2D} ctx
 * @param {Numbers} xs
 * @param {Numbers} lo
 * @param {Numbers} hi
 * @param {string} color
 * @param {(v: number) => number} fx
 * @param {(v: number) => number} fy
 */
export function fillBand(ctx, xs, lo, hi, color, fx, fy) {
  ctx.fillStyle = color;
  ctx.globalAlpha = 0.18;
  let start = -1;
  const flush = (/** @type {number} */ end) => {
    if (start < 0 || end - start < 1) return;
    ctx.beginPath();
    for (let i = start; i <= end; i++) ctx.lineTo(fx(xs[i]), fy(hi[i]));
    for (let i = end; i >= start; i--) ctx.lineTo(fx(xs[i]), fy(lo[i]));
    ctx.closePath();
    ctx.fill();
  };
  for (let i = 0; i < xs.length; i++) {
    const ok = Number.isFinite(fx(xs[i])) && Number.isFinite(fy(lo[i])) && Number.isFinite(fy(hi[i]));
    if (ok && start < 0) start = i;
    if (!ok && start >= 0) {
      flush(i - 1);
      start = -1;
    }
  }
  if (start >= 0) flush(xs.length - 1);
  ctx.globalAlpha = 1;
}

/**
 * Many lines as one stroke per colour and dash (each line traced into its group's path),
 * with the lone points (a line of one point) as dots: 2,000 lines of 20 colours are 20
 * strokes. The drawing order changes only between lines of different colours.
 * @template {{color: string, dash: number}} T
 * @param {CanvasRenderingContext2D} ctx
 * @param {T[]} items
 * @param {number} width
 * @param {number[][]} dashes
 * @param {(item: T, path: Path2D) => number[] | null} trace  adds the item's line to `path`, returns its lone points
 */
export function strokeGrouped(ctx, items, width, dashes, trace) {
  /** @type {Map<string, {color: string, dash: number[], path: Path2D, dots: number[]}>} */
  const groups = new Map();
  for (const it of items) {
    const dash = dashes[it.dash % dashes.length];
    const key = `${it.color}|${it.dash % dashes.length}`;
    let group = groups.get(key);
    if (!group) {
      group = { color: it.color, dash, path: new Path2D(), dots: [] };
      groups.set(key, group);
    }
    const lonely = trace(it, group.path);
    if (lonely) for (const v of lonely) group.dots.push(v);
  }
  ctx.lineWidth = width;
  for (const g of groups.values()) {
    ctx.setLineDash(g.dash);
    ctx.strokeStyle = g.color;
    ctx.stroke(g.path);
    if (!g.dots.length) continue;
    ctx.fillStyle = g.color;
    ctx.beginPath();
    for (let k = 0; k < g.dots.length; k += 2) {
      ctx.moveTo(g.dots[k] + width + 1, g.dots[k + 1]);
      ctx.arc(g.dots[k], g.dots[k + 1], width + 1, 0, Math.PI * 2);
    }
    ctx.fill();
  }
}
