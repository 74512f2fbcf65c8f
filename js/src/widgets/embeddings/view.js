// The projector's view: renders from model state alone (live kernel, saved notebook or
// exported page): colours, labels, sprites, size, opacity, search, pan / zoom / orbit,
// lasso and box selection all run here. Computing a layout, reading another embedding and
// a point's neighbours in the original space are asked of the kernel.

import { rasterImage } from "../../chart/image-export.js";
import { RunSelector } from "../../controls/run-selector.js";
import { saveImageButton } from "../../controls/save-image.js";
import { decodeTree, encodeArray } from "../../core/codecs.js";
import { el } from "../../core/dom.js";
import { compileFilter } from "../../core/filter.js";
import { RequestError } from "../../core/request.js";
import { View } from "../../core/view.js";
import { colorPoints } from "./coloring.js";
import { detailOf, loadSprite, remap, rename, renderHistogram, thumb } from "./explain.js";
import { decodeMeta, searchMask, textOf } from "./metadata.js";
import { csvRows, decorate } from "./overlay.js";
import { Panel } from "./panel.js";
import { mergedSelection, pointFlags, selectionMask } from "./point-flags.js";
import { Scene } from "./scene.js";
import { chooseEmbedding, renderPicker, renderStatus, runLayout } from "./status.js";
import { buildToolbar, fillSelect } from "./toolbar.js";

/** @typedef {import("./model").ProjectorTraits} ProjectorTraits */

/** @extends {View<ProjectorTraits>} */
export class ProjectorView extends View {
  /** @param {import("./model").ProjectorModel} model @param {HTMLElement} host */
  constructor(model, host) {
    super(model, host, "embeddings");
    this.meta = decodeMeta(undefined);
    this.coords = new Float32Array(0);
    this.dims = 2;
    this.shownMethod = "";
    this.userMoved = false;
    this.selected = new Uint8Array(0);
    this.selectedCount = 0;
    /** @type {Uint8Array<ArrayBufferLike>} */
    this.matched = new Uint8Array(0);
    this.hoverIndex = -1;
    /** @type {{indices: ArrayLike<number>, distances: ArrayLike<number>, metric: string, index: number} | null} */
    this.found = null;
    this.note = "";
    /** @type {Uint8Array} */
    this.flagged = new Uint8Array(0);
    /** @type {number[]} */
    this.hoverAt = [0, 0];
    /** @type {import("./density-layer").DensityMap | null} contours and region labels (2-D) */
    this.map = null;
    this.mapAt = 0;
    this.dark = false;
    const on = this.on.bind(this);
    this.toolbar = buildToolbar({
      on,
      parent: this.root,
      csvRows: () => this.csvRows(),
      onSearch: (text) => this.save({ search: text }),
    });
    this.scene = new Scene(this, {
      hover: (i, x, y) => this.setHover(i, x, y),
      click: (i) => this.focusPoint(i),
      select: (indices, additive) => this.selectPoints(indices, additive),
      moved: () => {
        this.userMoved = true;
      },
    });
    this.scene.decorate = (ctx) => this.decorate(ctx);
    this.panel = new Panel({
      on,
      focus: (i) => this.focusPoint(i),
      select: (indices, additive) => this.selectPoints(indices, additive),
      column: (name) => this.save({ histogram_by: name }),
    });
    /** @type {{image: ImageBitmap, width: number, height: number, columns: number} | null} */
    this.sprite = null;
    this.runSelector = new RunSelector(this, { onChange: () => this.renderPicker(), noun: "runs" });
    this.panel.runs.append(this.runSelector.node);
    this.main = el("div", { class: "tbnb-pj-main" }, this.scene.node, this.panel.node);
  }

  /** The scene as shown (points and labels; PNG only: WebGL), for the save-image button. */
  image() {
    const chosen = (this.model.get("embeddings") || [])[this.model.get("embedding") ?? -1];
    const title = chosen ? `${chosen.run}: ${chosen.tag}` : "embedding";
    return rasterImage(
      this.scene.node,
      title,
      `${this.model.get("method") || ""} projection, step ${chosen?.step ?? ""}`,
    );
  }

