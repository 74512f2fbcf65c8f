// From the visible structure to layout jobs (box sizes from measured labels), and from the
// laid-out groups to a scene: every drawn box at its place in graph coordinates, and every
// drawn edge as a polyline from the box at one end, along its route in the container that
// lays it out, to the box at the other end.

import { label, SERIES } from "./graph-data.js";
import { FRAME, frameSize } from "./layout-jobs.js";
import { formatCount } from "./text.js";

/** @typedef {import("./graph-data").GraphData} GraphData */
/** @typedef {import("./visible").Visible} Visible */
/** @typedef {import("./layout-jobs").JobResult} JobResult */

export const LEAF_H = 24;
export const GROUP_H = 38;
export const STACK = 5; // the offset of a series' shadow boxes
export const MARGIN = 20;
export const FONT = "11px system-ui, -apple-system, 'Segoe UI', sans-serif";
export const BOLD = "600 11px system-ui, -apple-system, 'Segoe UI', sans-serif";
export const SMALL = "10px system-ui, -apple-system, 'Segoe UI', sans-serif";

export const KIND = { LEAF: 0, GROUP: 1, OPEN: 2 };

/**
 * Text widths for box sizes: each character measured once per font, a string's width the
 * sum of its characters' (kerning ignored: boxes get a margin anyway), so thousands of
 * labels cost a few dozen measureText calls.
 */
export class Measurer {
  constructor() {
    /** @type {Map<string, Map<string, number>>} */
    this.chars = new Map();
    /** @type {CanvasRenderingContext2D | null} */
    this.ctx = typeof document !== "undefined" ? document.createElement("canvas").getContext("2d") : null;
  }

  /** @param {string} text @param {string} font */
  width(text, font) {
    let table = this.chars.get(font);
    if (!table) {
      table = new Map();
      this.chars.set(font, table);
    }
    let total = 0;
    for (const ch of text) {
      let w = table.get(ch);
      if (w === undefined) {
        if (this.ctx) {
          this.ctx.font = font;
          w = this.ctx.measureText(ch).width;
        } else w = 6.2;
        table.set(ch, w);
      }
      total += w;
    }
    return total;
  }
}

/**
 * The short form of an op (`aten::_convolution` -> `_convolution`).
 * @param {string} op
 */
export function shortOp(op) {
  const cut = op.lastIndexOf("::");
  return cut >= 0 ? op.slice(cut + 2) : op;
}

const AUTO_NAME = /^(\d+|[A-Za-z_]*\.\d+)$/;

/**
 * The two parts of a node's text: its name (left out when the writer made it up, as
 * torch's traced `input.3`), then its op when that says something more.
 * @param {GraphData} d
 * @param {number} i
 * @returns {[string, string]}
 */
export function leafText(d, i) {
  const name = label(d, d.nodeLabel[i]);
  const fullOp = label(d, d.nodeOp[i]);
  const op = shortOp(fullOp);
  if (fullOp === "IO Node") return [name || "io", ""]; // torch's graph input and output
  // torch names nodes after Python variables (`input`, `x`, `out`): its ops say more
  if (!name || AUTO_NAME.test(name) || (fullOp.includes("::") && !fullOp.startsWith("prim::GetAttr"))) {
    return [op || name, ""];
  }
  const plain = (/** @type {string} */ s) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (!op || plain(name) === plain(op) || plain(name).startsWith(plain(op))) return [name, ""];
  return [name, op];
}

/**
 * A collapsed group's subtitle: what is inside.
 * @param {GraphData} d
 * @param {number} k
 */
export function groupSubtitle(d, k) {
  if (d.groupKind[k] === SERIES) return `×${d.childGroups[k].length + d.childNodes[k].length} blocks`;
  const parts = [`${formatCount(d.groupShown[k] || d.groupCount[k])} ops`];
  if (Number.isFinite(d.groupParams[k])) parts.push(`${formatCount(d.groupParams[k])} params`);
  if (Number.isFinite(d.groupCompute[k])) parts.push(`${formatCount(d.groupCompute[k] / 1000)} ms`);
  return parts.join(" · ");
}

/**
 * Box size of a leaf or collapsed group.
 * @param {GraphData} d
 * @param {number} item
 * @param {Measurer} m
 */
export function itemSize(d, item, m) {
  if (item < d.n) {
    const [main, extra] = leafText(d, item);
    const w = m.width(main, FONT) + (extra ? m.width(` ${extra}`, SMALL) + 4 : 0) + 16;
    return { w: Math.min(Math.max(w, 36), 240), h: LEAF_H };
  }
  const k = item - d.n;
  const title = m.width(label(d, d.groupLabel[k]), BOLD);
  const sub = m.width(groupSubtitle(d, k), SMALL);
  const series = d.groupKind[k] === SERIES ? STACK : 0;
  const w = Math.min(Math.max(title, sub) + 34, 280) + series;
  return { w: Math.max(w, 70), h: GROUP_H + series };
}

/**
 * One layout job per expanded group, innermost first.
 * @param {GraphData} d
 * @param {Visible} vis
 * @param {Measurer} m
 * @returns {import("./layout-jobs").LayoutJob[]}
 */
export function layoutJobs(d, vis, m) {
  return vis.order.map((group) => {
    const box = /** @type {import("./visible").Container} */ (vis.containers.get(group));
    const sizes = new Float64Array(box.items.length * 2);
    box.items.forEach((item, j) => {
      if (item >= d.n && vis.state[item - d.n] === 2) {
        const k = item - d.n;
        const title = `− ${label(d, d.groupLabel[k])}${d.groupKind[k] === SERIES ? " (series)" : ""}`;
        sizes[2 * j] = -Math.min(m.width(title, BOLD) + 24, 420);
        sizes[2 * j + 1] = k;
      } else {
        const s = itemSize(d, item, m);
        sizes[2 * j] = s.w;
        sizes[2 * j + 1] = s.h;
      }
    });
    return { group, sizes, edges: Int32Array.from(box.pairs) };
  });
}

