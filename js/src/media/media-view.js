// The view every media widget (images, audio, text) extends: cards grouped by tag, the run
// selector and tag filter, a global step slider that moves every card, each card's own
// step and sample, items fetched for the cards in view (their neighbours prefetched and
// decoded ahead), saved items, problems, the status line and the CSV of what is shown.
//
// A subclass gives the card content (`createContent`), turns an item into something to
// draw (`decode`, `release`), draws it (`show`), describes it (`info`) and names its CSV
// columns. State lives in the traits: `step` (the global step, null = each card's last),
// `positions` (cards moved on their own), `selected_runs`, `tag_filter`; the browser writes
// them when a slider settles, so Python's `.data` is what is shown.

import { runColor } from "../color/palettes.js";
import { filterInput } from "../controls/filter-input.js";
import { RunSelector } from "../controls/run-selector.js";
import { StepSlider } from "../controls/step-slider.js";
import { nearestSorted } from "../core/arrays.js";
import { decodeTree } from "../core/codecs.js";
import { el, setText } from "../core/dom.js";
import { compileFilter, matches } from "../core/filter.js";
import { formatWallTime } from "../core/format.js";
import { View } from "../core/view.js";
import { CardView, keysStayHere } from "./card.js";
import { decodeIndex, itemKey, neighbourKeys, positionOf, unionSteps } from "./card-index.js";
import { ItemFetcher } from "./fetcher.js";
import { statusLine } from "./format.js";
import { downloadMediaCSV, shownItems } from "./media-csv.js";
import { UNSUPPORTED } from "./media-type.js";
import { followGlobal, pinned } from "./positions.js";
import { TagGroups } from "./tag-groups.js";

/** @typedef {import("./card-index").Card} Card */
/** @typedef {import("./card-index").Position} Position */
/** @typedef {import("./card-index").Pin} Pin */

/**
 * @typedef {object} MediaSpec
 * @property {string} noun                 "images", "clips", "texts"
 * @property {number} radius               steps prefetched on each side of a shown one
 * @property {Partial<import("./fetcher").FetcherOptions>} [fetcher]
 * @property {[string, (item: any) => unknown][]} csv   columns after run, tag, step, sample, wall_time
 */

/** Milliseconds a slider must rest before its position is saved to Python. */
export const SAVE_DELAY_MS = 250;

/** @extends {View<any>} */
export class MediaView extends View {
  /**
   * @param {any} model
   * @param {HTMLElement} host
   * @param {string} key
   * @param {MediaSpec} spec
   */
  constructor(model, host, key, spec) {
    super(model, host, key);
    this.spec = spec;
    this.index = decodeIndex(model.get("_index"));
    this.generation = Number(model.get("_index")?.generation || 0);
    /** @type {Map<string, CardView>} */
    this.cards = new Map();
    /** @type {Card[]} */
    this.shown = [];
    this.fetcher = new ItemFetcher({
      ask: (keys) => this.request("items", { keys }).then((reply) => reply.content.items),
      decode: (item) => this.decode(item),
      release: (decoded) => this.release(decoded),
      onUpdate: () => this.frames.request(),
      ...spec.fetcher,
    });
    const on = this.on.bind(this);
    this.groups = new TagGroups(on, () => this.frames.request());
    this.runs = new RunSelector(this, { onChange: () => this.update() });
    this.global = new StepSlider({ on, label: "global step", onChange: (step) => this.setGlobal(step) });
    this.global.node.classList.add("tbnb-global-step");
    keysStayHere(on, this.global.node);
    this.latest = el("button", {
      class: "tbnb-latest",
      type: "button",
      text: "latest",
      title: "every card at its last step, following new steps",
    });
    on(this.latest, "click", () => this.setGlobal(null));
    this.tagFilter = filterInput({
      className: "tbnb-tag-filter",
      placeholder: "filter tags (regex)",
      on,
      onChange: (text) => {
        this.model.set("tag_filter", text);
        this.saveSoon();
        this.update();
      },
    });
    this.csvButton = el("button", { class: "tbnb-download", type: "button", text: "Download CSV" });
    on(this.csvButton, "click", () => this.downloadCSV());
    this.status = el("span", { class: "tbnb-status" });
    this.problemList = el("ul");
    this.problemCount = el("summary");
    this.problems = el("details", { class: "tbnb-problems", hidden: true }, this.problemCount, this.problemList);
    this.empty = el("div", { class: "tbnb-empty", hidden: true });
    this.panel = el("div", { class: "tbnb-panel" });
    this.groupsNode = el("div", { class: "tbnb-groups" });
    this.toolbar = el("div", { class: "tbnb-toolbar" });
    /** The side panel and the cards (display modes are classes on it). */
    this.main = el("div", { class: "tbnb-main" });
    this.frames = this.scheduler(() => this.draw());
    this.seen = this.visibilityObserver(
      (entry) => {
        const card = /** @type {any} */ (entry.target).__tbnbCard;
        if (!card) return;
        card.visible = entry.isIntersecting;
        if (card.visible) this.frames.request();
      },
      { rootMargin: "200px" },
    );
    this.saveTimer = 0;
    this.disposers.push(() => {
      if (this.saveTimer) this.model.save_changes();
      clearTimeout(this.saveTimer);
      this.fetcher.dispose();
    });
  }

