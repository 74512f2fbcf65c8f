import assert from "node:assert/strict";
import { test } from "node:test";
import { runColor, fnv1a } from "../src/colors.js";
import { yDomain } from "../src/domain.js";
import { compileFilter, isSorted, matches, nearestScan, nearestSorted, quantileSorted, toCSV } from "../src/util.js";

test("filters are case-insensitive regexes; invalid ones report, never throw", () => {
  const { re } = compileFilter("LR=0\\.1");
  assert.ok(matches(re, "lr=0.1/seed0"));
  assert.ok(!matches(re, "lr=0.01/seed0"));
  const bad = compileFilter("(");
  assert.equal(bad.re, null);
  assert.match(bad.error, /regular expression/i);
  assert.deepEqual(compileFilter(""), { re: null, error: null });
});

test("nearest index by binary search and by scan", () => {
  const xs = [0, 10, 20, 30];
  assert.equal(nearestSorted(xs, 14), 1);
  assert.equal(nearestSorted(xs, 16), 2);
  assert.equal(nearestSorted(xs, -5), 0);
  assert.equal(nearestSorted(xs, 99), 3);
  assert.equal(nearestSorted([], 1), -1);
  assert.equal(nearestScan([5, NaN, 1], 2), 2);
  assert.ok(isSorted(xs));
  assert.ok(!isSorted([1, 0]));
});

test("quantiles interpolate like d3 (R-7)", () => {
  assert.equal(quantileSorted([0, 10], 0.05), 0.5);
  assert.equal(quantileSorted([1, 2, 3, 4, 5], 0.5), 3);
});

test("CSV quoting and non-finite values", () => {
  const text = toCSV(["run", "value"], [["a,b", NaN], ['q"', Infinity], ["c", 1.5]]);
  assert.equal(text, 'run,value\n"a,b",nan\n"q""",inf\nc,1.5\n');
});

test("run colours are stable hashes", () => {
  assert.equal(fnv1a(""), 0x811c9dc5);
  assert.equal(runColor("train"), runColor("train"));
  assert.notEqual(runColor("train"), runColor("eval"));
  assert.match(runColor("é/ü"), /^hsl\(\d+, \d+%, \d+%\)$/);
});

test("y domain: outliers use the 5th-95th percentile, log drops non-positive", () => {
  const n = 101;
  const x = Float64Array.from({ length: n }, (_, i) => i);
  const y = Float64Array.from({ length: n }, (_, i) => i);
  y[50] = 1e6;
  const s = { x, y, ys: y, lo: null, hi: null };
  const full = yDomain([s], [0, 100]);
  assert.ok(full[1] > 1e6);
  const [lo, hi] = yDomain([s], [0, 100], { outliers: true });
  // 5th..95th percentile (5 and 96 here) plus 5% padding: far from the 1e6 spike.
  assert.ok(lo > 0 && lo < 5 && hi > 96 && hi < 101, `${lo} ${hi}`);
  const lg = yDomain([{ x, y: Float64Array.from(y, (v) => v - 10), ys: Float64Array.from(y, (v) => v - 10) }], [0, 100], { logY: true });
  assert.ok(lg[0] > 0);
  // only points inside the x domain count
  const zoomed = yDomain([s], [0, 10]);
  assert.ok(zoomed[1] < 20);
});
