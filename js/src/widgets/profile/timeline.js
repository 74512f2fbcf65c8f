// The timeline tab: lanes per process and thread or GPU stream, nested spans, zoom and pan
// with the mouse (drag, ctrl/⌘+wheel) and the keys W/S (zoom) A/D (pan) as Perfetto and
// chrome://tracing, a name search, a selected span's details, flow arrows on request.
// Drawn from the window's binary columns; after each move the kernel is asked for what is
// in view at this resolution ("window" requests), and until it answers (or where there is
// no kernel: a saved notebook, an exported page) the last data is drawn at the new scale.
import { Chart } from "../../chart/chart.js";
import { linearScale } from "../../chart/scales.js";
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
 * @property {import("../../chart/tooltip").Tooltip} [tooltip]
 */

/**
 * The timeline, a chart of the kit: its x scale is the view `[v0, v1]` (read from the
 * trace's start), its y scale the lanes scrolled by `scrollY`; the pointer hooks pan,
 * select and zoom; the hovered span's name and duration show in the view's tooltip; the
 * save-image button paints it again into a PNG or SVG.
 * @extends {Chart<import("../../chart/chart").ChartBaseOptions>}
 */
export class Timeline extends Chart {
  /** @param {TimelineHost} host */
  constructor(host) {
    const stage = el("div", { class: "tbnb-prof-stage", tabindex: "0", "aria-label": "timeline" });
    super(stage, {
      on: host.on,
      tooltip: host.tooltip,
      height: 420,
      className: "tbnb-prof-canvas",
      margin: { left: LABEL_W, right: 0, top: AXIS_H, bottom: 0 },
    });
    this.host = host;
    this.stage = stage;
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
    this.lanePlan = layoutLanes(null);
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
    this.arrows = 0; // flow arrows in the last frame
    /** @type {{x: number, y: number, v0: number, v1: number, s: number, moved: boolean} | null} */
    this.drag = null;
    this.pointer = { x: -1, y: -1 };
    this.frames = host.frames();
    this.bind();
  }

  /** @param {any} payload  the `_timeline` trait, decoded */
  set(payload) {
    const same = this.payload?.trace === payload?.trace;
    this.payload = payload;
    this.lanePlan = layoutLanes(payload?.lanes);
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
    this.options.height = this.height;
    this.surface.resize(this.width, this.height);
    this.frames.request();
    this.fetch();
  }

  measure() {
    return this.width;
  }

  /** Time from the trace's start across the plot, the lanes' content rows down it. */
  scales() {
    const origin = Number(this.payload?.t0 ?? 0);
    const x = linearScale([this.v0 - origin, this.v1 - origin], [LABEL_W, this.width]);
    const y = linearScale([this.scrollY, this.scrollY + this.height - AXIS_H], [AXIS_H, this.height]);
    return { x, y };
  }

  draw() {
    if (!this.payload) return;
    const began = performance.now();
    this.layout();
    const ctx = this.surface.context(0);
    if (!ctx) return;
    this.paint(ctx);
    this.drawMs = performance.now() - began;
    this.draws += 1;
  }

  /** @param {CanvasRenderingContext2D} ctx */
  paint(ctx) {
    if (!this.payload || !this.maps) return;
    const ticks = this.maps.x.ticks(Math.max(2, Math.floor((this.width - LABEL_W) / 110)));
    this.arrows = drawFrame({
      ctx,
      width: this.width,
      height: this.height,
      v0: this.v0,
      v1: this.v1,
      ticks: ticks.map((/** @type {import("../../chart/scales").Tick} */ t) => ({
        ...t,
        label: formatDuration(t.value),
      })),
      scrollY: this.scrollY,
      layout: this.lanePlan,
      lanes: this.payload.lanes,
      win: this.win,
      names: this.payload.lanes?.names || [],
      kinds: this.payload.lanes?.kinds || [],
      selected: this.selected,
      matches: this.matches,
      flows: this.flows,
      dark: document.body?.dataset?.jpThemeLight === "false",
    });
  }

