import assert from "node:assert/strict";
import { test } from "node:test";
import { yDomain } from "../src/chart/domain.js";
import { categoryScale, linearScale, logScale, quantileScale, timeScale } from "../src/chart/scales.js";

test("linear: maps and inverts; nice ticks labelled in the one number format", () => {
  const s = linearScale([0, 10], [100, 0]);
  assert.equal(s.map(5), 50);
  assert.equal(s.invert(25), 7.5);
  const ticks = s.ticks(5);
  assert.deepEqual(
    ticks.map((t) => t.label),
    ["0", "2", "4", "6", "8", "10"],
  );
  assert.equal(ticks[1].pos, 80);
  assert.ok(Number.isNaN(s.map(Number.NaN)));
  const nice = linearScale([0.13, 0.97], [0, 1], { nice: 5 });
  assert.deepEqual(nice.domain, [0, 1]);
});

test("a constant domain has one tick, at its value, in the middle", () => {
  const s = linearScale([64, 64], [0, 1]);
  const ticks = s.ticks(5);
  assert.equal(ticks.length, 1);
  assert.equal(ticks[0].label, "64");
  assert.equal(ticks[0].pos, 0.5);
  assert.equal(s.map(64), 0.5);
  assert.equal(logScale([0.01, 0.01], [0, 1]).ticks().length, 1);
});

test("log: powers of ten over several decades; non-positive values are not drawable", () => {
  const s = logScale([1e-5, 0.1], [0, 1]);
  const labels = s.ticks(5).map((t) => t.label);
  assert.deepEqual(labels, ["1e-5", "1e-4", "0.001", "0.01", "0.1"]);
  assert.ok(Number.isNaN(s.map(0)));
  assert.ok(Number.isNaN(s.map(-1)));
  assert.ok(Math.abs(s.map(1e-3) - 0.5) < 1e-12);
  assert.ok(Math.abs(s.invert(0.5) - 1e-3) < 1e-15);
});

test("quantile: equal counts of values get equal distances; ties take their mean rank", () => {
  const s = quantileScale([1, 2, 3, 100, 1000], [0, 1]);
  assert.equal(s.map(1), 0);
  assert.equal(s.map(3), 0.5);
  assert.equal(s.map(1000), 1);
  assert.equal(s.invert(0.5), 3);
  assert.equal(quantileScale([1, 2, 2, 3], [0, 1]).map(2), 0.5);
  assert.deepEqual(
    s.ticks().map((t) => t.label),
    ["1", "2", "3", "100", "1000"],
  );
});

test("category: codes sit in the middle of their band; missing is not drawable", () => {
  const s = categoryScale(["adam", "sgd"], [0, 1]);
  assert.equal(s.map(0), 0.25);
  assert.equal(s.map(1), 0.75);
  assert.ok(Number.isNaN(s.map(-1)));
  assert.equal(s.invert(0.9), 1);
  assert.deepEqual(
    s.ticks().map((t) => t.label),
    ["adam", "sgd"],
  );
});

test("time: millisecond domain with readable ticks", () => {
  const t0 = Date.UTC(2024, 0, 1);
  const s = timeScale([t0, t0 + 3600_000], [0, 600]);
  assert.equal(s.map(t0 + 1800_000), 300);
  const ticks = s.ticks(4);
  assert.ok(ticks.length >= 3);
  assert.ok(ticks.every((t) => typeof t.label === "string" && t.label.length > 0));
});

test("y domain: outliers use the 5th-95th percentile, log drops non-positive, only inside x", () => {
  const n = 101;
  const x = Float64Array.from({ length: n }, (_, i) => i);
  const y = Float64Array.from({ length: n }, (_, i) => i);
  y[50] = 1e6;
  const s = { x, y, sx: x, sy: y };
  assert.ok(yDomain([s], [0, 100])[1] > 1e6);
  const [lo, hi] = yDomain([s], [0, 100], { outliers: true });
  assert.ok(lo > 0 && lo < 5 && hi > 96 && hi < 101, `${lo} ${hi}`);
  const shifted = Float64Array.from(y, (v) => v - 10);
  assert.ok(yDomain([{ x, y: shifted, sx: x, sy: shifted }], [0, 100], { logY: true })[0] > 0);
  assert.ok(yDomain([s], [0, 10])[1] < 20);
});

test("integer scales tick whole numbers only: four steps tick 0, 1, 2, 3", () => {
  const steps = linearScale([0, 3], [0, 600], { integer: true });
  assert.deepEqual(
    steps.ticks(8).map((t) => t.value),
    [0, 1, 2, 3],
  );
  // zoomed into one step: its whole ends only; a span with no whole number: no tick
  assert.deepEqual(
    linearScale([1.2, 2.6], [0, 600], { integer: true })
      .ticks(8)
      .map((t) => t.value),
    [2],
  );
  assert.deepEqual(linearScale([1.2, 1.8], [0, 600], { integer: true }).ticks(8), []);
  // many steps: d3's round ticks as before
  assert.deepEqual(
    linearScale([0, 1000], [0, 600], { integer: true })
      .ticks(5)
      .map((t) => t.value),
    [0, 200, 400, 600, 800, 1000],
  );
});

test("a line chart of a few steps has integer x ticks; relative time keeps fractions", async () => {
  const { lineScales } = await import("../src/chart/line-scales.js");
  const series = [{ x: [0, 1, 2, 3], y: [1, 2, 3, 4], sx: [0, 1, 2, 3], sy: [1, 2, 3, 4] }];
  const state = {
    series,
    xType: "linear",
    xLabel: "step",
    logY: false,
    outliers: false,
    yRange: [null, null],
    showRaw: true,
  };
  const { x } = lineScales(/** @type {any} */ (state), [0, 3], 800, 200);
  assert.ok(x.ticks(8).every((t) => Number.isInteger(t.value)));
  const rel = lineScales(/** @type {any} */ ({ ...state, xLabel: "relative" }), [0, 3], 800, 200);
  assert.ok(rel.x.ticks(8).some((t) => !Number.isInteger(t.value)));
});