/**
 * @typedef {object} Scene
 * @property {number[]} items     drawn items (expanded groups first, outermost first)
 * @property {Map<number, number>} index  item -> position in the arrays below
 * @property {Float64Array} x     top-left corner
 * @property {Float64Array} y
 * @property {Float64Array} w
 * @property {Float64Array} h
 * @property {Uint8Array} kind    KIND.LEAF, GROUP or OPEN
 * @property {{points: number[], count: number, control: boolean, a: number, b: number}[]} edges
 * @property {number} width
 * @property {number} height
 */

/**
 * Place every box and route every edge.
 * @param {GraphData} d
 * @param {Visible} vis
 * @param {Map<number, JobResult>} results
 * @param {import("./layout-jobs").LayoutJob[]} jobs
 * @returns {Scene}
 */
export function buildScene(d, vis, results, jobs) {
  const total = vis.itemCount;
  const x = new Float64Array(total);
  const y = new Float64Array(total);
  const w = new Float64Array(total);
  const h = new Float64Array(total);
  const kind = new Uint8Array(total);
  /** @type {number[]} */
  const items = [];
  /** @type {Map<number, number>} */
  const index = new Map();
  /** @type {Map<number, [number, number]>} */
  const origin = new Map();
  const jobOf = new Map(jobs.map((j) => [j.group, j]));
  /** @type {number[]} */
  const leaves = [];
  /** @param {number} group @param {number} ox @param {number} oy */
  const place = (group, ox, oy) => {
    origin.set(group, [ox, oy]);
    const box = vis.containers.get(group);
    const result = results.get(group);
    const job = jobOf.get(group);
    if (!box || !result || !job) return;
    box.items.forEach((item, j) => {
      const open = item >= d.n && vis.state[item - d.n] === 2;
      const inner = open ? results.get(item - d.n) : undefined;
      const size = open
        ? frameSize(inner || { width: 0, height: 0 })
        : { w: job.sizes[2 * j], h: job.sizes[2 * j + 1] };
      const left = ox + result.x[j] - size.w / 2;
      const top = oy + result.y[j] - size.h / 2;
      if (open) {
        const at = items.length;
        items.push(item);
        index.set(item, at);
        x[at] = left;
        y[at] = top;
        w[at] = size.w;
        h[at] = size.h;
        kind[at] = KIND.OPEN;
        place(item - d.n, left + FRAME.pad, top + FRAME.header);
      } else leaves.push(item, left, top, size.w, size.h);
    });
  };
  place(0, MARGIN, MARGIN);
  for (let k = 0; k < leaves.length; k += 5) {
    const at = items.length;
    const item = leaves[k];
    items.push(item);
    index.set(item, at);
    x[at] = leaves[k + 1];
    y[at] = leaves[k + 2];
    w[at] = leaves[k + 3];
    h[at] = leaves[k + 4];
    kind[at] = item < d.n ? KIND.LEAF : KIND.GROUP;
  }
  const root = results.get(0);
  const edges = [];
  for (const e of vis.edges) {
    const result = results.get(e.container);
    const at = origin.get(e.container);
    const ia = index.get(e.a);
    const ib = index.get(e.b);
    if (!result || !at || ia === undefined || ib === undefined) continue;
    const from = result.offsets[e.pair];
    const to = result.offsets[e.pair + 1];
    /** @type {number[]} */
    const points = [];
    for (let p = from; p < to; p += 2) points.push(at[0] + result.points[p], at[1] + result.points[p + 1]);
    if (points.length < 4) continue;
    const down = points[points.length - 1] >= points[1];
    points[0] = x[ia] + w[ia] / 2;
    points[1] = down ? y[ia] + h[ia] : y[ia];
    points[points.length - 2] = x[ib] + w[ib] / 2;
    points[points.length - 1] = down ? y[ib] : y[ib] + h[ib];
    edges.push({ points, count: e.count, control: e.control, a: e.a, b: e.b });
  }
  return {
    items,
    index,
    x,
    y,
    w,
    h,
    kind,
    edges,
    width: (root ? root.width : 0) + 2 * MARGIN,
    height: (root ? root.height : 0) + 2 * MARGIN,
  };
}

/**
 * The item under graph point (px, py): the innermost box (leaves and collapsed groups are
 * above the expanded groups holding them), or -1.
 * @param {Scene} s
 * @param {number} px
 * @param {number} py
 */
export function hitTest(s, px, py) {
  for (let k = s.items.length - 1; k >= 0; k--) {
    if (px >= s.x[k] && px <= s.x[k] + s.w[k] && py >= s.y[k] && py <= s.y[k] + s.h[k]) return s.items[k];
  }
  return -1;
}

/**
 * Whether graph point (px, py) is on the expand/collapse toggle of the box at `k`: the
 * right end of a collapsed group, the title bar of an expanded one.
 * @param {Scene} s
 * @param {number} k
 * @param {number} px
 * @param {number} py
 */
export function onToggle(s, k, px, py) {
  if (s.kind[k] === KIND.OPEN) return py <= s.y[k] + FRAME.header - 4;
  if (s.kind[k] === KIND.GROUP) return px >= s.x[k] + s.w[k] - 22;
  return false;
}

/** The boxes drawn: nodes and collapsed groups (what tbnb's GraphWidget.visible lists). @param {Scene} s */
export function boxCount(s) {
  let boxes = 0;
  for (let k = 0; k < s.items.length; k++) if (s.kind[k] !== KIND.OPEN) boxes++;
  return boxes;
}
