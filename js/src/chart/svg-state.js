// The drawing state of `SvgContext` (svg-context.js), the part of the 2D context API that
// only sets and reads: fill and stroke styles, line width, cap, join and dash, globalAlpha,
// font, text alignment, image smoothing, and the transform (translate, scale, rotate,
// transform, setTransform). save() copies it, restore() brings it back; the recording
// context reads it when it paints.
import { IDENTITY } from "./svg-path.js";

/** @typedef {import("./svg-path").Matrix} Matrix */

/**
 * @typedef {object} DrawState
 * @property {unknown} fillStyle
 * @property {unknown} strokeStyle
 * @property {number} lineWidth
 * @property {string} lineCap
 * @property {string} lineJoin
 * @property {number} miterLimit
 * @property {number} globalAlpha
 * @property {string} font
 * @property {string} textAlign
 * @property {string} textBaseline
 * @property {boolean} imageSmoothingEnabled
 * @property {number[]} dash
 * @property {number} lineDashOffset
 * @property {Matrix} m
 * @property {number} groups  clip groups opened since the matching save()
 */

/** @returns {DrawState} */
const initial = () => ({
  fillStyle: "#000",
  strokeStyle: "#000",
  lineWidth: 1,
  lineCap: "butt",
  lineJoin: "miter",
  miterLimit: 10,
  globalAlpha: 1,
  font: "10px sans-serif",
  textAlign: "start",
  textBaseline: "alphabetic",
  imageSmoothingEnabled: true,
  dash: [],
  lineDashOffset: 0,
  m: [...IDENTITY],
  groups: 0,
});

/**
 * @param {Matrix} m @param {Matrix} n
 * @returns {Matrix}
 */
export const multiply = (m, n) => [
  m[0] * n[0] + m[2] * n[1],
  m[1] * n[0] + m[3] * n[1],
  m[0] * n[2] + m[2] * n[3],
  m[1] * n[2] + m[3] * n[3],
  m[0] * n[4] + m[2] * n[5] + m[4],
  m[1] * n[4] + m[3] * n[5] + m[5],
];

/** The 2D context's state and transforms, for a recording context to extend. */
export class SvgState {
  constructor() {
    /** @type {DrawState} */
    this.s = initial();
    /** @type {DrawState[]} */
    this.stack = [];
  }

  // --- state -------------------------------------------------------------------------
  get fillStyle() {
    return this.s.fillStyle;
  }
  set fillStyle(v) {
    this.s.fillStyle = v;
  }
  get strokeStyle() {
    return this.s.strokeStyle;
  }
  set strokeStyle(v) {
    this.s.strokeStyle = v;
  }
  get lineWidth() {
    return this.s.lineWidth;
  }
  set lineWidth(v) {
    if (Number.isFinite(v) && v > 0) this.s.lineWidth = v;
  }
  get lineCap() {
    return this.s.lineCap;
  }
  set lineCap(v) {
    this.s.lineCap = v;
  }
  get lineJoin() {
    return this.s.lineJoin;
  }
  set lineJoin(v) {
    this.s.lineJoin = v;
  }
  get miterLimit() {
    return this.s.miterLimit;
  }
  set miterLimit(v) {
    this.s.miterLimit = v;
  }
  get globalAlpha() {
    return this.s.globalAlpha;
  }
  set globalAlpha(v) {
    if (Number.isFinite(v) && v >= 0 && v <= 1) this.s.globalAlpha = v;
  }
  get font() {
    return this.s.font;
  }
  set font(v) {
    this.s.font = v;
  }
  get textAlign() {
    return this.s.textAlign;
  }
  set textAlign(v) {
    this.s.textAlign = v;
  }
  get textBaseline() {
    return this.s.textBaseline;
  }
  set textBaseline(v) {
    this.s.textBaseline = v;
  }
  get imageSmoothingEnabled() {
    return this.s.imageSmoothingEnabled;
  }
  set imageSmoothingEnabled(v) {
    this.s.imageSmoothingEnabled = v;
  }
  get lineDashOffset() {
    return this.s.lineDashOffset;
  }
  set lineDashOffset(v) {
    this.s.lineDashOffset = v;
  }
  /** @param {number[]} dash */
  setLineDash(dash) {
    this.s.dash = dash.every((v) => Number.isFinite(v) && v >= 0) ? [...dash] : this.s.dash;
  }
  getLineDash() {
    return [...this.s.dash];
  }

  // --- transforms --------------------------------------------------------------------
  /** @param {number} a @param {number} b @param {number} c @param {number} d @param {number} e @param {number} f */
  transform(a, b, c, d, e, f) {
    this.s.m = multiply(this.s.m, [a, b, c, d, e, f]);
  }
  /** @param {number | DOMMatrix2DInit} a @param {number} [b] @param {number} [c] @param {number} [d] @param {number} [e] @param {number} [f] */
  setTransform(a, b, c, d, e, f) {
    if (typeof a === "object") {
      const t = a;
      this.s.m = [t.a ?? 1, t.b ?? 0, t.c ?? 0, t.d ?? 1, t.e ?? 0, t.f ?? 0];
    } else this.s.m = [a, b ?? 0, c ?? 0, d ?? 1, e ?? 0, f ?? 0];
  }
  resetTransform() {
    this.s.m = [...IDENTITY];
  }
  getTransform() {
    const [a, b, c, d, e, f] = this.s.m;
    return { a, b, c, d, e, f };
  }
  /** @param {number} x @param {number} y */
  translate(x, y) {
    this.transform(1, 0, 0, 1, x, y);
  }
  /** @param {number} x @param {number} y */
  scale(x, y) {
    this.transform(x, 0, 0, y, 0, 0);
  }
  /** @param {number} a */
  rotate(a) {
    this.transform(Math.cos(a), Math.sin(a), -Math.sin(a), Math.cos(a), 0, 0);
  }
}
