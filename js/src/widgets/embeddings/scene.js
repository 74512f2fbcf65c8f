// The projector's drawing surface: a WebGL2 canvas of points under a 2-D canvas for labels,
// the lasso and the box, sized to its container. 2-D: drag pans, the wheel zooms at the
// pointer. 3-D: drag orbits, the wheel zooms. In lasso or box mode (or with Shift held) a
// drag selects; a click focuses the nearest point; double-click fits the view. While the view
// moves (a pan or orbit drag until its release, the wheel, a layout streaming in), a frame
// draws as many points as the rasteriser can in its budget (all of them on a GPU), and every
// point once it has rested for REST_MS.
import { el } from "../../core/dom.js";
import { boundsOf, Camera2D, OrbitCamera } from "../../gl/camera.js";
import { FrameBudget } from "../../gl/frame-budget.js";
import { projectAll } from "../../gl/matrix.js";
import { insideBox, insidePolygon, ScreenGrid } from "../../gl/picking.js";
import { PointRenderer, spriteSize } from "../../gl/points.js";

/**
 * @typedef {object} SceneEvents
 * @property {(i: number, x: number, y: number) => void} hover   -1 when over nothing
 * @property {(i: number) => void} click                         -1 on empty space
 * @property {(indices: Int32Array, additive: boolean) => void} select
 * @property {() => void} moved                                   the camera moved by hand
 */

/** The view rests this long after its last move before every point is drawn again. */
const REST_MS = 180;

export class Scene {
  /**
   * @param {import("../../core/view").View<any>} view  owner (listeners die with it)
   * @param {SceneEvents} events
   */
  constructor(view, events) {
    this.view = view;
    this.events = events;
    this.glCanvas = el("canvas", { class: "tbnb-pj-gl" });
    this.overlay = el("canvas", { class: "tbnb-pj-overlay", tabindex: "0" });
    this.node = el("div", { class: "tbnb-pj-scene" }, this.glCanvas, this.overlay);
    this.renderer = new PointRenderer(this.glCanvas);
    this.camera2 = new Camera2D();
    this.camera3 = new OrbitCamera();
    /** @type {Float32Array<ArrayBufferLike>} */
    this.positions = new Float32Array(0);
    this.dims = 2;
    this.width = 400;
    this.height = 300;
    this.dpr = 1;
    this.mode = "pan";
    this.visible = true;
    this.version = 0;
    /** @type {{version: number, screen: Float32Array, grid: ScreenGrid | null} | null} */
    this.projected = null;
    /** @type {number[] | null} lasso or box corners being dragged */
    this.path = null;
    this.style = { size: 3, opacity: 0.8, dim: 0.25, sprites: false, frame: false };
    /** @type {(ctx: CanvasRenderingContext2D) => void} */
    this.decorate = () => {};
    this.frames = view.scheduler(() => this.draw());
    this.frameCount = 0;
    this.budget = new FrameBudget();
    /** The 2-D camera's scale when the view was last fitted (zoom 1). */
    this.fitScale = 1;
    this.movedAt = Number.NEGATIVE_INFINITY;
    this.restTimer = 0;
    /** A pan or orbit drag is under way: frames stay sampled until it ends, however slowly
     * they come (a full draw in the middle of a drag would stall the next move). */
    this.dragging = false;
    view.disposers.push(() => clearTimeout(this.restTimer));
    this.wire();
  }

