// The graph as the browser holds it: the `_graph` trait decoded (typed arrays, one string
// table) plus what every view needs derived once: children of each group, each group's
// node count, parameters, compute time and memory over its subtree, its most common op and
// device, and whether it holds anything but constants.

import { decodeTree } from "../../core/codecs.js";

export const FLAG_CONSTANT = 1;
export const FLAG_PARAM = 2;
export const SERIES = 1;

/**
 * @typedef {object} GraphData
 * @property {string[]} labels
 * @property {number} n        nodes
 * @property {number} g        groups (0 is the root)
 * @property {Int32Array} nodeName   label codes: the name after the scope's path ("" = the path)
 * @property {Int32Array} nodeLabel  label codes: what the node is called on screen
 * @property {Int32Array} nodeOp
 * @property {Int32Array} nodeDevice
 * @property {Int32Array} nodeShape
 * @property {Int32Array} nodeAttr
 * @property {Int32Array} nodeParent
 * @property {Uint8Array} nodeFlags
 * @property {Float32Array} nodeCompute  microseconds (NaN: unknown)
 * @property {Float32Array} nodeMemory   bytes (NaN: unknown)
 * @property {Float32Array} nodeParams   elements (NaN: not a parameter or unknown)
 * @property {Int32Array} edgeSrc
 * @property {Int32Array} edgeDst
 * @property {Uint8Array} edgeControl
 * @property {Int32Array} groupKey    label codes of the keys (paths; series: parent/label)
 * @property {Int32Array} groupLabel
 * @property {Int32Array} groupParent
 * @property {Uint8Array} groupKind
 * @property {number[][]} childGroups
 * @property {number[][]} childNodes
 * @property {Float64Array} groupCount     nodes below (all)
 * @property {Float64Array} groupShown     nodes below that are not constants
 * @property {Float64Array} groupParams
 * @property {Float64Array} groupCompute
 * @property {Float64Array} groupMemory
 * @property {Int32Array} groupOp          most common op below (label code, -1: none)
 * @property {Int32Array} groupDevice      most common device below
 * @property {Record<string, any>} info
 * @property {Map<string, number>} groupByKey
 * @property {Map<string, number>} nodeByName
 * @property {string[]} ops               distinct ops, most common first
 * @property {Map<number, number>} opRank op label code -> position in `ops`
 */

/**
 * @param {any} raw  the `_graph` trait
 * @returns {GraphData}
 */
export function decodeGraph(raw) {
  const t = raw ? decodeTree(raw) : {};
  const nodes = t.nodes || {};
  const edges = t.edges || {};
  const groups = t.groups || {};
  const i32 = (/** @type {any} */ a) => (a instanceof Int32Array ? a : new Int32Array(a || []));
  const f32 = (/** @type {any} */ a) => (a instanceof Float32Array ? a : new Float32Array(a || []));
  const u8 = (/** @type {any} */ a) => (a instanceof Uint8Array ? a : new Uint8Array(a || []));
  const groupParent = i32(groups.parent);
  const g = Math.max(groupParent.length, 1);
  /** @type {GraphData} */
  const d = {
    labels: t.labels || [],
    n: i32(nodes.parent).length,
    g,
    nodeName: i32(nodes.name),
    nodeLabel: i32(nodes.label),
    nodeOp: i32(nodes.op),
    nodeDevice: i32(nodes.device),
    nodeShape: i32(nodes.shape),
    nodeAttr: i32(nodes.attr),
    nodeParent: i32(nodes.parent),
    nodeFlags: u8(nodes.flags),
    nodeCompute: f32(nodes.compute),
    nodeMemory: f32(nodes.memory),
    nodeParams: f32(nodes.params),
    edgeSrc: i32(edges.src),
    edgeDst: i32(edges.dst),
    edgeControl: u8(edges.control),
    groupKey: groupParent.length ? i32(groups.key) : new Int32Array([-1]),
    groupLabel: groupParent.length ? i32(groups.label) : new Int32Array([-1]),
    groupParent: groupParent.length ? groupParent : new Int32Array([-1]),
    groupKind: groupParent.length ? u8(groups.kind) : new Uint8Array(1),
    childGroups: [],
    childNodes: [],
    groupCount: new Float64Array(g),
    groupShown: new Float64Array(g),
    groupParams: new Float64Array(g).fill(Number.NaN),
    groupCompute: new Float64Array(g).fill(Number.NaN),
    groupMemory: new Float64Array(g).fill(Number.NaN),
    groupOp: new Int32Array(g).fill(-1),
    groupDevice: new Int32Array(g).fill(-1),
    info: t.info || {},
    groupByKey: new Map(),
    nodeByName: new Map(),
    ops: [],
    opRank: new Map(),
  };
  aggregate(d);
  return d;
}

