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
import { RequestError } from "../../core/request.js";
import { View } from "../../core/view.js";
import { areaSeries } from "./auc-chart.js";
import { PrPanel } from "./panel.js";
import { AREA_COLUMNS, areaCsv, curveCsv } from "./rows.js";
import { curvesOf, seriesKey, storeOf } from "./store.js";
import { buildToolbar } from "./toolbar.js";

/** @typedef {import("./model").PrCurvesTraits} PrCurvesTraits */

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
    this.frames = this.scheduler(() => this.drawDirty());
    this.seen = this.visibilityObserver((entry) => {
      const panel = /** @type {any} */ (entry.target).__tbnbPanel;
      if (!panel) return;
      panel.visible = entry.isIntersecting;
      if (panel.visible && panel.dirty) this.frames.request();
    });
    this.observeSize(this.groups, () => this.redrawAll());
    this.disposers.push(() => {
      if (this.fetchTimer !== null) clearTimeout(this.fetchTimer);
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
    this.listen("change:view change:step change:chart_steps change:run_colors", () => this.update());
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
        this.update();
      },
    };
    for (const spec of this.model.get("charts") || []) {
      let grid = grids.get(spec.group);
      if (!grid) {
        grid = el("div", { class: "tbnb-grid" });
        grids.set(spec.group, grid);
        const title = spec.group ? `${spec.group}` : "";
        nodes.push(
          title
            ? el(
                "details",
                { class: "tbnb-group", "data-group": spec.group, open: true },
                el("summary", { text: title }),
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
    this.update();
  }

  /** Which curves each chart shows, the legends and the table; then redraw. */
  update() {
    const store = this.store;
    const view = this.model.get("view") === "roc" ? "roc" : "pr";
    this.bar.view.value = view;
    const tagRe = compileFilter(this.model.get("tag_filter") || "").re;
    const selected = new Set(this.model.get("selected_runs") || []);
    const colors = this.model.get("run_colors") || {};
    const global = this.model.get("step");
    showStep(this.bar.slider, global ?? null);
    /** @type {ShownCurve[]} */
    const shown = [];
    for (const p of this.panels.values()) {
      p.shown = matches(tagRe, p.spec.tag);
      p.node.classList.toggle("tbnb-hidden", !p.shown);
      const step = this.chartStep(p.spec.key);
      p.slider.setSteps(store.chartSteps(p.spec.tag));
      showStep(p.slider, step);
      const curves = [];
      const legend = [];
      const areas = [];
      for (const [i, run] of store.runs.entries()) {
        const series = selected.has(run) && store.series.get(seriesKey(run, p.spec.tag));
        if (!series) continue;
        const color = runColor(colors, run, i);
        const row = store.rowAt(series, step);
        const held = store.curveFor(series, row);
        if (!held?.exact) this.wanted.add(row);
        const drawn = held && {
          run,
          color,
          step: store.steps.step[held.curve.row],
          exact: held.exact,
          curve: held.curve,
        };
        if (drawn) curves.push(drawn);
        if (p.shown) shown.push({ run, tag: p.spec.tag, row, color, drawn: drawn || null });
        legend.push({
          run,
          color,
          step: store.steps.step[row],
          exact: !!held?.exact,
          ap: store.steps.average_precision[row],
          roc: store.steps.roc_auc[row],
          curveStep: drawn ? drawn.step : null,
        });
        const field = view === "roc" ? store.steps.roc_auc : store.steps.average_precision;
        areas.push(
          areaSeries({
            run,
            color,
            steps: series.steps,
            values: field.subarray(series.start, series.end),
            wall: store.steps.wall.subarray(series.start, series.end),
          }),
        );
      }
      p.chart.setData(curves, view);
      p.setLegend(legend);
      for (const e of legend) {
        const entry = p.entries.get(e.run);
        entry?.node.setAttribute("data-curve-step", e.curveStep === null ? "" : String(e.curveStep));
        if (entry && !e.exact)
          setText(
            entry.step,
            `step ${e.step} (curve of step ${e.curveStep ?? "—"}, ${this.offline ? "nearest sent" : "loading"})`,
          );
      }
      p.auc.metric = view === "roc" ? "ROC-AUC" : "PR-AUC (AP)";
      setText(p.aucTitle, `${p.auc.metric} over steps`);
      p.auc.setData({ series: areas, xType: "linear", xLabel: "step", showRaw: false, yRange: [null, 1] });
      p.auc.marker = step === null ? (p.slider.steps.at(-1) ?? null) : p.slider.value;
      p.node.setAttribute("data-series-count", String(curves.length));
      p.node.setAttribute("data-step", String(p.slider.value));
      p.node.setAttribute("data-view", view);
      p.mark();
    }
    this.shown = shown;
    this.updateTable();
    const drawnRuns = store.runs.filter((r) => selected.has(r)).length;
    const sent =
      store.total > store.sent
        ? `, curves of ${store.sent} of ${store.total} steps sent${this.offline ? "" : " (others on request)"}`
        : "";
    setText(this.bar.status, `${drawnRuns}/${store.runs.length} runs, ${this.panels.size} charts${sent}`);
    this.frames.request();
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
    for (const p of this.panels.values()) p.mark();
    this.frames.request();
  }

  drawDirty() {
    for (const p of this.panels.values()) {
      if (!p.dirty || !p.shown || !p.visible) continue;
      p.dirty = false;
      p.chart.draw();
      p.auc.draw();
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
        this.update();
      })
      .catch((err) => {
        if (this.disposed) return;
        if (err instanceof RequestError || /timed out/.test(String(err))) {
          setText(this.bar.status, `curves: ${err.message}`);
          return;
        }
        this.offline = true; // no kernel (an exported page): the nearest sent curves stay
        this.update();
      });
  }
}
