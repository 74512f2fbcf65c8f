// Comparing two runs of one tag at the same step: side by side, or under a before/after
// wipe (drag the divider, or use the arrow keys on it). Both show the step nearest to the
// comparison's own step, else to the global step, else to run A's last (the rule of
// tbnb.widgets.images.prepare.compare_items), so the kernel keeps the same two images in
// the saved state.
import { runColor } from "../../color/palettes.js";
import { StepSlider } from "../../controls/step-slider.js";
import { nearestSorted } from "../../core/arrays.js";
import { el, setText } from "../../core/dom.js";
import { keysStayHere } from "../../media/card.js";
import { cardKey, itemKey, neighbourKeys, unionSteps } from "../../media/card-index.js";
import { paint, paintWipe, place } from "./paint.js";
import { displayOf } from "./toolbar.js";

/** @typedef {import("../../media/card-index").Card} Card */
/** @typedef {import("../../media/card-index").Position} Position */
/** @typedef {import("./model").CompareState} CompareState */

/**
 * The two cards and positions a comparison shows, or null when it is off or names cards
 * that do not exist.
 * @param {Map<string, Card>} byKey
 * @param {CompareState} c
 * @param {number | null | undefined} globalStep
 * @returns {[Card, Position][] | null}
 */
export function comparePositions(byKey, c, globalStep) {
  if (c.tag === undefined || c.a === undefined || c.b === undefined) return null;
  const a = byKey.get(cardKey(c.a, c.tag));
  const b = byKey.get(cardKey(c.b, c.tag));
  if (!a || !b) return null;
  let target = c.step ?? globalStep ?? null;
  return [a, b].map((card) => {
    const n = card.steps.length;
    if (target === null) target = card.steps[n - 1];
    const index = nearestSorted(card.steps, target);
    const count = card.counts[index];
    const sample = Math.min(Math.max(Math.trunc(Number(c.sample) || 0), 0), count - 1);
    /** @type {[Card, Position]} */
    const out = [card, { index, step: card.steps[index], sample, count, pinned: false }];
    return out;
  });
}

export class ComparePanel {
  /** @param {import("./view").ImagesView} view */
  constructor(view) {
    this.view = view;
    const on = view.on.bind(view);
    const select = (/** @type {string} */ cls, /** @type {string} */ label) =>
      el("select", { class: cls, "aria-label": label });
    this.tag = select("tbnb-compare-tag", "tag");
    this.a = select("tbnb-compare-a", "run A");
    this.b = select("tbnb-compare-b", "run B");
    this.mode = el(
      "select",
      { class: "tbnb-compare-mode", "aria-label": "comparison" },
      el("option", { value: "side", text: "side by side" }),
      el("option", { value: "wipe", text: "before/after wipe" }),
    );
    this.swap = el("button", { class: "tbnb-compare-swap", type: "button", text: "swap A/B" });
    this.steps = new StepSlider({ on, label: "step", onChange: (step) => this.set({ step }) });
    this.samples = new StepSlider({ on, label: "sample", onChange: (sample) => this.set({ sample }) });
    this.canvasA = el("canvas", { class: "tbnb-img tbnb-compare-img", width: "1", height: "1" });
    this.canvasB = el("canvas", { class: "tbnb-img tbnb-compare-img", width: "1", height: "1" });
    this.wipe = el("canvas", {
      class: "tbnb-img tbnb-wipe",
      width: "1",
      height: "1",
      tabindex: "0",
      role: "slider",
      "aria-label": "wipe between run A and run B",
    });
    this.line = el("div", { class: "tbnb-wipe-line" });
    keysStayHere(on, this.steps.node, this.samples.node, this.wipe);
    this.labelA = el("div", { class: "tbnb-compare-label" });
    this.labelB = el("div", { class: "tbnb-compare-label" });
    this.side = el(
      "div",
      { class: "tbnb-compare-side" },
      el("div", { class: "tbnb-compare-pane" }, this.labelA, this.canvasA),
      el("div", { class: "tbnb-compare-pane" }, this.labelB, this.canvasB),
    );
    this.wipeBox = el("div", { class: "tbnb-wipe-box" }, this.wipe, this.line);
    this.wipeLabels = el("div", { class: "tbnb-wipe-labels" });
    this.info = el("div", { class: "tbnb-card-info tbnb-compare-info" });
    this.message = el("div", { class: "tbnb-card-msg" });
    this.node = el(
      "div",
      { class: "tbnb-compare", hidden: true },
      el("div", { class: "tbnb-compare-head" }, "compare", this.tag, "A", this.a, "B", this.b, this.mode, this.swap),
      el("div", { class: "tbnb-compare-controls" }, this.steps.node, this.samples.node),
      this.side,
      el("div", {}, this.wipeLabels, this.wipeBox),
      this.message,
      this.info,
    );
    /** @type {(string | null)[]} */
    this.shown = [null, null];
    this.split = 0.5;
    on(this.tag, "change", () => this.set({ tag: this.tag.value }));
    on(this.a, "change", () => this.set({ a: this.a.value }));
    on(this.b, "change", () => this.set({ b: this.b.value }));
    on(this.mode, "change", () => this.set({ mode: this.mode.value === "wipe" ? "wipe" : "side" }));
    on(this.swap, "click", () => {
      const c = this.state();
      this.set({ a: c.b, b: c.a });
    });
    let dragging = false;
    const move = (/** @type {PointerEvent} */ e) => {
      const box = this.wipe.getBoundingClientRect();
      this.moveSplit((e.clientX - box.left) / Math.max(box.width, 1), false);
    };
    on(this.wipe, "pointerdown", (/** @type {PointerEvent} */ e) => {
      dragging = true;
      this.wipe.setPointerCapture?.(e.pointerId);
      move(e);
    });
    on(this.wipe, "pointermove", (/** @type {PointerEvent} */ e) => {
      if (dragging) move(e);
    });
    on(this.wipe, "pointerup", () => {
      dragging = false;
      this.set({ split: this.split });
    });
    on(this.wipe, "keydown", (/** @type {KeyboardEvent} */ e) => {
      const delta = { ArrowLeft: -0.05, ArrowRight: 0.05 }[e.key];
      if (delta === undefined) return;
      e.preventDefault();
      this.moveSplit(this.split + delta, true);
    });
  }

