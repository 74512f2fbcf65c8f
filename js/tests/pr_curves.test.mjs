import assert from "node:assert/strict";
import { test } from "node:test";
import { encodeArray } from "../src/core/codecs.js";
import { curvePoints, nearestPoint, thresholdAt } from "../src/widgets/pr_curves/curve.js";
import { areaCsv, curveCsv } from "../src/widgets/pr_curves/rows.js";
import { curvesOf, derivedRates, PrStore } from "../src/widgets/pr_curves/store.js";

const enc = (a) => encodeArray(a);

/** Two runs of one tag: "a" at steps 0, 10, 20 (curves of 0 and 20 sent), "b" at 5. */
function payload() {
  const tp = Uint16Array.from([4, 3, 1, 4, 2, 4, 4, 0]);
  const fp = Uint16Array.from([4, 1, 0, 4, 0, 4, 2, 0]);
  return {
    runs: ["a", "b"],
    tags: ["pr"],
    series: {
      run: enc(Int32Array.from([0, 1])),
      tag: enc(Int32Array.from([0, 0])),
      offset: enc(Int32Array.from([0, 3, 4])),
    },
    steps: {
      step: enc(Int32Array.from([0, 10, 20, 5])),
      wall: enc(Float64Array.from([1, 2, 3, 4])),
      curve: enc(Int32Array.from([0, -1, 1, 2])),
      average_precision: enc(Float32Array.from([0.5, 0.6, 0.7, 0.8])),
      pr_auc: enc(Float32Array.from([0.5, 0.6, 0.7, 0.8])),
      roc_auc: enc(Float32Array.from([0.5, 0.6, 0.7, 0.8])),
      positives: enc(Float32Array.from([4, 4, 4, 4])),
      negatives: enc(Float32Array.from([4, 4, 4, 4])),
    },
    curves: {
      rows: enc(Int32Array.from([0, 2, 3])),
      offset: enc(Int32Array.from([0, 3, 5, 8])),
      spacing: enc(Float64Array.from([0.5, 0.5, 0.5])),
      true_positives: enc(tp),
      false_positives: enc(fp),
      true_negatives: enc(Uint16Array.from(fp, (v) => 4 - v)),
      false_negatives: enc(Uint16Array.from(tp, (v) => 4 - v)),
      derived: true,
    },
    sent: 3,
    total: 4,
  };
}

test("a block without precision and recall derives them; one with them keeps them", () => {
  const block = {
    rows: Int32Array.from([7]),
    offset: Int32Array.from([0, 2]),
    spacing: Float64Array.from([1]),
    true_positives: Float32Array.from([2, 1]),
    false_positives: Float32Array.from([2, 0]),
    true_negatives: Float32Array.from([0, 2]),
    false_negatives: Float32Array.from([0, 1]),
  };
  const [derived] = curvesOf({ ...block, derived: true });
  assert.deepEqual(Array.from(derived.precision), [0.5, 1]);
  const [given] = curvesOf({ ...block, precision: Float32Array.from([9, 9]), recall: Float32Array.from([8, 8]) });
  assert.deepEqual(Array.from(given.precision), [9, 9]);
  assert.equal(given.row, 7);
  assert.deepEqual(curvesOf(null), []);
});

test("derived precision and recall are the writers' float32 values", () => {
  const { precision, recall } = derivedRates([4, 3, 0], [4, 1, 0], [0, 1, 4]);
  assert.deepEqual(Array.from(precision), [0.5, Math.fround(0.75), 0]);
  assert.deepEqual(Array.from(recall), [1, Math.fround(0.75), 0]);
});

test("the store finds each run's nearest step and the nearest held curve", () => {
  const store = new PrStore(payload());
  const a = store.series.get("a\u0000pr");
  assert.deepEqual(store.chartSteps("pr"), [0, 5, 10, 20]);
  assert.equal(store.rowAt(a, null), 2);
  assert.equal(store.rowAt(a, 12), 1);
  assert.equal(store.rowAt(a, 5), 0); // a tie goes to the lower step
  const held = store.curveFor(a, 1); // step 10 was not sent: the nearest held one, step 0
  assert.equal(held.exact, false);
  assert.equal(held.curve.row, 0);
  store.addCurve({ ...held.curve, row: 1 });
  assert.equal(store.curveFor(a, 1).exact, true);
  assert.equal(store.seriesOfRow(3).run, "b");
});

test("ROC points come from the counts; hover finds the nearest threshold", () => {
  const curve = new PrStore(payload()).curves.get(0);
  const roc = curvePoints(curve, "roc");
  assert.deepEqual(Array.from(roc.x), [1, 0.25, 0]);
  assert.deepEqual(Array.from(roc.y), [1, 0.75, 0.25]);
  assert.deepEqual(curvePoints(curve, "pr").y, curve.precision);
  const identity = (v) => v * 100;
  assert.equal(nearestPoint(roc.x, roc.y, 24, 76, identity, identity).i, 1);
  assert.deepEqual(thresholdAt(curve, 2), { threshold: 1, precision: 1, recall: 0.25, tp: 1, fp: 0, tn: 4, fn: 3 });
});

test("the CSVs hold every threshold of the drawn curves and every step of their series", () => {
  const store = new PrStore(payload());
  const curve = store.curves.get(2);
  const shown = [
    { run: "a", tag: "pr", row: 2, color: "#000", drawn: { run: "a", color: "#000", step: 20, exact: true, curve } },
  ];
  const curves = curveCsv(shown, store);
  assert.equal(curves.rows.length, 2);
  assert.deepEqual(curves.rows[0].slice(0, 6), ["a", "pr", 20, 0, 0.5, 1]);
  const areas = areaCsv(shown, store);
  assert.deepEqual(
    areas.rows.map((r) => r[2]),
    [0, 10, 20],
  );
});
