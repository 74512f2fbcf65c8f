// The timeline tab: lanes per process and thread or GPU stream, nested spans, zoom and pan
// with the mouse (drag, ctrl/⌘+wheel) and the keys W/S (zoom) A/D (pan) as Perfetto and
// chrome://tracing, a name search, a selected span's details, flow arrows on request.
// Drawn from the window's binary columns; after each move the kernel is asked for what is
// in view at this resolution ("window" requests), and until it answers (or where there is
// no kernel: a saved notebook, an exported page) the last data is drawn at the new scale.
import { CanvasStack } from "../../chart/surface.js";
import { el, setText } from "../../core/dom.js";
import { formatDuration } from "./data.js";
import { drawFrame } from "./draw.js";
import { AXIS_H, LABEL_W, layoutLanes, ROW_H } from "./layout.js";

const MARGIN = 0.5; // ask for half a view more on each side: a pan shows data at once
const DEBOUNCE_MS = 60;

/**
 * @typedef {object} TimelineHost
 * @property {(t: EventTarget, type: string, h: (e: any) => void, o?: AddEventListenerOptions) => void} on
 * @property {(type: string, payload?: Record<string, any>) => Promise<{content: any}>} request
 * @property {() => {request: () => void}} frames
 * @property {(row: number) => void} onSelect
 */

export class Timeline {
  /** @param {TimelineHost} host */
  constructor(host) {
    this.host = host;
    this.stage = el("div", { class: "tbnb-prof-stage", tabindex: "0", "aria-label": "timeline" });
    this.surface = new CanvasStack(this.stage, { height: 420, className: "tbnb-prof-canvas" });
    this.canvas = this.surface.top;
    this.status = el("div", { class: "tbnb-prof-status" });
    this.hint = el("div", {
      class: "tbnb-prof-hint",
      text: "drag to pan · ctrl/⌘+wheel or W/S to zoom · A/D to pan · wheel scrolls lanes · click a span for its details · double-click to zoom to it",
    });
    /** @type {any} */
    this.payload = null;
    /** @type {any} */
    this.win = null;
    this.layout = layoutLanes(null);
    this.v0 = 0;
    this.v1 = 1;
    this.scrollY = 0;
    this.width = 600;
    this.height = 420;
    this.selected = -1;
    /** @type {Set<number>} */
    this.matches = new Set();
    this.flows = false;
    this.seq = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.online = true;
    this.drawMs = 0;
    this.draws = 0;
    this.frames = host.frames();
    this.bind();
  }

  /** @param {any} payload  the `_timeline` trait, decoded */
  set(payload) {
    const same = this.payload?.trace === payload?.trace;
    this.payload = payload;
    this.layout = layoutLanes(payload?.lanes);
    this.win = payload?.window || null;
    if (!same) {
      this.v0 = Number(payload?.t0 ?? 0);
      this.v1 = Number(payload?.t1 ?? 1);
      this.scrollY = 0;
      this.selected = -1;
      this.matches = new Set();
    }
    this.frames.request();
  }

  /** @param {number} width @param {number} height */
  resize(width, height) {
    this.width = Math.max(240, Math.floor(width));
    this.height = Math.max(160, Math.floor(height));
    this.surface.resize(this.width, this.height);
    this.frames.request();
    this.fetch();
  }

  draw() {
    if (!this.payload) return;
    const began = performance.now();
    const ctx = this.surface.context(0);
    if (!ctx) return;
    drawFrame({
      ctx,
      width: this.width,
      height: this.height,
      v0: this.v0,
      v1: this.v1,
      origin: Number(this.payload.t0 ?? 0),
      scrollY: this.scrollY,
      layout: this.layout,
      lanes: this.payload.lanes,
      win: this.win,
      names: this.payload.lanes?.names || [],
      kinds: this.payload.lanes?.kinds || [],
      selected: this.selected,
      matches: this.matches,
      flows: this.flows,
      dark: document.body?.dataset?.jpThemeLight === "false",
    });
    this.drawMs = performance.now() - began;
    this.draws += 1;
  }

