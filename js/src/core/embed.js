// Drawing another widget's model inside a view (the dashboard's tabs and its run selection):
// the model comes from the front end's widget manager by id (anywidget hands every view
// `model.widget_manager.get_model`: JupyterLab, Notebook 7, VS Code, Voilà, marimo, the
// exported page's manager), and its view from the one bundle's table (registry.js), or from
// the model's own `_esm` where the table does not have it.
import { views } from "./registry.js";

/** @typedef {import("./registry").WidgetDef} WidgetDef */

/**
 * The model a trait's widget reference names ("IPY_MODEL_<id>", as ipywidgets serialises it).
 * @param {any} model  the model holding the reference
 * @param {string} ref
 * @returns {Promise<any>}
 */
export async function referencedModel(model, ref) {
  const manager = model.widget_manager;
  if (!manager?.get_model) throw new Error("this front end cannot look up other widgets' models");
  const id = String(ref).replace(/^IPY_MODEL_/, "");
  const found = await manager.get_model(id);
  if (!found) throw new Error(`widget model ${id} is not in this page`);
  return found;
}

/** @type {Map<string, Promise<WidgetDef>>} */
const ownModules = new Map();

/**
 * The definition that draws `model`: the view of `key` in the one bundle, else its `_esm`.
 * @param {any} model
 * @param {string} key
 * @returns {Promise<WidgetDef>}
 */
async function definition(model, key) {
  const view = views[key];
  if (view) return view;
  const esm = model.get("_esm");
  if (typeof esm !== "string" || !esm) throw new Error(`no view "${key}" and no module to draw it`);
  let found = ownModules.get(esm);
  if (!found) {
    found = (async () => {
      const url = URL.createObjectURL(new Blob([esm], { type: "text/javascript" }));
      try {
        const mod = await import(/* @vite-ignore */ url);
        const def = mod.default ?? mod;
        return typeof def === "function" ? await def() : def;
      } finally {
        URL.revokeObjectURL(url);
      }
    })();
    ownModules.set(esm, found);
  }
  return found;
}

/**
 * Draw the widget `ref` names into `host` (its `_dom_classes` on `host`, as a widget
 * container would put them). Resolves with the cleanup that removes the drawing.
 * @param {any} model  the model holding the reference
 * @param {string} ref
 * @param {string} key  the widget key of the referenced model
 * @param {HTMLElement} host
 * @returns {Promise<() => void>}
 */
export async function drawModel(model, ref, key, host) {
  const child = await referencedModel(model, ref);
  for (const cls of child.get("_dom_classes") || []) host.classList.add(String(cls));
  const def = await definition(child, key);
  const cleanup = await def.render({ model: child, el: host });
  return () => {
    if (typeof cleanup === "function") cleanup();
    host.replaceChildren();
  };
}
