// The PR-curves widget's view: renders from model state alone (live kernel, saved notebook
// or exported page). Step sliders, PR/ROC, run toggles, filters, hover, legend, table and
// CSV all run here; the kernel is asked only for curves of steps the browser does not hold.
import { Tooltip } from "../../chart/tooltip.js";
import { runColor } from "../../color/palettes.js";
import { csvButton } from "../../controls/csv-button.js";
import { RunSelector } from "../../controls/run-selector.js";
import { DataTable } from "../../controls/table.js";
import { nearestSorted } from "../../core/arrays.js";
import { el, setText } from "../../core/dom.js";
import { compileFilter, matches } from "../../core/filter.js";
import { formatNumber } from "../../core/format.js";
import { NoKernelError, RequestError } from "../../core/request.js";
import { View } from "../../core/view.js";
import { PrPanel } from "./panel.js";
import { AREA_COLUMNS, areaCsv, curveCsv } from "./rows.js";
import { curvesOf, seriesKey, storeOf } from "./store.js";
import { buildToolbar } from "./toolbar.js";

/** @typedef {import("./model").PrCurvesTraits} PrCurvesTraits */

/** Milliseconds between two writes of the legends while a slider moves (10 a second). */
export const LEGEND_MS = 100;

/**
 * Show a step on a slider without telling its owner (the latest for null).
 * @param {import("../../controls/step-slider").StepSlider} slider
 * @param {number | null} step
 */
function showStep(slider, step) {
  const n = slider.steps.length;
  slider.select(step === null ? n - 1 : nearestSorted(slider.steps, step), false);
}
/** @typedef {import("./rows").ShownCurve} ShownCurve */

/** @extends {View<PrCurvesTraits>} */
export class PrCurvesView extends View {
  /**
   * @param {import("./model").PrCurvesModel} model
   * @param {HTMLElement} host
   */
  constructor(model, host) {
    super(model, host, "pr_curves");
    /** @type {Map<string, PrPanel>} */
    this.panels = new Map();
    /** @type {ShownCurve[]} */
    this.shown = [];
    /** @type {Set<number>} rows whose curves are wanted from the kernel */
    this.wanted = new Set();
    this.offline = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.fetchTimer = null;
    const on = this.on.bind(this);
    this.runs = new RunSelector(this, { onChange: () => this.update() });
    const csv = (/** @type {string} */ name, /** @type {string} */ label, /** @type {() => any} */ rows) => {
      const button = csvButton({
        className: `tbnb-download tbnb-csv-${name}`,
        filename: `tbnb-pr-${name}.csv`,
        parent: this.root,
        on,
        rows,
      });
      setText(button, label);
      return button;
    };
    this.bar = buildToolbar({
      on,
      onStep: (step) => this.setGlobalStep(step),
      onTagFilter: (text) => {
        this.save({ tag_filter: text });
        this.update();
      },
      csvCurves: csv("curves", "CSV: curves", () => curveCsv(this.shown, this.store)),
      csvAreas: csv("areas", "CSV: areas", () => areaCsv(this.shown, this.store)),
    });
    this.tooltip = new Tooltip(this.root);
    this.problems = el("details", { class: "tbnb-pr-problems", hidden: true });
    this.empty = el("div", { class: "tbnb-pr-empty", hidden: true });
    this.groups = el("div", { class: "tbnb-groups" });
    this.table = new DataTable({
      on,
      rowAttrs: (i) => ({ key: this.shown[i]?.run, classes: [], swatch: this.shown[i]?.color }),
    });
    this.tableBox = el(
      "details",
      { class: "tbnb-pr-table", open: true },
      el("summary", { text: "Areas at the shown steps" }),
      this.table.node,
    );
    this.fullDirty = true;
    this.stepsDirty = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.tableTimer = null;
    /** when the legends were last written (performance.now()) */
    this.legendAt = Number.NEGATIVE_INFINITY;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.legendTimer = null;
    this.frames = this.scheduler(() => this.onFrame());
    this.seen = this.visibilityObserver((entry) => {
      const panel = /** @type {any} */ (entry.target).__tbnbPanel;
      if (!panel) return;
      panel.visible = entry.isIntersecting;
      if (panel.visible && panel.dirty) this.frames.request();
    });
    this.disposers.push(() => {
      if (this.fetchTimer !== null) clearTimeout(this.fetchTimer);
      if (this.tableTimer !== null) clearTimeout(this.tableTimer);
      if (this.legendTimer !== null) clearTimeout(this.legendTimer);
    });
  }

  get store() {
    return storeOf(this.model);
  }