  /** @returns {CompareState} */
  state() {
    return this.view.model.get("compare") || {};
  }

  /** @param {Partial<CompareState>} change */
  set(change) {
    const next = { ...this.state(), ...change };
    if (change.tag !== undefined || change.a !== undefined || change.b !== undefined) next.step ??= null;
    this.view.model.set("compare", next);
    this.view.saveSoon();
    this.sync();
    this.view.frames.request();
  }

  /** @param {number} split @param {boolean} save */
  moveSplit(split, save) {
    this.split = Math.min(Math.max(split, 0), 1);
    this.line.style.left = `${(this.split * 100).toFixed(2)}%`;
    this.wipe.setAttribute("aria-valuenow", this.split.toFixed(2));
    this.shown = [null, null];
    this.view.frames.request();
    if (save) this.set({ split: this.split });
  }

  /** Open with two runs of a tag both have (the first such pair), or close. */
  toggle() {
    if (this.state().tag !== undefined) {
      this.view.model.set("compare", {});
      this.view.saveSoon();
      this.sync();
      return;
    }
    const index = this.view.index;
    for (const tag of index.tags) {
      const runs = index.cards.filter((c) => c.tag === tag).map((c) => c.run);
      if (runs.length >= 2) {
        this.set({ tag, a: runs[0], b: runs[1], mode: "side", split: 0.5, step: null, sample: 0 });
        return;
      }
    }
    setText(this.message, "no tag has images from two runs to compare");
  }

