// The media kit's pure modules: the card index and position rule, the item fetcher
// (batches, priorities, errors, no kernel, saved items, bounds) and the formats.
import assert from "node:assert/strict";
import { test } from "node:test";
import { NoKernelError } from "../src/core/request.js";
import { decodeIndex, itemKey, neighbourKeys, positionOf, unionSteps } from "../src/media/card-index.js";
import { ItemFetcher } from "../src/media/fetcher.js";
import { formatBytes, formatClipDuration, formatPlayback } from "../src/media/format.js";

const enc = (arr) => ({
  view: new DataView(arr.buffer),
  dtype: arr.constructor.name.replace("Array", "").toLowerCase(),
  shape: [arr.length],
});

function index() {
  return decodeIndex({
    runs: ["a", "b"],
    tags: ["x"],
    card_run: enc(new Int32Array([0, 1])),
    card_tag: enc(new Int32Array([0, 0])),
    offsets: enc(new Int32Array([0, 3, 5])),
    steps: enc(new Int32Array([0, 10, 20, 5, 15])),
    counts: enc(new Uint8Array([1, 3, 1, 1, 2])),
    version: 4,
  });
}

test("the index decodes cards with their steps and samples", () => {
  const idx = index();
  assert.equal(idx.version, 4);
  assert.deepEqual(
    idx.cards.map((c) => [c.key, Array.from(c.steps), Array.from(c.counts)]),
    [
      ['["a","x"]', [0, 10, 20], [1, 3, 1]],
      ['["b","x"]', [5, 15], [1, 2]],
    ],
  );
  assert.deepEqual(unionSteps(idx.cards), [0, 5, 10, 15, 20]);
  assert.equal(decodeIndex({}).cards.length, 0);
});

test("position: a pin, else the nearest step to the global one, else the last", () => {
  const [a, b] = index().cards;
  assert.deepEqual(positionOf(a, null, undefined), { index: 2, step: 20, sample: 0, count: 1, pinned: false });
  assert.equal(positionOf(a, 14, undefined)?.step, 10);
  assert.equal(positionOf(a, 15, undefined)?.step, 10); // a tie goes to the lower step
  assert.equal(positionOf(b, 14, undefined)?.step, 15);
  assert.deepEqual(positionOf(a, 14, { step: 0, sample: 0 }), { index: 0, step: 0, sample: 0, count: 1, pinned: true });
  assert.equal(positionOf(a, 10, { step: null, sample: 2 })?.sample, 2);
  assert.equal(positionOf(a, 10, { step: null, sample: 9 })?.sample, 2); // clamped to the samples there
  assert.deepEqual(neighbourKeys(a, /** @type {any} */ (positionOf(a, 10, { sample: 2 })), 2), [
    itemKey("a", "x", 20, 0),
    itemKey("a", "x", 0, 0),
  ]);
});

/** A fetcher whose requests are recorded and answered by `answer(keys)`. */
function fetcher(answer, options = {}) {
  const asked = [];
  const updates = [];
  const released = [];
  const f = new ItemFetcher({
    ask: async (keys) => {
      asked.push(keys.map((k) => JSON.stringify(k)));
      return answer(keys);
    },
    decode: async (item) => {
      if (item.bad) throw new Error("cannot decode");
      return { of: item.key };
    },
    release: (d) => released.push(d.of),
    onUpdate: (key) => updates.push(key),
    ...options,
  });
  return { f, asked, updates, released };
}

const item = (k) => ({ key: JSON.stringify(k), data: new Uint8Array(10) });
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

test("items are fetched in batches, what is shown now first", async () => {
  const { f, asked } = fetcher((keys) => keys.map(item), { batch: 2, inFlight: 1 });
  const keys = [0, 1, 2, 3].map((s) => itemKey("a", "x", s, 0));
  f.want(keys.slice(2), "ahead");
  f.want(keys.slice(0, 1), "now");
  await settle();
  assert.deepEqual(asked, [[keys[0], keys[2]], [keys[3]]]);
  for (const k of [keys[0], keys[2], keys[3]]) assert.equal(f.entry(k)?.state, "ready");
  assert.equal(f.entry(keys[1]), undefined);
  f.want([keys[0]], "now");
  await settle();
  assert.equal(asked.length, 2, "a fetched item is not asked again");
});