  build() {
    this.root.append(this.toolbar.node, this.main);
    this.toolbar.csv.after(
      saveImageButton({ on: this.on.bind(this), svg: false, label: "projection", image: () => this.image() }),
    );
    this.wireControls();
    this.listen("change:_positions", () => this.onPositions());
    this.listen("change:_meta", () => this.onMeta());
    this.listen("change:_sprite", () => this.onSprite());
    this.listen("change:color_by change:top_n change:palette", () => this.recolor());
    this.listen("change:label_by change:color_by", () => {
      this.toolbar.label.value = this.model.get("label_by") || "";
      this.rename();
    });
    this.listen("change:histogram_by change:color_by", () => this.renderHistogram());
    this.listen("change:density", () => {
      this.toolbar.density.checked = this.model.get("density") !== false;
      this.remap(true);
    });
    this.listen("change:point_size change:opacity change:sprites", () => this.restyle());
    this.listen("change:search change:search_column", () => this.onSearch());
    this.listen("change:_selection", () => this.onSelection());
    this.listen("change:_neighbors change:focus", () => this.onNeighbors());
    this.listen("change:status change:explained change:method change:dims change:params", () => this.renderStatus());
    this.listen("change:embeddings change:embedding change:title", () => this.renderPicker());
    this.listen("change:height", () => this.scene.resize(this.scene.width, this.model.get("height") || 520));
    this.observeSize(this.main, (width) => this.scene.resize(width - 262, this.model.get("height") || 520));
    const seen = this.visibilityObserver((entry) => {
      this.scene.visible = entry.isIntersecting;
      if (entry.isIntersecting) this.scene.frames.request();
    });
    seen?.observe(this.scene.node);
    this.scene.resize(Math.max(this.main.clientWidth - 262, 320), this.model.get("height") || 520);
    this.toolbar.density.checked = this.model.get("density") !== false;
    this.onMeta();
    this.onPositions();
    this.onSprite();
    this.restyle();
    this.renderPicker();
    this.renderStatus();
  }

  wireControls() {
    const t = this.toolbar;
    const on = this.on.bind(this);
    on(t.method, "change", () => this.run({ method: t.method.value }));
    on(t.dims, "change", () => this.run({ dims: Number(t.dims.value) }));
    on(t.run, "click", () => this.run({}));
    on(t.cancel, "click", () => this.request("cancel").catch(() => {}));
    on(t.picker, "change", () => this.chooseEmbedding(Number(t.picker.value)));
    on(t.color, "change", () => this.save({ color_by: t.color.value }));
    on(t.label, "change", () => this.save({ label_by: t.label.value }));
    on(t.size, "input", () => this.save({ point_size: Number(t.size.value) }));
    on(t.opacity, "input", () => this.save({ opacity: Number(t.opacity.value) }));
    on(t.sprites, "change", () => this.save({ sprites: t.sprites.checked }));
    on(t.density, "change", () => this.save({ density: t.density.checked }));
    on(t.searchColumn, "change", () => this.save({ search_column: t.searchColumn.value }));
    for (const button of [t.pan, t.lasso, t.box]) {
      on(button, "click", () => this.setMode(/** @type {any} */ (button.getAttribute("data-mode"))));
    }
    on(t.fit, "click", () => {
      this.userMoved = false;
      this.scene.fit();
    });
    on(t.clear, "click", () => this.selectPoints(new Int32Array(0), false));
    this.setMode("pan");
  }

  /** @param {"pan" | "lasso" | "box"} mode */
  setMode(mode) {
    const t = this.toolbar;
    this.scene.setMode(mode);
    for (const button of [t.pan, t.lasso, t.box]) {
      button.setAttribute("aria-pressed", String(button.getAttribute("data-mode") === mode));
    }
    t.pan.textContent = this.dims === 3 ? "Orbit" : "Pan";
  }