  /** The selects, the step slider and what shows, from the model. */
  sync() {
    const c = this.state();
    const open = c.tag !== undefined;
    this.node.hidden = !open;
    if (!open) return;
    const index = this.view.index;
    options(this.tag, index.tags, c.tag);
    const runs = index.cards.filter((card) => card.tag === c.tag).map((card) => card.run);
    options(this.a, runs, c.a);
    options(this.b, runs, c.b);
    this.mode.value = c.mode === "wipe" ? "wipe" : "side";
    this.side.hidden = c.mode === "wipe";
    /** @type {HTMLElement} */ (this.wipeBox.parentElement).hidden = c.mode !== "wipe";
    this.split = Number.isFinite(c.split) ? Number(c.split) : 0.5;
    this.line.style.left = `${(this.split * 100).toFixed(2)}%`;
    const colors = this.view.model.get("run_colors") || {};
    const label = (/** @type {string} */ name, /** @type {string | undefined} */ run) =>
      el(
        "span",
        { class: "tbnb-compare-run" },
        el("span", {
          class: "tbnb-swatch",
          style: { background: runColor(colors, run || "", index.runs.indexOf(run || "")) },
        }),
        `${name}: ${run ?? ""}`,
      );
    this.labelA.replaceChildren(label("A", c.a));
    this.labelB.replaceChildren(label("B", c.b));
    this.wipeLabels.replaceChildren(label("A (left)", c.a), " ", label("B (right)", c.b));
    const cards = [index.byKey.get(cardKey(c.a || "", c.tag || "")), index.byKey.get(cardKey(c.b || "", c.tag || ""))];
    this.steps.setSteps(unionSteps(/** @type {Card[]} */ (cards.filter(Boolean))));
    this.shown = [null, null];
  }

  /**
   * Draw both sides when ready; ask for them (and their neighbours) otherwise.
   * @param {string[]} now
   * @param {string[]} ahead
   */
  draw(now, ahead) {
    if (this.node.hidden) return;
    const c = this.state();
    const both = comparePositions(this.view.index.byKey, c, this.view.model.get("step"));
    if (!both) {
      setText(this.message, `run ${c.a} or ${c.b} has no images under tag ${c.tag}`);
      return;
    }
    const [[, posA], [, posB]] = both;
    this.steps.select(nearestSorted(this.steps.steps, posA.step), false);
    this.samples.setSteps(Array.from({ length: Math.max(posA.count, posB.count) }, (_, i) => i));
    this.samples.node.hidden = Math.max(posA.count, posB.count) < 2;
    this.samples.select(posA.sample, false);
    const entries = both.map(([card, pos]) => {
      const key = itemKey(card.run, card.tag, pos.step, pos.sample);
      const entry = this.view.fetcher.entry(key);
      if (!entry || entry.state === "queued" || entry.state === "loading") now.push(key);
      ahead.push(...neighbourKeys(card, pos, 3));
      return { key, entry };
    });
    const problems = entries
      .filter(({ entry }) => entry?.state === "error" || entry?.state === "missing")
      .map(({ entry }, i) => `${i ? "B" : "A"}: ${entry?.error || "not saved in this page"}`);
    setText(this.message, problems.join("; "));
    const ready = entries.every(({ entry }) => entry?.state === "ready" && entry.decoded !== undefined);
    this.node.setAttribute("data-state", ready ? "ready" : problems.length ? "error" : "loading");
    const differ = posA.step !== posB.step ? ` (B at step ${posB.step}: nearest it has)` : "";
    setText(this.info, `step ${posA.step}${differ}`);
    if (!ready) return;
    const [a, b] = entries.map(({ entry }) => /** @type {any} */ (entry).decoded);
    const keys = entries.map(({ key }) => key);
    if (this.shown[0] === keys[0] && this.shown[1] === keys[1]) return;
    this.shown = keys;
    const o = this.view.options();
    const box = Math.max(o.size, 320);
    if (c.mode === "wipe") {
      paintWipe(this.wipe, a.bitmap, b.bitmap, this.split);
      place(this.wipe, displayOf(a, o, Math.max(o.size * 1.5, 400)));
    } else {
      paint(this.canvasA, a.bitmap);
      paint(this.canvasB, b.bitmap);
      place(this.canvasA, displayOf(a, o, box));
      place(this.canvasB, displayOf(b, o, box));
    }
    this.node.setAttribute("data-steps", `${posA.step},${posB.step}`);
  }

  /** Re-place the canvases after a display option changed. */
  layout() {
    this.shown = [null, null];
  }
}

/**
 * @param {HTMLSelectElement} select
 * @param {string[]} values
 * @param {string | undefined} value
 */
function options(select, values, value) {
  select.replaceChildren(...values.map((v) => el("option", { value: v, text: v })));
  if (value !== undefined) select.value = value;
}
