import assert from "node:assert/strict";
import { test } from "node:test";
import { frameScheduler } from "../src/core/schedule.js";

test("many requests within a frame give one call; cancel drops it", () => {
  const frames = [];
  const raf = (cb) => frames.push(cb);
  let calls = 0;
  const s = frameScheduler(() => calls++, { raf, caf: () => frames.pop() });
  s.request();
  s.request();
  s.request();
  assert.equal(frames.length, 1);
  assert.ok(s.pending());
  frames.shift()(0);
  assert.equal(calls, 1);
  assert.ok(!s.pending());
  s.request();
  s.cancel();
  assert.equal(frames.length, 0);
  assert.equal(calls, 1);
});
