import assert from "node:assert/strict";
import { test } from "node:test";
import {
  COLORBLIND_PALETTE,
  categoryColor,
  DEFAULT_PALETTE,
  MISSING_COLOR,
  palette,
  runColor,
  viridis,
} from "../src/color/palettes.js";

test("palettes: 20 distinct default colours, 9 colour-blind-safe ones", () => {
  assert.equal(DEFAULT_PALETTE.length, 20);
  assert.equal(new Set(DEFAULT_PALETTE).size, 20);
  assert.equal(COLORBLIND_PALETTE.length, 9);
  for (const c of [...DEFAULT_PALETTE, ...COLORBLIND_PALETTE]) assert.match(c, /^#[0-9a-f]{6}$/);
  assert.equal(palette("colorblind"), COLORBLIND_PALETTE);
  assert.equal(palette("nope"), DEFAULT_PALETTE);
});

test("category colours cycle; missing is grey", () => {
  assert.equal(categoryColor(0), DEFAULT_PALETTE[0]);
  assert.equal(categoryColor(21), DEFAULT_PALETTE[1]);
  assert.equal(categoryColor(9, "colorblind"), COLORBLIND_PALETTE[0]);
  assert.equal(categoryColor(-1), MISSING_COLOR);
});

test("run colours come from the trait, else by position (never from a hash)", () => {
  assert.equal(runColor({ a: "#123456" }, "a", 5), "#123456");
  assert.equal(runColor({}, "a", 2), DEFAULT_PALETTE[2]);
  assert.equal(runColor(undefined, "b", 0), DEFAULT_PALETTE[0]);
});

test("viridis runs from dark purple to yellow; NaN is grey", () => {
  assert.equal(viridis(0), "rgb(68,1,84)");
  assert.equal(viridis(1), "rgb(253,231,37)");
  assert.equal(viridis(2), "rgb(253,231,37)");
  assert.equal(viridis(Number.NaN), MISSING_COLOR);
});
