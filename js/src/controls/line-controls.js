// The controls every line chart view shares: the smoothing slider with its value, and the
// x-axis choice (step, relative time, wall time, and the tag chosen as x, if any).
import { el } from "../core/dom.js";

/** The smoothing slider (0 to 0.999, TensorBoard's range) and the span showing its value. */
export function smoothingSlider() {
  const input = el("input", {
    class: "tbnb-smoothing",
    type: "range",
    min: "0",
    max: "0.999",
    step: "0.001",
    "aria-label": "smoothing",
  });
  const value = el("span", { class: "tbnb-smoothing-value" });
  return { input, value };
}

/**
 * The x-axis select, filled (see fillXOptions).
 * @param {string | null} [xTag]
 */
export function xAxisSelect(xTag = null) {
  const select = el("select", { class: "tbnb-xaxis" });
  fillXOptions(select, xTag);
  return select;
}

/**
 * The x-axis choices: step, relative time, wall time, and the tag chosen as x, if any.
 * @param {HTMLSelectElement} select
 * @param {string | null} xTag
 */
export function fillXOptions(select, xTag) {
  const options = [
    ["step", "step"],
    ["relative", "relative (s)"],
    ["wall", "wall time"],
  ];
  if (xTag) options.push([`tag:${xTag}`, `tag: ${xTag}`]);
  select.replaceChildren(...options.map(([value, text]) => el("option", { value, text })));
}
