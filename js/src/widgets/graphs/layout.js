// A layered ("Sugiyama") layout of one group's children: boxes of given sizes and the
// edges between them, top to bottom. It runs in the layout worker (layout-worker.js), once
// per expanded group, so a graph is never laid out whole: a group holds tens to a few
// thousand children, laid out here in milliseconds (no recursion anywhere: no stack limit).
//
// 1. cycles broken by reversing the back edges of a depth-first search;
// 2. layers by longest path, then every node pulled down next to its first consumer (a
//    weight or a constant sits just above the op that reads it, not at the top);
// 3. edges spanning several layers get one dummy node per layer crossed;
// 4. order within layers by barycenter sweeps, keeping the order with fewest crossings
//    (counted exactly with a Fenwick tree);
// 5. x by repeated passes that pull each node to the mean of its neighbours in the layer
//    above (then below), solved exactly under the "no overlap, keep order" constraints by
//    isotonic regression (pool adjacent violators), so chains come out straight;
// 6. edge routes through their dummy nodes.

import { orderLayers } from "./order.js";

export { countCrossings } from "./order.js";

/** @typedef {{w: number, h: number}} Size */
/**
 * @typedef {object} LayoutResult
 * @property {Float64Array} x        centre of each node
 * @property {Float64Array} y
 * @property {number} width          bounding box (top-left at 0, 0)
 * @property {number} height
 * @property {number[][]} routes  per input edge: x0, y0, x1, y1, ... (empty for a self loop)
 * @property {number} crossings      edge crossings of the chosen order
 */

const DEFAULTS = { nodeSep: 16, rankSep: 30, dummySep: 6, sweeps: 8, passes: 6 };

/**
 * Lay out nodes of the given sizes and the edges between them.
 * @param {Size[]} sizes
 * @param {ArrayLike<number>} edges  pairs: source, target (node indices)
 * @param {Partial<typeof DEFAULTS>} [options]
 * @returns {LayoutResult}
 */
export function layeredLayout(sizes, edges, options = {}) {
  const opt = { ...DEFAULTS, ...options };
  const n = sizes.length;
  const m = edges.length >> 1;
  const graph = buildGraph(n, edges);
  const rank = assignRanks(n, graph);
  const layered = addDummies(sizes, graph, rank);
  const order = orderLayers(layered, opt.sweeps);
  const xs = placeX(layered, order.layers, opt);
  const { ys, height } = placeY(layered, order.layers, opt.rankSep);
  let minX = Infinity;
  let maxX = -Infinity;
  for (let i = 0; i < layered.count; i++) {
    minX = Math.min(minX, xs[i] - layered.w[i] / 2);
    maxX = Math.max(maxX, xs[i] + layered.w[i] / 2);
  }
  if (!Number.isFinite(minX)) {
    minX = 0;
    maxX = 0;
  }
  for (let i = 0; i < layered.count; i++) xs[i] -= minX;
  const routes = [];
  for (let e = 0; e < m; e++) routes.push(route(e, graph, layered, xs, ys));
  return {
    x: xs.slice(0, n),
    y: ys.slice(0, n),
    width: maxX - minX,
    height,
    routes,
    crossings: order.crossings,
  };
}

/**
 * Unique edges without self loops, with the back edges of a DFS reversed.
 * @param {number} n
 * @param {ArrayLike<number>} edges
 */
function buildGraph(n, edges) {
  const m = edges.length >> 1;
  /** @type {number[]} */
  const src = [];
  /** @type {number[]} */
  const dst = [];
  const edgeOf = new Int32Array(m).fill(-1); // input edge -> unique edge (-1: self loop)
  const seen = new Map();
  for (let e = 0; e < m; e++) {
    const s = edges[2 * e];
    const t = edges[2 * e + 1];
    if (s === t || s < 0 || t < 0 || s >= n || t >= n) continue;
    const key = s * n + t;
    let id = seen.get(key);
    if (id === undefined) {
      id = src.length;
      seen.set(key, id);
      src.push(s);
      dst.push(t);
    }
    edgeOf[e] = id;
  }
  const out = adjacency(n, src, dst);
  const reversed = new Uint8Array(src.length);
  const state = new Uint8Array(n); // 0 new, 1 on the stack, 2 done
  const stack = new Int32Array(n);
  const next = new Int32Array(n);
  for (let root = 0; root < n; root++) {
    if (state[root]) continue;
    let top = 0;
    stack[0] = root;
    state[root] = 1;
    next[root] = out.start[root];
    while (top >= 0) {
      const v = stack[top];
      if (next[v] < out.start[v + 1]) {
        const e = out.list[next[v]++];
        const w = dst[e];
        if (state[w] === 1) reversed[e] = 1;
        else if (state[w] === 0) {
          state[w] = 1;
          next[w] = out.start[w];
          stack[++top] = w;
        }
      } else {
        state[v] = 2;
        top--;
      }
    }
  }
  const up = new Int32Array(src.length);
  const down = new Int32Array(src.length);
  for (let e = 0; e < src.length; e++) {
    up[e] = reversed[e] ? dst[e] : src[e];
    down[e] = reversed[e] ? src[e] : dst[e];
  }
  return { n, src, dst, edgeOf, reversed, up, down, succ: adjacency(n, up, down) };
}