  // ---------------------------------------------------------------- subclass hooks
  /** Toolbar controls of the widget. @returns {Node[]} */
  toolbarExtras() {
    return [];
  }

  /** The element a card draws into. @param {Card} _card @returns {HTMLElement} */
  createContent(_card) {
    return el("div", { class: "tbnb-card-content" });
  }

  /** @param {any} item @returns {Promise<any>} */
  async decode(item) {
    return item;
  }

  /** @param {any} _decoded */
  release(_decoded) {}

  /** Draw a ready item into its card. @param {CardView} _card @param {any} _item @param {any} _decoded */
  show(_card, _item, _decoded) {}

  /** The info line of a shown item. @param {any} item @param {Position} pos @returns {string} */
  info(item, pos) {
    const sample = pos.count > 1 ? ` · sample ${pos.sample + 1} of ${pos.count}` : "";
    return `step ${pos.step}${sample} · ${formatWallTime(item.wall_time)}`;
  }

  /** Items drawn beyond the cards (the images view's comparison). @param {string[]} _now @param {string[]} _ahead */
  drawExtra(_now, _ahead) {}

  // -------------------------------------------------------------------- building
  build() {
    this.toolbar.append(
      el("label", {}, this.global.node, this.latest),
      this.runs.filter.node,
      this.tagFilter.node,
      ...this.toolbarExtras(),
      this.csvButton,
      this.status,
    );
    this.root.append(this.toolbar, this.problems, this.main);
    this.main.append(
      el("div", { class: "tbnb-side" }, this.runs.node),
      el("div", { class: "tbnb-content" }, this.panel, this.empty, this.groupsNode),
    );
    this.listen("change:_index", () => this.rebuild());
    this.listen("change:_held", () => this.seedHeld());
    this.listen("change:selected_runs change:run_filter", () => this.update());
    this.listen("change:tag_filter", () => {
      this.tagFilter.set(this.model.get("tag_filter") || "");
      this.update();
    });
    this.listen("change:step", () => {
      this.syncGlobal();
      this.frames.request();
    });
    this.listen("change:positions", () => this.frames.request());
    this.listen("change:run_colors", () => this.recolor());
    this.listen("change:problems", () => this.showProblems());
    this.listen("change:embedded", () => this.showStatus());
    this.seedHeld();
    this.rebuild();
    this.showProblems();
  }

  seedHeld() {
    this.fetcher.seed(decodeTree(this.model.get("_held") || {}));
    this.frames.request();
  }

  rebuild() {
    const raw = this.model.get("_index");
    this.index = decodeIndex(raw);
    const generation = Number(raw?.generation || 0);
    if (generation !== this.generation) {
      this.generation = generation;
      this.fetcher.reset();
      for (const card of this.cards.values()) card.shownKey = null;
    }
    this.runs.setRuns(this.index.runs);
    const colors = this.model.get("run_colors") || {};
    const keep = new Set(this.index.cards.map((c) => c.key));
    for (const [key, cv] of this.cards) {
      if (keep.has(key)) continue;
      this.seen?.unobserve(cv.node);
      cv.node.remove();
      this.cards.delete(key);
    }
    const hooks = {
      on: this.on.bind(this),
      onStep: (/** @type {CardView} */ cv, /** @type {number} */ step) => this.pin(cv, { step }),
      onSample: (/** @type {CardView} */ cv, /** @type {number} */ sample) => this.pin(cv, { sample }),
      onFollow: (/** @type {CardView} */ cv) => this.pin(cv, { step: null }),
    };
    for (const card of this.index.cards) {
      let cv = this.cards.get(card.key);
      if (cv) cv.setCard(card);
      else {
        cv = new CardView(
          card,
          runColor(colors, card.run, this.index.runs.indexOf(card.run)),
          this.createContent(card),
          hooks,
        );
        /** @type {any} */ (cv.node).__tbnbCard = cv;
        cv.visible = !this.seen;
        this.cards.set(card.key, cv);
        this.seen?.observe(cv.node);
      }
      this.groups.of(card.tag).grid.append(cv.node); // appending in index order keeps the order
    }
    this.groups.keepOnly(this.index.tags);
    this.groupsNode.replaceChildren(...this.index.tags.map((t) => this.groups.of(t).node));
    this.update();
  }

  recolor() {
    const colors = this.model.get("run_colors") || {};
    for (const cv of this.cards.values()) {
      cv.setColor(runColor(colors, cv.card.run, this.index.runs.indexOf(cv.card.run)));
    }
    this.runs.setRuns(this.index.runs);
  }

