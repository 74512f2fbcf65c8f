import assert from "node:assert/strict";
import { test } from "node:test";
import { contourLines, densityOf, regionLabels } from "../src/widgets/embeddings/density.js";
import { bars, pointsOf } from "../src/widgets/embeddings/histogram.js";

/** Two groups of points, one around (0, 0) labelled mostly "a", one around (10, 0) mostly "b". */
function twoGroups(n = 4000) {
  const coords = new Float32Array(2 * n);
  const codes = new Uint8Array(n);
  let s = 12345;
  const rand = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  for (let i = 0; i < n; i++) {
    const g = i % 2;
    const r = Math.sqrt(-2 * Math.log(rand() + 1e-12));
    const t = 2 * Math.PI * rand();
    coords[2 * i] = g * 10 + r * Math.cos(t);
    coords[2 * i + 1] = r * Math.sin(t);
    codes[i] = rand() < 0.9 ? g : 1 - g; // 10% carry the other group's value
  }
  return { coords, column: { name: "kind", kind: "category", labels: ["a", "b"], codes, values: null } };
}

test("each dense region is named after its most frequent value, at its peak", () => {
  const { coords, column } = twoGroups();
  const density = densityOf(coords);
  assert.ok(density);
  const labels = regionLabels(density, /** @type {any} */ (column), 4000);
  assert.equal(labels.length, 2);
  const byText = Object.fromEntries(labels.map((l) => [l.text, l]));
  assert.ok(Math.abs(byText.a.x) < 1.5 && Math.abs(byText.a.y) < 1.5, JSON.stringify(byText.a));
  assert.ok(Math.abs(byText.b.x - 10) < 1.5 && Math.abs(byText.b.y) < 1.5, JSON.stringify(byText.b));
  assert.ok(byText.a.share > 0.8 && byText.b.share > 0.8);
});

test("contours close around each group: every level's segments lie near the points", () => {
  const { coords } = twoGroups();
  const density = /** @type {any} */ (densityOf(coords));
  const lines = contourLines(density, [0.1, 0.5]);
  assert.equal(lines.length, 2);
  for (const segs of lines) {
    assert.ok(segs.length > 16 && segs.length % 4 === 0);
    for (let k = 0; k < segs.length; k += 2) {
      const x = segs[k];
      const near = Math.min(Math.hypot(x, segs[k + 1]), Math.hypot(x - 10, segs[k + 1]));
      assert.ok(near < 4.5, `a contour point at (${x}, ${segs[k + 1]})`);
    }
  }
  // the inner level is inside the outer one: shorter
  assert.ok(lines[1].length < lines[0].length);
});

test("bars count all points and the selection, and a bar's points are its value's", () => {
  const { column } = twoGroups(100);
  const selected = new Uint8Array(100);
  for (let i = 0; i < 10; i++) selected[i] = 1;
  const out = bars(/** @type {any} */ (column), 100, selected);
  assert.deepEqual(
    out.map((b) => b.label),
    ["a", "b"],
  );
  assert.equal(out[0].total + out[1].total, 100);
  assert.equal(out[0].chosen + out[1].chosen, 10);
  const picked = pointsOf(out[1], 100);
  assert.equal(picked.length, out[1].total);
  assert.ok(Array.from(picked).every((i) => column.codes[i] === 1));
  const numeric = {
    name: "x",
    kind: "number",
    labels: null,
    codes: null,
    values: Float32Array.from([0, 1, 2, 3, Number.NaN]),
    range: [0, 3],
  };
  const bins = bars(/** @type {any} */ (numeric), 5, new Uint8Array(0));
  assert.equal(
    bins.reduce((a, b) => a + b.total, 0),
    4,
  ); // NaN counted nowhere
});