/**
 * Compressed adjacency: the edges leaving each node (`list[start[v]..start[v+1]]`).
 * @param {number} n
 * @param {ArrayLike<number>} from
 * @param {ArrayLike<number>} _to
 */
function adjacency(n, from, _to) {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < from.length; e++) start[from[e] + 1]++;
  for (let v = 0; v < n; v++) start[v + 1] += start[v];
  const fill = start.slice(0, n);
  const list = new Int32Array(from.length);
  for (let e = 0; e < from.length; e++) list[fill[from[e]]++] = e;
  return { start, list };
}

/**
 * Longest-path layers, then each node moved down to just above its nearest consumer.
 * @param {number} n
 * @param {ReturnType<typeof buildGraph>} g
 */
function assignRanks(n, g) {
  const indeg = new Int32Array(n);
  for (let e = 0; e < g.down.length; e++) indeg[g.down[e]]++;
  const topo = new Int32Array(n);
  let head = 0;
  let tail = 0;
  for (let v = 0; v < n; v++) if (indeg[v] === 0) topo[tail++] = v;
  const rank = new Int32Array(n);
  while (head < tail) {
    const v = topo[head++];
    for (let k = g.succ.start[v]; k < g.succ.start[v + 1]; k++) {
      const w = g.down[g.succ.list[k]];
      if (rank[v] + 1 > rank[w]) rank[w] = rank[v] + 1;
      if (--indeg[w] === 0) topo[tail++] = w;
    }
  }
  for (let i = n - 1; i >= 0; i--) {
    const v = topo[i];
    let lowest = Infinity;
    for (let k = g.succ.start[v]; k < g.succ.start[v + 1]; k++) lowest = Math.min(lowest, rank[g.down[g.succ.list[k]]]);
    if (lowest !== Infinity && lowest - 1 > rank[v]) rank[v] = lowest - 1;
  }
  return { rank, topo };
}

/**
 * The layered graph: real nodes, then one dummy per layer an edge crosses.
 * @param {Size[]} sizes
 * @param {ReturnType<typeof buildGraph>} g
 * @param {ReturnType<typeof assignRanks>} ranks
 */
function addDummies(sizes, g, ranks) {
  const { rank, topo } = ranks;
  /** @type {number[]} */
  const w = sizes.map((s) => s.w);
  /** @type {number[]} */
  const h = sizes.map((s) => s.h);
  const layerOf = Array.from(rank);
  /** @type {number[][]} */
  const upN = sizes.map(() => []);
  /** @type {number[][]} */
  const downN = sizes.map(() => []);
  /** @type {number[][]} */
  const chains = [];
  /** @type {number[][]} */
  const initial = [];
  const place = (/** @type {number} */ v) => {
    const r = layerOf[v];
    while (initial.length <= r) initial.push([]);
    initial[r].push(v);
  };
  for (let i = 0; i < topo.length; i++) place(topo[i]);
  for (let e = 0; e < g.up.length; e++) {
    const a = g.up[e];
    const b = g.down[e];
    const chain = [a];
    for (let r = rank[a] + 1; r < rank[b]; r++) {
      const d = w.length;
      w.push(2);
      h.push(2);
      layerOf.push(r);
      upN.push([]);
      downN.push([]);
      chain.push(d);
      place(d);
    }
    chain.push(b);
    for (let k = 0; k + 1 < chain.length; k++) {
      downN[chain[k]].push(chain[k + 1]);
      upN[chain[k + 1]].push(chain[k]);
    }
    chains.push(chain);
  }
  return { count: w.length, real: sizes.length, w, h, layerOf, upN, downN, chains, initial };
}

/**
 * x of every node: passes pulling each node towards its neighbours, without overlap.
 * @param {ReturnType<typeof addDummies>} L
 * @param {number[][]} layers
 * @param {typeof DEFAULTS} opt
 */
