// The images widget's view: cards of images (one per run and tag) on the media kit, with
// brightness, contrast, fit or actual size, pixelated scaling, animated GIFs and the
// comparison of two runs. Everything but fetching bytes runs here, so a saved notebook or
// an exported page keeps working with the images it saved.
import { rasterImage } from "../../chart/image-export.js";
import { saveImageButton } from "../../controls/save-image.js";
import { el } from "../../core/dom.js";
import { cardCaption } from "../../media/caption.js";
import { formatBytes } from "../../media/format.js";
import { MediaView } from "../../media/media-view.js";
import { ComparePanel } from "./compare.js";
import { decodeImage, releaseImage } from "./decode.js";
import { animate, paint, place } from "./paint.js";
import { displayOf, imageControls, syncControls } from "./toolbar.js";

/** @typedef {import("../../media/card").CardView} CardView */
/** @typedef {import("./decode").DecodedImage} DecodedImage */

export class ImagesView extends MediaView {
  /**
   * @param {import("./model").ImagesModel} model
   * @param {HTMLElement} host
   */
  constructor(model, host) {
    super(model, host, "images", {
      noun: "images",
      radius: 6,
      fetcher: { maxDecoded: 600 },
      csv: [
        ["width", (item) => item.width],
        ["height", (item) => item.height],
        ["format", (item) => item.format],
        ["nbytes", (item) => item.nbytes],
      ],
    });
    this.controls = imageControls();
    this.compare = new ComparePanel(this);
    this.panel.append(this.compare.node);
    this.disposers.push(() => {
      for (const cv of this.cards.values()) cv.extra.animation?.stop();
    });
  }

  /** The display options from the model. */
  options() {
    const m = this.model;
    return {
      brightness: Number(m.get("brightness") ?? 1),
      contrast: Number(m.get("contrast") ?? 1),
      fit: m.get("fit") === "actual" ? "actual" : "fit",
      size: Number(m.get("size") || 280),
      pixelated: String(m.get("pixelated") || "auto"),
    };
  }

  toolbarExtras() {
    return this.controls.nodes;
  }

  build() {
    super.build();
    const c = this.controls;
    const on = this.on.bind(this);
    const live = (/** @type {string} */ trait, /** @type {unknown} */ value) => {
      this.model.set(trait, value);
      this.saveSoon();
      this.applyDisplay();
    };
    on(c.brightness, "input", () => live("brightness", Number(c.brightness.value)));
    on(c.contrast, "input", () => live("contrast", Number(c.contrast.value)));
    on(c.reset, "click", () => {
      this.model.set("brightness", 1);
      live("contrast", 1);
    });
    on(c.fit, "change", () => live("fit", c.fit.value));
    on(c.size, "input", () => live("size", Number(c.size.value)));
    on(c.pixelated, "change", () => live("pixelated", c.pixelated.value));
    on(c.compare, "click", () => {
      this.compare.toggle();
      this.applyDisplay();
      this.frames.request();
    });
    this.listen("change:brightness change:contrast change:fit change:size change:pixelated", () => this.applyDisplay());
    this.listen("change:compare", () => {
      this.compare.sync();
      this.applyDisplay();
      this.frames.request();
    });
    this.compare.sync();
    this.applyDisplay();
  }

  /** Filters, sizes and scaling of every image shown, from the model (no redraw needed). */
  applyDisplay() {
    const o = this.options();
    // no filter at all at 1 and 1: even an identity filter makes every image a filtered
    // layer the compositor redraws on each step
    const identity = o.brightness === 1 && o.contrast === 1;
    this.root.style.setProperty(
      "--tbnb-img-filter",
      identity ? "none" : `brightness(${o.brightness}) contrast(${o.contrast})`,
    );
    this.root.style.setProperty("--tbnb-img-size", `${o.size}px`);
    this.main.classList.toggle("tbnb-actual", o.fit === "actual");
    syncControls(this.controls, { ...o, comparing: this.model.get("compare")?.tag !== undefined });
    for (const cv of this.cards.values()) {
      const image = /** @type {DecodedImage | undefined} */ (cv.extra.image);
      if (image) place(cv.extra.canvas, displayOf(image, o));
    }
    this.compare.layout();
    this.frames.request();
  }

  /** @param {import("../../media/card-index").Card} card */
  createContent(card) {
    const canvas = el("canvas", { class: "tbnb-img", width: "1", height: "1" });
    const box = el("div", { class: "tbnb-card-content tbnb-img-box" }, canvas);
    const image = () => rasterImage(canvas, card.tag, cardCaption(box, card.run), { pixelated: true });
    box.append(saveImageButton({ on: this.on.bind(this), svg: false, label: card.tag, image }));
    return box;
  }

  /** @param {any} item */
  decode(item) {
    return decodeImage(item);
  }

  /** @param {DecodedImage} decoded */
  release(decoded) {
    releaseImage(decoded);
  }

  /**
   * @param {CardView} cv
   * @param {any} _item
   * @param {DecodedImage} decoded
   */
  show(cv, _item, decoded) {
    const canvas = /** @type {HTMLCanvasElement} */ (cv.content.firstElementChild);
    cv.extra.animation?.stop();
    cv.extra.animation = null;
    paint(canvas, decoded.bitmap);
    cv.extra.canvas = canvas;
    cv.extra.image = { width: decoded.width, height: decoded.height };
    place(canvas, displayOf(decoded, this.options()));
    canvas.setAttribute("data-size", `${decoded.width}x${decoded.height}`);
    if (decoded.frames) cv.extra.animation = animate(canvas, decoded.frames);
  }

  /**
   * @param {any} item
   * @param {import("../../media/card-index").Position} pos
   */
  info(item, pos) {
    const size = item.width && item.height ? `${item.width}×${item.height} ` : "";
    return `${super.info(item, pos)} · ${size}${item.format} · ${formatBytes(item.nbytes)}`;
  }

  /** @param {string[]} now @param {string[]} ahead */
  drawExtra(now, ahead) {
    this.compare.draw(now, ahead);
  }
}
