import assert from "node:assert/strict";
import { test } from "node:test";
import { readout } from "../src/chart/readout.js";
import { lineSeries } from "../src/series/series.js";
import { ema } from "../src/series/smoothing.js";

/** A series of n points, its overview (every `every`-th point and the last) and a zoom slice. */
function fixture(n = 3000, every = 10) {
  const step = Float64Array.from({ length: n }, (_, i) => 3 * i);
  const value = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 40) + 0.3 * Math.cos(i * 1.7) + i / n);
  const wall = Float64Array.from({ length: n }, (_, i) => 1.7e9 + i);
  const keep = [...Array(n).keys()].filter((i) => i % every === 0 || i === n - 1);
  const pick = (a) => Float64Array.from(keep, (i) => a[i]);
  const rec = {
    run: "r",
    tag: "loss",
    cols: { step: pick(step), value: pick(value), wall: pick(wall) },
    total: n,
    xs: null,
    cache: new Map(),
  };
  const slice = (lo, hi) => {
    const idx = [...Array(n).keys()].filter((i) => step[i] >= lo && step[i] <= hi);
    return {
      step: Float64Array.from(idx, (i) => step[i]),
      value: Float64Array.from(idx, (i) => value[i]),
      wall: Float64Array.from(idx, (i) => wall[i]),
    };
  };
  return { rec, slice, full: { step, value, wall } };
}

const opts = { xMode: "step", mode: "ema", color: "#000", label: "r", dash: 0 };

test("zooming never changes the smoothing: the smoothed value at a step is the unzoomed one", () => {
  for (const weight of [0.6, 0.95, 0.999]) {
    const { rec, slice } = fixture();
    const whole = lineSeries(rec, { ...opts, weight });
    const zoomCols = slice(4500, 6000);
    const zoomed = lineSeries(rec, { ...opts, weight, zoomCols });
    assert.equal(zoomed.x.length, zoomCols.step.length); // the raw line is full resolution
    assert.ok(zoomed.x.length > 400);
    // at every overview step in the window, zoomed and unzoomed readouts agree
    let compared = 0;
    for (let i = 0; i < rec.cols.step.length; i++) {
      const s = rec.cols.step[i];
      if (s < 4500 || s > 6000) continue;
      const [u] = readout([whole], s);
      const [z] = readout([zoomed], s);
      assert.equal(z.step, s);
      assert.equal(u.step, s);
      assert.equal(z.smoothed, u.smoothed, `weight ${weight}, step ${s}`);
      compared += 1;
    }
    assert.ok(compared >= 50);
    // the smoothed line is the whole series' EMA, not one restarted at the zoom's left edge
    const restarted = ema(zoomCols.value, weight);
    assert.notEqual(restarted[0], readout([zoomed], zoomCols.step[0])[0].smoothed);
  }
});

test("the zoomed raw points keep their values, steps, wall times and relative time", () => {
  const { rec, slice, full } = fixture();
  const zoomCols = slice(300, 330);
  const zoomed = lineSeries(rec, { ...opts, weight: 0.6, zoomCols });
  const [row] = readout([zoomed], 303);
  assert.equal(row.step, 303);
  assert.equal(row.value, full.value[101]);
  assert.equal(row.relative, 101); // seconds since the series' first point, not the slice's
  const rel = lineSeries(rec, { ...opts, xMode: "relative", weight: 0.6, zoomCols });
  assert.equal(rel.x[0], 100); // relative x of a slice counts from the series' start
});

test("a smoothing change rewrites the cached arrays but hands out a new owner", () => {
  const { rec } = fixture(200, 1);
  const a = lineSeries(rec, { ...opts, weight: 0.6 });
  const b = lineSeries(rec, { ...opts, weight: 0.9 });
  assert.notEqual(a.smoothOwner, b.smoothOwner);
  assert.equal(a.sy, b.sy); // the same buffer, rewritten in place
  assert.deepEqual([...b.sy], [...ema(rec.cols.value, 0.9)]);
  const none = lineSeries(rec, { ...opts, weight: 0 });
  assert.equal(none.sy, rec.cols.value);
});
