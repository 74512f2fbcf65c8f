// The profiler widget's view: a trace chooser, tabs (overview, operators, kernels,
// timeline, memory, compare) and the run selector (its runs' traces are listed; two
// selected runs are compared). Renders from model state alone (live kernel, saved
// notebook, exported page); the kernel is asked only for the timeline's windows, a span's
// details and searches. Every string from a trace reaches the DOM as text.
import { Tooltip } from "../../chart/tooltip.js";
import { RunSelector } from "../../controls/run-selector.js";
import { saveImageButton } from "../../controls/save-image.js";
import { decodeTree } from "../../core/codecs.js";
import { el, setText } from "../../core/dom.js";
import { View } from "../../core/view.js";
import { Compare } from "./compare.js";
import { Details } from "./details.js";
import { Memory } from "./memory.js";
import { Overview } from "./overview.js";
import { Tables } from "./tables.js";
import { Timeline } from "./timeline.js";

/** @typedef {import("./model").ProfileTraits} ProfileTraits */

const TABS = ["overview", "operators", "kernels", "timeline", "memory", "compare"];

/** @extends {View<ProfileTraits>} */
export class ProfileView extends View {
  /** @param {import("./model").ProfileModel} model @param {HTMLElement} host */
  constructor(model, host) {
    super(model, host, "profile");
    const on = this.on.bind(this);
    const tooltip = new Tooltip(this.root);
    this.traceSelect = el("select", { class: "tbnb-prof-trace", "aria-label": "trace" });
    this.compareSelect = el("select", { class: "tbnb-prof-compare-with", "aria-label": "compare with" });
    this.searchBox = el("input", {
      type: "text",
      class: "tbnb-prof-search",
      placeholder: "search spans (regex)",
      spellcheck: "false",
    });
    this.searchNext = el("button", { type: "button", class: "tbnb-prof-next", text: "next" });
    this.searchInfo = el("span", { class: "tbnb-prof-hint" });
    this.flowsBox = el("input", { type: "checkbox", class: "tbnb-prof-flows" });
    this.note = el("div", { class: "tbnb-prof-note" });
    this.tabBar = el("div", { class: "tbnb-prof-tabs", role: "tablist" });
    /** @type {Record<string, HTMLButtonElement>} */
    this.tabButtons = {};
    /** @type {Record<string, HTMLDivElement>} */
    this.panels = {};
    for (const tab of TABS) {
      const button = el("button", { type: "button", role: "tab", "data-tab": tab, text: tab });
      on(button, "click", () => this.save({ tab }));
      this.tabButtons[tab] = button;
      this.tabBar.append(button);
      this.panels[tab] = el("div", { class: `tbnb-prof-panel tbnb-prof-${tab}-panel`, role: "tabpanel" });
    }
    this.overview = new Overview({ on, tooltip, onSpan: (name) => this.showInTimeline(name) });
    this.operators = new Tables({
      on,
      which: "operators",
      onShow: (name) => this.showInTimeline(name),
      onShape: (checked) => this.save({ by_shape: checked }),
    });
    this.kernels = new Tables({ on, which: "kernels", onShow: (name) => this.showInTimeline(name) });
    this.memory = new Memory({ on, tooltip });
    this.compare = new Compare({ on });
    this.details = new Details({
      on,
      onPick: (row, start, dur, lane) => {
        this.timeline.reveal(start, dur, lane);
        this.select(row);
      },
    });
    this.timeline = new Timeline({
      on,
      tooltip,
      request: (type, payload) => this.request(type, payload),
      frames: () => this.scheduler(() => this.timeline.draw()),
      onSelect: (row) => this.select(row),
    });
    this.runs = new RunSelector(this, { onChange: () => {}, noun: "runs" });
    /** @type {any} */
    this.found = null;
    this.foundAt = -1;
  }

