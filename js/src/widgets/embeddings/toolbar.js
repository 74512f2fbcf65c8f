// The projector's controls: method, dimensions and their parameters with Run and Cancel,
// progress; colour, label, size, opacity, sprites, density; search; pan / lasso / box; fit,
// clear, CSV.
import { csvButton } from "../../controls/csv-button.js";
import { filterInput } from "../../controls/filter-input.js";
import { el, setText } from "../../core/dom.js";

export const METHODS = [
  ["pca", "PCA"],
  ["tsne", "t-SNE"],
  ["umap", "UMAP"],
  ["raw", "raw vectors"],
];

/** Parameters shown per method: [name, label, min, max, step, default]. */
export const PARAMS = {
  tsne: [
    ["perplexity", "perplexity", 2, 100, 1, 30],
    ["learning_rate", "learning rate (0: auto)", 0, 100000, 10, 0],
    ["iterations", "iterations", 50, 5000, 50, 750],
    ["seed", "seed", 0, 99999, 1, 0],
  ],
  umap: [
    ["n_neighbors", "neighbours", 2, 200, 1, 15],
    ["min_dist", "min dist", 0, 1, 0.05, 0.1],
    ["seed", "seed", 0, 99999, 1, 0],
  ],
};

/**
 * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void, parent: HTMLElement,
 *   csvRows: () => {header: unknown[], rows: unknown[][]}, onSearch: (text: string) => void}} options
 */
export function buildToolbar({ on, parent, csvRows, onSearch }) {
  const select = (/** @type {string} */ cls, /** @type {string} */ title) => el("select", { class: cls, title });
  const t = {
    picker: select("tbnb-pj-embedding", "embedding to show (run · tag · step)"),
    method: select("tbnb-pj-method", "layout"),
    dims: select("tbnb-pj-dims", "dimensions"),
    params: el("span", { class: "tbnb-pj-params" }),
    metric: select("tbnb-pj-metric", "distance for t-SNE / UMAP neighbours"),
    run: el("button", { class: "tbnb-pj-run", type: "button", text: "Run" }),
    cancel: el("button", { class: "tbnb-pj-cancel", type: "button", text: "Cancel" }),
    bar: el("progress", { class: "tbnb-pj-progress", max: "1", value: "0" }),
    status: el("span", { class: "tbnb-pj-status" }),
    color: select("tbnb-pj-color", "colour points by"),
    label: select("tbnb-pj-label", "label points by"),
    size: el("input", { class: "tbnb-pj-size", type: "range", min: "0.5", max: "12", step: "0.5" }),
    opacity: el("input", { class: "tbnb-pj-opacity", type: "range", min: "0.05", max: "1", step: "0.05" }),
    sprites: el("input", { class: "tbnb-pj-sprites", type: "checkbox" }),
    spritesLabel: el("label", { class: "tbnb-pj-sprites-label" }),
    density: el("input", { class: "tbnb-pj-density", type: "checkbox" }),
    densityLabel: el("label", {
      class: "tbnb-pj-density-label",
      title: "density contours and a label per dense region (2-D, at low zoom)",
    }),
    searchColumn: select("tbnb-pj-search-column", "column to search"),
    matches: el("span", { class: "tbnb-pj-matches" }),
    pan: el("button", { class: "tbnb-pj-mode", type: "button", "data-mode": "pan", text: "Pan" }),
    lasso: el("button", { class: "tbnb-pj-mode", type: "button", "data-mode": "lasso", text: "Lasso" }),
    box: el("button", { class: "tbnb-pj-mode", type: "button", "data-mode": "box", text: "Box" }),
    fit: el("button", { class: "tbnb-pj-fit", type: "button", text: "Fit", title: "fit the view (double-click)" }),
    clear: el("button", { class: "tbnb-pj-clear", type: "button", text: "Clear selection" }),
    csv: csvButton({ className: "tbnb-pj-csv", filename: "tbnb-projector.csv", parent, on, rows: csvRows }),
    search: filterInput({ className: "tbnb-pj-search", placeholder: "search labels (regex)", on, onChange: onSearch }),
  };
  for (const [value, text] of METHODS) t.method.append(el("option", { value, text }));
  for (const d of [2, 3]) t.dims.append(el("option", { value: String(d), text: `${d}D` }));
  for (const m of ["euclidean", "cosine"]) t.metric.append(el("option", { value: m, text: m }));
  t.spritesLabel.append(t.sprites, "sprites");
  t.densityLabel.append(t.density, "density");
  const rowA = el(
    "div",
    { class: "tbnb-toolbar tbnb-pj-row" },
    t.picker,
    el("label", {}, "Layout", t.method),
    t.dims,
    t.params,
    t.metric,
    t.run,
    t.cancel,
    t.bar,
    t.status,
  );
  const rowB = el(
    "div",
    { class: "tbnb-toolbar tbnb-pj-row" },
    el("label", {}, "Colour", t.color),
    el("label", {}, "Label", t.label),
    el("label", {}, "Size", t.size),
    el("label", {}, "Opacity", t.opacity),
    t.spritesLabel,
    t.densityLabel,
    t.search.node,
    t.searchColumn,
    t.matches,
  );
  const rowC = el("div", { class: "tbnb-toolbar tbnb-pj-row" }, t.pan, t.lasso, t.box, t.fit, t.clear, t.csv);
  return { ...t, node: el("div", { class: "tbnb-pj-toolbar" }, rowA, rowB, rowC) };
}

