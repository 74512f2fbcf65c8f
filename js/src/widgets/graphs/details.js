// The details panel of the selected node or group: op, device, output shapes, parameters,
// compute time and memory, attributes (the whole of them asked of the kernel on demand),
// inputs and outputs (click one to go there); for a group, what it holds. Every string
// from the log is put in as text.

import { breakableText, el } from "../../core/dom.js";
import { FLAG_CONSTANT, FLAG_PARAM, groupPath, label, nodeName, SERIES } from "./graph-data.js";
import { formatBytes, formatCount, formatMicros } from "./text.js";

/** @typedef {import("./graph-data").GraphData} GraphData */

const LISTED = 40;

/**
 * Inputs and outputs of every node (built once per graph).
 * @param {GraphData} d
 */
export function neighbours(d) {
  /** @type {number[][]} */
  const inputs = Array.from({ length: d.n }, () => []);
  /** @type {number[][]} */
  const outputs = Array.from({ length: d.n }, () => []);
  for (let e = 0; e < d.edgeSrc.length; e++) {
    inputs[d.edgeDst[e]].push(d.edgeSrc[e]);
    outputs[d.edgeSrc[e]].push(d.edgeDst[e]);
  }
  return { inputs, outputs };
}

/**
 * Op counts below group `k`, most common first.
 * @param {GraphData} d
 * @param {number} k
 */
export function opsBelow(d, k) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  const stack = [k];
  while (stack.length) {
    const g = /** @type {number} */ (stack.pop());
    for (const i of d.childNodes[g]) {
      const op = label(d, d.nodeOp[i]);
      counts.set(op, (counts.get(op) || 0) + 1);
    }
    stack.push(...d.childGroups[g]);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/**
 * @param {[string, string | Node][]} rows
 */
function table(rows) {
  return el(
    "table",
    { class: "tbnb-graph-props" },
    ...rows.map(([k, v]) =>
      el("tr", {}, el("th", { text: k }), el("td", {}, typeof v === "string" ? breakableText(v) : v)),
    ),
  );
}

/**
 * @typedef {object} DetailsOptions
 * @property {(item: number) => void} select        go to a node or group
 * @property {(k: number) => void} toggle            expand or collapse a group
 * @property {(name: string) => Promise<[string, string][]>} attributes  all attributes (kernel)
 */

/**
 * The panel's content for `item` (node i, or group n + k; -1: a hint).
 * @param {GraphData} d
 * @param {number} item
 * @param {ReturnType<typeof neighbours>} links
 * @param {DetailsOptions} options
 * @param {boolean} expanded  whether the group is expanded
 * @returns {Node[]}
 */
export function detailsOf(d, item, links, options, expanded) {
  if (item < 0 || item >= d.n + d.g) {
    return [
      el("p", {
        class: "tbnb-graph-hint",
        text: "Click a node or group for its details; double-click or + to expand a group.",
      }),
    ];
  }
  if (item >= d.n) return groupDetails(d, item - d.n, options, expanded);
  const i = item;
  const name = nodeName(d, i);
  const flags = d.nodeFlags[i];
  /** @type {[string, string][]} */
  const rows = [["op", label(d, d.nodeOp[i])]];
  if (label(d, d.nodeDevice[i])) rows.push(["device", label(d, d.nodeDevice[i])]);
  if (label(d, d.nodeShape[i])) rows.push(["output shapes", label(d, d.nodeShape[i])]);
  if (Number.isFinite(d.nodeParams[i])) rows.push(["parameters", formatCount(d.nodeParams[i])]);
  else if (flags & FLAG_PARAM) rows.push(["parameters", "a parameter (shape not recorded)"]);
  if (Number.isFinite(d.nodeCompute[i])) rows.push(["compute time", formatMicros(d.nodeCompute[i])]);
  if (Number.isFinite(d.nodeMemory[i])) rows.push(["memory", formatBytes(d.nodeMemory[i])]);
  if (flags & FLAG_CONSTANT) rows.push(["kind", "constant"]);
  rows.push(["scope", groupPath(d, d.nodeParent[i]) || "(top level)"]);
  const attrs = label(d, d.nodeAttr[i]);
  const attrBox = el("div", { class: "tbnb-graph-attrs" }, attrs ? breakableText(attrs) : "none");
  const more = el("button", {
    class: "tbnb-graph-all-attrs",
    type: "button",
    text: attrs.endsWith("…") ? "all attributes (cut above)" : "all attributes",
    title: "every attribute, unabridged (asks the kernel)",
  });
  more.addEventListener("click", () => {
    more.disabled = true;
    options.attributes(name).then(
      (pairs) => attrBox.replaceChildren(table(pairs.length ? pairs : [["", "no attributes"]])),
      (err) => attrBox.append(el("div", { class: "tbnb-msg", text: ` (${err instanceof Error ? err.message : err})` })),
    );
  });
  return [
    el("div", { class: "tbnb-graph-title" }, breakableText(name)),
    table(rows),
    el("div", { class: "tbnb-graph-sub", text: "attributes" }),
    attrBox,
    more,
    ...nodeList("inputs", links.inputs[i], d, options),
    ...nodeList("outputs", links.outputs[i], d, options),
  ];
}

/**
 * @param {string} title @param {number[]} nodes @param {GraphData} d @param {DetailsOptions} options
 * @returns {Node[]}
 */
function nodeList(title, nodes, d, options) {
  const unique = [...new Set(nodes)];
  const list = el("ul", { class: "tbnb-graph-links" });
  for (const j of unique.slice(0, LISTED)) {
    const link = el(
      "button",
      { class: "tbnb-graph-link", type: "button", "data-node": String(j) },
      breakableText(nodeName(d, j)),
    );
    link.addEventListener("click", () => options.select(j));
    list.append(el("li", {}, link, el("span", { class: "tbnb-graph-op", text: ` ${label(d, d.nodeOp[j])}` })));
  }
  if (unique.length > LISTED) list.append(el("li", { text: `and ${unique.length - LISTED} more` }));
  return [el("div", { class: "tbnb-graph-sub", text: `${title} (${unique.length})` }), list];
}

/**
 * @param {GraphData} d @param {number} k @param {DetailsOptions} options @param {boolean} expanded
 * @returns {Node[]}
 */
function groupDetails(d, k, options, expanded) {
  /** @type {[string, string][]} */
  const rows = [
    [
      "kind",
      d.groupKind[k] === SERIES ? `series of ${d.childGroups[k].length + d.childNodes[k].length} blocks` : "name scope",
    ],
    ["nodes", formatCount(d.groupCount[k])],
  ];
  if (Number.isFinite(d.groupParams[k])) rows.push(["parameters", formatCount(d.groupParams[k])]);
  if (Number.isFinite(d.groupCompute[k])) rows.push(["compute time", formatMicros(d.groupCompute[k])]);
  if (Number.isFinite(d.groupMemory[k])) rows.push(["memory", formatBytes(d.groupMemory[k])]);
  if (label(d, d.groupDevice[k])) rows.push(["device", label(d, d.groupDevice[k])]);
  const toggle = el("button", { class: "tbnb-graph-toggle", type: "button", text: expanded ? "collapse" : "expand" });
  toggle.addEventListener("click", () => options.toggle(k));
  const ops = opsBelow(d, k).slice(0, 12);
  return [
    el("div", { class: "tbnb-graph-title" }, breakableText(label(d, d.groupKey[k]))),
    table(rows),
    toggle,
    el("div", { class: "tbnb-graph-sub", text: "ops inside" }),
    table(ops.map(([op, c]) => [String(c), op])),
  ];
}
