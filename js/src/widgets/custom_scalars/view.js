// The custom-scalars widget's view: the layout's categories (folded as the layout says),
// each chart drawn with the kit's line chart from the scalars widget's series and
// smoothing. Smoothing, x axis, log y, run toggles, tooltips, zoom and CSV run here.
import { Tooltip } from "../../chart/tooltip.js";
import { categoryColor, runColor } from "../../color/palettes.js";
import { csvButton } from "../../controls/csv-button.js";
import { smoothingSlider, xAxisSelect } from "../../controls/line-controls.js";
import { RunSelector } from "../../controls/run-selector.js";
import { el, setText } from "../../core/dom.js";
import { View } from "../../core/view.js";
import { lineSeries, smoothedOverview } from "../../series/series.js";
import { seriesKey } from "../../series/store.js";
import { CustomPanel } from "./panel.js";
import { MARGIN_SEP, storesOf } from "./stores.js";

/** @typedef {import("./model").CustomScalarsTraits} CustomScalarsTraits */
/** @typedef {import("../../series/store").SeriesRecord} SeriesRecord */

/**
 * A drawn series of a chart.
 * @typedef {object} Drawn
 * @property {SeriesRecord} rec
 * @property {string} run
 * @property {string} tag      the value tag
 * @property {string} label    "tag (run)", as TensorBoard names it
 * @property {string} color
 * @property {number} dash
 */

/** @extends {View<CustomScalarsTraits>} */
export class CustomScalarsView extends View {
  /**
   * @param {import("./model").CustomScalarsModel} model
   * @param {HTMLElement} host
   */
  constructor(model, host) {
    super(model, host, "custom_scalars");
    /** @type {Map<string, CustomPanel>} */
    this.panels = new Map();
    /** @type {Map<CustomPanel, Drawn[]>} */
    this.drawn = new Map();
    const on = this.on.bind(this);
    this.runs = new RunSelector(this, { onChange: () => this.update() });
    const slider = smoothingSlider();
    this.smoothing = slider.input;
    this.smoothingValue = slider.value;
    this.xaxis = xAxisSelect();
    const csv = csvButton({
      className: "tbnb-download",
      filename: "tbnb-custom-scalars.csv",
      parent: this.root,
      on,
      rows: () => this.csv(),
    });
    this.status = el("span", { class: "tbnb-status" });
    this.bar = el(
      "div",
      { class: "tbnb-toolbar" },
      el("label", {}, "Smoothing", this.smoothing, this.smoothingValue),
      el("label", {}, "X", this.xaxis),
      this.runs.filter.node,
      csv,
      this.status,
    );
    this.empty = el("div", { class: "tbnb-cs-empty", hidden: true });
    this.groups = el("div", { class: "tbnb-groups" });
    this.tooltip = new Tooltip(this.root);
    this.frames = this.scheduler(() => this.drawDirty());
    this.seen = this.visibilityObserver((entry) => {
      const panel = /** @type {any} */ (entry.target).__tbnbPanel;
      if (!panel) return;
      panel.visible = entry.isIntersecting;
      if (panel.visible && panel.dirty) this.frames.request();
    });
    this.observeSize(this.groups, () => this.redrawAll("all"));
  }

  build() {
    this.root.append(
      this.bar,
      this.empty,
      el("div", { class: "tbnb-main" }, el("div", { class: "tbnb-side" }, this.runs.node), this.groups),
    );
    this.on(this.smoothing, "input", () => {
      const v = Number(this.smoothing.value);
      setText(this.smoothingValue, v.toFixed(3));
      this.save({ smoothing: v });
      this.redrawAll("smooth");
    });
    this.on(this.xaxis, "change", () => {
      this.save({ x_axis: this.xaxis.value });
      for (const p of this.panels.values()) p.chart.zoom = null;
      this.redrawAll("all");
    });
    this.listen("change:_data change:_margins", () => this.rebuild(false));
    this.listen("change:charts change:height", () => this.rebuild(true));
    this.listen("change:smoothing change:smoothing_mode", () => {
      this.syncControls();
      this.redrawAll("smooth");
    });
    this.listen("change:x_axis change:run_colors change:log_y", () => {
      this.syncControls();
      this.update();
    });
    this.listen("change:selected_runs change:run_filter", () => this.update());
    this.listen("change:empty_reason", () => this.showEmpty());
    this.rebuild(true);
  }

  /** @param {boolean} panels */
  rebuild(panels) {
    const { plain, margin } = storesOf(this.model);
    this.runs.setRuns(
      [...new Set([...plain.runs, ...margin.runs])].sort((a, b) => this.runOrder(a) - this.runOrder(b)),
    );
    if (panels || !this.panels.size) this.buildPanels();
    this.syncControls();
    this.showEmpty();
    this.update();
  }

  /** @param {string} run  the run's place in the colour order (Python's run order) */
  runOrder(run) {
    const order = Object.keys(this.model.get("run_colors") || {});
    const i = order.indexOf(run);
    return i < 0 ? order.length : i;
  }

  showEmpty() {
    const reason = this.model.get("empty_reason") || "";
    this.empty.hidden = !reason;
    setText(this.empty, reason ? `No custom-scalars charts: ${reason}` : "");
  }

