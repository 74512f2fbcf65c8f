// The graph view's search: nodes whose full name or op matches the search pattern, the
// boxes drawn for them (a hidden node shows through the collapsed group that holds it)
// and the list of results under the toolbar.

import { el } from "../../core/dom.js";
import { compileFilter } from "../../core/filter.js";
import { label, nodeName } from "./graph-data.js";

/** @typedef {import("./graph-data").GraphData} GraphData */

/**
 * The nodes a search pattern finds and the visible items that stand for them.
 * @param {GraphData} d
 * @param {string} pattern   a regex (an invalid one finds nothing)
 * @param {Int32Array | number[] | undefined} rep   visible item of each node (-1 hidden)
 * @returns {{re: RegExp | null, nodes: number[], matches: Set<number>}}
 */
export function searchGraph(d, pattern, rep) {
  const { re } = compileFilter(pattern);
  /** @type {Set<number>} */
  const matches = new Set();
  /** @type {number[]} */
  const nodes = [];
  if (re) {
    for (let i = 0; i < d.n; i++) {
      if (re.test(nodeName(d, i)) || re.test(label(d, d.nodeOp[i]))) nodes.push(i);
    }
    for (const i of nodes) if (rep && rep[i] >= 0) matches.add(rep[i]);
  }
  return { re, nodes, matches };
}

/**
 * One button per found node (the first 30), each revealing its node when clicked.
 * @param {GraphData} d @param {number[]} nodes @param {(i: number) => void} pick
 */
export function resultButtons(d, nodes, pick) {
  return nodes.slice(0, 30).map((i) => {
    const b = el("button", {
      class: "tbnb-graph-result",
      type: "button",
      "data-node": String(i),
      title: nodeName(d, i),
    });
    b.append(nodeName(d, i), el("span", { class: "tbnb-graph-op", text: ` ${label(d, d.nodeOp[i])}` }));
    b.addEventListener("click", () => pick(i));
    return b;
  });
}