/** @param {GraphData} d */
function aggregate(d) {
  for (let k = 0; k < d.g; k++) {
    d.childGroups.push([]);
    d.childNodes.push([]);
    d.groupByKey.set(label(d, d.groupKey[k]), k);
  }
  for (let k = 1; k < d.g; k++) d.childGroups[d.groupParent[k]].push(k);
  /** @type {Map<number, number>[]} */
  const opCounts = [];
  /** @type {Map<number, number>[]} */
  const deviceCounts = [];
  for (let k = 0; k < d.g; k++) {
    opCounts.push(new Map());
    deviceCounts.push(new Map());
  }
  const addNaN = (/** @type {Float64Array} */ arr, /** @type {number} */ k, /** @type {number} */ v) => {
    if (Number.isFinite(v)) arr[k] = Number.isFinite(arr[k]) ? arr[k] + v : v;
  };
  const totals = new Map();
  for (let i = 0; i < d.n; i++) {
    const p = d.nodeParent[i];
    d.childNodes[p].push(i);
    d.groupCount[p] += 1;
    if (!(d.nodeFlags[i] & FLAG_CONSTANT)) d.groupShown[p] += 1;
    addNaN(d.groupParams, p, d.nodeParams[i]);
    addNaN(d.groupCompute, p, d.nodeCompute[i]);
    addNaN(d.groupMemory, p, d.nodeMemory[i]);
    if (!(d.nodeFlags[i] & FLAG_CONSTANT)) {
      const op = d.nodeOp[i];
      // a group's colour is its most common computing op: parameters are left out
      if (!(d.nodeFlags[i] & FLAG_PARAM)) opCounts[p].set(op, (opCounts[p].get(op) || 0) + 1);
      totals.set(op, (totals.get(op) || 0) + 1);
    }
    const dev = d.nodeDevice[i];
    if (label(d, dev)) deviceCounts[p].set(dev, (deviceCounts[p].get(dev) || 0) + 1);
  }
  for (let k = d.g - 1; k > 0; k--) {
    const p = d.groupParent[k];
    d.groupCount[p] += d.groupCount[k];
    d.groupShown[p] += d.groupShown[k];
    addNaN(d.groupParams, p, d.groupParams[k]);
    addNaN(d.groupCompute, p, d.groupCompute[k]);
    addNaN(d.groupMemory, p, d.groupMemory[k]);
    for (const [op, c] of opCounts[k]) opCounts[p].set(op, (opCounts[p].get(op) || 0) + c);
    for (const [dev, c] of deviceCounts[k]) deviceCounts[p].set(dev, (deviceCounts[p].get(dev) || 0) + c);
  }
  for (let k = 0; k < d.g; k++) {
    d.groupOp[k] = mostCommon(opCounts[k]);
    d.groupDevice[k] = mostCommon(deviceCounts[k]);
  }
  const ranked = [...totals.entries()].sort((a, b) => b[1] - a[1] || label(d, a[0]).localeCompare(label(d, b[0])));
  ranked.forEach(([op], i) => {
    d.opRank.set(op, i);
  });
  for (let i = 0; i < d.n; i++) {
    const op = d.nodeOp[i];
    if (!d.opRank.has(op)) d.opRank.set(op, ranked.length + d.opRank.size);
  }
  d.ops = ranked.map(([op]) => label(d, op));
}

/** @param {Map<number, number>} counts */
function mostCommon(counts) {
  let best = -1;
  let bestCount = 0;
  for (const [key, c] of counts) {
    if (c > bestCount) {
      best = key;
      bestCount = c;
    }
  }
  return best;
}

/**
 * The string of a label code ("" for -1).
 * @param {GraphData} d
 * @param {number} code
 */
export function label(d, code) {
  return code >= 0 && code < d.labels.length ? d.labels[code] : "";
}

/**
 * The name-scope path of a group (a series has its parent's).
 * @param {GraphData} d
 * @param {number} k
 */
export function groupPath(d, k) {
  let at = k;
  while (at > 0 && d.groupKind[at] === SERIES) at = d.groupParent[at];
  return label(d, d.groupKey[at]);
}

/**
 * The full name of node `i` (its scope's path, then its own part).
 * @param {GraphData} d
 * @param {number} i
 */
export function nodeName(d, i) {
  const path = groupPath(d, d.nodeParent[i]);
  const own = label(d, d.nodeName[i]);
  if (!own) return path;
  return path ? `${path}/${own}` : own;
}

/**
 * Node index by full name (built on first use).
 * @param {GraphData} d
 * @param {string} name
 */
export function findNode(d, name) {
  if (!d.nodeByName.size) for (let i = 0; i < d.n; i++) d.nodeByName.set(nodeName(d, i), i);
  return d.nodeByName.get(name) ?? -1;
}

/**
 * Groups from the root down to (and including) group `k`.
 * @param {GraphData} d
 * @param {number} k
 */
export function ancestors(d, k) {
  /** @type {number[]} */
  const out = [];
  for (let at = k; at >= 0; at = d.groupParent[at]) out.push(at);
  return out.reverse();
}
