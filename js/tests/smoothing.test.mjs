import assert from "node:assert/strict";
import { test } from "node:test";
import { ema, smooth, timeWeightedEma } from "../src/series/smoothing.js";

// Plain transcription of TensorBoard's classic smoothing, as the reference.
function reference(values, w) {
  // biome-ignore lint/suspicious/noDoubleEquals: TensorBoard's rule, as it is written
  if (values.every((v) => v == values[0])) return [...values];
  let last = 0;
  let n = 0;
  return values.map((v) => {
    if (!Number.isFinite(v)) return v;
    last = last * w + (1 - w) * v;
    n += 1;
    return last / (1 - w ** n);
  });
}

const close = (a, b, tol = 1e-12) => {
  assert.equal(a.length, b.length);
  for (let i = 0; i < a.length; i++) {
    if (Number.isNaN(b[i])) assert.ok(Number.isNaN(a[i]), `index ${i}`);
    else if (!Number.isFinite(b[i])) assert.equal(a[i], b[i]);
    else assert.ok(Math.abs(a[i] - b[i]) <= tol, `index ${i}: ${a[i]} vs ${b[i]}`);
  }
};

test("ema equals TensorBoard's algorithm with NaN and inf passed through", () => {
  const v = [1, 3, NaN, 2, Infinity, -Infinity, 5, 0.5];
  for (const w of [0, 0.3, 0.6, 0.999]) close(ema(v, w), reference(v, w));
});

test("the first finite value is returned as is (debiasing)", () => {
  assert.equal(ema([NaN, 4, 8], 0.9)[1], 4);
});

test("constant series are left unsmoothed, weight 0 is the identity", () => {
  assert.deepEqual([...ema([2, 2, 2], 0.9)], [2, 2, 2]);
  close(ema([1, 5, 2], 0), [1, 5, 2]);
});

test("time-weighted equals ema on even spacing and differs on uneven", () => {
  const v = [1, 4, 2, 8, 3];
  close(timeWeightedEma([0, 10, 20, 30, 40], v, 0.7), ema(v, 0.7), 1e-12);
  const uneven = timeWeightedEma([0, 1, 2, 3, 100], v, 0.7);
  // A point far away in x forgets the past almost entirely.
  assert.ok(Math.abs(uneven[4] - 3) < 1e-6);
  assert.ok(Math.abs(ema(v, 0.7)[4] - 3) > 0.5);
});

test("smooth dispatches on mode", () => {
  close(smooth([1, 2, 4], 0.5, { x: [0, 1, 3], mode: "time" }), timeWeightedEma([0, 1, 3], [1, 2, 4], 0.5));
  close(smooth([1, 2, 4], 0.5), ema([1, 2, 4], 0.5));
  assert.throws(() => smooth([1, 2], 0.5, { mode: "time" }));
});

test("smoothing into a given buffer equals a fresh result and never overwrites the input", () => {
  const v = new Float64Array([1, 3, NaN, 2, Infinity, 5, 0.5]);
  const buf = new Float64Array(v.length).fill(-1);
  for (const mode of ["ema", "time"]) {
    const x = new Float64Array([0, 1, 2, 4, 5, 6, 9]);
    const fresh = smooth(v, 0.7, { x, mode });
    const into = smooth(v, 0.7, { x, mode, out: buf });
    assert.equal(into, buf);
    close(into, fresh, 0);
  }
  const copy = new Float64Array(v);
  assert.notEqual(ema(v, 0.5, v), v);
  close(v, copy, 0);
  assert.equal(ema(v, 0.5, new Float64Array(2)).length, v.length);
});
