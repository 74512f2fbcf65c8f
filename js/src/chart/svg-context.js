// A recording 2D context that writes SVG. Charts draw with a CanvasRenderingContext2D; to
// export a chart as SVG its same draw functions run into an `SvgContext`, so the SVG and
// the PNG show the same thing. It implements the subset of the 2D API our drawing uses:
// paths (moveTo, lineTo, bezierCurveTo, quadraticCurveTo, arc, rect, roundRect, closePath,
// Path2D through `makePath`), fill/stroke with their styles, line width, cap, join and dash,
// globalAlpha, fillRect/strokeRect, fillText/strokeText with font/textAlign/textBaseline,
// save/restore, translate/scale/rotate/transform/setTransform, clip, and drawImage of a
// canvas or bitmap (embedded as a PNG: a heatmap stays raster, its axes are vector).
// Every string (text, colours, fonts) is XML-escaped: log strings stay text.
import { IDENTITY, num, SvgPath } from "./svg-path.js";
import { multiply, SvgState } from "./svg-state.js";
import { ANCHOR, BASELINE, defaultMeasurer, escapeXML, fontAttributes, imageURL, paint } from "./svg-style.js";

export { escapeXML, fontAttributes, paint };

/**
 * Records 2D drawing as SVG: `new SvgContext(w, h)`, draw, then `toString()`. The state
 * (styles, transforms) lives in `SvgState`; here are paths, painting, text and images.
 */
export class SvgContext extends SvgState {
  /**
   * @param {number} width   CSS pixels
   * @param {number} height
   * @param {{measure?: CanvasRenderingContext2D | null, title?: string, ids?: string}} [options]
   *   measure: a real context for text widths (a 0.6 em per character estimate without it);
   *   ids: the prefix of clip path ids (distinct for contexts embedded in one document)
   */
  constructor(width, height, options = {}) {
    super();
    /** Marks this context for `makePath()`. */
    this.svg = true;
    this.width = width;
    this.height = height;
    this.canvas = { width, height };
    this.title = options.title || "";
    this.measurer = options.measure === undefined ? defaultMeasurer() : options.measure;
    /** @type {string[]} */
    this.body = [];
    /** @type {string[]} */
    this.defs = [];
    this.path = new SvgPath(() => this.s.m);
    this.clips = 0;
    this.ids = options.ids || "c";
  }

  // --- save and restore (clip groups opened since save() close at restore()) -----------
  save() {
    this.stack.push({ ...this.s, m: [...this.s.m], dash: [...this.s.dash] });
    this.s.groups = 0;
  }

  restore() {
    const prev = this.stack.pop();
    if (!prev) return;
    for (let i = 0; i < this.s.groups; i++) this.body.push("</g>");
    this.s = prev;
  }

  // --- the current path --------------------------------------------------------------
  beginPath() {
    this.path = new SvgPath(() => this.s.m);
  }
  /** @param {number} x @param {number} y */
  moveTo(x, y) {
    this.path.moveTo(x, y);
  }
  /** @param {number} x @param {number} y */
  lineTo(x, y) {
    this.path.lineTo(x, y);
  }
  /** @param {number} a @param {number} b @param {number} c @param {number} d @param {number} x @param {number} y */
  bezierCurveTo(a, b, c, d, x, y) {
    this.path.bezierCurveTo(a, b, c, d, x, y);
  }
  /** @param {number} a @param {number} b @param {number} x @param {number} y */
  quadraticCurveTo(a, b, x, y) {
    this.path.quadraticCurveTo(a, b, x, y);
  }
  /** @param {number} x @param {number} y @param {number} r @param {number} a0 @param {number} a1 @param {boolean} [ccw] */
  arc(x, y, r, a0, a1, ccw) {
    this.path.arc(x, y, r, a0, a1, ccw);
  }
  /** @param {number} x @param {number} y @param {number} w @param {number} h */
  rect(x, y, w, h) {
    this.path.rect(x, y, w, h);
  }
  /** @param {number} x @param {number} y @param {number} w @param {number} h @param {number | number[]} [r] */
  roundRect(x, y, w, h, r) {
    this.path.roundRect(x, y, w, h, r);
  }
  closePath() {
    this.path.closePath();
  }

  // --- painting ----------------------------------------------------------------------
  /** The scale of the current transform (line widths, font sizes). */
  unit() {
    const [a, b, c, d] = this.s.m;
    return Math.sqrt(Math.abs(a * d - b * c)) || 1;
  }

