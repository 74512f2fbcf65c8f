// A static legend: swatches and whole labels (wrapping, never cut).
import { el } from "../core/dom.js";

/**
 * Fill `container` with a title and one entry per item.
 * @param {HTMLElement} container
 * @param {string} title
 * @param {{label: string, color: string}[]} items
 */
export function renderLegend(container, title, items) {
  container.classList.add("tbnb-legend");
  container.replaceChildren(
    ...(title ? [el("span", { text: title })] : []),
    ...items.map((item) =>
      el(
        "span",
        { class: "tbnb-legend-entry" },
        el("span", { class: "tbnb-swatch", style: { background: item.color } }),
        el("span", { text: item.label }),
      ),
    ),
  );
}