  build() {
    this.root.append(
      this.bar.node,
      this.problems,
      this.empty,
      el(
        "div",
        { class: "tbnb-main" },
        el("div", { class: "tbnb-side" }, this.runs.node),
        el("div", { class: "tbnb-content" }, this.groups, this.tableBox),
      ),
    );
    this.on(this.bar.view, "change", () => {
      this.save({ view: this.bar.view.value === "roc" ? "roc" : "pr" });
      this.update();
    });
    this.listen("change:_data", () => this.rebuild(false));
    this.listen("change:charts change:height", () => this.rebuild(true));
    this.listen("change:view change:run_colors", () => this.update());
    this.listen("change:step change:chart_steps", () => this.stepsChanged());
    this.listen("change:tag_filter", () => {
      this.bar.tagFilter.set(this.model.get("tag_filter") || "");
      this.update();
    });
    this.listen("change:selected_runs change:run_filter", () => this.update());
    this.listen("change:problems change:empty_reason", () => this.showNotes());
    this.rebuild(true);
  }

  /** @param {boolean} panels  rebuild the chart cards too */
  rebuild(panels) {
    this.runs.setRuns(this.store.runs);
    if (panels || !this.panels.size) this.buildPanels();
    this.bar.slider.setSteps(this.store.allSteps());
    this.bar.tagFilter.set(this.model.get("tag_filter") || "");
    this.showNotes();
    this.update();
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
      onStep: (/** @type {PrPanel} */ p, /** @type {number} */ step) => {
        this.save({ chart_steps: { ...(this.model.get("chart_steps") || {}), [p.spec.key]: step } });
        this.stepsChanged();
      },
    };
    for (const spec of this.model.get("charts") || []) {
      let grid = grids.get(spec.group);
      if (!grid) {
        grid = el("div", { class: "tbnb-grid" });
        grids.set(spec.group, grid);
        nodes.push(
          spec.group
            ? el(
                "details",
                { class: "tbnb-group", "data-group": spec.group, open: true },
                el("summary", { text: spec.group }),
                grid,
              )
            : el("div", { class: "tbnb-group", "data-group": "" }, grid),
        );
      }
      const panel = new PrPanel(spec, this.model.get("height") || 260, hooks);
      /** @type {any} */ (panel.node).__tbnbPanel = panel;
      panel.visible = !this.seen;
      grid.append(panel.node);
      this.panels.set(spec.key, panel);
      this.seen?.observe(panel.node);
      this.observeSize(panel.body, (width) => {
        if (Math.floor(width) === panel.chart.width) return;
        panel.resized(width);
        this.frames.request();
      });
    }
    this.groups.replaceChildren(...nodes);
  }

  showNotes() {
    const problems = this.model.get("problems") || [];
    this.problems.hidden = problems.length === 0;
    this.problems.replaceChildren(
      el("summary", { text: `${problems.length} curve problem${problems.length === 1 ? "" : "s"} (kept and drawn)` }),
      ...problems.map((p) => el("div", { class: "tbnb-msg", text: p })),
    );
    const reason = this.model.get("empty_reason") || "";
    this.empty.hidden = !reason;
    setText(this.empty, reason ? `No PR curves to show: ${reason}` : "");
  }

  /** The step a chart is at (its own slider, the global one), or null for its latest. @param {string} key */
  chartStep(key) {
    const own = this.model.get("chart_steps")?.[key];
    if (own !== undefined && own !== null) return own;
    const global = this.model.get("step");
    return global === undefined ? null : global;
  }

  /** @param {number} step */
  setGlobalStep(step) {
    this.save({ step, chart_steps: {} });
    this.stepsChanged();
  }

  /** Runs, colours, view or filters changed: everything is placed again (next frame). */
  update() {
    this.fullDirty = true;
    this.frames.request();
  }

  /** Only steps changed: curves, legends' numbers and marks (next frame). */
  stepsChanged() {
    this.stepsDirty = true;
    this.frames.request();
  }

  /** Members of every chart (selected runs with its tag), its areas chart and visibility. */
  refresh() {
    const store = this.store;
    const view = this.model.get("view") === "roc" ? "roc" : "pr";
    this.bar.view.value = view;
    const tagRe = compileFilter(this.model.get("tag_filter") || "").re;
    const selected = new Set(this.model.get("selected_runs") || []);
    const colors = this.model.get("run_colors") || {};
    for (const p of this.panels.values()) {
      p.shown = matches(tagRe, p.spec.tag);
      p.node.classList.toggle("tbnb-hidden", !p.shown);
      if (p.stepsOf !== store) {
        p.slider.setSteps(store.chartSteps(p.spec.tag));
        p.stepsOf = store;
      }
      const members = [];
      for (const [i, run] of store.runs.entries()) {
        const series = selected.has(run) && store.series.get(seriesKey(run, p.spec.tag));
        if (series) members.push({ run, series, color: runColor(colors, run, i) });
      }
      p.setMembers(members, store, view);
    }
    const drawnRuns = store.runs.filter((r) => selected.has(r)).length;
    const sent =
      store.total > store.sent
        ? `, curves of ${store.sent} of ${store.total} steps sent${this.offline ? "" : " (others on request)"}`
        : "";
    setText(this.bar.status, `${drawnRuns}/${store.runs.length} runs, ${this.panels.size} charts${sent}`);
  }

  /** Every chart at its step; the table and the kernel requests follow once things rest. */
  place() {
    const store = this.store;
    const view = this.model.get("view") === "roc" ? "roc" : "pr";
    showStep(this.bar.slider, this.model.get("step") ?? null);
    const out = { offline: this.offline, wanted: this.wanted, shown: /** @type {ShownCurve[]} */ ([]) };
    for (const p of this.panels.values()) p.place(store, this.chartStep(p.spec.key), view, out);
    this.shown = out.shown;
    if (this.tableTimer !== null) clearTimeout(this.tableTimer);
    this.tableTimer = setTimeout(() => {
      this.tableTimer = null;
      if (!this.disposed) this.updateTable();
    }, 100);
    this.scheduleFetch();
  }

  updateTable() {
    const st = /** @type {Record<string, ArrayLike<number>>} */ (/** @type {unknown} */ (this.store.steps));
    const shown = this.shown;
    this.table.setColumns([
      { key: "run", label: "run", text: (i) => shown[i].run, value: (i) => shown[i].run },
      { key: "tag", label: "tag", text: (i) => shown[i].tag, value: (i) => shown[i].tag },
      {
        key: "step",
        label: "step",
        numeric: true,
        text: (i) => String(st.step[shown[i].row]),
        value: (i) => st.step[shown[i].row],
      },
      ...AREA_COLUMNS.map((c) => ({
        key: c.key,
        label: c.label,
        numeric: true,
        text: (/** @type {number} */ i) => formatNumber(st[c.field][shown[i].row], 4),
        value: (/** @type {number} */ i) =>
          Number.isFinite(st[c.field][shown[i].row]) ? st[c.field][shown[i].row] : null,
      })),
    ]);
    this.table.setRows(shown.map((_, i) => i));
    this.table.render();
  }

  redrawAll() {
    for (const p of this.panels.values()) p.markAll();
    this.frames.request();
  }

  /**
   * One frame: place what changed, then draw the visible charts that need it. The curves
   * follow a slider every frame; the legends' numbers (text: layout and paint of every card)
   * at most every LEGEND_MS while it moves, and at once after a pause.
   */
  onFrame() {
    if (this.fullDirty) this.refresh();
    if (this.fullDirty || this.stepsDirty) this.place();
    this.fullDirty = false;
    this.stepsDirty = false;
    const now = performance.now();
    const legends = now - this.legendAt >= LEGEND_MS;
    let behind = false;
    for (const p of this.panels.values()) {
      if (!(p.dirty && p.shown && p.visible)) continue;
      if (legends && p.legendStale) this.legendAt = now;
      p.draw(legends);
      behind = behind || p.legendStale;
    }
    if (behind && this.legendTimer === null) {
      this.legendTimer = setTimeout(
        () => {
          this.legendTimer = null;
          this.frames.request();
        },
        Math.max(LEGEND_MS - (now - this.legendAt), 0),
      );
    }
  }

  /** Ask the kernel (once the slider rests) for the curves of rows the browser lacks. */
  scheduleFetch() {
    if (this.offline || !this.wanted.size) return;
    if (this.fetchTimer !== null) clearTimeout(this.fetchTimer);
    this.fetchTimer = setTimeout(() => this.fetch(), 60);
  }

  fetch() {
    this.fetchTimer = null;
    const store = this.store;
    const rows = [...this.wanted].filter((r) => !store.curves.has(r)).slice(0, 2000);
    this.wanted.clear();
    if (!rows.length || this.disposed) return;
    this.request("curves", { rows })
      .then(({ content }) => {
        if (this.store !== store) return;
        for (const c of curvesOf(content.curves)) store.addCurve(c);
        this.stepsChanged();
      })
      .catch((err) => {
        if (this.disposed) return;
        if (err instanceof RequestError) {
          setText(this.bar.status, `curves: ${err.message}`);
          return;
        }
        if (!(err instanceof NoKernelError)) return;
        this.offline = true; // no kernel (an exported page): the nearest sent curves stay
        this.update();
      });
  }
}
