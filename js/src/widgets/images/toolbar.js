// The images toolbar: brightness and contrast (CSS filters, applied to every image at
// once), fit or actual size, the image size in fit mode, pixelated scaling, and the
// comparison switch.
import { el, setText } from "../../core/dom.js";

/**
 * @typedef {object} ImageControls
 * @property {HTMLElement[]} nodes
 * @property {HTMLInputElement} brightness
 * @property {HTMLInputElement} contrast
 * @property {HTMLElement} brightnessValue
 * @property {HTMLElement} contrastValue
 * @property {HTMLButtonElement} reset
 * @property {HTMLSelectElement} fit
 * @property {HTMLInputElement} size
 * @property {HTMLSelectElement} pixelated
 * @property {HTMLButtonElement} compare
 */

/** @returns {ImageControls} */
export function imageControls() {
  const range = (/** @type {string} */ cls, /** @type {string} */ label) =>
    el("input", { class: cls, type: "range", min: "0", max: "3", step: "0.05", "aria-label": label });
  const brightness = range("tbnb-brightness", "brightness");
  const contrast = range("tbnb-contrast", "contrast");
  const brightnessValue = el("span", { class: "tbnb-filter-value" });
  const contrastValue = el("span", { class: "tbnb-filter-value" });
  const reset = el("button", { class: "tbnb-reset-filters", type: "button", text: "reset" });
  const fit = el(
    "select",
    { class: "tbnb-fit", "aria-label": "image size" },
    el("option", { value: "fit", text: "fit to size" }),
    el("option", { value: "actual", text: "actual size" }),
  );
  const size = el("input", {
    class: "tbnb-size",
    type: "range",
    min: "64",
    max: "1024",
    step: "16",
    "aria-label": "image width in fit mode",
  });
  const pixelated = el(
    "select",
    { class: "tbnb-pixelated", title: "how enlarged images are scaled" },
    el("option", { value: "auto", text: "pixels: auto" }),
    el("option", { value: "on", text: "pixels: sharp" }),
    el("option", { value: "off", text: "pixels: smooth" }),
  );
  const compare = el("button", { class: "tbnb-compare-toggle", type: "button", text: "compare runs" });
  const nodes = [
    el("label", {}, "brightness", brightness, brightnessValue),
    el("label", {}, "contrast", contrast, contrastValue),
    reset,
    fit,
    el("label", { class: "tbnb-size-label" }, "size", size),
    pixelated,
    compare,
  ];
  return { nodes, brightness, contrast, brightnessValue, contrastValue, reset, fit, size, pixelated, compare };
}

/**
 * Show the model's display options on the controls.
 * @param {ImageControls} c
 * @param {{brightness: number, contrast: number, fit: string, size: number, pixelated: string, comparing: boolean}} o
 */
export function syncControls(c, o) {
  c.brightness.value = String(o.brightness);
  c.contrast.value = String(o.contrast);
  setText(c.brightnessValue, o.brightness.toFixed(2));
  setText(c.contrastValue, o.contrast.toFixed(2));
  c.reset.disabled = o.brightness === 1 && o.contrast === 1;
  c.fit.value = o.fit;
  c.size.value = String(o.size);
  c.size.disabled = o.fit !== "fit";
  c.pixelated.value = o.pixelated;
  c.compare.setAttribute("aria-pressed", String(o.comparing));
  setText(c.compare, o.comparing ? "close comparison" : "compare runs");
}

/**
 * How wide an image shows (CSS px) and whether its pixels are drawn sharp.
 * @param {{width: number, height: number}} image
 * @param {{fit: string, size: number, pixelated: string}} o
 * @param {number} [box]  the size of the box in fit mode (default o.size)
 * @returns {{width: number, sharp: boolean}}
 */
export function displayOf(image, o, box = o.size) {
  const w = Math.max(image.width, 1);
  const h = Math.max(image.height, 1);
  const width = o.fit === "fit" ? Math.max(1, Math.round(Math.min(box, (box * w) / h))) : w;
  const sharp = o.pixelated === "on" || (o.pixelated === "auto" && width >= 2 * w);
  return { width, sharp };
}