  build() {
    const on = this.on.bind(this);
    const bar = el(
      "div",
      { class: "tbnb-toolbar" },
      el("label", {}, "trace", this.traceSelect),
      el("label", {}, "compare with", this.compareSelect),
    );
    this.panels.overview.append(this.overview.node);
    this.panels.operators.append(this.operators.node);
    this.panels.kernels.append(this.kernels.node);
    this.panels.timeline.append(
      el(
        "div",
        { class: "tbnb-toolbar" },
        this.searchBox,
        this.searchNext,
        this.searchInfo,
        el("label", {}, this.flowsBox, "flow arrows"),
        saveImageButton({ on, label: "timeline", image: () => this.timeline.image() }),
      ),
      el("div", { class: "tbnb-prof-timeline" }, this.timeline.stage, this.details.node),
      this.timeline.status,
      this.timeline.hint,
    );
    this.panels.memory.append(this.memory.node);
    this.panels.compare.append(this.compare.node);
    this.root.append(
      bar,
      this.note,
      el("details", { class: "tbnb-prof-runs" }, el("summary", { text: "runs" }), this.runs.node),
      this.tabBar,
      ...TABS.map((t) => this.panels[t]),
    );
    on(this.traceSelect, "change", () => this.save({ trace: this.traceSelect.value }));
    on(this.compareSelect, "change", () => this.save({ compare_with: this.compareSelect.value }));
    on(this.flowsBox, "change", () => this.save({ flows: this.flowsBox.checked }));
    on(this.searchBox, "keydown", (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        if (this.searchBox.value === (this.model.get("search") || "") && this.found) this.nextMatch();
        else this.save({ search: this.searchBox.value });
      }
    });
    on(this.searchNext, "click", () => {
      if (this.searchBox.value !== (this.model.get("search") || "")) this.save({ search: this.searchBox.value });
      else this.nextMatch();
    });
    this.listen("change:traces change:trace change:compare_with change:run_colors", () => this.syncControls());
    this.listen("change:tab", () => this.showTab());
    this.listen("change:_overview", () => this.overview.set(decodeTree(this.model.get("_overview"))));
    this.listen("change:_timeline", () => {
      this.timeline.set(decodeTree(this.model.get("_timeline")));
      this.details.clear();
    });
    this.listen("change:_tables", () => this.setTables());
    this.listen("change:_memory", () => this.memory.set(decodeTree(this.model.get("_memory"))));
    this.listen("change:_compare", () => this.compare.set(decodeTree(this.model.get("_compare"))));
    this.listen("change:search", () => this.runSearch());
    this.listen("change:flows", () => {
      this.timeline.flows = Boolean(this.model.get("flows"));
      this.flowsBox.checked = this.timeline.flows;
      this.timeline.frames.request();
    });
    this.listen("change:message", () => setText(this.note, this.model.get("message") || ""));
    this.listen("change:height", () => this.timeline.resize(this.timeline.width, this.model.get("height") || 520));
    this.observeSize(this.root, (w) => {
      this.overview.resize(w / 2 - 20);
      this.memory.resize(w - 10);
      this.timeline.resize(Math.max(240, w - 320), this.model.get("height") || 520);
    });
    /** @type {any} */ (this.root).__tbnbProfile = {
      timeline: this.timeline,
      select: (/** @type {number} */ row) => this.select(row),
    };
    this.syncControls();
    setText(this.note, this.model.get("message") || "");
    this.overview.set(decodeTree(this.model.get("_overview")));
    this.timeline.set(decodeTree(this.model.get("_timeline")));
    this.timeline.flows = Boolean(this.model.get("flows"));
    this.flowsBox.checked = this.timeline.flows;
    this.setTables();
    this.memory.set(decodeTree(this.model.get("_memory")));
    this.compare.set(decodeTree(this.model.get("_compare")));
    this.showTab();
  }

  syncControls() {
    const traces = this.model.get("traces") || [];
    const trace = this.model.get("trace") || "";
    const other = this.model.get("compare_with") || "";
    const options = (/** @type {HTMLSelectElement} */ select, /** @type {boolean} */ none) => {
      select.replaceChildren(
        ...(none ? [el("option", { value: "", text: "(none)" })] : []),
        ...traces.map((t) => el("option", { value: t.trace, text: `${t.trace} (${t.format})` })),
      );
    };
    options(this.traceSelect, false);
    options(this.compareSelect, true);
    this.traceSelect.value = trace;
    this.compareSelect.value = other;
    this.runs.setRuns([...new Set(traces.map((t) => t.run))]);
  }

  showTab() {
    const tab = this.model.get("tab") || "overview";
    for (const t of TABS) {
      this.panels[t].hidden = t !== tab;
      this.tabButtons[t].setAttribute("aria-selected", String(t === tab));
    }
    if (tab === "timeline") {
      this.timeline.frames.request();
      this.timeline.fetch();
    }
  }

  setTables() {
    const tables = decodeTree(this.model.get("_tables"));
    this.operators.set(tables?.operators);
    this.kernels.set(tables?.kernels);
    if (this.operators.shape) this.operators.shape.checked = Boolean(this.model.get("by_shape"));
  }

  /** Select a span: outline it and show its details (asked of the kernel). @param {number} row */
  select(row) {
    this.timeline.selected = row;
    this.timeline.frames.request();
    const trace = this.model.get("trace");
    this.request("span", { trace, row })
      .then(({ content }) => {
        if (content.trace === this.model.get("trace"))
          this.details.show(content, this.timeline.payload?.lanes?.names || []);
      })
      .catch((err) => this.details.error(`details need a running kernel (${err.message})`));
  }

  /** From a table: every span of `name` highlighted in the timeline, the first shown. @param {string} name */
  showInTimeline(name) {
    this.save({ tab: "timeline" });
    this.searchBox.value = name;
    this.search(name, true);
  }

  runSearch() {
    const query = this.model.get("search") || "";
    if (this.searchBox.value !== query) this.searchBox.value = query;
    if (!query) {
      this.found = null;
      this.timeline.matches = new Set();
      setText(this.searchInfo, "");
      this.timeline.frames.request();
      return;
    }
    this.search(query, false);
  }

  /** @param {string} query @param {boolean} exact */
  search(query, exact) {
    this.request("search", { trace: this.model.get("trace"), query, exact })
      .then(({ content }) => {
        this.found = content;
        this.foundAt = -1;
        this.timeline.matches = new Set(Array.from(content.row || []));
        const shown = content.row?.length || 0;
        setText(this.searchInfo, `${content.total} spans${content.total > shown ? ` (first ${shown} marked)` : ""}`);
        if (shown) this.nextMatch();
        else this.timeline.frames.request();
      })
      .catch((err) => setText(this.searchInfo, `search needs a running kernel (${err.message})`));
  }

  nextMatch() {
    const found = this.found;
    if (!found?.row?.length) return;
    this.foundAt = (this.foundAt + 1) % found.row.length;
    const i = this.foundAt;
    this.timeline.reveal(found.start[i], found.dur[i], found.lane[i], found.depth[i]);
    this.select(found.row[i]);
    setText(this.searchInfo, `${i + 1} of ${found.total}`);
  }
}
