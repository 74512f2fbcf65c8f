import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeGraph, findNode, groupPath, nodeName } from "../src/widgets/graphs/graph-data.js";
import { layoutJobs, Measurer } from "../src/widgets/graphs/scene.js";
import { groupsToReveal, visibleGraph } from "../src/widgets/graphs/visible.js";

// net/{a, b}, net/blk.[0-1] series of net/blk.0/{c}, net/blk.1/{d}, and x at the top.
// groups: 0 root, 1 net, 2 series, 3 blk.0, 4 blk.1
const labels = [
  "",
  "net",
  "net/blk.[0-1]",
  "blk.[0-1]",
  "net/blk.0",
  "blk.0",
  "net/blk.1",
  "blk.1",
  "a",
  "b",
  "c",
  "d",
  "x",
  "Op",
  "Const",
];
function graph() {
  return decodeGraph({
    labels,
    nodes: {
      name: Int32Array.from([8, 9, 10, 11, 12, 14]),
      label: Int32Array.from([8, 9, 10, 11, 12, 14]),
      op: Int32Array.from([13, 13, 13, 13, 13, 14]),
      device: Int32Array.from([0, 0, 0, 0, 0, 0]),
      shape: Int32Array.from([0, 0, 0, 0, 0, 0]),
      attr: Int32Array.from([0, 0, 0, 0, 0, 0]),
      parent: Int32Array.from([1, 1, 3, 4, 0, 1]),
      flags: Uint8Array.from([0, 0, 0, 0, 0, 1]),
      compute: Float32Array.from([1, 2, 3, 4, Number.NaN, Number.NaN]),
      memory: new Float32Array(6).fill(Number.NaN),
      params: new Float32Array(6).fill(Number.NaN),
    },
    // x -> a -> c -> d -> b, const -> a
    edges: { src: Int32Array.from([4, 0, 2, 3, 5]), dst: Int32Array.from([0, 2, 3, 1, 0]), control: new Uint8Array(5) },
    groups: {
      key: Int32Array.from([0, 1, 2, 4, 6]),
      label: Int32Array.from([0, 1, 3, 5, 7]),
      parent: Int32Array.from([-1, 0, 1, 2, 2]),
      kind: Uint8Array.from([0, 0, 1, 0, 0]),
    },
    info: {},
  });
}

test("names rebuild through series groups; aggregates cover the subtree", () => {
  const d = graph();
  assert.equal(nodeName(d, 2), "net/blk.0/c");
  assert.equal(groupPath(d, 2), "net");
  assert.equal(findNode(d, "net/blk.1/d"), 3);
  assert.equal(d.groupCount[1], 5);
  assert.equal(d.groupShown[1], 4); // the constant is not shown
  assert.equal(d.groupCompute[2], 7);
  assert.deepEqual(groupsToReveal(d, 3), [4, 2, 1]);
});

test("collapsed: a group stands for everything in it; edges inside it vanish", () => {
  const d = graph();
  const v = visibleGraph(d, new Set());
  assert.deepEqual([...v.rep], [7, 7, 7, 7, 4, -1]); // n + 1 is the item of group "net"
  assert.deepEqual(v.containers.get(0).items, [7, 4]);
  assert.deepEqual(
    v.edges.map((e) => [e.a, e.b, e.count]),
    [[4, 7, 1]],
  );
});

test("expanding: edges lift to the children of their innermost common group", () => {
  const d = graph();
  const v = visibleGraph(d, new Set([1]));
  assert.deepEqual(v.containers.get(1).items, [8, 0, 1]); // series (n + 2), a, b
  const fromX = v.edges.find((e) => e.a === 4);
  assert.equal(fromX.container, 0); // x is at the top: routed at the root, to the box of "net"
  const intoSeries = v.edges.find((e) => e.a === 0);
  assert.deepEqual([intoSeries.b, intoSeries.container], [8, 1]);
  const deep = visibleGraph(d, new Set([1, 2, 3]));
  assert.deepEqual(deep.order, [3, 2, 1, 0]); // innermost first
  const cToD = deep.edges.find((e) => e.a === 2);
  assert.deepEqual([cToD.b, cToD.container], [10, 2]); // d is inside blk.1 (collapsed)
  const constants = visibleGraph(d, new Set([1]), { showConstants: true });
  assert.ok(constants.containers.get(1).items.includes(5));
});

test("layout jobs: an expanded child is sized by its own job", () => {
  const d = graph();
  const v = visibleGraph(d, new Set([1, 2]));
  const jobs = layoutJobs(d, v, new Measurer());
  assert.deepEqual(
    jobs.map((j) => j.group),
    [2, 1, 0],
  );
  const net = jobs[1];
  const series = v.containers.get(1).items.indexOf(8);
  assert.ok(net.sizes[2 * series] < -40); // expanded: at least as wide as its title
  assert.equal(net.sizes[2 * series + 1], 2);
});
