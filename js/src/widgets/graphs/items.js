// Items of the graph view by name: a node is item i, a group item n + k. `selected`,
// the hover attribute and tests name items; the scene places them on the screen.

import { findNode, label, nodeName } from "./graph-data.js";

/** @typedef {import("./graph-data").GraphData} GraphData */
/** @typedef {import("./scene").Scene} Scene */
/** @typedef {import("./draw").Camera} Camera */

/**
 * The item a name stands for: a group's key followed by "/" (TF names an op and the scope
 * of its inputs alike: `dense/MatMul` and `dense/MatMul/ReadVariableOp`), a node's full
 * name, or a group's bare key when no node has that name; -1 for none.
 * @param {GraphData} d @param {string} name
 */
export function itemOf(d, name) {
  if (!name) return -1;
  const k = d.groupByKey.get(name.endsWith("/") ? name.slice(0, -1) : name);
  if (name.endsWith("/")) return k !== undefined && k > 0 ? d.n + k : -1;
  const node = findNode(d, name);
  if (node >= 0) return node;
  return k !== undefined && k > 0 ? d.n + k : -1;
}

/** The name of an item as `selected` holds it (a group: its key and "/"). @param {GraphData} d @param {number} item */
export function nameOf(d, item) {
  return item < d.n ? nodeName(d, item) : `${label(d, d.groupKey[item - d.n])}/`;
}

/**
 * Where an item's box is on the page (the canvas at `rect`), or null when it is not drawn.
 * @param {Scene | null} s @param {Camera} c @param {DOMRect} rect @param {number} item
 */
export function screenBoxOf(s, c, rect, item) {
  const at = s && item >= 0 ? s.index.get(item) : undefined;
  if (!s || at === undefined) return null;
  return {
    x: rect.left + s.x[at] * c.k + c.tx,
    y: rect.top + s.y[at] * c.k + c.ty,
    w: s.w[at] * c.k,
    h: s.h[at] * c.k,
  };
}
