// What is on screen for a set of expanded groups: every expanded group is a *container*
// whose children (nodes, collapsed groups and expanded groups) are laid out together; an
// edge is drawn between the visible items standing for its ends (a node inside a collapsed
// group is drawn as that group) and laid out in the innermost container holding both ends,
// between the two children of that container that contain them. Only containers are ever
// laid out: the graph as a whole never is.

import { FLAG_CONSTANT } from "./graph-data.js";

/** @typedef {import("./graph-data").GraphData} GraphData */

/**
 * @typedef {object} Container
 * @property {number} group      the expanded group (0: the root)
 * @property {number[]} items    item ids: node i is i, group k is n + k
 * @property {Map<number, number>} local  item id -> position in `items`
 * @property {number[]} pairs    layout edges as positions: a0, b0, a1, b1, ...
 * @property {Map<number, number>} pairIndex  a * items + b -> layout edge
 */

/**
 * @typedef {object} DrawnEdge
 * @property {number} a          item at the source end
 * @property {number} b          item at the target end
 * @property {number} count      graph edges drawn as this one
 * @property {boolean} control   all of them control edges
 * @property {number} container  group whose layout routes it
 * @property {number} pair       layout edge in that container
 */

/**
 * @typedef {object} Visible
 * @property {number} n
 * @property {Int8Array} state        per group: -1 hidden, 0 inside a collapsed group, 1 collapsed, 2 expanded
 * @property {Int32Array} rep         per node: the item drawn for it (-1: hidden)
 * @property {Map<number, Container>} containers
 * @property {number[]} order         containers, innermost first (the layout order)
 * @property {DrawnEdge[]} edges
 * @property {number} itemCount
 */

/**
 * @param {GraphData} d
 * @param {Set<number>} expanded  expanded groups (the root always is)
 * @param {{showConstants?: boolean}} [options]
 * @returns {Visible}
 */
export function visibleGraph(d, expanded, options = {}) {
  const showConstants = !!options.showConstants;
  const n = d.n;
  const state = new Int8Array(d.g);
  const repGroup = new Int32Array(d.g).fill(-1);
  const depth = new Int32Array(d.g);
  state[0] = 2;
  for (let k = 1; k < d.g; k++) {
    const p = d.groupParent[k];
    depth[k] = depth[p] + 1;
    const empty = showConstants ? d.groupCount[k] === 0 : d.groupShown[k] === 0;
    if (state[p] < 0 || empty) state[k] = -1;
    else if (state[p] === 2) {
      state[k] = expanded.has(k) ? 2 : 1;
      if (state[k] === 1) repGroup[k] = n + k;
    } else {
      state[k] = 0;
      repGroup[k] = repGroup[p];
    }
  }
  const rep = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    if (!showConstants && d.nodeFlags[i] & FLAG_CONSTANT) continue;
    const p = d.nodeParent[i];
    if (state[p] === 2) rep[i] = i;
    else if (state[p] >= 0) rep[i] = repGroup[p];
  }
  /** @type {Map<number, Container>} */
  const containers = new Map();
  const make = (/** @type {number} */ k) => {
    /** @type {number[]} */
    const items = [];
    for (const c of d.childGroups[k]) if (state[c] >= 1) items.push(n + c);
    for (const i of d.childNodes[k]) if (rep[i] === i) items.push(i);
    const local = new Map();
    items.forEach((id, j) => {
      local.set(id, j);
    });
    containers.set(k, { group: k, items, local, pairs: [], pairIndex: new Map() });
  };
  for (let k = 0; k < d.g; k++) if (state[k] === 2) make(k);
  const containerOf = (/** @type {number} */ item) => (item < n ? d.nodeParent[item] : d.groupParent[item - n]);
  /** @type {Map<number, DrawnEdge>} */
  const drawn = new Map();
  const span = n + d.g;
  for (let e = 0; e < d.edgeSrc.length; e++) {
    const a = rep[d.edgeSrc[e]];
    const b = rep[d.edgeDst[e]];
    if (a < 0 || b < 0 || a === b) continue;
    const key = a * span + b;
    const control = d.edgeControl[e] === 1;
    const known = drawn.get(key);
    if (known) {
      known.count += 1;
      known.control = known.control && control;
      continue;
    }
    let x = a;
    let y = b;
    let cx = containerOf(x);
    let cy = containerOf(y);
    while (cx !== cy) {
      if (depth[cx] >= depth[cy]) {
        x = n + cx;
        cx = d.groupParent[cx];
      } else {
        y = n + cy;
        cy = d.groupParent[cy];
      }
    }
    if (x === y) continue;
    const box = /** @type {Container} */ (containers.get(cx));
    const la = /** @type {number} */ (box.local.get(x));
    const lb = /** @type {number} */ (box.local.get(y));
    const pairKey = la * box.items.length + lb;
    let pair = box.pairIndex.get(pairKey);
    if (pair === undefined) {
      pair = box.pairs.length >> 1;
      box.pairs.push(la, lb);
      box.pairIndex.set(pairKey, pair);
    }
    drawn.set(key, { a, b, count: 1, control, container: cx, pair });
  }
  const order = [...containers.keys()].sort((p, q) => depth[q] - depth[p] || p - q);
  let itemCount = 0;
  for (const box of containers.values()) itemCount += box.items.length;
  return { n, state, rep, containers, order, edges: [...drawn.values()], itemCount };
}

/**
 * Groups to expand so that node `i` (or group `k` given as n + k) is visible: its ancestors.
 * @param {GraphData} d
 * @param {number} item
 * @returns {number[]}
 */
export function groupsToReveal(d, item) {
  /** @type {number[]} */
  const out = [];
  let at = item < d.n ? d.nodeParent[item] : d.groupParent[item - d.n];
  while (at > 0) {
    out.push(at);
    at = d.groupParent[at];
  }
  return out;
}
