// A small canvas line chart: per-series x arrays (runs log at different steps),
// a faint raw line behind the smoothed one, optional bands (aggregates), linear/log y,
// linear/time x, hover readout and drag-to-zoom. d3-scale gives scales and nice ticks.
import { scaleLinear, scaleLog, scaleTime } from "d3-scale";
import { finiteExtent, yDomain } from "./domain.js";
import { isSorted, nearestScan, nearestSorted } from "./util.js";

const MARGIN = { left: 54, right: 20, top: 8, bottom: 24 };
const DASHES = [[], [6, 3], [2, 3], [8, 3, 2, 3]];
// Above this many series a chart draws its lines one device pixel wide. Skia (Chromium's
// canvas) rasterises such strokes as hairlines, several times faster than wider ones:
// with 100 runs in ten charts in view, 1.6px lines took ~500 ms to rasterise, hairlines
// ~60 ms. A hundred overlapping thick lines read worse anyway.
export const THIN_ABOVE = 24;

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
  let lonely = null;
  const n = Math.min(px.length, ys.length);
  for (let i = 0; i < n; i++) {
    const x = px[i];
    const v = ys[i];
    const y = logY ? (v > 0 ? y0 + (Math.log(v) - e0) * ay : NaN) : y0 + (v - e0) * ay;
    if (x - x !== 0 || y - y !== 0) {
      // not drawable (NaN or +-inf): close the segment
      if (pending) ctx.lineTo(lx, ly);
      if (run === 1) (lonely || (lonely = [])).push(lx, ly);
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
  if (run === 1) (lonely || (lonely = [])).push(lx, ly);
  return lonely;
}

/** x values projected to pixels (`r0 + (v - d0) * ax`) as a Float32Array; NaN if not finite. */
export function projectX(xs, d0, r0, ax, out = null) {
  const n = xs.length;
  const res = out && out.length === n ? out : new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const p = r0 + (xs[i] - d0) * ax;
    res[i] = p - p === 0 ? p : NaN;
  }
  return res;
}

export class LineChart {
  /**
   * @param {HTMLElement} host element the canvas goes into
   * @param {{height:number, onZoom:(d:[number,number]|null)=>void, tooltip:()=>{sort:string}}} opts
   */
  constructor(host, opts) {
    this.host = host;
    this.opts = opts;
    this.height = opts.height || 220;
    this.series = [];
    this.xType = "linear";
    this.logY = false;
    this.outliers = false;
    this.yRange = [null, null];
    this.zoom = null;
    this.showRaw = true;
    this.hoverX = null;
    // x arrays projected to pixels, per array, for the current x map (a smoothing
    // change redraws with the same ones).
    this._px = new WeakMap();
    // Traced lines (Path2D) per owner (a raw y array, a smoothed result) for the current
    // maps: a run toggle that leaves the axes as they were re-strokes them untraced.
    this._paths = new WeakMap();
    this._extents = new WeakMap(); // finite extent of each x array
    this.wrap = document.createElement("div");
    this.wrap.className = "tbnb-canvas-wrap";
    this.canvas = document.createElement("canvas");
    this.canvas.className = "tbnb-canvas";
    this.mid = document.createElement("canvas");
    this.mid.className = "tbnb-canvas-layer";
    this.over = document.createElement("canvas");
    this.over.className = "tbnb-canvas-layer tbnb-canvas-over";
    this.tip = document.createElement("div");
    this.tip.className = "tbnb-tooltip";
    this.tip.style.display = "none";
    this.wrap.append(this.canvas, this.mid, this.over, this.tip);
    host.append(this.wrap);
    this.width = host.clientWidth || 360;
    this._bindEvents();
  }

  setData(state) {
    Object.assign(this, state);
    for (const s of this.series) if (s.sorted === undefined) s.sorted = isSorted(s.x);
  }

