// The histograms widget's view: cards grouped by tag prefix (one per tag and run, or one per
// tag in the runs mode), drawn only once scrolled into view. A card draws at once from what
// the view holds (the saved preview, or exact data of other settings, re-binned here) and asks
// the kernel for the exact data of its settings, in one batched request per frame; without a
// kernel (a saved page) the view keeps drawing from the preview.
import { Tooltip } from "../../chart/tooltip.js";
import { runColor } from "../../color/palettes.js";
import { csvButton } from "../../controls/csv-button.js";
import { RunSelector } from "../../controls/run-selector.js";
import { el, setText } from "../../core/dom.js";
import { compileFilter, matches } from "../../core/filter.js";
import { View } from "../../core/view.js";
import { drawBands, drawRuns } from "./bands.js";
import { Card, runToggled } from "./card.js";
import { BAND_HEADER, BIN_HEADER, bandRows, binRows } from "./csv.js";
import { drawHeatmap } from "./heatmap.js";
import { Requests } from "./requests.js";
import { drawOffset, drawOverlay } from "./ridges.js";
import { atStepFrom, ChartStore } from "./store.js";
import { bindToolbar, buildToolbar, syncToolbar } from "./toolbar.js";

/** @typedef {import("./model").HistogramsTraits} HistogramsTraits */
/** @typedef {import("./model").ChartData} ChartData */
/** @typedef {import("./model").AtStepData} AtStepData */

const ALL = 1e9;

/** @extends {View<HistogramsTraits>} */
export class HistogramsView extends View {
  /**
   * @param {import("./model").HistogramsModel} model
   * @param {HTMLElement} host
   */
  constructor(model, host) {
    super(model, host, "histograms");
    this.store = new ChartStore();
    /** @type {Map<string, Card>} */
    this.cards = new Map();
    /** @type {Map<string, {node: HTMLElement, count: HTMLElement, cards: Card[]}>} */
    this.groupNodes = new Map();
    this.layout = "";
    this.shownCount = 0;
    /** @type {import("./toolbar").ControlSteps} what the step controls hold */
    this.controlSteps = { steps: null, lo: Number.NaN, hi: Number.NaN };
    const on = this.on.bind(this);
    this.runs = new RunSelector(this, { onChange: () => this.update() });
    const csv = csvButton({
      className: "tbnb-download",
      filename: "tbnb-histograms.csv",
      parent: this.root,
      on,
      rows: () => this.csv(),
    });
    this.bar = buildToolbar({
      on,
      csv,
      onTagFilter: (text) => {
        this.save({ tag_filter: text });
        this.update();
      },
      onWindow: (edge, step) => {
        const [lo, hi] = this.windowOr();
        this.save({ step_window: edge === "from" ? [step, Math.max(step, hi)] : [Math.min(lo, step), step] });
        this.redrawAll();
      },
      onStep: (step) => {
        this.save({ step });
        this.redrawAll();
      },
    });
    this.message = el("div", { class: "tbnb-message" });
    this.groups = el("div", { class: "tbnb-groups" });
    this.tooltip = new Tooltip(this.root);
    this.requests = new Requests(
      this,
      () => this.redrawAll(),
      (text) => this.setStatus(text),
    );
    this.frames = this.scheduler(() => this.drawDirty());
    /** whether the cards in view are known (the observer has reported once) */
    this.looked = false;
    this.seen = this.visibilityObserver(
      (entry) => {
        const card = /** @type {any} */ (entry.target).__tbnbCard;
        if (!card) return;
        card.visible = entry.isIntersecting;
        if (!card.visible) card.pictures.clear(); // pictures are kept for the cards in view only
        if ((card.visible && card.dirty) || !this.looked) this.frames.request();
        this.looked = true;
      },
      { rootMargin: "200px" },
    );
    if (!this.seen) this.looked = true;
    this.observeSize(this.groups, () => this.redrawAll());
  }

  build() {
    const { bar } = this;
    this.root.append(
      bar.node,
      this.message,
      el("div", { class: "tbnb-main" }, el("div", { class: "tbnb-side" }, this.runs.node), this.groups),
    );
    bindToolbar(this);
    this.listen("change:_data", () => this.rebuild());
    this.listen("change:_preview", () => {
      this.store.setPreview(this.model.get("_preview"));
      this.setStatus();
      // the charts drawn from the kernel's exact data stay as they are (and their hover)
      for (const card of this.cards.values()) if (!card.data?.exact) card.dirty = true;
      this.frames.request();
    });
    this.listen("change:mode change:height", () => this.relayout());
    this.listen("change:bins change:time_axis change:max_steps change:log_color change:run_colors change:step", () => {
      this.syncControls();
      this.redrawAll();
    });
    this.listen("change:step_window", () => {
      this.syncControls();
      this.redrawAll();
    });
    this.listen("change:hidden_in_chart", () => this.update());
    this.listen("change:tag_filter", () => {
      this.bar.tagFilter.set(this.model.get("tag_filter") || "");
      this.update();
    });
    this.listen("change:problems", () => this.showMessage());
    this.rebuild();
  }

