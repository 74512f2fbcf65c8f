// The meshes widget's view: a card per run and tag on the media kit (step and sample
// sliders, the global step, meshes fetched on request or saved with the notebook), each
// drawing its mesh with WebGL2. One context draws every card (a page allows few WebGL
// contexts): a card's frame is drawn on a shared canvas and handed to the card's own.
//
// Every card turns together: drag to orbit, the wheel zooms, a double click fits the view
// again; the camera is saved to the `camera` trait when a move ends. While the view moves, a
// point cloud draws a uniform sample sized to the frame budget (all of it on a fast GPU) at
// half resolution; once it rests, every point, sharp.
import { el, setText } from "../../core/dom.js";
import { boundsOf, OrbitCamera } from "../../gl/camera.js";
import { FrameBudget, MIN_MOVING_POINTS } from "../../gl/frame-budget.js";
import { MeshRenderer, MODES } from "../../gl/mesh.js";
import { formatBytes } from "../../media/format.js";
import { MediaView } from "../../media/media-view.js";
import { geometryOf, rgbOf } from "./geometry.js";

/** @typedef {import("../../media/card").CardView} CardView */
/** @typedef {import("./model").MeshItem} MeshItem */
/** @typedef {import("../../gl/mesh").MeshBuffers} MeshBuffers */

/** The view rests this long after its last move before every point is drawn again. */
const REST_MS = 180;
const DEFAULT_CAMERA = { theta: 0.6, phi: 0.35, zoom: 1 };

export class MeshView extends MediaView {
  /**
   * @param {import("./model").MeshModel} model
   * @param {HTMLElement} host
   */
  constructor(model, host) {
    super(model, host, "mesh", {
      noun: "meshes",
      radius: 1,
      fetcher: { maxDecoded: 16, batch: 2, maxBytes: 512 << 20 },
      csv: [
        ["num_vertices", (item) => item.num_vertices],
        ["num_faces", (item) => item.num_faces],
        ["note", (item) => item.note],
      ],
    });
    /** @type {MeshRenderer | null} */
    this.renderer = null;
    this.glError = "";
    try {
      // an OffscreenCanvas hands each frame to a card without a copy (bitmaprenderer)
      const surface = typeof OffscreenCanvas === "undefined" ? el("canvas") : new OffscreenCanvas(1, 1);
      this.renderer = new MeshRenderer(/** @type {any} */ (surface));
    } catch (err) {
      this.glError = err instanceof Error ? err.message : String(err);
    }
    this.camera = { ...DEFAULT_CAMERA, ...(model.get("camera") || {}) };
    this.budget = new FrameBudget();
    this.movedAt = Number.NEGATIVE_INFINITY;
    this.restTimer = 0;
    this.frameCount = 0;
    this.paint = this.scheduler(() => this.paintAll());
    this.modeSelect = el(
      "select",
      { class: "tbnb-mesh-mode", "aria-label": "draw meshes as" },
      ...MODES.map((m) => el("option", { value: m, text: m })),
    );
    this.pointSize = el("input", {
      class: "tbnb-point-size",
      type: "range",
      min: "1",
      max: "12",
      step: "0.5",
      "aria-label": "point size",
    });
    this.fitButton = el("button", {
      class: "tbnb-mesh-fit",
      type: "button",
      text: "fit",
      title: "fit every view again",
    });
    this.disposers.push(() => {
      clearTimeout(this.restTimer);
      this.renderer?.dispose();
    });
  }

  toolbarExtras() {
    return [this.modeSelect, el("label", {}, "point size", this.pointSize), this.fitButton];
  }

  build() {
    super.build();
    const on = this.on.bind(this);
    on(this.modeSelect, "change", () => {
      this.model.set("mode", /** @type {any} */ (this.modeSelect.value));
      this.saveSoon();
      this.paint.request();
    });
    on(this.pointSize, "input", () => {
      this.model.set("point_size", Number(this.pointSize.value));
      this.saveSoon();
      this.paint.request();
    });
    on(this.fitButton, "click", () => this.resetCamera());
    this.listen("change:mode change:point_size", () => {
      this.syncControls();
      this.paint.request();
    });
    this.listen("change:camera", () => {
      this.camera = { ...DEFAULT_CAMERA, ...(this.model.get("camera") || {}) };
      this.paint.request();
    });
    this.listen("change:card_size", () => this.applySize());
    this.listen("change:run_colors", () => this.paint.request());
    this.applySize();
    this.syncControls();
    if (this.glError) this.panel.append(el("div", { class: "tbnb-gl-error", text: this.glError }));
  }