  xDomain() {
    if (this.zoom) return this.zoom;
    let lo = Infinity;
    let hi = -Infinity;
    for (const s of this.series) {
      let ext = this._extents.get(s.x);
      if (!ext) {
        ext = finiteExtent(s.x, Infinity, -Infinity);
        this._extents.set(s.x, ext);
      }
      if (ext[0] < lo) lo = ext[0];
      if (ext[1] > hi) hi = ext[1];
    }
    if (lo === Infinity) return [0, 1];
    if (lo === hi) return [lo - 1, hi + 1];
    return [lo, hi];
  }

  scales() {
    const w = Math.max(this.width, 120);
    const h = this.height;
    const xd = this.xDomain();
    const xs = (this.xType === "time" ? scaleTime() : scaleLinear())
      .domain(this.xType === "time" ? xd.map((v) => new Date(v)) : xd)
      .range([MARGIN.left, w - MARGIN.right]);
    let yd = yDomain(this.series, xd, { logY: this.logY, outliers: this.outliers, showRaw: this.showRaw });
    const [mlo, mhi] = this.yRange || [null, null];
    if (mlo !== null && mlo !== undefined && Number.isFinite(mlo) && (!this.logY || mlo > 0)) yd = [mlo, yd[1]];
    if (mhi !== null && mhi !== undefined && Number.isFinite(mhi) && (!this.logY || mhi > 0)) yd = [yd[0], mhi];
    if (!(yd[1] > yd[0])) yd = [yd[0], yd[0] + (this.logY ? yd[0] : 1)];
    const ys = (this.logY ? scaleLog() : scaleLinear()).domain(yd).range([h - MARGIN.bottom, MARGIN.top]);
    const manual = mlo !== null && mlo !== undefined || mhi !== null && mhi !== undefined;
    if (!this.logY && !this.outliers && !manual) ys.nice(5);
    return { xs, ys, w, h };
  }

  /**
   * Redraw. Three stacked canvases: "all" redraws axes and raw lines (base), the
   * smoothed lines and bands (mid) and the hover layer (over); "smooth" only mid and
   * over (the raw lines and, when they are drawn, the y range do not depend on the
   * smoothing: a debiased EMA is a weighted mean of raw values); "over" only hover.
   */
  draw(level = "all") {
    if (!this._maps || level === "all" || (level === "smooth" && !this.showRaw)) {
      this._layout();
      this._drawBase();
      this._drawMid();
    } else if (level === "smooth") {
      this._drawMid();
    }
    this._drawOver();
  }

