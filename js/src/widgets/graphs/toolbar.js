// The graph view's toolbar: which run and graph, colour, run metadata, constants, search,
// fit and collapse, and the status line; the colour legend row under it.

import { runColor } from "../../color/palettes.js";
import { el } from "../../core/dom.js";
import { compileFilter } from "../../core/filter.js";

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

/**
 * Set the toolbar's controls from the model; returns the runs that have a graph.
 * @param {ReturnType<typeof buildToolbar>} bar
 * @param {import("./model").GraphModel} m
 */
export function syncToolbar(bar, m) {
  const graphs = m.get("graphs") || [];
  const runs = [...new Set(graphs.map((g) => g.run))];
  const colors = m.get("run_colors") || {};
  fillSelect(
    bar.run,
    runs.map((r) => [r, r]),
    m.get("run") || "",
  );
  bar.swatch.style.background = runColor(colors, m.get("run"), runs.indexOf(m.get("run")));
  fillSelect(
    bar.tag,
    graphs.filter((g) => g.run === m.get("run")).map((g) => [g.tag, g.label]),
    m.get("tag") || "",
  );
  const profiles = m.get("profiles") || [];
  fillSelect(
    bar.stats,
    [
      ["", profiles.length ? "none" : "no run metadata"],
      ...profiles.map((p) => /** @type {[string, string]} */ ([p, p])),
    ],
    m.get("stats_tag") || "",
  );
  bar.color.value = m.get("color_by") || "op";
  bar.constants.checked = !!m.get("show_constants");
  if (bar.search.value !== (m.get("search") || "")) bar.search.value = m.get("search") || "";
  return runs;
}

/** The legend row's children: what the box colours mean. @param {import("./colors").Coloring} colors */
export function colorLegend(colors) {
  return [
    el("span", { class: "tbnb-graph-sub", text: `colour: ${colors.title}` }),
    ...colors.legend.map((entry) =>
      el(
        "span",
        { class: "tbnb-legend-entry" },
        el("span", { class: "tbnb-swatch", style: { background: entry.color } }),
        entry.label,
      ),
    ),
  ];
}

/**
 * The status line after a layout.
 * @param {number} n  nodes in the graph @param {number} boxes  boxes drawn
 * @param {{ms: number, mode: string}} layout @param {number} total  ms from request to scene
 */
export function layoutStatus(n, boxes, layout, total) {
  return n
    ? `${n} nodes · ${boxes} shown · layout ${layout.ms.toFixed(0)} ms (${layout.mode === "worker" ? "worker" : "page"}), ${total.toFixed(0)} ms in all`
    : "";
}

/**
 * Listen to the toolbar's controls (listeners live and die with the view).
 * @param {import("./view").GraphView} view
 */
export function bindToolbar(view) {
  const on = view.on.bind(view);
  const bar = view.bar;
  on(bar.run, "change", () => {
    const first = (view.model.get("graphs") || []).find((g) => g.run === bar.run.value);
    view.show(bar.run.value, first ? first.tag : "");
  });
  on(bar.tag, "change", () => view.show(view.model.get("run"), bar.tag.value));
  on(bar.color, "change", () => view.save({ color_by: bar.color.value }));
  on(bar.stats, "change", () => view.save({ stats_tag: bar.stats.value }));
  on(bar.constants, "change", () => view.save({ show_constants: bar.constants.checked }));
  on(bar.search, "input", () => {
    const { error } = compileFilter(bar.search.value);
    bar.search.classList.toggle("tbnb-invalid", error !== null);
    if (error === null) view.save({ search: bar.search.value });
    view.updateSearch();
  });
  on(bar.fit, "click", () => view.fit());
  on(bar.collapse, "click", () => view.save({ expanded: [] }));
}