  /** Which cards are shown (selected runs, tag filter), the global slider, the counts. */
  update() {
    const selected = new Set(this.model.get("selected_runs") || []);
    const re = compileFilter(this.model.get("tag_filter") || "").re;
    this.shown = this.index.cards.filter((c) => selected.has(c.run) && matches(re, c.tag));
    const shown = new Set(this.shown.map((c) => c.key));
    for (const cv of this.cards.values()) cv.node.hidden = !shown.has(cv.card.key);
    this.groups.count(this.shown);
    this.global.setSteps(unionSteps(this.shown));
    this.syncGlobal();
    const noun = this.spec.noun;
    let why = "";
    if (!this.index.cards.length) why = `No ${noun} in this experiment.`;
    else if (!this.shown.length) why = `No ${noun} match the selected runs and the tag filter.`;
    setText(this.empty, why);
    this.empty.hidden = !why;
    this.root.setAttribute("data-cards", String(this.shown.length));
    this.showStatus();
    this.frames.request();
  }

  syncGlobal() {
    const step = this.model.get("step");
    const steps = this.global.steps;
    if (!steps.length) return;
    this.global.select(step === null || step === undefined ? steps.length - 1 : nearestSorted(steps, step), false);
    this.latest.disabled = step === null || step === undefined;
  }

  showStatus() {
    setText(
      this.status,
      statusLine(this.shown, this.model.get("embedded") || {}, this.spec.noun, this.fetcher.offline),
    );
  }

  showProblems() {
    const problems = this.model.get("problems") || [];
    this.problems.hidden = !problems.length;
    setText(this.problemCount, `${problems.length} ${problems.length === 1 ? "problem" : "problems"}`);
    this.problemList.replaceChildren(...problems.map((/** @type {string} */ p) => el("li", { text: p })));
  }

  // ------------------------------------------------------------------- positions
  /** @returns {Record<string, Pin>} */
  pins() {
    return this.model.get("positions") || {};
  }

  /** @param {number | null} step */
  setGlobal(step) {
    const { next, changed } = followGlobal(this.pins());
    this.model.set("step", step);
    if (changed) this.model.set("positions", next);
    this.saveSoon();
    this.syncGlobal();
    this.frames.request();
  }

  /**
   * Move one card on its own (`step: null` follows the global step again).
   * @param {CardView} cv
   * @param {Pin} change
   */
  pin(cv, change) {
    this.model.set("positions", pinned(this.pins(), cv.card.key, change));
    this.saveSoon();
    this.frames.request();
  }

  /** Save the traits set here once the sliders rest. */
  saveSoon() {
    clearTimeout(this.saveTimer);
    this.saveTimer = Number(
      setTimeout(() => {
        this.saveTimer = 0;
        if (!this.disposed) this.model.save_changes();
      }, SAVE_DELAY_MS),
    );
  }

  // ------------------------------------------------------------------------ draw
  draw() {
    const pins = this.pins();
    const step = this.model.get("step");
    /** @type {string[]} */
    const now = [];
    /** @type {string[]} */
    const ahead = [];
    let ready = 0;
    for (const card of this.shown) {
      const cv = this.cards.get(card.key);
      if (!cv?.visible) continue;
      const pos = positionOf(card, step, pins[card.key]);
      if (!pos) continue;
      cv.setPosition(pos);
      const key = itemKey(card.run, card.tag, pos.step, pos.sample);
      if (this.drawCard(cv, key, pos, now)) ready += 1;
      ahead.push(...neighbourKeys(card, pos, this.spec.radius));
    }
    this.drawExtra(now, ahead);
    this.fetcher.want(now, "now");
    this.fetcher.want(ahead, "ahead");
    this.root.setAttribute("data-ready", String(ready));
    this.root.setAttribute("data-pending", String(this.fetcher.pending()));
    if (this.fetcher.offline) this.showStatus();
  }

  /**
   * Show one item in a card, or what keeps it from showing; true when it shows.
   * @param {CardView} cv
   * @param {string} key
   * @param {Position} pos
   * @param {string[]} now  keys to fetch now
   */
  drawCard(cv, key, pos, now) {
    const entry = this.fetcher.entry(key);
    if (entry?.state === "ready" && entry.decoded !== undefined) {
      if (cv.shownKey !== key) {
        this.show(cv, entry.item, entry.decoded);
        cv.shownKey = key;
      }
      cv.setState("ready");
      cv.offerDownload(null);
      cv.setInfo(this.info(entry.item, pos));
      return true;
    }
    const refused = entry?.state === "error" && String(entry.error).startsWith(UNSUPPORTED);
    cv.offerDownload(refused ? entry?.item?.data : null, `${this.key}-step${pos.step}-${pos.sample}.bin`);
    if (entry?.state === "error") cv.setState("error", `step ${pos.step}: ${entry.error}`);
    else if (entry?.state === "missing") {
      cv.setState("missing", `step ${pos.step} is not saved in this page (the kernel would fetch it)`);
    } else {
      cv.setState("loading", cv.shownKey ? "" : "loading…");
      cv.setInfo(`step ${pos.step} · loading…`);
      now.push(key);
    }
    return false;
  }

  // ------------------------------------------------------------------------- CSV
  /** The items shown (each shown card at its position): [card, position, key]. */
  shownItems() {
    return shownItems(this.shown, this.model.get("step"), this.pins());
  }

  async downloadCSV() {
    await downloadMediaCSV(this);
  }
}