  buildPanels() {
    for (const p of this.panels.values()) this.seen?.unobserve(p.node);
    this.panels.clear();
    /** @type {Map<string, HTMLElement>} */
    const grids = new Map();
    const nodes = [];
    const hooks = {
      on: this.on.bind(this),
      tooltip: this.tooltip,
      onLogY: (/** @type {CustomPanel} */ p, /** @type {boolean} */ checked) => {
        const list = new Set(this.model.get("log_y") || []);
        if (checked) list.add(p.spec.key);
        else list.delete(p.spec.key);
        this.save({ log_y: [...list] });
        this.update();
      },
    };
    for (const spec of this.model.get("charts") || []) {
      let grid = grids.get(spec.category);
      if (!grid) {
        grid = el("div", { class: "tbnb-grid" });
        grids.set(spec.category, grid);
        nodes.push(
          el(
            "details",
            { class: "tbnb-group", "data-category": spec.category, open: !spec.closed },
            el("summary", { text: spec.category || "(untitled)" }),
            grid,
          ),
        );
      }
      const panel = new CustomPanel(spec, this.model.get("height") || 220, hooks);
      /** @type {any} */ (panel.node).__tbnbPanel = panel;
      panel.visible = !this.seen;
      grid.append(panel.node);
      this.panels.set(spec.key, panel);
      this.seen?.observe(panel.node);
    }
    this.groups.replaceChildren(...nodes);
  }

  syncControls() {
    const w = Number(this.model.get("smoothing"));
    this.smoothing.value = String(w);
    setText(this.smoothingValue, w.toFixed(3));
    this.xaxis.value = this.model.get("x_axis") || "step";
    const logs = new Set(this.model.get("log_y") || []);
    for (const p of this.panels.values()) p.logy.checked = logs.has(p.spec.key);
  }

  /** Which series each chart draws (selected runs), their colours and legends. */
  update() {
    const { plain, margin } = storesOf(this.model);
    const selected = new Set(this.model.get("selected_runs") || []);
    const colors = this.model.get("run_colors") || {};
    const order = Object.keys(colors);
    let drawnSeries = 0;
    for (const p of this.panels.values()) {
      const store = p.spec.kind === "margin" ? margin : plain;
      const recs = [];
      for (const [run, key] of p.spec.series) {
        const rec = selected.has(run) && store.series.get(seriesKey(run, key));
        if (rec) recs.push({ rec, run, tag: key.split(MARGIN_SEP)[0] });
      }
      const runs = new Set(recs.map((r) => r.run));
      const tags = [...new Set(recs.map((r) => r.tag))];
      // one run and several tags: tell the tags apart by colour, else by the run's colour
      const byTag = runs.size === 1 && tags.length > 1;
      /** @type {Drawn[]} */
      const drawn = recs.map(({ rec, run, tag }) => ({
        rec,
        run,
        tag,
        label: `${tag} (${run})`,
        color: byTag
          ? categoryColor(tags.indexOf(tag), this.model.get("palette"))
          : runColor(colors, run, order.indexOf(run)),
        dash: byTag ? 0 : tags.indexOf(tag),
      }));
      this.drawn.set(p, drawn);
      p.setLegend(drawn.map((d) => ({ label: d.label, color: d.color })));
      drawnSeries += drawn.length;
      p.mark("all");
    }
    const shown = [...new Set([...plain.runs, ...margin.runs])].filter((r) => selected.has(r)).length;
    setText(this.status, `${shown} runs, ${this.panels.size} charts, ${drawnSeries} series`);
    this.frames.request();
  }

  /** @param {"over" | "smooth" | "all"} level */
  redrawAll(level) {
    for (const p of this.panels.values()) p.mark(level);
    this.frames.request();
  }

  drawDirty() {
    const xMode = this.model.get("x_axis") || "step";
    const weight = Number(this.model.get("smoothing")) || 0;
    const mode = this.model.get("smoothing_mode") === "time" ? "time" : "ema";
    const logs = new Set(this.model.get("log_y") || []);
    for (const p of this.panels.values()) {
      if (!p.dirty || !p.visible) continue;
      const level = p.dirty;
      p.dirty = false;
      const series = (this.drawn.get(p) || []).map((d) =>
        lineSeries(d.rec, { xMode, weight, mode, color: d.color, label: d.label, dash: d.dash }),
      );
      p.chart.options.height = this.model.get("height") || 220;
      p.chart.setData({
        series,
        xType: xMode === "wall" ? "time" : "linear",
        xLabel: xMode,
        logY: logs.has(p.spec.key),
        showRaw: true,
      });
      p.chart.draw(level);
      p.node.setAttribute("data-points", String(series.reduce((n, s) => n + s.x.length, 0)));
    }
  }

  /** Every drawn series (raw, smoothed; lower and upper in margin charts), for the CSV. */
  csv() {
    const xMode = this.model.get("x_axis") || "step";
    const weight = Number(this.model.get("smoothing")) || 0;
    const mode = this.model.get("smoothing_mode") === "time" ? "time" : "ema";
    const header = ["chart", "run", "tag", "step", "wall_time", "value", "smoothed", "lower", "upper"];
    /** @type {unknown[][]} */
    const rows = [];
    for (const [p, drawn] of this.drawn) {
      for (const d of drawn) {
        const { sy } = smoothedOverview(d.rec, xMode, weight, mode);
        const c = d.rec.cols;
        for (let i = 0; i < c.value.length; i++) {
          rows.push([
            p.spec.key,
            d.run,
            d.tag,
            c.step[i],
            c.wall[i],
            c.value[i],
            sy[i],
            c.lo ? c.lo[i] : null,
            c.hi ? c.hi[i] : null,
          ]);
        }
      }
    }
    return { header, rows };
  }
}