  /**
   * The path to paint: the argument (a Path2D from makePath, in user space: it gets the
   * transform attribute) or the current path (already mapped).
   * @param {unknown} p
   * @returns {{d: string, extra: string} | null}
   */
  target(p) {
    if (p instanceof SvgPath) {
      const m = this.s.m;
      const identity = m.every((v, i) => v === IDENTITY[i]);
      return { d: p.d, extra: identity ? "" : ` transform="matrix(${m.map(num).join(" ")})"` };
    }
    return { d: this.path.d, extra: "" };
  }

  /** @param {unknown} [a] @param {unknown} [b] */
  fill(a, b) {
    const t = this.target(a);
    if (!t?.d) return;
    const rule = (typeof a === "string" ? a : b) === "evenodd" ? ' fill-rule="evenodd"' : "";
    const [color, alpha] = paint(this.s.fillStyle);
    this.emit(`<path d="${t.d}" fill="${escapeXML(color)}"${this.opacity("fill", alpha)}${rule}${t.extra}/>`);
  }

  /** @param {unknown} [p] */
  stroke(p) {
    const t = this.target(p);
    if (!t?.d) return;
    const own = !(p instanceof SvgPath);
    this.emit(`<path d="${t.d}" fill="none"${this.strokeAttributes(own ? this.unit() : 1)}${t.extra}/>`);
  }

  /** @param {number} scale line width factor */
  strokeAttributes(scale) {
    const s = this.s;
    const [color, alpha] = paint(s.strokeStyle);
    let out = ` stroke="${escapeXML(color)}" stroke-width="${num(s.lineWidth * scale) || "0.01"}"`;
    out += this.opacity("stroke", alpha);
    if (s.lineCap !== "butt") out += ` stroke-linecap="${escapeXML(s.lineCap)}"`;
    if (s.lineJoin !== "miter") out += ` stroke-linejoin="${escapeXML(s.lineJoin)}"`;
    if (s.dash.length) {
      const dash = s.dash.length % 2 ? [...s.dash, ...s.dash] : s.dash;
      out += ` stroke-dasharray="${dash.map((v) => num(v * scale)).join(" ")}"`;
      if (s.lineDashOffset) out += ` stroke-dashoffset="${num(s.lineDashOffset * scale)}"`;
    }
    return out;
  }

  /** @param {"fill" | "stroke"} kind @param {number} alpha  of the colour */
  opacity(kind, alpha) {
    const a = alpha * this.s.globalAlpha;
    return a < 1 ? ` ${kind}-opacity="${Math.round(a * 1000) / 1000}"` : "";
  }

  /** @param {unknown} [a] @param {unknown} [b] */
  clip(a, b) {
    const t = this.target(a);
    if (!t) return;
    const id = `${this.ids}${++this.clips}`;
    const rule = (typeof a === "string" ? a : b) === "evenodd" ? ' clip-rule="evenodd"' : "";
    this.defs.push(`<clipPath id="${id}"><path d="${t.d || "M0 0"}"${rule}${t.extra}/></clipPath>`);
    this.body.push(`<g clip-path="url(#${id})">`);
    this.s.groups++;
  }

  /** @param {number} x @param {number} y @param {number} w @param {number} h */
  fillRect(x, y, w, h) {
    const saved = this.path;
    this.beginPath();
    this.rect(x, y, w, h);
    this.fill();
    this.path = saved;
  }

  /** @param {number} x @param {number} y @param {number} w @param {number} h */
  strokeRect(x, y, w, h) {
    const saved = this.path;
    this.beginPath();
    this.rect(x, y, w, h);
    this.stroke();
    this.path = saved;
  }

  /** Clearing has no meaning in a vector document that starts empty: a no-op. */
  clearRect() {}

  // --- text --------------------------------------------------------------------------
  /** @param {string} text */
  measureText(text) {
    if (this.measurer) {
      this.measurer.font = this.s.font;
      return this.measurer.measureText(text);
    }
    const size = Number(/([\d.]+)px/.exec(this.s.font)?.[1] ?? 10);
    return /** @type {TextMetrics} */ ({ width: String(text).length * size * 0.6 });
  }

  /** @param {string} text @param {number} x @param {number} y @param {number} [maxWidth] */
  fillText(text, x, y, maxWidth) {
    const [color, alpha] = paint(this.s.fillStyle);
    this.text(text, x, y, maxWidth, ` fill="${escapeXML(color)}"${this.opacity("fill", alpha)}`);
  }

  /** @param {string} text @param {number} x @param {number} y @param {number} [maxWidth] */
  strokeText(text, x, y, maxWidth) {
    this.text(text, x, y, maxWidth, ` fill="none"${this.strokeAttributes(1)}`);
  }