function placeX(L, layers, opt) {
  const x = new Float64Array(L.count);
  const gap = (/** @type {number} */ a, /** @type {number} */ b) =>
    (L.w[a] + L.w[b]) / 2 + (a >= L.real && b >= L.real ? opt.dummySep : opt.nodeSep);
  let widest = 0;
  for (const layer of layers) {
    widest = Math.max(widest, layer.length);
    let at = 0;
    layer.forEach((v, i) => {
      if (i) at += gap(layer[i - 1], v);
      x[v] = at;
    });
  }
  const work = isotonicScratch(widest);
  for (let p = 0; p < opt.passes; p++) {
    const down = p % 2 === 0;
    const both = p === opt.passes - 1;
    for (let k = 0; k < layers.length; k++) {
      const r = down ? k : layers.length - 1 - k;
      const layer = layers[r];
      const { want, weight, sep } = work;
      for (let i = 0; i < layer.length; i++) {
        const v = layer[i];
        sep[i] = i ? gap(layer[i - 1], v) : 0;
        let sum = 0;
        let count = 0;
        if (both || down) {
          for (const u of L.upN[v]) sum += x[u];
          count += L.upN[v].length;
        }
        if (both || !down) {
          for (const u of L.downN[v]) sum += x[u];
          count += L.downN[v].length;
        }
        want[i] = count ? sum / count : x[v];
        weight[i] = count ? count * (v >= L.real ? 2 : 1) : 0.05;
      }
      isotonicPlacement(layer.length, work);
      for (let i = 0; i < layer.length; i++) x[layer[i]] = work.out[i];
    }
  }
  return x;
}

/** Work space for {@link isotonicPlacement} for layers of up to `n` nodes. @param {number} n */
export function isotonicScratch(n) {
  const make = () => new Float64Array(Math.max(n, 1));
  return {
    want: make(),
    weight: make(),
    sep: make(),
    offset: make(),
    value: make(),
    wsum: make(),
    size: new Int32Array(Math.max(n, 1)),
    out: make(),
  };
}

/**
 * Minimise sum w_i (x_i - want_i)^2 subject to x_i - x_(i-1) >= sep_i (the first `n`
 * entries of `work.want`, `work.weight`, `work.sep`; the result in `work.out`): with c_i
 * the cumulative separation, y_i = x_i - c_i must be non-decreasing, so this is isotonic
 * regression, solved by pool adjacent violators.
 * @param {number} n
 * @param {ReturnType<typeof isotonicScratch>} work
 */
export function isotonicPlacement(n, work) {
  const { want, weight, sep, offset, value, wsum, size, out } = work;
  if (n > 0) offset[0] = 0;
  for (let i = 1; i < n; i++) offset[i] = offset[i - 1] + sep[i];
  let blocks = 0;
  for (let i = 0; i < n; i++) {
    value[blocks] = want[i] - offset[i];
    wsum[blocks] = weight[i];
    size[blocks] = 1;
    blocks++;
    while (blocks > 1 && value[blocks - 2] > value[blocks - 1]) {
      const a = blocks - 2;
      const b = blocks - 1;
      const total = wsum[a] + wsum[b];
      value[a] = (value[a] * wsum[a] + value[b] * wsum[b]) / total;
      wsum[a] = total;
      size[a] += size[b];
      blocks--;
    }
  }
  let i = 0;
  for (let b = 0; b < blocks; b++) {
    for (let k = 0; k < size[b]; k++, i++) out[i] = value[b] + offset[i];
  }
  return out;
}

/**
 * y of every layer: each as tall as its tallest node, `rankSep` apart.
 * @param {ReturnType<typeof addDummies>} L
 * @param {number[][]} layers
 * @param {number} rankSep
 */
function placeY(L, layers, rankSep) {
  const ys = new Float64Array(L.count);
  let top = 0;
  for (let r = 0; r < layers.length; r++) {
    let tallest = 0;
    for (const v of layers[r]) tallest = Math.max(tallest, L.h[v]);
    for (const v of layers[r]) ys[v] = top + tallest / 2;
    top += tallest + (r + 1 < layers.length ? rankSep : 0);
  }
  return { ys, height: top };
}

/**
 * The route of input edge `e`: from the bottom of its upper end through its dummies to the
 * top of its lower end, in the edge's own direction.
 * @param {number} e
 * @param {ReturnType<typeof buildGraph>} g
 * @param {ReturnType<typeof addDummies>} L
 * @param {Float64Array} xs
 * @param {Float64Array} ys
 */
function route(e, g, L, xs, ys) {
  const id = g.edgeOf[e];
  if (id < 0) return [];
  const chain = L.chains[id];
  /** @type {number[]} */
  const points = [];
  const last = chain.length - 1;
  for (let k = 0; k <= last; k++) {
    const v = chain[g.reversed[id] ? last - k : k];
    let y = ys[v];
    const upper = g.reversed[id] ? k === last : k === 0;
    const lower = g.reversed[id] ? k === 0 : k === last;
    if (upper) y += L.h[v] / 2;
    else if (lower) y -= L.h[v] / 2;
    points.push(xs[v], y);
  }
  return points;
}
