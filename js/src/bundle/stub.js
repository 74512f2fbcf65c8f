// The `_esm` of a widget whose front end another model carries (a dashboard's tabs): a few
// hundred bytes instead of a bundle per widget. Python (tbnb/widgets/bundle.py) fills in
// CONFIG: the widget key, the model id of the carrier (a plain widget model whose `source`
// is tbnb/static/tbnb.js, the one bundle: the kit and every widget's view) and that
// bundle's build id. The first stub of a page imports the carrier's source once; every
// other stub of the same build reuses that module, so the kit is parsed and run once per
// page however many widgets show.

/** Replaced by Python with a JSON string literal (tbnb.widgets.bundle.stub_esm). */
const CONFIG = JSON.parse("__TBNB_STUB_CONFIG__");

/**
 * @typedef {{ render: (props: {model: any, el: HTMLElement}) => (() => void) | undefined }} WidgetDef
 * @typedef {{ views: Record<string, WidgetDef> }} OneBundle
 */

/**
 * The one bundle of this build, imported once per page (a failed import is forgotten, so
 * the next widget tries again).
 * @param {any} model
 * @returns {Promise<OneBundle>}
 */
function oneBundle(model) {
  const global = /** @type {any} */ (globalThis);
  global.__tbnbBundles ??= {};
  const loaded = /** @type {Record<string, Promise<OneBundle>>} */ (global.__tbnbBundles);
  loaded[CONFIG.build] ??= (async () => {
    const manager = model.widget_manager;
    if (!manager?.get_model) throw new Error("this front end cannot look up the widget that carries tbnb's views");
    const carrier = await manager.get_model(CONFIG.carrier);
    const source = carrier?.get("source");
    if (typeof source !== "string" || !source) throw new Error(`widget model ${CONFIG.carrier} holds no bundle`);
    const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
    try {
      return /** @type {OneBundle} */ (await import(/* @vite-ignore */ url));
    } finally {
      URL.revokeObjectURL(url);
    }
  })().catch((err) => {
    delete loaded[CONFIG.build];
    throw err;
  });
  return loaded[CONFIG.build];
}

export default {
  /** @param {{model: any, el: HTMLElement}} props */
  async render(props) {
    let view;
    try {
      view = (await oneBundle(props.model)).views[CONFIG.key];
      if (!view) throw new Error(`the bundle has no view "${CONFIG.key}"`);
    } catch (err) {
      const message = document.createElement("pre");
      message.textContent = `tbnb ${CONFIG.key}: the front end did not load: ${err}`;
      props.el.replaceChildren(message);
      throw err;
    }
    return view.render(props);
  },
};