  wire() {
    const on = this.view.on.bind(this.view);
    const target = this.overlay;
    /** @type {{x: number, y: number, moved: boolean, select: boolean, button: number} | null} */
    let drag = null;
    /** @param {PointerEvent} e */
    const local = (e) => {
      const box = target.getBoundingClientRect();
      return [e.clientX - box.left, e.clientY - box.top];
    };
    on(target, "pointerdown", (/** @type {PointerEvent} */ e) => {
      const [x, y] = local(e);
      const select = this.mode !== "pan" || e.shiftKey;
      drag = { x, y, moved: false, select, button: e.button };
      if (select) this.path = [x, y];
      target.setPointerCapture(e.pointerId);
    });
    on(target, "pointermove", (/** @type {PointerEvent} */ e) => {
      const [x, y] = local(e);
      if (!drag) {
        this.events.hover(this.pick(x, y), x, y);
        return;
      }
      const dx = x - drag.x;
      const dy = y - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      if (drag.select && this.path) {
        if (this.mode === "box" && !e.shiftKey) this.path = [this.path[0], this.path[1], x, y];
        else this.path.push(x, y);
      } else if (drag.moved) {
        this.dragging = true;
        if (this.dims === 3) this.camera3.rotate(e.movementX, e.movementY);
        else this.camera2.pan(e.movementX, e.movementY);
        this.cameraMoved();
      }
      this.frames.request();
    });
    const finish = (/** @type {PointerEvent} */ e) => {
      if (!drag) return;
      const [x, y] = local(e);
      const { moved, select } = drag;
      drag = null;
      this.released();
      if (select && moved && this.path) {
        const screen = this.screen();
        const path = this.path;
        const inside =
          this.mode === "box" && path.length === 4
            ? insideBox(screen, path[0], path[1], path[2], path[3])
            : insidePolygon(screen, path);
        this.events.select(inside, e.shiftKey || e.ctrlKey || e.metaKey);
      } else if (!moved) {
        this.events.click(this.pick(x, y));
      }
      this.path = null;
      this.frames.request();
    };
    on(target, "pointerup", finish);
    on(target, "pointercancel", () => {
      drag = null;
      this.released();
      this.path = null;
      this.frames.request();
    });
    on(target, "pointerleave", () => this.events.hover(-1, 0, 0));
    on(
      target,
      "wheel",
      (/** @type {WheelEvent} */ e) => {
        e.preventDefault();
        const factor = Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015));
        const [x, y] = local(/** @type {any} */ (e));
        if (this.dims === 3) this.camera3.zoom(factor);
        else this.camera2.zoomAt(factor, x, y, this.width, this.height);
        this.cameraMoved();
      },
      { passive: false },
    );
    on(target, "dblclick", () => {
      this.fit();
      this.events.moved();
    });
  }

  cameraMoved() {
    this.version++;
    this.moving();
    this.events.moved();
    this.frames.request();
  }

  /** The view is moving: sampled frames until it has rested for REST_MS, then a full one. */
  moving() {
    this.movedAt = performance.now();
    clearTimeout(this.restTimer);
    this.restTimer = Number(setTimeout(() => this.frames.request(), REST_MS));
  }

  /** A drag ended: the view rests REST_MS from now (not from its last move). */
  released() {
    if (!this.dragging) return;
    this.dragging = false;
    this.moving();
  }

  /** Whether a frame drawn at `now` is a moving one (a sample where drawing all is slow). */
  isMoving(now = performance.now()) {
    return this.dragging || now - this.movedAt < REST_MS;
  }

  /** @param {"pan" | "lasso" | "box"} mode */
  setMode(mode) {
    this.mode = mode;
    this.overlay.setAttribute("data-mode", mode);
  }

  /**
   * @param {Float32Array} positions  n * dims
   * @param {number} dims
   * @param {boolean} refit  fit the camera to the new points
   */
  setPositions(positions, dims, refit) {
    const changedDims = dims !== this.dims;
    this.positions = positions;
    this.dims = dims;
    this.renderer.setPositions(positions, dims);
    this.version++;
    if (!refit) this.moving(); // a layout streaming in
    if (refit || changedDims) this.fit();
    this.frames.request();
  }

  fit() {
    const bounds = boundsOf(this.positions, this.dims);
    if (this.dims === 3) this.camera3.fit(bounds);
    else this.camera2.fit(bounds, this.width, this.height);
    this.fitScale = this.camera2.scale;
    this.version++;
    this.frames.request();
  }

  /** @param {number} width @param {number} height */
  resize(width, height) {
    // A hidden view (a tab not shown yet) measures 0 wide: keep the last size, or the
    // camera would shrink the points to a dot and keep them there once shown.
    if (width < 16 || height < 16) return;
    const dpr = (typeof window !== "undefined" && window.devicePixelRatio) || 1;
    const w = Math.max(Math.floor(width), 1);
    const h = Math.max(Math.floor(height), 1);
    if (w === this.width && h === this.height && dpr === this.dpr) return;
    const first = this.width === 400 && this.height === 300;
    if (this.dims === 2 && !first) {
      const factor = Math.min(w / this.width, h / this.height);
      this.camera2.scale *= factor;
      this.fitScale *= factor;
    }
    this.width = w;
    this.height = h;
    this.dpr = dpr;
    this.renderer.resize(w, h, dpr);
    this.overlay.width = Math.round(w * dpr);
    this.overlay.height = Math.round(h * dpr);
    this.overlay.style.width = `${w}px`;
    this.overlay.style.height = `${h}px`;
    this.node.style.height = `${h}px`;
    this.version++;
    if (first) this.fit();
    this.frames.request();
  }

  /** How far the 2-D view is zoomed in from the fitted one (1: fitted). */
  zoom() {
    return this.camera2.scale / (this.fitScale || this.camera2.scale || 1);
  }

  matrix() {
    return this.dims === 3
      ? this.camera3.matrix(this.width, this.height)
      : this.camera2.matrix(this.width, this.height);
  }

  /** Every point's CSS-pixel position under the current camera (cached per camera). */
  screen() {
    if (!this.projected || this.projected.version !== this.version) {
      const screen = projectAll(
        this.matrix(),
        this.positions,
        this.dims,
        this.width,
        this.height,
        this.projected?.screen,
      );
      this.projected = { version: this.version, screen, grid: null };
    }
    return this.projected.screen;
  }

  /**
   * One point in CSS pixels: from the frame's projection when it is current, else
   * projected alone (a frame that labels a few points never projects them all).
   * @param {number} i
   * @returns {[number, number]}
   */
  pointOnScreen(i) {
    if (this.projected && this.projected.version === this.version) {
      const s = this.projected.screen;
      return [s[2 * i], s[2 * i + 1]];
    }
    const d = this.dims;
    const one = projectAll(this.matrix(), this.positions.subarray(i * d, i * d + d), d, this.width, this.height);
    return [one[0], one[1]];
  }

  /** The point under (x, y), or -1. @param {number} x @param {number} y */
  pick(x, y) {
    if (!this.positions.length) return -1;
    const screen = this.screen();
    const projected = /** @type {{grid: ScreenGrid | null}} */ (this.projected);
    if (!projected.grid) projected.grid = new ScreenGrid(screen, this.width, this.height);
    const sprites = this.style.sprites && this.renderer.texture !== null;
    const radius = Math.max(spriteSize(this.style.size, sprites) / 2 + 3, 6);
    return projected.grid.nearest(x, y, radius);
  }

  draw() {
    if (!this.visible) return;
    const started = performance.now();
    const renderer = this.renderer;
    const drawn = this.budget.count(renderer.n, this.isMoving(started));
    renderer.draw(this.matrix(), { ...this.style, dpr: this.dpr }, drawn);
    this.budget.watch(renderer.gl, drawn, started);
    const ctx = this.overlay.getContext("2d");
    if (ctx) {
      ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
      ctx.clearRect(0, 0, this.width, this.height);
      this.decorate(ctx);
      if (this.path) drawPath(ctx, this.path, this.mode === "box" && this.path.length === 4);
    }
    this.frameCount++;
    this.lastFrameMs = performance.now() - started;
    this.node.setAttribute("data-frames", String(this.frameCount));
    this.node.setAttribute("data-draw-ms", this.lastFrameMs.toFixed(2));
    this.node.setAttribute("data-drawn", String(drawn));
  }

  dispose() {
    this.renderer.dispose();
  }
}

/**
 * @param {CanvasRenderingContext2D} ctx @param {number[]} path @param {boolean} box
 */
function drawPath(ctx, path, box) {
  ctx.save();
  ctx.beginPath();
  if (box) {
    ctx.rect(path[0], path[1], path[2] - path[0], path[3] - path[1]);
  } else {
    ctx.moveTo(path[0], path[1]);
    for (let k = 2; k < path.length; k += 2) ctx.lineTo(path[k], path[k + 1]);
    ctx.closePath();
  }
  ctx.fillStyle = "rgba(80,120,200,0.12)";
  ctx.strokeStyle = "rgba(40,80,170,0.9)";
  ctx.setLineDash([4, 3]);
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}