  // ------------------------------------------------------------------ data
  onPositions() {
    const raw = decodeTree(this.model.get("_positions") || {});
    const coords = raw.coords instanceof Float32Array ? raw.coords : new Float32Array(0);
    const dims = Number(raw.dims || 2);
    const method = String(raw.method || "");
    const newLayout = method !== this.shownMethod || dims !== this.dims || coords.length !== this.coords.length;
    if (newLayout) this.userMoved = false;
    this.coords = coords;
    this.dims = dims;
    this.shownMethod = method;
    this.scene.setPositions(coords, dims, !this.userMoved);
    this.root.setAttribute("data-method", method);
    this.root.setAttribute("data-dims", String(dims));
    this.root.setAttribute("data-points", String(coords.length / dims));
    this.root.setAttribute("data-version", String(raw.version ?? 0));
    this.root.setAttribute("data-final", String(Boolean(raw.final)));
    this.setMode(/** @type {any} */ (this.scene.mode));
    this.remap(Boolean(raw.final) || newLayout);
  }

  /** @param {boolean} now */
  remap(now) {
    remap(this, now);
  }

  rename() {
    rename(this);
  }

  renderHistogram() {
    renderHistogram(this);
  }

  /** @param {number} i */
  thumb(i) {
    return thumb(this, i);
  }

  /** @param {number} i */
  detailOf(i) {
    return detailOf(this, i);
  }

  onMeta() {
    this.meta = decodeMeta(this.model.get("_meta"));
    const names = [...this.meta.columns.keys()];
    const t = this.toolbar;
    const none = /** @type {[string, string][]} */ ([["", "(none)"]]);
    const options = names.map((n) => /** @type {[string, string]} */ ([n, n]));
    fillSelect(t.color, [...none, ...options], this.model.get("color_by") || "");
    fillSelect(t.label, [...none, ...options], this.model.get("label_by") || "");
    fillSelect(t.searchColumn, [["", "all columns"], ...options], this.model.get("search_column") || "");
    this.recolor();
    this.onSearch();
    this.onSelection();
    this.onNeighbors();
  }

  onSprite() {
    return loadSprite(this);
  }

  recolor() {
    const column = this.meta.columns.get(this.model.get("color_by") || "");
    const coloring = colorPoints(column, this.meta.n, {
      topN: this.model.get("top_n") ?? 20,
      palette: this.model.get("palette") || "default",
    });
    this.scene.renderer.setColors(coloring.rgba);
    this.scene.style = { ...this.scene.style, frame: coloring.kind !== "none" };
    this.panel.setLegend(coloring);
    const t = this.toolbar;
    if (t.color.value !== (this.model.get("color_by") || "")) t.color.value = this.model.get("color_by") || "";
    this.root.setAttribute("data-color", coloring.column);
    this.root.setAttribute("data-legend", String(coloring.legend.length));
    this.scene.frames.request();
  }

  restyle() {
    const t = this.toolbar;
    const size = this.model.get("point_size") ?? 5;
    const opacity = this.model.get("opacity") ?? 0.8;
    t.size.value = String(size);
    t.opacity.value = String(opacity);
    t.sprites.checked = this.model.get("sprites") !== false;
    this.scene.style = { ...this.scene.style, size, opacity, dim: 0.2, sprites: t.sprites.checked };
    this.scene.frames.request();
  }

  onSearch() {
    const text = this.model.get("search") || "";
    const t = this.toolbar;
    t.search.set(text);
    const { re } = compileFilter(text);
    this.matched = re
      ? searchMask(this.meta.columns, this.model.get("search_column") || "", re, this.meta.n)
      : new Uint8Array(0);
    let count = 0;
    for (let i = 0; i < this.matched.length; i++) count += this.matched[i];
    t.matches.textContent = re ? `${count} match${count === 1 ? "" : "es"}` : "";
    this.root.setAttribute("data-matches", String(count));
    this.reflag();
  }