/**
 * Parameter inputs of `method`, filled from `values`.
 * @param {HTMLElement} box
 * @param {string} method
 * @param {Record<string, any>} values
 */
export function renderParams(box, method, values) {
  const spec = /** @type {Record<string, any[][]>} */ (PARAMS)[method] || [];
  box.replaceChildren(
    ...spec.map(([name, label, min, max, step, fallback]) => {
      let value = values[name] ?? fallback;
      if (name === "learning_rate" && value === "auto") value = 0;
      const input = el("input", {
        class: "tbnb-pj-param",
        type: "number",
        "data-param": name,
        min: String(min),
        max: String(max),
        step: String(step),
        value: String(value),
      });
      return el("label", {}, label, input);
    }),
  );
}

/**
 * The parameters typed in `box` (learning rate 0 means "auto").
 * @param {HTMLElement} box
 * @returns {Record<string, any>}
 */
export function readParams(box) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const input of box.querySelectorAll("input[data-param]")) {
    const name = input.getAttribute("data-param") || "";
    const value = Number(/** @type {HTMLInputElement} */ (input).value);
    if (!Number.isFinite(value)) continue;
    out[name] = name === "learning_rate" && value <= 0 ? "auto" : value;
  }
  return out;
}

/**
 * Fill a select with options (keeping the choice when it is still there).
 * @param {HTMLSelectElement} select
 * @param {[string, string][]} options
 * @param {string} value
 */
export function fillSelect(select, options, value) {
  const key = JSON.stringify(options);
  if (select.getAttribute("data-key") !== String(key.length) || select.options.length !== options.length) {
    select.replaceChildren(...options.map(([v, text]) => el("option", { value: v, text })));
    select.setAttribute("data-key", String(key.length));
  }
  select.value = value;
}

/**
 * Progress bar and status text of the last job.
 * @param {{bar: HTMLProgressElement, status: HTMLElement, cancel: HTMLButtonElement}} t
 * @param {import("./model").Status} status
 * @param {number[]} explained
 * @param {string} method
 */
export function showStatus(t, status, explained, method) {
  const running = status.state === "running";
  t.cancel.hidden = !running;
  t.bar.hidden = !running;
  const total = Number(status.total || 0);
  t.bar.value = running && total > 0 ? Number(status.step || 0) / total : 0;
  let text = "";
  if (running) {
    const name = (METHODS.find(([m]) => m === status.method) || ["", status.method])[1];
    text = `${name}: ${status.message || status.phase || ""} · ${Number(status.elapsed || 0).toFixed(1)} s`;
  } else if (status.state === "error") {
    text = `failed: ${status.error || "unknown error"}`;
  } else if (status.state === "cancelled") {
    text = "cancelled";
  } else if (method === "pca" && explained.length) {
    const parts = explained.map((v, i) => `PC${i + 1} ${(100 * v).toFixed(1)}%`);
    text = `variance explained: ${parts.join(", ")}`;
  } else if (status.state === "done" && status.elapsed) {
    text = `done in ${Number(status.elapsed).toFixed(1)} s`;
  }
  setText(t.status, text);
  t.status.classList.toggle("tbnb-pj-error", status.state === "error");
}
