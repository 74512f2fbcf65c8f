import assert from "node:assert/strict";
import { test } from "node:test";
import { timeScaleOf } from "../src/widgets/histograms/frame.js";

test("histograms: a step axis ticks whole steps only; relative time keeps fractions", () => {
  const steps = timeScaleOf("step", [0, 3], [0, 300]).ticks(8);
  assert.ok(steps.length >= 2);
  assert.ok(
    steps.every((t) => Number.isInteger(t.value)),
    JSON.stringify(steps.map((t) => t.value)),
  );
  const relative = timeScaleOf("relative", [0, 3], [0, 300]).ticks(8);
  assert.ok(relative.some((t) => !Number.isInteger(t.value)));
});
