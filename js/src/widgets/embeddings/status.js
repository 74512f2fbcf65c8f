// The projector's toolbar state from the model: method, dims, parameters and the last
// job's status, and the embedding picker with the run selector's runs; and what they ask
// of the kernel (a layout, another embedding).

import { el } from "../../core/dom.js";
import { RequestError } from "../../core/request.js";
import { fillSelect, METHODS, readParams, renderParams, showStatus } from "./toolbar.js";

/** @typedef {import("./view.js").ProjectorView} View */

/** The method, dims, parameters and status of the last job. @param {View} view */
export function renderStatus(view) {
  const t = view.toolbar;
  const method = view.model.get("method") || "pca";
  const status = view.model.get("status") || {};
  const shownMethod = status.state === "running" && status.method ? status.method : method;
  fillSelect(
    t.method,
    METHODS.map(([v, text]) => /** @type {[string, string]} */ ([v, text])),
    shownMethod,
  );
  const rawOption = /** @type {HTMLOptionElement | null} */ (t.method.querySelector('option[value="raw"]'));
  if (rawOption) rawOption.disabled = Boolean(view.meta.n) && view.model.get("method") !== "raw" && !rawAllowed(view);
  t.dims.value = String(view.model.get("dims") || 2);
  const params = view.model.get("params")?.[shownMethod] || {};
  if (t.params.getAttribute("data-method") !== shownMethod || status.state !== "running") {
    renderParams(t.params, shownMethod, params);
    t.params.setAttribute("data-method", shownMethod);
  }
  t.metric.value = params.metric || "euclidean";
  const heavy = shownMethod === "tsne" || shownMethod === "umap";
  t.metric.hidden = !heavy;
  t.run.hidden = !heavy;
  showStatus(t, status, view.model.get("explained") || [], method);
  view.root.setAttribute("data-state", status.state || "idle");
}

/** Whether the shown embedding has at most 3 dimensions. @param {View} view */
function rawAllowed(view) {
  const list = view.model.get("embeddings") || [];
  const chosen = list[view.model.get("embedding") ?? -1];
  return chosen ? chosen.dim <= 3 : view.model.get("method") === "raw";
}

/** The embedding picker and the run selector's runs. @param {View} view */
export function renderPicker(view) {
  const t = view.toolbar;
  const list = view.model.get("embeddings") || [];
  const runs = [...new Set(list.map((e) => e.run))];
  view.panel.runs.hidden = runs.length === 0;
  if (runs.join("\u0000") !== view.runSelector.runs.join("\u0000")) view.runSelector.setRuns(runs);
  const shown = new Set(view.model.get("selected_runs") || runs);
  t.picker.hidden = list.length === 0;
  const chosen = view.model.get("embedding") ?? -1;
  const options = list.filter((e) => shown.has(e.run) || e.index === chosen);
  t.picker.replaceChildren(
    ...options.map((e) => {
      const step = e.step >= 0 ? ` · step ${e.step}` : "";
      const size = e.num_points >= 0 ? ` (${e.num_points} x ${e.dim})` : "";
      const text = `${e.run} · ${e.tag}${step}${size}${e.note ? " — not readable" : ""}`;
      return el("option", { value: String(e.index), text, disabled: Boolean(e.note), title: e.note || text });
    }),
  );
  t.picker.value = String(chosen);
  view.panel.title.textContent = view.model.get("title") || "";
  const unreadable = list.filter((e) => e.note);
  if (list.length && !list.some((e) => !e.note)) {
    view.panel.setMessage(`no embedding tbnb can read: ${unreadable[0].note}`);
  }
}

/**
 * Ask the kernel for a layout: the toolbar's method, dims and parameters, overridden by `change`.
 * @param {View} view @param {Record<string, any>} change
 */
export function runLayout(view, change) {
  const t = view.toolbar;
  const method = change.method ?? t.method.value;
  const dims = change.dims ?? Number(t.dims.value);
  const params = method === "tsne" || method === "umap" ? { ...readParams(t.params), metric: t.metric.value } : {};
  if (change.method && change.method !== view.model.get("method")) {
    Object.assign(params, view.model.get("params")?.[method] || {});
  }
  view
    .request("run", { method, dims, params })
    .then(() => view.panel.setMessage(""))
    .catch((err) => {
      if (view.disposed) return;
      view.panel.setMessage(err instanceof RequestError ? err.message : "computing a layout needs the running kernel");
      view.renderStatus();
    });
}

/** Ask the kernel to read and show embedding `index`. @param {View} view @param {number} index */
export function chooseEmbedding(view, index) {
  view.request("embedding", { index }, { slowAfter: 300_000 }).catch((err) => {
    if (view.disposed) return;
    view.panel.setMessage(
      err instanceof RequestError ? err.message : "reading another embedding needs the running kernel",
    );
    view.renderPicker();
  });
}
