import assert from "node:assert/strict";
import { test } from "node:test";
import { projectX, tracePath } from "../src/chart/trace.js";

// A context that records the path instead of drawing it.
function recorder() {
  const calls = [];
  return {
    calls,
    moveTo: (x, y) => calls.push(["M", x, y]),
    lineTo: (x, y) => calls.push(["L", x, y]),
  };
}

/** Polylines (one per moveTo) as arrays of [x, y]. */
function polylines(calls) {
  const out = [];
  for (const [op, x, y] of calls) {
    if (op === "M") out.push([[x, y]]);
    else out[out.length - 1].push([x, y]);
  }
  return out;
}

function yAt(line, x) {
  for (let k = 1; k < line.length; k++) {
    const [x0, y0] = line[k - 1];
    const [x1, y1] = line[k];
    if (x >= x0 && x <= x1) return x1 === x0 ? y0 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
  }
  return NaN;
}

test("the traced line stays within tol of every point, with far fewer vertices", () => {
  const n = 1000;
  const xs = new Float64Array(n).map((_, i) => i);
  let seed = 1;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647 - 0.5;
  };
  const raw = new Float64Array(n);
  let v = 0;
  for (let i = 0; i < n; i++) {
    v += rand();
    raw[i] = v;
  }
  // an EMA-smoothed curve over 300 px, and the raw noisy one
  const smooth = new Float64Array(n);
  let last = 0;
  for (let i = 0; i < n; i++) smooth[i] = last = i ? 0.9 * last + 0.1 * raw[i] : raw[i];
  for (const [ys, maxVertices] of [
    [smooth, 400],
    [raw, 1000],
  ]) {
    const px = projectX(xs, 0, 50, 0.3);
    const ctx = recorder();
    const lonely = tracePath(ctx, px, ys, 100, 0, -4, false, 0.5);
    assert.equal(lonely, null);
    const lines = polylines(ctx.calls);
    assert.equal(lines.length, 1);
    const line = lines[0];
    assert.ok(line.length <= maxVertices, `${line.length} vertices`);
    assert.deepEqual(line[0], [px[0], 100 + ys[0] * -4]);
    assert.deepEqual(line[line.length - 1], [px[n - 1], 100 + ys[n - 1] * -4]);
    for (let i = 0; i < n; i++) {
      const err = Math.abs(yAt(line, px[i]) - (100 + ys[i] * -4));
      assert.ok(err <= 0.5 + 1e-6, `point ${i} is ${err} px off the line`);
    }
  }
});

test("a spike survives thinning", () => {
  const ys = new Float64Array(200).fill(1);
  ys[120] = 50;
  const px = projectX(
    new Float64Array(200).map((_, i) => i),
    0,
    0,
    1,
  );
  const ctx = recorder();
  tracePath(ctx, px, ys, 0, 0, 1, false, 0.5);
  assert.ok(ctx.calls.some(([, x, y]) => x === 120 && y === 50));
});

test("non-finite values break the line; single points come back as dots", () => {
  const xs = new Float64Array([0, 1, 2, 3, 4, 5, 6]);
  const ys = new Float64Array([1, 2, NaN, 3, Infinity, 4, 5]);
  const ctx = recorder();
  const lonely = tracePath(ctx, projectX(xs, 0, 0, 10), ys, 0, 0, 1, false, 0.5);
  assert.deepEqual(polylines(ctx.calls), [
    [
      [0, 1],
      [10, 2],
    ],
    [[30, 3]],
    [
      [50, 4],
      [60, 5],
    ],
  ]);
  assert.deepEqual(lonely, [30, 3]);
});

test("log y drops values <= 0; x going back is drawn as it is", () => {
  const ys = new Float64Array([1, 10, 0, 100, 1000]);
  const ctx = recorder();
  tracePath(ctx, projectX(new Float64Array([0, 1, 2, 3, 4]), 0, 0, 1), ys, 0, 0, 1, true, 0.01);
  const lines = polylines(ctx.calls);
  assert.equal(lines.length, 2);
  assert.ok(Math.abs(lines[0][1][1] - Math.log(10)) < 1e-12);
  const back = recorder();
  tracePath(back, new Float32Array([0, 10, 5, 20]), new Float64Array([0, 1, 2, 3]), 0, 0, 1, false, 0.5);
  assert.deepEqual(polylines(back.calls), [
    [
      [0, 0],
      [10, 1],
      [5, 2],
      [20, 3],
    ],
  ]);
});

test("projectX maps affinely to float32 with NaN for non-finite x", () => {
  const px = projectX(new Float64Array([0, 2, NaN, Infinity]), 1, 10, 2);
  assert.ok(px instanceof Float32Array);
  assert.deepEqual([...px.slice(0, 2)], [8, 12]);
  assert.ok(Number.isNaN(px[2]) && Number.isNaN(px[3]));
});