  get mode() {
    return this.model.get("mode") || "offset";
  }

  /** @returns {[number, number]} the step window, or every step */
  windowOr() {
    const w = this.model.get("step_window") || [];
    const steps = this.store.stepValues;
    return w.length === 2 ? [w[0], w[1]] : [steps[0] ?? 0, steps[steps.length - 1] ?? 0];
  }

  rebuild() {
    const before = this.cardKeys();
    this.store.load(this.model.get("_data"));
    this.store.setPreview(this.model.get("_preview"));
    this.requests.reset();
    this.runs.setRuns(this.store.runs);
    if (this.cardKeys() !== before) this.layout = ""; // new series: new cards (else they stay)
    this.relayout();
    if (this.layout) this.update();
    this.showMessage();
  }

  /** The cards the data calls for, as one string. */
  cardKeys() {
    const { store } = this;
    return JSON.stringify([store.tags, store.groups, store.tags.map((t) => store.runs.filter((r) => store.has(r, t)))]);
  }

  /**
   * Cards for the mode's layout (one per tag and run, or one per tag for runs). Between the
   * modes of one layout the cards stay: only the charts in view are redrawn.
   */
  relayout() {
    const layout = this.mode === "runs" ? "runs" : "grid";
    if (layout !== this.layout) {
      this.layout = layout;
      this.buildCards();
      this.syncControls();
      this.update();
      return;
    }
    this.syncControls();
    this.redrawAll(true);
  }

  buildCards() {
    for (const card of this.cards.values()) this.seen?.unobserve(card.node);
    this.cards.clear();
    this.groupNodes.clear();
    const height = this.model.get("height") || 170;
    const hooks = {
      on: this.on.bind(this),
      tooltip: this.tooltip,
      onToggleRun: (/** @type {Card} */ card, /** @type {string} */ run) => {
        this.save({ hidden_in_chart: runToggled(this.model.get("hidden_in_chart") || {}, card.spec.tag, run) });
        this.update();
      },
    };
    const { store } = this;
    store.tags.forEach((tag, i) => {
      const group = store.groups[i] ?? tag;
      const runs = this.layout === "runs" ? [null] : store.runs.filter((r) => store.has(r, tag));
      for (const run of runs) {
        const key = JSON.stringify([tag, run]);
        const card = new Card({ key, tag, run, group }, height, hooks);
        /** @type {any} */ (card.node).__tbnbCard = card;
        card.visible = !this.seen;
        let g = this.groupNodes.get(group);
        if (!g) {
          const count = el("span", { class: "tbnb-group-count" });
          const node = el(
            "details",
            { class: "tbnb-group", "data-group": group, open: true },
            el("summary", {}, `${group} `, count),
            el("div", { class: "tbnb-grid" }),
          );
          g = { node, count, cards: [] };
          this.groupNodes.set(group, g);
        }
        /** @type {HTMLElement} */ (g.node.lastElementChild).append(card.node);
        g.cards.push(card);
        this.cards.set(key, card);
        this.seen?.observe(card.node);
      }
    });
    this.groups.replaceChildren(...[...this.groupNodes.values()].map((g) => g.node));
  }

  syncControls() {
    this.controlSteps = syncToolbar(
      this.bar,
      this.model,
      this.mode,
      this.store.stepValues,
      this.windowOr(),
      this.controlSteps,
    );
  }

  /** Which cards are shown (selected runs, tag filter); counts; then redraw. */
  update() {
    const tagRe = compileFilter(this.model.get("tag_filter") || "").re;
    const selected = new Set(this.model.get("selected_runs") || []);
    const colors = this.model.get("run_colors") || {};
    const hiddenIn = this.model.get("hidden_in_chart") || {};
    for (const card of this.cards.values()) {
      const { tag, run } = card.spec;
      card.hiddenRuns = new Set(hiddenIn[tag] || []);
      const runs = run === null ? this.store.runs.filter((r) => selected.has(r) && this.store.has(r, tag)) : [];
      card.shown = matches(tagRe, tag) && (run === null ? runs.length > 0 : selected.has(run));
      card.node.classList.toggle("tbnb-hidden", !card.shown);
      if (run !== null) card.swatch.style.background = runColor(colors, run, this.store.runs.indexOf(run));
      else card.setLegend(runs.map((r) => ({ run: r, color: runColor(colors, r, this.store.runs.indexOf(r)) })));
    }
    let shown = 0;
    for (const g of this.groupNodes.values()) {
      const n = g.cards.filter((c) => c.shown).length;
      shown += n;
      g.node.classList.toggle("tbnb-hidden", n === 0);
      setText(g.count, `(${n})`);
    }
    this.shownCount = shown;
    this.setStatus();
    this.redrawAll();
  }

  /** @param {string} [extra] */
  setStatus(extra) {
    const runs = this.store.runs.filter((r) => (this.model.get("selected_runs") || []).includes(r)).length;
    const source = this.requests.offline ? `saved copy (${this.store.previewSteps} steps per chart)` : "";
    const parts = [`${this.shownCount ?? 0} charts`, `${runs}/${this.store.runs.length} runs`, source, extra || ""];
    setText(this.bar.status, parts.filter(Boolean).join(" · "));
  }

