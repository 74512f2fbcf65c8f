// Path building for the SVG context: the Path2D subset our drawing uses (moveTo, lineTo,
// bezierCurveTo, quadraticCurveTo, arc, ellipse-free rect and roundRect, closePath), each
// point mapped through the current transform as it is added (as a canvas does), arcs as
// cubic Béziers (exact under any affine map). `SvgPath` stands in for Path2D when a chart
// draws into an `SvgContext` (`makePath(ctx)`).

/** @typedef {[number, number, number, number, number, number]} Matrix  a b c d e f */

/** @type {Matrix} */
export const IDENTITY = [1, 0, 0, 1, 0, 0];

/** @param {number} v */
export const num = (v) => {
  const r = Math.round(v * 100) / 100;
  return Object.is(r, -0) ? "0" : String(r);
};

export class SvgPath {
  /** @param {() => Matrix} [matrix] the transform points go through (identity for a Path2D) */
  constructor(matrix) {
    this.matrix = matrix || (() => IDENTITY);
    /** @type {string[]} */
    this.parts = [];
    /** @type {[number, number] | null} current point, user space */
    this.at = null;
    /** @type {[number, number] | null} start of the subpath, user space */
    this.start = null;
  }

  /** @param {number} x @param {number} y */
  pt(x, y) {
    const [a, b, c, d, e, f] = this.matrix();
    return `${num(a * x + c * y + e)} ${num(b * x + d * y + f)}`;
  }

  /** @param {number} x @param {number} y */
  moveTo(x, y) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    this.parts.push(`M${this.pt(x, y)}`);
    this.at = [x, y];
    this.start = [x, y];
  }

  /** @param {number} x @param {number} y */
  lineTo(x, y) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    if (!this.at) return this.moveTo(x, y);
    this.parts.push(`L${this.pt(x, y)}`);
    this.at = [x, y];
  }

  /**
   * @param {number} x1 @param {number} y1 @param {number} x2 @param {number} y2
   * @param {number} x @param {number} y
   */
  bezierCurveTo(x1, y1, x2, y2, x, y) {
    if (!this.at) this.moveTo(x1, y1);
    this.parts.push(`C${this.pt(x1, y1)} ${this.pt(x2, y2)} ${this.pt(x, y)}`);
    this.at = [x, y];
  }

  /** @param {number} cx @param {number} cy @param {number} x @param {number} y */
  quadraticCurveTo(cx, cy, x, y) {
    if (!this.at) this.moveTo(cx, cy);
    const [x0, y0] = /** @type {[number, number]} */ (this.at);
    const k = 2 / 3;
    this.bezierCurveTo(x0 + k * (cx - x0), y0 + k * (cy - y0), x + k * (cx - x), y + k * (cy - y), x, y);
  }

  /**
   * @param {number} cx @param {number} cy @param {number} r
   * @param {number} a0 @param {number} a1 @param {boolean} [ccw]
   */
  arc(cx, cy, r, a0, a1, ccw = false) {
    if (![cx, cy, r, a0, a1].every(Number.isFinite) || r < 0) return;
    const full = Math.PI * 2;
    let sweep = a1 - a0;
    if (!ccw && sweep < 0) sweep = (sweep % full) + full;
    if (ccw && sweep > 0) sweep = (sweep % full) - full;
    if (Math.abs(a1 - a0) >= full) sweep = ccw ? -full : full;
    const x0 = cx + r * Math.cos(a0);
    const y0 = cy + r * Math.sin(a0);
    if (this.at) this.lineTo(x0, y0);
    else this.moveTo(x0, y0);
    const n = Math.max(1, Math.ceil(Math.abs(sweep) / (Math.PI / 2) - 1e-9));
    const step = sweep / n;
    const k = (4 / 3) * Math.tan(step / 4);
    let a = a0;
    for (let i = 0; i < n; i++) {
      const b = a + step;
      const [ca, sa, cb, sb] = [Math.cos(a), Math.sin(a), Math.cos(b), Math.sin(b)];
      this.bezierCurveTo(
        cx + r * (ca - k * sa),
        cy + r * (sa + k * ca),
        cx + r * (cb + k * sb),
        cy + r * (sb - k * cb),
        cx + r * cb,
        cy + r * sb,
      );
      a = b;
    }
  }

  /** @param {number} x @param {number} y @param {number} w @param {number} h */
  rect(x, y, w, h) {
    this.moveTo(x, y);
    this.lineTo(x + w, y);
    this.lineTo(x + w, y + h);
    this.lineTo(x, y + h);
    this.closePath();
    this.moveTo(x, y);
  }

  /**
   * @param {number} x @param {number} y @param {number} w @param {number} h
   * @param {number | number[]} [radii]
   */
  roundRect(x, y, w, h, radii = 0) {
    const r0 = Array.isArray(radii) ? (radii[0] ?? 0) : radii;
    const r = Math.max(0, Math.min(Number(r0) || 0, Math.abs(w) / 2, Math.abs(h) / 2));
    if (!r) return this.rect(x, y, w, h);
    const H = Math.PI / 2;
    this.moveTo(x + r, y);
    this.arc(x + w - r, y + r, r, -H, 0);
    this.arc(x + w - r, y + h - r, r, 0, H);
    this.arc(x + r, y + h - r, r, H, 2 * H);
    this.arc(x + r, y + r, r, 2 * H, 3 * H);
    this.closePath();
  }

  closePath() {
    if (!this.at) return;
    this.parts.push("Z");
    this.at = this.start;
  }

  /** Path data for a `d` attribute. */
  get d() {
    return this.parts.join("");
  }
}

/**
 * A Path2D for `ctx`: an `SvgPath` (identity transform: the context maps it when it is
 * filled or stroked) when `ctx` records SVG, else a real Path2D.
 *
 * @param {CanvasRenderingContext2D | {svg: true}} ctx
 * @returns {Path2D}
 */
export function makePath(ctx) {
  if ("svg" in ctx && ctx.svg) return /** @type {any} */ (new SvgPath());
  return new Path2D();
}
