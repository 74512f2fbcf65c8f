import assert from "node:assert/strict";
import { test } from "node:test";
import { ChartStore } from "../src/widgets/histograms/store.js";

const index = {
  runs: ["a", "b"],
  tags: ["w"],
  groups: ["w"],
  step_values: new Int32Array([0, 1]),
  series: {
    run: new Int32Array([0, 1]),
    tag: new Int32Array([0, 0]),
    total: new Int32Array([2, 2]),
    wall0: new Float64Array([100, 200]),
  },
};

// every series at two steps, two bins: counts 8-bit of each step's largest bin
const preview = {
  bins: 2,
  offsets: new Int32Array([0, 2, 4]),
  step: new Int32Array([0, 1, 0, 1]),
  wall: new Float32Array([0, 1, 0, 1]),
  wall0: new Float64Array([100, 200]),
  scale: new Float32Array([4, 4, 2, 2]),
  num: new Float32Array([6, 6, 3, 3]),
  counts: new Uint8Array([255, 128, 128, 255, 255, 0, 0, 255]),
  left: new Float64Array([0, 0]),
  right: new Float64Array([2, 2]),
  bands: new Uint16Array(36),
  band_lo: new Float64Array([0, 0]),
  band_hi: new Float64Array([2, 2]),
};

const params = { bins: 2, limit: 51, window: [] };

test("before the preview a chart has no data but the kernel's; its first wall time is known", () => {
  const store = new ChartStore();
  store.load(index);
  assert.equal(store.best("a", "w", params), null);
  assert.equal(store.wall0Of("b", "w"), 200);
  assert.ok(Number.isNaN(store.wall0Of("c", "w")));
  const exact = {
    run: "a",
    tag: "w",
    steps: [0, 1],
    wall: [100, 101],
    left: 0,
    right: 2,
    counts: [1, 2, 3, 4],
    num: [3, 7],
    total: 2,
  };
  store.putExact(exact, params);
  const data = store.best("a", "w", params);
  assert.ok(data?.exact);
  assert.deepEqual(Array.from(data.counts), [1, 2, 3, 4]);
});

test("the preview, once held, draws every chart; a preview of other series is refused", () => {
  const store = new ChartStore();
  store.load(index);
  store.setPreview({ ...preview, offsets: new Int32Array([0, 4]) }); // one series: not this index
  assert.equal(store.preview, null);
  store.setPreview(preview);
  assert.equal(store.previewSteps, 2);
  const data = store.best("b", "w", params);
  assert.ok(data && !data.exact);
  assert.deepEqual(Array.from(data.steps), [0, 1]);
  assert.equal(data.counts[0], 2);
  store.load(index); // new data: the old preview is dropped until the kernel sends the new one
  assert.equal(store.preview, null);
});
