import assert from "node:assert/strict";
import { test } from "node:test";
import {
  concatF64,
  finiteExtent,
  interpolateSorted,
  isSorted,
  naturalCompare,
  nearestScan,
  nearestSorted,
  quantileSorted,
} from "../src/core/arrays.js";
import { compileFilter, matches } from "../src/core/filter.js";

test("filters are case-insensitive regexes; invalid ones report, never throw", () => {
  const { re } = compileFilter("LR=0\\.1");
  assert.ok(matches(re, "lr=0.1/seed0"));
  assert.ok(!matches(re, "lr=0.01/seed0"));
  const bad = compileFilter("(");
  assert.equal(bad.re, null);
  assert.match(String(bad.error), /regular expression/i);
  assert.deepEqual(compileFilter(""), { re: null, error: null });
});

test("nearest index by binary search and by scan", () => {
  const xs = [0, 10, 20, 30];
  assert.equal(nearestSorted(xs, 14), 1);
  assert.equal(nearestSorted(xs, 16), 2);
  assert.equal(nearestSorted(xs, -5), 0);
  assert.equal(nearestSorted(xs, 99), 3);
  assert.equal(nearestSorted([], 1), -1);
  assert.equal(nearestScan([5, Number.NaN, 1], 2), 2);
  assert.ok(isSorted(xs));
  assert.ok(!isSorted([1, 0]));
});

test("quantiles interpolate like d3 (R-7)", () => {
  assert.equal(quantileSorted([0, 10], 0.05), 0.5);
  assert.equal(quantileSorted([1, 2, 3, 4, 5], 0.5), 3);
});

test("interpolation is exact at the points, linear between, flat beyond", () => {
  const xs = [0, 10, 20];
  const ys = [1, 3, 2];
  assert.equal(interpolateSorted(xs, ys, 10), 3);
  assert.equal(interpolateSorted(xs, ys, 5), 2);
  assert.equal(interpolateSorted(xs, ys, -4), 1);
  assert.equal(interpolateSorted(xs, ys, 99), 2);
  assert.ok(Number.isNaN(interpolateSorted([], [], 1)));
});

test("finite extent, concatenation and natural order", () => {
  assert.deepEqual(finiteExtent([3, Number.NaN, -1, Number.POSITIVE_INFINITY]), [-1, 3]);
  assert.deepEqual([...concatF64(Int32Array.from([1]), [2.5])], [1, 2.5]);
  assert.deepEqual(["run10", "run2", "Run1"].sort(naturalCompare), ["Run1", "run2", "run10"]);
});