  onSelection() {
    const raw = decodeTree(this.model.get("_selection") || {});
    const n = this.meta.n;
    const { mask, count } = selectionMask(/** @type {number[]} */ (raw.indices || []), n);
    this.selected = mask;
    this.selectedCount = count;
    this.panel.setSelection(count, n);
    this.renderHistogram();
    this.root.setAttribute("data-selected", String(count));
    this.reflag();
  }

  onNeighbors() {
    const focus = this.model.get("focus") ?? -1;
    const raw = decodeTree(this.model.get("_neighbors") || {});
    if (raw.indices && Number(raw.index) === focus) {
      this.found = { index: focus, indices: raw.indices, distances: raw.distances, metric: String(raw.metric) };
      this.note = "";
    } else if (!this.found || this.found.index !== focus) {
      this.found = null;
    }
    const label = (/** @type {number} */ i) => this.labelOf(i);
    this.panel.setNeighbors(
      focus < this.meta.n ? focus : -1,
      this.found,
      label,
      this.note,
      (i) => this.thumb(i),
      (i) => this.detailOf(i),
    );
    this.root.setAttribute("data-focus", String(focus));
    this.reflag();
  }

  /** Flags of every point (selected, matched, neighbour, focus) and the flagged list. */
  reflag() {
    const focus = this.model.get("focus") ?? -1;
    const { flags, flagged } = pointFlags(this.meta.n, this.selected, this.matched, this.found, focus);
    this.scene.renderer.setFlags(flags, flagged);
    this.flagged = flags;
    this.scene.frames.request();
  }

  // ------------------------------------------------------------------ actions
  /**
   * Ask the kernel for a layout: the toolbar's method, dims and parameters, overridden by `change`.
   * @param {{method?: string, dims?: number}} change
   */
  run(change) {
    runLayout(this, change);
  }

  /** @param {number} index */
  chooseEmbedding(index) {
    chooseEmbedding(this, index);
  }

  /** @param {number} i  a point, or -1 to clear */
  focusPoint(i) {
    this.save({ focus: i });
    this.note = "";
    if (i < 0) {
      this.found = null;
      this.onNeighbors();
      return;
    }
    this.onNeighbors();
    const k = this.model.get("neighbors_k") || 10;
    const metric = this.model.get("neighbor_metric") || "cosine";
    this.request("neighbors", { index: i, k, metric })
      .then(({ content }) => {
        if (this.disposed || (this.model.get("focus") ?? -1) !== i) return;
        this.found = {
          index: i,
          indices: content.indices,
          distances: content.distances,
          metric: String(content.metric),
        };
        this.onNeighbors();
      })
      .catch((err) => {
        if (this.disposed) return;
        this.note =
          err instanceof RequestError ? err.message : "neighbours in the original space need the running kernel";
        this.onNeighbors();
      });
  }

  /** @param {Int32Array} indices @param {boolean} additive */
  selectPoints(indices, additive) {
    const chosen = additive && this.selected.length ? mergedSelection(this.selected, indices, this.meta.n) : indices;
    this.save({ _selection: { indices: encodeArray(chosen) } });
    this.onSelection();
  }

  /** @param {number} i @param {number} x @param {number} y */
  setHover(i, x, y) {
    if (i === this.hoverIndex) return;
    this.hoverIndex = i;
    this.hoverAt = [x, y];
    this.panel.setHover(i, this.meta.columns, (k) => this.thumb(k));
    this.root.setAttribute("data-hover", String(i));
    this.scene.frames.request();
  }

  /** Point `i`'s label: its `label_by` value, else its first column's. @param {number} i */
  labelOf(i) {
    const name = this.model.get("label_by") || "";
    const column = name ? this.meta.columns.get(name) : this.meta.columns.values().next().value;
    return column ? textOf(column, i) : "";
  }

  // ------------------------------------------------------------------ controls
  /** @param {CanvasRenderingContext2D} ctx */
  decorate(ctx) {
    decorate(this, ctx);
  }

  csvRows() {
    return csvRows(this);
  }

  renderStatus() {
    renderStatus(this);
  }

  renderPicker() {
    renderPicker(this);
  }

  dispose() {
    this.scene?.dispose();
    super.dispose();
  }
}
