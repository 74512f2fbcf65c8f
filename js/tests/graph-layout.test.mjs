import assert from "node:assert/strict";
import { test } from "node:test";
import { countCrossings, isotonicPlacement, isotonicScratch, layeredLayout } from "../src/widgets/graphs/layout.js";
import { runJobs } from "../src/widgets/graphs/layout-jobs.js";

function random(seed) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

function network(n, seed, skips = 0.15) {
  const r = random(seed);
  const sizes = Array.from({ length: n }, () => ({ w: 40 + Math.floor(r() * 100), h: 24 }));
  const edges = [];
  for (let i = 1; i < n; i++) {
    edges.push(i - 1, i);
    if (r() < skips) edges.push(Math.max(0, i - 2 - Math.floor(r() * 6)), i);
    if (r() < 0.1) edges.push(Math.floor(r() * i), i);
  }
  return { sizes, edges };
}

/** Boxes that overlap (same layer, intervals intersecting). */
function overlaps(res, sizes) {
  const byRow = new Map();
  sizes.forEach((_size, i) => {
    const key = res.y[i].toFixed(3);
    if (!byRow.has(key)) byRow.set(key, []);
    byRow.get(key).push(i);
  });
  let count = 0;
  for (const row of byRow.values()) {
    row.sort((a, b) => res.x[a] - res.x[b]);
    for (let k = 1; k < row.length; k++) {
      const a = row[k - 1];
      const b = row[k];
      if (res.x[b] - sizes[b].w / 2 < res.x[a] + sizes[a].w / 2 - 1e-6) count++;
    }
  }
  return count;
}

test("edges point down, boxes never overlap, everything inside the bounding box", () => {
  for (const n of [1, 2, 30, 400]) {
    const { sizes, edges } = network(n, n);
    const res = layeredLayout(sizes, edges);
    assert.equal(overlaps(res, sizes), 0);
    for (let i = 0; i < n; i++) {
      assert.ok(res.x[i] - sizes[i].w / 2 >= -1e-6 && res.x[i] + sizes[i].w / 2 <= res.width + 1e-6);
      assert.ok(res.y[i] - sizes[i].h / 2 >= -1e-6 && res.y[i] + sizes[i].h / 2 <= res.height + 1e-6);
    }
    for (let e = 0; e < edges.length / 2; e++) assert.ok(res.y[edges[2 * e]] < res.y[edges[2 * e + 1]]);
  }
});

test("a chain is one straight column and routes follow their edges", () => {
  const sizes = [
    { w: 50, h: 20 },
    { w: 90, h: 30 },
    { w: 50, h: 20 },
  ];
  const chain = layeredLayout(sizes, [0, 1, 1, 2]);
  assert.deepEqual([...chain.x], [45, 45, 45]);
  const res = layeredLayout(sizes, [0, 1, 1, 2, 0, 2]);
  assert.ok(res.y[0] < res.y[1] && res.y[1] < res.y[2]);
  const long = res.routes[2]; // 0 -> 2 passes a dummy beside node 1
  assert.equal(long.length, 6);
  assert.equal(long[1], res.y[0] + 10);
  assert.equal(long[5], res.y[2] - 10);
});

test("cycles are laid out (a back edge routed upwards), self loops dropped", () => {
  const sizes = Array.from({ length: 4 }, () => ({ w: 30, h: 20 }));
  const res = layeredLayout(sizes, [0, 1, 1, 2, 2, 3, 3, 1, 2, 2]);
  assert.deepEqual(res.routes[4], []);
  const back = res.routes[3]; // 3 -> 1 goes up
  assert.ok(back[1] > back[back.length - 1]);
  assert.equal(overlaps(res, sizes), 0);
});

test("crossings counted exactly (Fenwick tree against all pairs)", () => {
  const r = random(7);
  for (let trial = 0; trial < 20; trial++) {
    const top = [0, 1, 2, 3, 4];
    const bottom = [5, 6, 7, 8];
    const downN = Array.from({ length: 9 }, () => []);
    const pairs = [];
    for (const u of top) {
      for (const v of bottom) {
        if (r() < 0.4) {
          downN[u].push(v);
          pairs.push([u, v]);
        }
      }
    }
    const pos = new Float64Array(9);
    const expected = pairs.reduce(
      (acc, [a, b], i) =>
        acc + pairs.slice(i + 1).filter(([c, d]) => (a - c) * (b - d) < 0 && a !== c && b !== d).length,
      0,
    );
    assert.equal(countCrossings([top, bottom], downN, pos), expected);
  }
});

test("isotonic placement is the constrained least-squares optimum", () => {
  const work = isotonicScratch(4);
  work.want.set([10, 10, 10, 50]);
  work.weight.set([1, 1, 1, 1]);
  work.sep.set([0, 20, 20, 20]);
  const out = [...isotonicPlacement(4, work)].slice(0, 4);
  assert.deepEqual(out, [-10, 10, 30, 50]);
  for (let i = 1; i < 4; i++) assert.ok(out[i] - out[i - 1] >= 20 - 1e-9);
});

test("two thousand flat nodes without overlaps (dagre overflows its stack here; speed: benchmarks/bench_graph.py)", () => {
  const { sizes, edges } = network(2000, 3);
  const res = layeredLayout(sizes, edges);
  assert.equal(overlaps(res, sizes), 0);
  assert.ok(res.y.every(Number.isFinite));
});

test("jobs: an expanded child takes its own layout's size; unchanged groups come from the cache", () => {
  const inner = { group: 2, sizes: new Float64Array([40, 20, 40, 20]), edges: new Int32Array([0, 1]) };
  const outer = { group: 0, sizes: new Float64Array([40, 20, -300, 2]), edges: new Int32Array([0, 1]) };
  const cache = new Map();
  const done = runJobs([inner, outer], cache);
  const box = done.get(2);
  assert.ok(box.height >= 64);
  assert.ok(done.get(0).width >= 300); // the expanded child is as wide as its title
  const again = runJobs([inner, outer], cache);
  assert.equal(again.get(0).ms, 0);
  assert.equal(again.get(2).ms, 0);
  assert.deepEqual([...again.get(0).x], [...done.get(0).x]);
});