  syncControls() {
    this.modeSelect.value = String(this.model.get("mode") || "solid");
    this.pointSize.value = String(this.model.get("point_size") || 2);
  }

  applySize() {
    this.root.style.setProperty("--tbnb-mesh-size", `${Number(this.model.get("card_size") || 320)}px`);
    this.paint.request();
  }

  /** @param {import("../../media/card-index").Card} _card */
  createContent(_card) {
    const canvas = el("canvas", { class: "tbnb-mesh-canvas", tabindex: "0", width: "1", height: "1" });
    const note = el("div", { class: "tbnb-mesh-note" });
    const box = el("div", { class: "tbnb-card-content tbnb-mesh-box" }, canvas, note);
    this.wire(canvas);
    return box;
  }

  /** Orbit, zoom and fit on one card's canvas: every card follows. @param {HTMLCanvasElement} canvas */
  wire(canvas) {
    const on = this.on.bind(this);
    /** @type {{x: number, y: number} | null} */
    let drag = null;
    on(canvas, "pointerdown", (/** @type {PointerEvent} */ e) => {
      drag = { x: e.clientX, y: e.clientY };
      canvas.setPointerCapture?.(e.pointerId);
    });
    on(canvas, "pointermove", (/** @type {PointerEvent} */ e) => {
      if (!drag) return;
      const dx = e.movementX || e.clientX - drag.x;
      const dy = e.movementY || e.clientY - drag.y;
      drag = { x: e.clientX, y: e.clientY };
      this.camera.theta -= dx * 0.008;
      this.camera.phi = Math.min(Math.max(this.camera.phi + dy * 0.008, -1.5), 1.5);
      this.moved();
    });
    const end = () => {
      if (!drag) return;
      drag = null;
      this.saveCamera();
    };
    on(canvas, "pointerup", end);
    on(canvas, "pointercancel", end);
    on(
      canvas,
      "wheel",
      (/** @type {WheelEvent} */ e) => {
        e.preventDefault();
        this.camera.zoom = Math.min(Math.max(this.camera.zoom * Math.exp(-e.deltaY * 0.0015), 0.05), 200);
        this.moved();
        this.saveCamera();
      },
      { passive: false },
    );
    on(canvas, "dblclick", () => this.resetCamera());
    on(canvas, "keydown", (/** @type {KeyboardEvent} */ e) => {
      const turn = { ArrowLeft: [-12, 0], ArrowRight: [12, 0], ArrowUp: [0, -12], ArrowDown: [0, 12] }[e.key];
      if (!turn) return;
      e.preventDefault();
      e.stopPropagation();
      this.camera.theta -= turn[0] * 0.008;
      this.camera.phi = Math.min(Math.max(this.camera.phi + turn[1] * 0.008, -1.5), 1.5);
      this.moved();
      this.saveCamera();
    });
  }

  /** The camera moved: draw samples now, everything once it rests. */
  moved() {
    this.movedAt = performance.now();
    clearTimeout(this.restTimer);
    this.restTimer = Number(setTimeout(() => this.paint.request(), REST_MS + 10));
    this.paint.request();
  }

  saveCamera() {
    const { theta, phi, zoom } = this.camera;
    this.model.set("camera", { theta, phi, zoom });
    this.saveSoon();
  }

  resetCamera() {
    this.camera = { ...DEFAULT_CAMERA };
    this.saveCamera();
    this.paint.request();
  }

  /**
   * Upload a mesh to the GPU as soon as it arrives (the neighbouring steps too).
   * @param {MeshItem} item
   */
  async decode(item) {
    if (!this.renderer) throw new Error(this.glError || "no WebGL2");
    return { gpu: this.renderer.upload(geometryOf(item)) };
  }

  /** @param {{gpu: MeshBuffers}} decoded */
  release(decoded) {
    decoded?.gpu?.dispose();
  }

  /**
   * @param {CardView} cv
   * @param {MeshItem} item
   * @param {{gpu: MeshBuffers}} decoded
   */
  show(cv, item, decoded) {
    cv.extra.gpu = decoded.gpu;
    cv.extra.fov = item.fov;
    const note = /** @type {HTMLElement} */ (cv.content.querySelector(".tbnb-mesh-note"));
    setText(note, item.note || "");
    cv.content.setAttribute("data-vertices", String(item.drawn_vertices));
    this.paint.request();
  }