  showMessage() {
    const problems = this.model.get("problems") || [];
    const empty = this.store.empty;
    this.message.replaceChildren();
    if (empty) this.message.append(el("div", { class: "tbnb-empty", text: `Nothing to draw: ${empty}` }));
    if (problems.length) {
      this.message.append(
        el(
          "details",
          { class: "tbnb-problems" },
          el("summary", { text: `${problems.length} series with histograms left out` }),
          ...problems.map((p) => el("div", { text: p })),
        ),
      );
    }
  }

  /**
   * Mark every card for redrawing at the next frame.
   * @param {boolean} [keepPictures]  a mode switch: the cards' pictures of other modes stay
   */
  redrawAll(keepPictures = false) {
    for (const card of this.cards.values()) {
      card.dirty = true;
      if (!keepPictures) card.pictures.clear();
    }
    this.frames.request();
  }

  /** @param {Card} card */
  params(card) {
    const mode = this.mode;
    const limit =
      mode === "offset" || mode === "overlay" ? this.model.get("max_steps") : Math.min(card.plotWidth(), 2000);
    return { bins: this.model.get("bins"), limit, window: this.model.get("step_window") || [] };
  }

  drawDirty() {
    const due = [...this.cards.values()].filter((card) => card.dirty && card.shown && card.visible);
    // every width read before any drawing writes: one layout per frame, not one per card
    for (const card of due) card.ensureStack();
    const widths = due.map((card) => card.measure());
    due.forEach((card, i) => {
      card.dirty = false;
      this.draw(card, widths[i]);
    });
    this.requests.flush();
  }

  /**
   * @param {Card} card
   * @param {number} [width]  the card's width, measured beforehand
   */
  draw(card, width) {
    const { tag, run } = card.spec;
    const colors = this.model.get("run_colors") || {};
    const axis = this.model.get("time_axis") || "step";
    const styled = this.root;
    if (run === null) {
      const data = this.atStep(card);
      card.draw((ctx, box) => drawRuns(ctx, box, data, { colors, styled, axis }), data, width);
      return;
    }
    const params = this.params(card);
    const data = this.store.best(run, tag, params);
    if (!data?.exact) this.requests.wantSeries(run, tag, params);
    if (!data) return;
    const o = {
      axis,
      color: runColor(colors, run, this.store.runs.indexOf(run)),
      wall0: this.wall0(run, tag, data),
      styled,
    };
    const mode = this.mode;
    const log = !!this.model.get("log_color");
    // a picture drawn for the same data and looks is reused (switching back to a mode)
    const looks = `${mode}|${axis}|${o.color}|${o.wall0}|${mode === "heatmap" && log}`;
    card.draw(
      (ctx, box) => {
        if (mode === "overlay") return drawOverlay(ctx, box, data, o);
        if (mode === "heatmap") return drawHeatmap(ctx, box, data, { ...o, log });
        if (mode === "distribution") return drawBands(ctx, box, data, o);
        return drawOffset(ctx, box, data, o);
      },
      data,
      width,
      looks,
    );
  }

  /**
   * The series' first wall time (relative time counts from it).
   * @param {string} run
   * @param {string} tag
   * @param {ChartData} data
   */
  wall0(run, tag, data) {
    const first = this.store.wall0Of(run, tag);
    return Number.isFinite(first) ? first : data.wall[0];
  }

  /**
   * A runs-at-step card's data: exact if the kernel sent it, else derived (and asked for).
   * @param {Card} card
   * @returns {AtStepData}
   */
  atStep(card) {
    const { tag } = card.spec;
    const selected = new Set(this.model.get("selected_runs") || []);
    const runs = this.store.runs.filter((r) => selected.has(r) && this.store.has(r, tag) && !card.hiddenRuns.has(r));
    const bins = this.model.get("bins");
    const window = this.model.get("step_window") || [];
    const step = this.bar.step.value;
    const exact = this.requests.atStep(tag, runs, step, bins, window);
    if (exact) return exact;
    const charts = runs.map((r) => this.store.best(r, tag, { bins, limit: ALL, window })).filter((c) => c !== null);
    return atStepFrom(/** @type {ChartData[]} */ (charts), tag, step, bins);
  }

  /** The shown charts' data as drawn (or as they would be drawn), for the CSV. */
  csv() {
    /** @type {(ChartData | AtStepData)[]} */
    const charts = [];
    for (const card of this.cards.values()) {
      if (!card.shown) continue;
      const { run, tag } = card.spec;
      const data = run === null ? this.atStep(card) : this.store.best(run, tag, this.params(card));
      if (data) charts.push(data);
    }
    if (this.mode === "distribution") {
      return { header: BAND_HEADER, rows: bandRows(/** @type {ChartData[]} */ (charts)) };
    }
    return { header: BIN_HEADER, rows: binRows(charts) };
  }
}
