// The views of the one bundle by widget key (tbnb/static/tbnb.js registers them all when it
// loads: build.mjs writes that line). A view that shows other widgets' models inside itself
// (the dashboard's tabs) draws each with its view from here, so the kit and every view are
// in the page once; in a widget's own bundle the table is empty and such a view loads the
// other model's own `_esm` instead.

/**
 * @typedef {{ render: (props: {model: any, el: HTMLElement}) => (() => void) | undefined | Promise<(() => void) | undefined> }} WidgetDef
 */

/** @type {Record<string, WidgetDef>} */
export const views = {};

/**
 * Make `table`'s views the ones this page draws with.
 * @param {Record<string, WidgetDef>} table
 */
export function registerViews(table) {
  Object.assign(views, table);
}