  _layout() {
    const dpr = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
    this.width = this.host.clientWidth || this.width || 360;
    const { xs, ys, w, h } = this.scales();
    this._scales = { xs, ys };
    for (const c of [this.canvas, this.mid, this.over]) {
      if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
        c.width = Math.round(w * dpr);
        c.height = Math.round(h * dpr);
        c.style.width = `${w}px`;
        c.style.height = `${h}px`;
      }
    }
    // Plain affine maps (d3 scales are only used for domains and ticks): the
    // inner drawing loops run over every point of every series.
    const [d0, d1] = xs.domain().map(Number);
    const [r0, r1] = xs.range();
    const ax = (r1 - r0) / (d1 - d0 || 1);
    const logY = this.logY;
    const [e0, e1] = ys.domain().map((v) => (logY ? Math.log(v) : v));
    const [q0, q1] = ys.range();
    const ay = (q1 - q0) / (e1 - e0 || 1);
    const style = getComputedStyle(this.host);
    this._maps = {
      dpr, w, h,
      fg: style.color || "#333",
      font: `10px ${style.fontFamily || "sans-serif"}`,
      fx: (v) => r0 + (v - d0) * ax,
      fy: logY ? (v) => (v > 0 ? q0 + (Math.log(v) - e0) * ay : NaN) : (v) => q0 + (v - e0) * ay,
      xmap: [d0, r0, ax],
      ymap: [q0, e0, ay, logY],
    };
  }

  /** Projected x of one series (cached per x array and x map). */
  _projected(x) {
    const [d0, r0, ax] = this._maps.xmap;
    const hit = this._px.get(x);
    if (hit && hit.d0 === d0 && hit.r0 === r0 && hit.ax === ax) return hit.px;
    const px = projectX(x, d0, r0, ax, hit ? hit.px : null);
    this._px.set(x, { d0, r0, ax, px });
    return px;
  }

  /** Line widths (raw, smoothed) in CSS pixels for this many series. */
  _widths() {
    if (this.series.length > THIN_ABOVE) {
      const thin = 1 / this._maps.dpr;
      return [thin, thin];
    }
    return [1, 1.6];
  }

  _context(canvas, clip) {
    const { dpr, w, h } = this._maps;
    const ctx = canvas.getContext("2d");
    if (!ctx) return null;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    if (clip) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(MARGIN.left, MARGIN.top, w - MARGIN.left - MARGIN.right, h - MARGIN.top - MARGIN.bottom);
      ctx.clip();
    }
    return ctx;
  }

  _drawBase() {
    const ctx = this._context(this.canvas, false);
    if (!ctx) return;
    const { w, h, fg, font, fx, fy } = this._maps;
    ctx.font = font;
    this._axes(ctx, this._scales.xs, this._scales.ys, w, h, fg);
    ctx.save();
    ctx.beginPath();
    ctx.rect(MARGIN.left, MARGIN.top, w - MARGIN.left - MARGIN.right, h - MARGIN.top - MARGIN.bottom);
    ctx.clip();
    if (this.showRaw) {
      ctx.globalAlpha = 0.25;
      const width = this._widths()[0];
      for (const s of this.series) {
        if (s.y === s.ys) continue;
        ctx.setLineDash(DASHES[(s.dash || 0) % DASHES.length]);
        this._line(ctx, s.x, s.y, s.color, width, s.y);
      }
    }
    ctx.restore();
  }

  _drawMid() {
    const ctx = this._context(this.mid, true);
    if (!ctx) return;
    const { fx, fy } = this._maps;
    const width = this._widths()[1];
    for (const s of this.series) {
      ctx.setLineDash(DASHES[(s.dash || 0) % DASHES.length]);
      if (s.lo) this._band(ctx, s, fx, fy);
      ctx.globalAlpha = 1;
      // the smoothed arrays are rewritten in place: the owner is the result (s.src)
      this._line(ctx, s.x, s.ys, s.color, width, s.src || null);
    }
    ctx.restore();
  }

  _drawOver() {
    const ctx = this._context(this.over, false);
    if (!ctx) return;
    const { h, fx, fy } = this._maps;
    if (this.hoverX !== null) this._hover(ctx, fx, fy, h);
    else this.tip.style.display = "none";
    if (this._drag) {
      ctx.fillStyle = "rgba(100,100,100,0.15)";
      const a = Math.min(this._drag.a, this._drag.b);
      ctx.fillRect(a, MARGIN.top, Math.abs(this._drag.b - this._drag.a), h - MARGIN.top - MARGIN.bottom);
    }
  }

  _axes(ctx, xs, ys, w, h, fg) {
    ctx.strokeStyle = fg;
    ctx.fillStyle = fg;
    ctx.globalAlpha = 0.12;
    ctx.lineWidth = 1;
    const yt = this.logY ? ys.ticks(4) : ys.ticks(5);
    const xt = xs.ticks(Math.max(2, Math.floor((w - MARGIN.left) / 90)));
    ctx.beginPath();
    for (const t of yt) {
      const y = Math.round(ys(t)) + 0.5;
      ctx.moveTo(MARGIN.left, y);
      ctx.lineTo(w - MARGIN.right, y);
    }
    for (const t of xt) {
      const x = Math.round(xs(t)) + 0.5;
      ctx.moveTo(x, MARGIN.top);
      ctx.lineTo(x, h - MARGIN.bottom);
    }
    ctx.stroke();
    ctx.globalAlpha = 0.7;
    const yf = this.logY ? ys.tickFormat(4, "~g") : ys.tickFormat(5);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (const t of yt) {
      const label = yf(t);
      if (label) ctx.fillText(label, MARGIN.left - 4, ys(t));
    }
    const xf = this.xType === "time" ? xs.tickFormat() : xs.tickFormat(xt.length, "~s");
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    for (const t of xt) ctx.fillText(xf(t), xs(t), h - MARGIN.bottom + 5);
    ctx.globalAlpha = 1;
  }

  /**
   * One traced line: {path, lonely} (see tracePath), cached per `owner` while the
   * arrays and the x and y maps stay the same.
   */
  _traced(owner, xs, ys) {
    const [y0, e0, ay, logY] = this._maps.ymap;
    const [d0, r0, ax] = this._maps.xmap;
    const tol = 0.5 / this._maps.dpr;
    const hit = owner && this._paths.get(owner);
    if (hit && hit.xs === xs && hit.ys === ys && hit.tol === tol && hit.y0 === y0 && hit.e0 === e0 &&
        hit.ay === ay && hit.logY === logY && hit.d0 === d0 && hit.r0 === r0 && hit.ax === ax) {
      return hit;
    }
    const path = new Path2D();
    const lonely = tracePath(path, this._projected(xs), ys, y0, e0, ay, logY, tol);
    const out = { xs, ys, tol, y0, e0, ay, logY, d0, r0, ax, path, lonely };
    if (owner) this._paths.set(owner, out);
    return out;
  }

  _line(ctx, xs, ys, color, width, owner = null) {
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    let lonely;
    if (typeof Path2D !== "undefined") {
      const traced = this._traced(owner, xs, ys);
      ctx.stroke(traced.path);
      lonely = traced.lonely;
    } else {
      const [y0, e0, ay, logY] = this._maps.ymap;
      ctx.beginPath();
      lonely = tracePath(ctx, this._projected(xs), ys, y0, e0, ay, logY, 0.5 / this._maps.dpr);
      ctx.stroke();
    }
    if (lonely) {
      ctx.fillStyle = color;
      ctx.beginPath();
      for (let k = 0; k < lonely.length; k += 2) {
        ctx.moveTo(lonely[k] + width + 1, lonely[k + 1]);
        ctx.arc(lonely[k], lonely[k + 1], width + 1, 0, Math.PI * 2);
      }
      ctx.fill();
    }
  }

  _band(ctx, s, fx, fy) {
    ctx.fillStyle = s.color;
    ctx.globalAlpha = 0.18;
    // One polygon per run of points where x, lo and hi are all drawable.
    let start = -1;
    const flush = (end) => {
      if (start < 0 || end - start < 1) return;
      ctx.beginPath();
      for (let i = start; i <= end; i++) ctx.lineTo(fx(s.x[i]), fy(s.hi[i]));
      for (let i = end; i >= start; i--) ctx.lineTo(fx(s.x[i]), fy(s.lo[i]));
      ctx.closePath();
      ctx.fill();
    };
    for (let i = 0; i < s.x.length; i++) {
      const ok = Number.isFinite(fx(s.x[i])) && Number.isFinite(fy(s.lo[i])) && Number.isFinite(fy(s.hi[i]));
      if (ok && start < 0) start = i;
      if (!ok && start >= 0) {
        flush(i - 1);
        start = -1;
      }
    }
    if (start >= 0) flush(s.x.length - 1);
    ctx.globalAlpha = 1;
  }

  /** Rows of the hover readout: each series' point nearest to x. */
  readout(x) {
    const rows = [];
    for (const s of this.series) {
      const i = s.sorted ? nearestSorted(s.x, x) : nearestScan(s.x, x);
      if (i < 0) continue;
      rows.push({ name: s.label, color: s.color, x: s.x[i], step: s.step ? s.step[i] : s.x[i], value: s.y[i], smoothed: s.ys[i], i, s });
    }
    const sort = (this.opts.tooltip && this.opts.tooltip().sort) || "value-desc";
    if (sort === "name") rows.sort((a, b) => a.name.localeCompare(b.name, undefined, { numeric: true }));
    else if (sort === "value-asc") rows.sort((a, b) => a.smoothed - b.smoothed);
    else if (sort === "value-desc") rows.sort((a, b) => b.smoothed - a.smoothed);
    else if (sort === "nearest") rows.sort((a, b) => Math.abs(a.x - x) - Math.abs(b.x - x));
    return rows;
  }

  _hover(ctx, fx, fy, h) {
    const rows = this.readout(this.hoverX);
    ctx.globalAlpha = 0.5;
    ctx.strokeStyle = getComputedStyle(this.host).color || "#333";
    ctx.beginPath();
    const hx = fx(this.hoverX);
    ctx.moveTo(hx, MARGIN.top);
    ctx.lineTo(hx, h - MARGIN.bottom);
    ctx.stroke();
    ctx.globalAlpha = 1;
    for (const r of rows) {
      const px = fx(r.x);
      const py = fy(r.smoothed);
      if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
      ctx.fillStyle = r.color;
      ctx.beginPath();
      ctx.arc(px, py, 3, 0, Math.PI * 2);
      ctx.fill();
    }
    const fmt = (v) => (Number.isFinite(v) ? (Math.abs(v) >= 1e5 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(4) : +v.toPrecision(6)) : String(v));
    const timeX = this.xType === "time";
    const head = `<tr><th></th><th>run</th><th>smoothed</th><th>value</th><th>step</th>${this.xLabel && this.xLabel !== "step" ? `<th>${this.xLabel}</th>` : ""}</tr>`;
    const body = rows
      .slice(0, 40)
      .map((r) => {
        const extra = this.xLabel && this.xLabel !== "step" ? `<td>${timeX ? new Date(r.x).toISOString().replace("T", " ").slice(0, 19) : fmt(r.x)}</td>` : "";
        return `<tr><td><span class="tbnb-swatch" style="background:${r.color}"></span></td><td>${escapeHtml(r.name)}</td><td>${fmt(r.smoothed)}</td><td>${fmt(r.value)}</td><td>${r.step}</td>${extra}</tr>`;
      })
      .join("");
    this.tip.innerHTML = `<table>${head}${body}</table>`;
    this.tip.style.display = rows.length ? "block" : "none";
    const wrapW = this.width;
    const left = hx + 12 + 260 > wrapW ? Math.max(0, hx - 12 - 260) : hx + 12;
    this.tip.style.left = `${left}px`;
    this.tip.style.top = `${MARGIN.top}px`;
  }

  _bindEvents() {
    const c = this.over;
    const pos = (e) => {
      const r = c.getBoundingClientRect();
      return e.clientX - r.left;
    };
    const invert = (px) => {
      if (!this._scales) return null;
      const v = this._scales.xs.invert(px);
      return v instanceof Date ? v.getTime() : v;
    };
    c.addEventListener("mousemove", (e) => {
      const px = pos(e);
      if (this._drag) this._drag.b = px;
      this.hoverX = invert(px);
      if (this._maps) this._drawOver();
    });
    c.addEventListener("mouseleave", () => {
      this.hoverX = null;
      this._drag = null;
      this.tip.style.display = "none";
      if (this._maps) this._drawOver();
    });
    c.addEventListener("mousedown", (e) => {
      const px = pos(e);
      this._drag = { a: px, b: px };
    });
    c.addEventListener("mouseup", (e) => {
      const d = this._drag;
      this._drag = null;
      if (!d) return;
      d.b = pos(e);
      if (Math.abs(d.b - d.a) > 5) {
        const lo = invert(Math.min(d.a, d.b));
        const hi = invert(Math.max(d.a, d.b));
        this.zoom = [lo, hi];
        this.opts.onZoom && this.opts.onZoom(this.zoom);
      }
      this.draw();
    });
    c.addEventListener("dblclick", () => {
      this.zoom = null;
      this.opts.onZoom && this.opts.onZoom(null);
      this.draw();
    });
  }
}

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);
}
