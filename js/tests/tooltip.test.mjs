import assert from "node:assert/strict";
import { test } from "node:test";
import { readout, readoutTable } from "../src/chart/readout.js";
import { placeTooltip } from "../src/chart/tooltip.js";

/** Does the rectangle cover the disc at p (radius r)? */
function covers(rect, p, r) {
  return (
    p.x + r > rect.left && p.x - r < rect.left + rect.width && p.y + r > rect.top && p.y - r < rect.top + rect.height
  );
}

test("the tooltip never covers a hovered point or the pointer", () => {
  let seed = 7;
  const rand = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  const sides = new Set();
  for (let k = 0; k < 2000; k++) {
    const bounds = { width: 200 + rand() * 1000, height: 150 + rand() * 600 };
    const size = { width: 60 + rand() * 500, height: 20 + rand() * 300 };
    const anchor = { x: rand() * bounds.width, y: rand() * bounds.height };
    const points = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => ({
      x: anchor.x + (rand() - 0.5) * 20,
      y: rand() * bounds.height,
    }));
    const at = placeTooltip({ points, anchor, size, bounds, gap: 10, radius: 4 });
    sides.add(at.side);
    const rect = { left: at.left, top: at.top, ...size };
    for (const p of [...points, anchor]) assert.ok(!covers(rect, p, 4), JSON.stringify({ at, p, size, bounds }));
    if (at.side === "right" || at.side === "left") {
      assert.ok(at.left >= 0 && at.left + size.width <= bounds.width + 1e-9);
    }
  }
  assert.deepEqual([...sides].sort(), ["above", "below", "left", "right"]);
});

test("right of the points when there is room, else left", () => {
  const base = { size: { width: 100, height: 40 }, bounds: { width: 500, height: 300 }, gap: 10, radius: 4 };
  const right = placeTooltip({ ...base, points: [{ x: 100, y: 50 }], anchor: { x: 100, y: 60 } });
  assert.equal(right.side, "right");
  assert.equal(right.left, 114);
  const left = placeTooltip({ ...base, points: [{ x: 450, y: 50 }], anchor: { x: 450, y: 60 } });
  assert.equal(left.side, "left");
  assert.equal(left.left, 450 - 14 - 100);
});

const series = (over) => ({
  key: "k",
  label: "lr=0.0001,opt=adam,seed=123456789",
  color: "#000",
  dash: 0,
  x: [0, 10, 20],
  y: [3, 2, 1],
  step: [0, 10, 20],
  wall: [1000, 1060, 1200],
  wall0: 1000,
  sx: [0, 10, 20],
  sy: [3, 2.5, 2],
  lo: null,
  hi: null,
  loRaw: null,
  hiRaw: null,
  sorted: true,
  rawOwner: null,
  smoothOwner: null,
  ...over,
});

test("readout rows carry value, smoothed, step, wall time and relative time; the whole name", () => {
  const rows = readout([series({})], 11);
  assert.equal(rows.length, 1);
  const [row] = rows;
  assert.deepEqual([row.step, row.value, row.smoothed, row.relative], [10, 2, 2.5, 60]);
  const table = readoutTable(rows, "step");
  assert.deepEqual(
    table.columns.map((c) => c.label),
    ["run", "smoothed", "value", "step", "wall time", "relative"],
  );
  const cells = table.rows[0].cells;
  assert.equal(cells[0], "lr=0.0001,opt=adam,seed=123456789");
  assert.deepEqual(cells.slice(1, 4), ["2.5", "2", "10"]);
  assert.match(cells[4], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  assert.equal(cells[5], "1m 00s");
  const tagged = readoutTable(rows, "lr");
  assert.deepEqual(
    tagged.columns.map((c) => c.label),
    ["run", "smoothed", "value", "step", "lr", "wall time", "relative"],
  );
});

test("readout sorts by smoothed value or name, and counts what it leaves out", () => {
  const a = series({ label: "b-run", sy: [1, 1, 1] });
  const b = series({ label: "a-run", sy: [5, 5, 5] });
  assert.deepEqual(
    readout([a, b], 10, "value-desc").map((r) => r.series.label),
    ["a-run", "b-run"],
  );
  assert.deepEqual(
    readout([b, a], 10, "name").map((r) => r.series.label),
    ["a-run", "b-run"],
  );
  const many = Array.from({ length: 45 }, (_, i) => series({ label: `r${i}` }));
  assert.equal(readoutTable(readout(many, 0), "step", 40).more, 5);
});
