// The text widget's view: a card per run and tag with its text at the chosen step,
// rendered as TensorBoard renders it (markdown through an allow-list, tables for 1-D and
// 2-D string tensors, code blocks monospace) or raw, on the media kit. Only the cards in
// view ask for their text, so a logdir of long texts opens at once.
import { el } from "../../core/dom.js";
import { MediaView } from "../../media/media-view.js";
import { textNodes } from "./render.js";

/** @typedef {import("../../media/card").CardView} CardView */
/** @typedef {import("./model").DecodedText} DecodedText */

const DECODER = new TextDecoder();

export class TextView extends MediaView {
  /**
   * @param {import("./model").TextModel} model
   * @param {HTMLElement} host
   */
  constructor(model, host) {
    super(model, host, "text", {
      noun: "texts",
      radius: 3,
      fetcher: { maxDecoded: 2000, maxBytes: 128 << 20 },
      csv: [["text", (item) => DECODER.decode(item.data)]],
    });
    this.rawBox = el("input", { class: "tbnb-raw-toggle", type: "checkbox" });
  }

  toolbarExtras() {
    return [el("label", { title: "show the texts as logged, without markdown" }, this.rawBox, "raw text")];
  }

  build() {
    super.build();
    this.on(this.rawBox, "change", () => {
      this.model.set("raw", this.rawBox.checked);
      this.saveSoon();
      this.redrawAll();
    });
    this.listen("change:raw", () => this.redrawAll());
    this.rawBox.checked = !!this.model.get("raw");
  }

  redrawAll() {
    this.rawBox.checked = !!this.model.get("raw");
    for (const cv of this.cards.values()) cv.shownKey = null;
    this.frames.request();
  }

  /** @param {import("../../media/card-index").Card} _card */
  createContent(_card) {
    return el("div", { class: "tbnb-card-content tbnb-text-box" });
  }

  /**
   * @param {any} item
   * @returns {Promise<DecodedText>}
   */
  async decode(item) {
    return {
      kind: item.kind === "table" ? "table" : "markdown",
      raw: DECODER.decode(item.data),
      html: typeof item.html === "string" ? item.html : null,
      long: !!item.long,
      chars: Number(item.chars) || 0,
      shape: item.shape,
      cells: item.cells,
      warning: item.warning || "",
    };
  }

  /**
   * @param {CardView} cv
   * @param {any} item
   * @param {DecodedText} decoded
   */
  show(cv, item, decoded) {
    const raw = !!this.model.get("raw");
    const nodes = textNodes(decoded, {
      raw,
      full: cv.extra.full === item.key,
      on: this.on.bind(this),
      onFull: () => {
        cv.extra.full = item.key;
        cv.shownKey = null;
        this.frames.request();
      },
      onRender: () => this.renderLong(cv, item, decoded),
    });
    cv.content.replaceChildren(...nodes);
    cv.node.setAttribute("data-mode", raw ? "raw" : decoded.html !== null ? "markdown" : "raw-long");
  }

  /**
   * Ask the kernel for the markdown of a long text.
   * @param {CardView} cv
   * @param {any} item
   * @param {DecodedText} decoded
   */
  renderLong(cv, item, decoded) {
    cv.setState("loading", "rendering markdown…");
    this.request("render", { key: JSON.parse(item.key) }, { slowAfter: 120_000 })
      .then(({ content }) => {
        decoded.html = String(content.html);
        item.html = decoded.html;
        cv.shownKey = null;
        this.frames.request();
      })
      .catch((err) => {
        if (!this.disposed) cv.setState("error", `markdown: ${err instanceof Error ? err.message : err}`);
      });
  }

  /**
   * @param {any} item
   * @param {import("../../media/card-index").Position} pos
   */
  info(item, pos) {
    const shape = item.kind === "table" && item.shape ? ` · table ${item.shape.join("×")}` : "";
    return `${super.info(item, pos)} · ${Number(item.chars).toLocaleString()} characters${shape}`;
  }
}