  /**
   * @param {MeshItem} item
   * @param {import("../../media/card-index").Position} pos
   */
  info(item, pos) {
    const faces = item.num_faces ? ` · ${item.num_faces.toLocaleString()} faces` : "";
    const size = formatBytes(item.data?.byteLength || 0);
    return `${super.info(item, pos)} · ${item.num_vertices.toLocaleString()} vertices${faces} · ${size}`;
  }

  draw() {
    super.draw();
    this.paint.request();
  }

  /** Draw every card in view that has its mesh (a sample of large clouds while moving). */
  paintAll() {
    const renderer = this.renderer;
    if (!renderer) return;
    const moving = performance.now() - this.movedAt < REST_MS;
    /** @type {CardView[]} */
    const cards = [];
    for (const cv of this.cards.values()) {
      const gpu = cv.extra.gpu;
      if (!gpu || !cv.visible || cv.node.hidden || cv.node.getAttribute("data-state") !== "ready") continue;
      if (gpu.owned.length === 0) continue; // released (dropped from the fetcher's cache)
      cards.push(cv);
    }
    // a moving frame of a large card is drawn at half resolution (a quarter of the pixels to
    // fill on a software rasteriser) and stretched; the frame at rest is sharp again
    const dpr = (window.devicePixelRatio || 1) * (moving ? 0.5 : 1);
    const mode = /** @type {"solid" | "wireframe" | "points"} */ (this.model.get("mode") || "solid");
    const size = Number(this.model.get("point_size") || 2);
    const colors = this.model.get("run_colors") || {};
    const started = performance.now();
    let drawn = 0;
    let watched = 0;
    let watchedAt = 0;
    for (const cv of cards) {
      const gpu = /** @type {MeshBuffers} */ (cv.extra.gpu);
      const canvas = /** @type {HTMLCanvasElement} */ (cv.content.querySelector("canvas"));
      const box = canvas.getBoundingClientRect();
      const width = Math.max(box.width, 1);
      const height = Math.max(box.height, 1);
      renderer.resize(width, height, dpr);
      const camera = this.cameraFor(gpu, cv.extra.fov);
      const points = !gpu.faceCount || mode === "points";
      const share = Math.max(1, cards.length);
      const count = points
        ? Math.max(Math.floor(this.budget.count(gpu.n, moving) / share), Math.min(gpu.n, MIN_MOVING_POINTS))
        : gpu.n;
      const t0 = performance.now();
      const matrix = camera.matrix(width, height);
      const n = renderer.draw(
        gpu,
        matrix,
        { mode, size, dpr, color: rgbOf(colors[cv.card.run]), eye: camera.eye() },
        count,
      );
      if (points && n > watched) {
        watched = n;
        watchedAt = t0;
      }
      drawn += n;
      present(canvas, renderer.canvas);
      canvas.setAttribute("data-drawn", String(n));
    }
    if (watched) this.budget.watch(renderer.gl, watched, watchedAt);
    this.frameCount += 1;
    this.root.setAttribute("data-frames", String(this.frameCount));
    this.root.setAttribute("data-drawn", String(drawn));
    this.root.setAttribute("data-draw-ms", (performance.now() - started).toFixed(2));
    this.root.setAttribute("data-moving", String(moving));
  }

  /**
   * The orbit camera of one mesh: the shared angles and zoom, fitted to the mesh's box.
   * @param {MeshBuffers} gpu
   * @param {number | null | undefined} fov  degrees (the writer's configuration)
   */
  cameraFor(gpu, fov) {
    const camera = new OrbitCamera();
    if (fov) camera.fovy = (fov * Math.PI) / 180;
    const b = gpu.bounds();
    camera.fit(boundsOf(Float32Array.from([...b.min, ...b.max]), 3));
    camera.theta = this.camera.theta;
    camera.phi = this.camera.phi;
    camera.zoom(this.camera.zoom);
    return camera;
  }
}

/**
 * Show the frame just drawn on the shared surface in a card's canvas: handed over whole
 * from an OffscreenCanvas (no copy), else copied.
 * @param {HTMLCanvasElement} target @param {HTMLCanvasElement | OffscreenCanvas} source
 */
function present(target, source) {
  if (target.width !== source.width) target.width = source.width;
  if (target.height !== source.height) target.height = source.height;
  if (typeof OffscreenCanvas !== "undefined" && source instanceof OffscreenCanvas) {
    const ctx = target.getContext("bitmaprenderer");
    if (ctx) {
      ctx.transferFromImageBitmap(source.transferToImageBitmap());
      return;
    }
  }
  const ctx = target.getContext("2d");
  if (!ctx) return;
  ctx.clearRect(0, 0, target.width, target.height);
  ctx.drawImage(source, 0, 0);
}
