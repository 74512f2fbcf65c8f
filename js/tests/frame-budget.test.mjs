import assert from "node:assert/strict";
import { test } from "node:test";
import { FrameBudget, MIN_MOVING_POINTS, sampleOrder } from "../src/gl/frame-budget.js";

test("every point at rest or while the cost is unknown; the budget's worth while moving", () => {
  const budget = new FrameBudget({ budgetMs: 20 });
  assert.equal(budget.count(1_000_000, true), 1_000_000);
  budget.record(1_000_000, 1200);
  assert.equal(budget.count(1_000_000, false), 1_000_000);
  assert.equal(budget.count(1_000_000, true), Math.floor(20 / (1200 / 1_000_000)));
  assert.equal(budget.count(3000, true), 3000);
});

test("a fast rasteriser draws everything while moving; a very slow one the minimum", () => {
  const fast = new FrameBudget({ budgetMs: 20 });
  fast.record(1_000_000, 2);
  assert.equal(fast.count(1_000_000, true), 1_000_000);
  const slow = new FrameBudget({ budgetMs: 20 });
  slow.record(10_000, 5000);
  assert.equal(slow.count(1_000_000, true), MIN_MOVING_POINTS);
});

test("the cost is smoothed over draws; tiny or nonsense draws teach nothing", () => {
  const budget = new FrameBudget();
  budget.record(100, 1000);
  budget.record(10_000, Number.NaN);
  assert.equal(budget.msPerPoint, 0);
  budget.record(10_000, 10);
  budget.record(10_000, 30);
  assert.equal(budget.msPerPoint, 0.002);
});

test("the sample order is a fixed permutation whose prefixes are spread over the points", () => {
  const n = 100_000;
  const order = sampleOrder(n);
  assert.deepEqual(order, sampleOrder(n));
  const seen = new Uint8Array(n);
  for (const i of order) seen[i]++;
  assert.ok(seen.every((c) => c === 1));
  // the first 1% falls about evenly into ten stretches of the index range
  const bins = new Array(10).fill(0);
  for (const i of order.subarray(0, n / 100)) bins[Math.floor(i / (n / 10))]++;
  for (const b of bins) assert.ok(b > 60 && b < 140, `uneven sample: ${bins}`);
  assert.deepEqual(sampleOrder(1), Uint32Array.of(0));
  assert.equal(sampleOrder(0).length, 0);
});
