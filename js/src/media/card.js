// One card of a media view: a run's swatch and whole name, what the view draws, a step
// slider (drag, arrow keys, exact step), a sample slider when a step holds several samples,
// a "follow" button when the card was moved on its own, an info line and a message line.
// The card shows state as data attributes (data-step, data-sample, data-state) for tests
// and styles.
import { downloadBlob } from "../controls/save-image.js";
import { StepSlider } from "../controls/step-slider.js";
import { breakableText, el, setText } from "../core/dom.js";
import { downloadOnly } from "./media-type.js";

/** @typedef {import("./card-index").Card} Card */
/** @typedef {import("./card-index").Position} Position */

/**
 * @typedef {object} CardHooks
 * @property {(t: EventTarget, type: string, h: (e: any) => void) => void} on
 * @property {(card: CardView, step: number) => void} onStep
 * @property {(card: CardView, sample: number) => void} onSample
 * @property {(card: CardView) => void} onFollow
 */

/**
 * Keys pressed in these elements (arrow keys on a slider, digits in a step box) are theirs:
 * no notebook shortcut runs for them (Lumino honours the attribute) and no handler of the
 * page above them sees them (JupyterLab's notebook cancels arrow keys it gets in command
 * mode, which would stop a focused slider from moving).
 * @param {(t: EventTarget, type: string, h: (e: any) => void) => void} on
 * @param {...Element} nodes
 */
export function keysStayHere(on, ...nodes) {
  for (const node of nodes) {
    node.setAttribute("data-lm-suppress-shortcuts", "true");
    on(node, "keydown", (/** @type {KeyboardEvent} */ e) => e.stopPropagation());
  }
}

export class CardView {
  /**
   * @param {Card} card
   * @param {string} color  the run's colour
   * @param {HTMLElement} content  what the view draws into (its own element)
   * @param {CardHooks} hooks
   */
  constructor(card, color, content, hooks) {
    this.card = card;
    this.content = content;
    this.visible = true;
    /** @type {string | null} */
    this.shownKey = null;
    /** @type {Position | null} */
    this.pos = null;
    /** Anything the view keeps per card (an audio element, a GIF animation). @type {Record<string, any>} */
    this.extra = {};
    this.swatch = el("span", { class: "tbnb-swatch", style: { background: color } });
    this.follow = el("button", {
      class: "tbnb-card-follow",
      type: "button",
      title: "this card was moved on its own: follow the global step again",
      text: "↺ follow",
      hidden: true,
    });
    hooks.on(this.follow, "click", () => hooks.onFollow(this));
    const title = el("span", { class: "tbnb-card-run", title: `${card.run}\n${card.tag}` }, breakableText(card.run));
    this.steps = new StepSlider({ on: hooks.on, label: "step", onChange: (step) => hooks.onStep(this, step) });
    this.samples = new StepSlider({
      on: hooks.on,
      label: "sample",
      onChange: (sample) => hooks.onSample(this, sample),
    });
    this.steps.node.classList.add("tbnb-card-steps");
    this.samples.node.classList.add("tbnb-card-samples");
    keysStayHere(hooks.on, this.steps.node, this.samples.node);
    this.info = el("div", { class: "tbnb-card-info" });
    this.message = el("div", { class: "tbnb-card-msg", role: "status", hidden: true });
    /** Bytes the card offers as a download (an item of an unsupported media type). */
    this.offered = /** @type {{bytes: Uint8Array, name: string} | null} */ (null);
    this.download = el("button", { class: "tbnb-card-download", type: "button", text: "download", hidden: true });
    hooks.on(this.download, "click", () => {
      if (this.offered) downloadBlob(this.node, this.offered.name, downloadOnly(this.offered.bytes));
    });
    this.node = el(
      "div",
      { class: "tbnb-card", "data-run": card.run, "data-tag": card.tag, "data-key": card.key },
      el("div", { class: "tbnb-card-head" }, this.swatch, title, this.follow),
      el("div", { class: "tbnb-card-body" }, content, this.message, this.download),
      el("div", { class: "tbnb-card-controls" }, this.steps.node, this.samples.node),
      this.info,
    );
    this.setCard(card);
  }

  /** New steps (a reload) keep the card's DOM. @param {Card} card */
  setCard(card) {
    this.card = card;
    this.steps.setSteps(card.steps);
    this.pos = null;
  }

  /** @param {string} color */
  setColor(color) {
    this.swatch.style.background = color;
  }

  /**
   * Show a position on the controls (without telling anyone).
   * @param {Position} pos
   */
  setPosition(pos) {
    const old = this.pos;
    this.pos = pos;
    if (!old || old.index !== pos.index) this.steps.select(pos.index, false);
    if (!old || old.count !== pos.count) {
      this.samples.setSteps(Array.from({ length: pos.count }, (_, i) => i));
      this.samples.node.hidden = pos.count < 2;
    }
    if (!old || old.sample !== pos.sample || old.count !== pos.count) this.samples.select(pos.sample, false);
    this.follow.hidden = !pos.pinned;
    this.node.classList.toggle("tbnb-pinned", pos.pinned);
    this.node.setAttribute("data-step", String(pos.step));
    this.node.setAttribute("data-sample", String(pos.sample));
  }

  /**
   * The state of what the card shows: "ready", "loading", "error" or "missing", and a
   * message (text only).
   * @param {string} state
   * @param {string} [message]
   */
  setState(state, message = "") {
    if (this.node.getAttribute("data-state") !== state) this.node.setAttribute("data-state", state);
    if (this.message.textContent === message) return; // a drag redraws cards many times a second
    setText(this.message, message);
    this.message.hidden = !message;
  }

  /**
   * Offer `bytes` as a download named `name` (never rendered: application/octet-stream),
   * or nothing (null).
   * @param {Uint8Array | null} bytes
   * @param {string} [name]
   */
  offerDownload(bytes, name = "item.bin") {
    this.offered = bytes ? { bytes, name } : null;
    this.download.hidden = !bytes;
  }

  /** @param {string} text */
  setInfo(text) {
    if (this.info.textContent !== text) setText(this.info, text);
  }
}