  /** Ask the kernel for the view at this resolution (debounced; stale replies dropped). */
  fetch() {
    if (!this.payload || !this.online) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      const span = this.v1 - this.v0;
      const t0 = this.v0 - span * MARGIN;
      const t1 = this.v1 + span * MARGIN;
      const pixels = Math.round((this.width - LABEL_W) * (1 + 2 * MARGIN));
      const seq = ++this.seq;
      this.host
        .request("window", { trace: this.payload.trace, t0, t1, pixels })
        .then(({ content }) => {
          if (seq !== this.seq || content.trace !== this.payload?.trace) return;
          this.win = content;
          this.frames.request();
        })
        .catch(() => {
          this.online = false; // no kernel: the saved window is drawn at every zoom
          setText(this.status, "no kernel: showing the timeline at the resolution saved");
        });
    }, DEBOUNCE_MS);
  }

  /**
   * Set the view to `[v0, v1]` (clamped to the trace, at least 1 ns wide).
   * @param {number} v0
   * @param {number} v1
   */
  view(v0, v1) {
    const t0 = Number(this.payload?.t0 ?? 0);
    const t1 = Number(this.payload?.t1 ?? 1);
    const span = Math.min(Math.max(v1 - v0, 1e-3), (t1 - t0) * 1.2 || 1);
    let a = v0;
    a = Math.max(t0 - span * 0.1, Math.min(a, t1 - span * 0.9));
    this.v0 = a;
    this.v1 = a + span;
    this.frames.request();
    this.fetch();
  }

  /**
   * Zoom by `factor` (< 1 zooms in) keeping time `at` under the same pixel.
   * @param {number} factor
   * @param {number} [at]
   */
  zoom(factor, at = (this.v0 + this.v1) / 2) {
    this.view(at - (at - this.v0) * factor, at + (this.v1 - at) * factor);
  }

  /** @param {number} fraction  of the view's width (negative: left) */
  pan(fraction) {
    const d = (this.v1 - this.v0) * fraction;
    this.view(this.v0 + d, this.v1 + d);
  }

  /**
   * Centre on `[start, start + dur]`, zoomed so it takes a third of the view.
   * @param {number} start
   * @param {number} dur
   * @param {number} [lane]
   * @param {number} [depth]
   */
  reveal(start, dur, lane = -1, depth = 0) {
    const span = Math.max(dur * 3, 1);
    this.view(start + dur / 2 - span / 2, start + dur / 2 + span / 2);
    const top = this.layout.top.get(lane);
    if (top !== undefined) {
      const y = top + depth * ROW_H;
      if (y < this.scrollY || y > this.scrollY + this.height - AXIS_H - ROW_H * 2) {
        this.scrollY = Math.max(0, y - (this.height - AXIS_H) / 3);
      }
    }
  }

  /** The window's span under a canvas point, or -1. @param {number} x @param {number} y */
  pick(x, y) {
    const win = this.win;
    if (!win || x < LABEL_W || y < AXIS_H) return -1;
    const t = this.v0 + ((x - LABEL_W) / (this.width - LABEL_W)) * (this.v1 - this.v0);
    const slack = (3 * (this.v1 - this.v0)) / (this.width - LABEL_W);
    const cy = y - AXIS_H + this.scrollY;
    let best = -1;
    for (let i = 0; i < win.start.length; i++) {
      const top = this.layout.top.get(win.lane[i]);
      if (top === undefined) continue;
      const y0 = top + win.depth[i] * ROW_H;
      if (cy < y0 || cy >= y0 + ROW_H) continue;
      if (t < win.start[i] - slack || t > win.start[i] + win.dur[i] + slack) continue;
      if (best < 0 || win.dur[i] < win.dur[best]) best = i;
    }
    return best;
  }

  bind() {
    const { on } = this.host;
    const canvas = this.canvas;
    /** @type {{x: number, y: number, v0: number, v1: number, s: number, moved: boolean} | null} */
    let drag = null;
    const local = (/** @type {MouseEvent} */ e) => {
      const box = canvas.getBoundingClientRect();
      return { x: e.clientX - box.left, y: e.clientY - box.top };
    };
    on(canvas, "pointerdown", (/** @type {PointerEvent} */ e) => {
      const p = local(e);
      drag = { x: p.x, y: p.y, v0: this.v0, v1: this.v1, s: this.scrollY, moved: false };
      canvas.setPointerCapture?.(e.pointerId);
      this.stage.focus({ preventScroll: true });
    });
    on(canvas, "pointermove", (/** @type {PointerEvent} */ e) => {
      const p = local(e);
      if (drag) {
        const dx = p.x - drag.x;
        const dy = p.y - drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
        if (!drag.moved) return;
        const per = (drag.v1 - drag.v0) / (this.width - LABEL_W);
        this.v0 = drag.v0 - dx * per;
        this.v1 = drag.v1 - dx * per;
        this.scrollY = Math.max(0, Math.min(drag.s - dy, Math.max(0, this.layout.height - this.height + AXIS_H)));
        this.frames.request();
        return;
      }
      const i = this.pick(p.x, p.y);
      const win = this.win;
      if (i < 0 || !win) return;
      const names = this.payload?.lanes?.names || [];
      const many = win.count[i] > 1 ? ` (+${win.count[i] - 1} more merged at this zoom)` : "";
      setText(this.status, `${names[win.name[i]] || ""} · ${formatDuration(win.dur[i])}${many}`);
    });
    on(canvas, "pointerup", (/** @type {PointerEvent} */ e) => {
      const was = drag;
      drag = null;
      if (!was) return;
      if (was.moved) {
        this.fetch();
        return;
      }
      const p = local(e);
      const i = this.pick(p.x, p.y);
      const win = this.win;
      if (i >= 0 && win && win.row[i] >= 0) this.host.onSelect(win.row[i]);
      else if (i >= 0 && win) this.reveal(win.start[i], win.dur[i]);
    });
    on(canvas, "dblclick", (/** @type {MouseEvent} */ e) => {
      const p = local(e);
      const i = this.pick(p.x, p.y);
      if (i >= 0 && this.win) this.view(this.win.start[i], this.win.start[i] + this.win.dur[i]);
    });
    on(
      canvas,
      "wheel",
      (/** @type {WheelEvent} */ e) => {
        const p = local(e);
        if (e.ctrlKey || e.metaKey) {
          e.preventDefault();
          const at = this.v0 + ((p.x - LABEL_W) / (this.width - LABEL_W)) * (this.v1 - this.v0);
          this.zoom(Math.exp(e.deltaY * 0.002), at);
        } else if (Math.abs(e.deltaX) > Math.abs(e.deltaY) || e.shiftKey) {
          e.preventDefault();
          this.pan(((e.shiftKey ? e.deltaY : e.deltaX) / (this.width - LABEL_W)) * 1.0);
        } else {
          const most = Math.max(0, this.layout.height - this.height + AXIS_H + ROW_H);
          const next = Math.max(0, Math.min(this.scrollY + e.deltaY, most));
          if (next !== this.scrollY) {
            e.preventDefault();
            this.scrollY = next;
            this.frames.request();
          }
        }
      },
      { passive: false },
    );
    on(this.stage, "keydown", (/** @type {KeyboardEvent} */ e) => {
      const key = e.key.toLowerCase();
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const moves = {
        w: () => this.zoom(0.8),
        s: () => this.zoom(1.25),
        a: () => this.pan(-0.15),
        d: () => this.pan(0.15),
      };
      const move = moves[/** @type {keyof typeof moves} */ (key)];
      if (!move) return;
      e.preventDefault();
      move();
    });
  }
}
