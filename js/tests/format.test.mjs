import assert from "node:assert/strict";
import { test } from "node:test";
import { columnFormatter, formatDuration, formatNumber, formatTicks, formatWallTime } from "../src/core/format.js";

test("one number format: 4 significant digits, exponents below 1e-3 and from 1e5", () => {
  assert.equal(formatNumber(0.123456), "0.1235");
  assert.equal(formatNumber(12), "12");
  assert.equal(formatNumber(0.0001234), "1.234e-4");
  assert.equal(formatNumber(123456), "1.235e5");
  assert.equal(formatNumber(-2.5e-7), "-2.5e-7");
  assert.equal(formatNumber(0), "0");
  assert.equal(formatNumber(Number.NaN), "NaN");
  assert.equal(formatNumber(Number.NEGATIVE_INFINITY), "-∞");
  assert.equal(formatNumber(0.123456, 6), "0.123456");
});

test("tick labels use as few digits as tell the ticks apart", () => {
  assert.deepEqual(formatTicks([0, 0.5, 1]), ["0", "0.5", "1"]);
  const labels = formatTicks([1.0001, 1.0002, 1.0003]);
  assert.equal(new Set(labels).size, 3);
  assert.deepEqual(formatTicks([1e-5, 1e-4, 1e-3]), ["1e-5", "1e-4", "0.001"]);
});

test("durations read like TensorBoard's relative time; wall times are local", () => {
  assert.equal(formatDuration(1.234), "1.23s");
  assert.equal(formatDuration(42.5), "42.5s");
  assert.equal(formatDuration(125), "2m 05s");
  assert.equal(formatDuration(3 * 3600 + 120), "3h 02m");
  assert.equal(formatDuration(2 * 86400 + 5 * 3600), "2d 5h");
  assert.equal(formatDuration(Number.NaN), "");
  assert.match(formatWallTime(1.7e9), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  assert.equal(formatWallTime(Number.NaN), "");
});

test("a table column uses exponents for all its cells or for none", () => {
  const plain = columnFormatter([0.5, 12.25, 0.001]);
  assert.deepEqual([0.5, 12.25, 0.001].map(plain), ["0.5", "12.25", "0.001"]);
  const exp = columnFormatter([0.5, 2e-5, 0]);
  assert.deepEqual([0.5, 2e-5, 0, 123.456].map(exp), ["5e-1", "2e-5", "0", "1.235e2"]);
});