test("an item the kernel cannot read is an error; one it skips too", async () => {
  const bad = itemKey("a", "x", 1, 0);
  const skipped = itemKey("a", "x", 2, 0);
  const broken = itemKey("a", "x", 3, 0);
  const { f } = fetcher((keys) =>
    keys.flatMap((k) => {
      const key = JSON.stringify(k);
      if (key === bad) return [{ key, error: "run 'a', tag 'x', step 1: gone" }];
      if (key === skipped) return [];
      return [{ ...item(k), bad: true }];
    }),
  );
  f.want([bad, skipped, broken], "now");
  await settle();
  assert.equal(f.entry(bad)?.error, "run 'a', tag 'x', step 1: gone");
  assert.equal(f.entry(skipped)?.error, "not in the reply");
  assert.deepEqual([f.entry(broken)?.state, f.entry(broken)?.error], ["error", "cannot decode"]);
});

test("with no kernel only saved items show; the rest are missing", async () => {
  const { f } = fetcher(() => {
    throw new NoKernelError("items", new Error("no kernel in an exported page"));
  });
  const saved = itemKey("a", "x", 0, 0);
  f.seed({ [saved]: item(["a", "x", 0, 0]) });
  f.want([saved, itemKey("a", "x", 1, 0)], "now");
  await settle();
  assert.equal(f.entry(saved)?.state, "ready");
  assert.equal(f.entry(itemKey("a", "x", 1, 0))?.state, "missing");
  assert.equal(f.offline, true);
  f.want([itemKey("a", "x", 2, 0)], "ahead");
  assert.equal(f.entry(itemKey("a", "x", 2, 0))?.state, "missing");
});

test("decoded items and bytes stay within their bounds; saved ones are never dropped", async () => {
  const { f, released } = fetcher((keys) => keys.map(item), { maxDecoded: 2, maxBytes: 3 * 210 });
  const saved = itemKey("a", "x", 99, 0);
  f.seed({ [saved]: item(["a", "x", 99, 0]) });
  const keys = [0, 1, 2, 3, 4].map((s) => itemKey("a", "x", s, 0));
  f.want(keys, "now");
  await settle();
  assert.ok(f.decodedCount <= 2);
  assert.ok(released.length >= 3);
  assert.ok(f.entries.has(saved));
  assert.ok(f.bytes <= 3 * 210 + 210, String(f.bytes)); // at most one saved item beyond the bound
  const again = f.entry(keys[0]);
  if (again?.state === "ready" && again.decoded === undefined) {
    f.want([keys[0]], "now"); // a dropped decoded form is decoded again
    await settle();
    assert.notEqual(f.entry(keys[0])?.decoded, undefined);
  }
});

test("formats", () => {
  assert.deepEqual([0, 999, 1000, 12345, 4.2e6, 1e12].map(formatBytes), [
    "0 B",
    "999 B",
    "1.0 KB",
    "12.3 KB",
    "4.2 MB",
    "1.0 TB",
  ]);
  assert.deepEqual([0.25, 12, 185.2].map(formatClipDuration), ["0.25 s", "12.0 s", "3:05.2"]);
});

test("a player's position reads in the clip's unit: a 0.1 s clip is 0.10 s, not 0:00", () => {
  assert.equal(formatPlayback(0, 0.1), "0.00 / 0.10 s");
  assert.equal(formatPlayback(0.042, 0.1), "0.04 / 0.10 s");
  assert.equal(formatPlayback(3.46, 12), "3.5 / 12.0 s");
  assert.equal(formatPlayback(63.5, 185.2), "1:03.5 / 3:05.2");
  assert.equal(formatPlayback(5, 0.1), "0.10 / 0.10 s"); // never past the end
  assert.equal(formatPlayback(0, Number.NaN), ""); // not known yet
});