  /**
   * @param {string} text @param {number} x @param {number} y
   * @param {number | undefined} maxWidth @param {string} look
   */
  text(text, x, y, maxWidth, look) {
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const s = this.s;
    const m = s.m;
    const plain = m[0] === m[3] && m[0] > 0 && m[1] === 0 && m[2] === 0;
    const pos = plain
      ? `x="${num(m[0] * x + m[4])}" y="${num(m[3] * y + m[5])}"`
      : `x="${num(x)}" y="${num(y)}" transform="matrix(${m.map(num).join(" ")})"`;
    let font = fontAttributes(s.font);
    if (plain && m[0] !== 1) {
      font = font.replace(/font-size="([\d.]+)"/, (_, v) => `font-size="${num(Number(v) * m[0])}"`);
    }
    const anchor = ANCHOR[s.textAlign] || "start";
    const base = BASELINE[s.textBaseline] || "alphabetic";
    let fit = "";
    if (maxWidth !== undefined && this.measureText(text).width > maxWidth) {
      fit = ` textLength="${num(maxWidth * (plain ? m[0] : 1))}" lengthAdjust="spacingAndGlyphs"`;
    }
    this.emit(
      `<text ${pos} ${font}${look}` +
        `${anchor !== "start" ? ` text-anchor="${anchor}"` : ""}` +
        `${base !== "alphabetic" ? ` dominant-baseline="${base}"` : ""}` +
        `${fit} xml:space="preserve">${escapeXML(text)}</text>`,
    );
  }

  // --- images ------------------------------------------------------------------------
  /**
   * Draw a canvas, bitmap or image, embedded as a PNG data URL (only a source that can
   * make one is drawn).
   * @param {CanvasImageSource} image
   * @param {...number} args  (dx, dy), (dx, dy, dw, dh) or (sx, sy, sw, sh, dx, dy, dw, dh)
   */
  drawImage(image, ...args) {
    const src = /** @type {any} */ (image);
    const iw = src.width ?? src.videoWidth ?? 0;
    const ih = src.height ?? src.videoHeight ?? 0;
    let [sx, sy, sw, sh] = [0, 0, iw, ih];
    let dx;
    let dy;
    let dw = iw;
    let dh = ih;
    if (args.length === 2) [dx, dy] = args;
    else if (args.length === 4) [dx, dy, dw, dh] = args;
    else [sx, sy, sw, sh, dx, dy, dw, dh] = args;
    const url = imageURL(src, sx, sy, sw, sh);
    if (!url) return;
    const m = this.s.m;
    const smooth = this.s.imageSmoothingEnabled ? "" : ' image-rendering="pixelated" style="image-rendering:pixelated"';
    const alpha = this.s.globalAlpha < 1 ? ` opacity="${this.s.globalAlpha}"` : "";
    this.emit(
      `<image x="${num(dx)}" y="${num(dy)}" width="${num(dw)}" height="${num(dh)}" preserveAspectRatio="none"` +
        ` href="${escapeXML(url)}"${smooth}${alpha} transform="matrix(${m.map(num).join(" ")})"/>`,
    );
  }

  /** @param {string} element */
  emit(element) {
    this.body.push(element);
  }

  /** The elements drawn, open clip groups closed. */
  elements() {
    let open = this.s.groups;
    for (const st of this.stack) open += st.groups;
    return `${this.body.join("\n")}${"</g>".repeat(open)}`;
  }

  /**
   * Draw what `child` recorded with its origin at (x, y) of this context's current
   * transform: a chart drawn on its own (its setTransform calls relative to itself) placed
   * in a larger document. Give the child its own `ids` prefix.
   * @param {SvgContext} child @param {number} x @param {number} y
   */
  embed(child, x, y) {
    this.defs.push(...child.defs);
    const m = multiply(this.s.m, [1, 0, 0, 1, x, y]);
    this.emit(`<g transform="matrix(${m.map(num).join(" ")})">\n${child.elements()}\n</g>`);
  }

  /** The SVG document (open clip groups closed). */
  toString() {
    const title = this.title ? `<title>${escapeXML(this.title)}</title>` : "";
    const defs = this.defs.length ? `<defs>${this.defs.join("")}</defs>` : "";
    return (
      '<?xml version="1.0" encoding="UTF-8"?>\n' +
      `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${num(this.width)}" height="${num(this.height)}"` +
      ` viewBox="0 0 ${num(this.width)} ${num(this.height)}">` +
      `${title}${defs}\n${this.elements()}\n</svg>\n`
    );
  }
}
