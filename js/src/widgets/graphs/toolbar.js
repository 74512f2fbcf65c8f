// The graph view's toolbar: which run and graph, colour, run metadata, constants, search,
// fit and collapse, and the status line.

import { el } from "../../core/dom.js";

/**
 * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void}} _options
 */
export function buildToolbar(_options) {
  const run = el("select", { class: "tbnb-graph-run", title: "run" });
  const tag = el("select", { class: "tbnb-graph-tag", title: "graph of the run" });
  const color = el("select", { class: "tbnb-graph-color", title: "colour boxes by" });
  for (const [value, text] of [
    ["op", "op type"],
    ["device", "device"],
    ["compute", "compute time"],
    ["memory", "memory"],
  ]) {
    color.append(el("option", { value, text }));
  }
  const stats = el("select", { class: "tbnb-graph-profile", title: "run metadata (step statistics) joined" });
  const constants = el("input", { class: "tbnb-graph-constants", type: "checkbox" });
  const search = el("input", {
    class: "tbnb-filter tbnb-graph-search",
    type: "text",
    placeholder: "search name or op (regex)",
    spellcheck: "false",
  });
  const count = el("span", { class: "tbnb-graph-count" });
  const fit = el("button", { class: "tbnb-graph-fit", type: "button", text: "Fit", title: "fit the graph in view" });
  const collapse = el("button", { class: "tbnb-graph-collapse", type: "button", text: "Collapse all" });
  const status = el("span", { class: "tbnb-graph-status" });
  const swatch = el("span", { class: "tbnb-swatch tbnb-graph-run-swatch" });
  const node = el(
    "div",
    { class: "tbnb-toolbar" },
    el("label", {}, swatch, "Run", run),
    el("label", {}, "Graph", tag),
    el("label", {}, "Colour", color),
    el("label", {}, "Stats", stats),
    el("label", {}, constants, "constants"),
    el("label", { class: "tbnb-graph-search-box" }, search, count),
    fit,
    collapse,
    status,
  );
  return { node, run, tag, color, stats, constants, search, count, fit, collapse, status, swatch };
}

/**
 * Fill a select with `[value, text]` options (only when they changed) and select `value`.
 * @param {HTMLSelectElement} select
 * @param {[string, string][]} options
 * @param {string} value
 */
export function fillSelect(select, options, value) {
  const key = JSON.stringify(options);
  if (select.getAttribute("data-options-key") !== String(key.length) || select.options.length !== options.length) {
    select.replaceChildren(...options.map(([v, text]) => el("option", { value: v, text })));
    select.setAttribute("data-options-key", String(key.length));
  }
  select.value = value;
}