  /** The timeline as shown, for the save-image button. */
  image() {
    const trace = String(this.payload?.trace ?? "timeline");
    return super.image({ title: trace, subtitle: `timeline, ${formatDuration(this.v1 - this.v0)} in view` });
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
    const top = this.lanePlan.top.get(lane);
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
      const top = this.lanePlan.top.get(win.lane[i]);
      if (top === undefined) continue;
      const y0 = top + win.depth[i] * ROW_H;
      if (cy < y0 || cy >= y0 + ROW_H) continue;
      if (t < win.start[i] - slack || t > win.start[i] + win.dur[i] + slack) continue;
      if (best < 0 || win.dur[i] < win.dur[best]) best = i;
    }
    return best;
  }

  /** @param {number} x @param {number} y */
  pointerDown(x, y) {
    this.drag = { x, y, v0: this.v0, v1: this.v1, s: this.scrollY, moved: false };
    this.stage.focus({ preventScroll: true });
  }

  /** @param {number} x @param {number} y */
  pointerMove(x, y) {
    this.pointer = { x, y };
    const drag = this.drag;
    if (drag) {
      const dx = x - drag.x;
      const dy = y - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      if (!drag.moved) return;
      this.hideTooltip();
      const per = (drag.v1 - drag.v0) / (this.width - LABEL_W);
      this.v0 = drag.v0 - dx * per;
      this.v1 = drag.v1 - dx * per;
      this.scrollY = Math.max(0, Math.min(drag.s - dy, Math.max(0, this.lanePlan.height - this.height + AXIS_H)));
      this.frames.request();
      return;
    }
    const i = this.pick(x, y);
    const win = this.win;
    if (i < 0 || !win) {
      this.hideTooltip();
      return;
    }
    const names = this.payload?.lanes?.names || [];
    const name = names[win.name[i]] || "";
    const merged = win.count[i] > 1 ? ` (+${win.count[i] - 1} more merged at this zoom)` : "";
    setText(this.status, `${name} · ${formatDuration(win.dur[i])}${merged}`);
    const rows = [{ color: "transparent", cells: [name, formatDuration(win.dur[i])] }];
    if (win.count[i] > 1) rows.push({ color: "transparent", cells: [`+${win.count[i] - 1} more at this zoom`, ""] });
    this.showTooltip({ columns: [{ label: "span", name: true }, { label: "duration" }], rows }, [], { x, y });
  }

  pointerLeave() {
    this.hideTooltip();
  }

  /** @param {number} x @param {number} y */
  pointerUp(x, y) {
    const was = this.drag;
    this.drag = null;
    if (!was) return;
    if (was.moved) {
      this.fetch();
      return;
    }
    const i = this.pick(x, y);
    const win = this.win;
    if (i >= 0 && win && win.row[i] >= 0) this.host.onSelect(win.row[i]);
    else if (i >= 0 && win) this.reveal(win.start[i], win.dur[i]);
  }

  doubleClick() {
    const i = this.pick(this.pointer.x, this.pointer.y);
    if (i >= 0 && this.win) this.view(this.win.start[i], this.win.start[i] + this.win.dur[i]);
  }

  /** What the chart base does not: drags kept past the canvas, the wheel, W/A/S/D. */
  bind() {
    const { on } = this.host;
    const canvas = this.canvas;
    on(canvas, "pointerdown", (/** @type {PointerEvent} */ e) => canvas.setPointerCapture?.(e.pointerId));
    on(
      canvas,
      "wheel",
      (/** @type {WheelEvent} */ e) => {
        const box = canvas.getBoundingClientRect();
        const px = e.clientX - box.left;
        if (e.ctrlKey || e.metaKey) {
          e.preventDefault();
          const at = this.v0 + ((px - LABEL_W) / (this.width - LABEL_W)) * (this.v1 - this.v0);
          this.zoom(Math.exp(e.deltaY * 0.002), at);
        } else if (Math.abs(e.deltaX) > Math.abs(e.deltaY) || e.shiftKey) {
          e.preventDefault();
          this.pan(((e.shiftKey ? e.deltaY : e.deltaX) / (this.width - LABEL_W)) * 1.0);
        } else {
          const most = Math.max(0, this.lanePlan.height - this.height + AXIS_H + ROW_H);
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
