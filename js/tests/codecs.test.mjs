import assert from "node:assert/strict";
import { test } from "node:test";
import { decodeArray, decodeTree, encodeArray, pack, unpack } from "../src/core/codecs.js";

test("decode every dtype from a DataView", () => {
  for (const Ctor of [
    Int8Array,
    Uint8Array,
    Int16Array,
    Uint16Array,
    Int32Array,
    Uint32Array,
    Float32Array,
    Float64Array,
  ]) {
    const arr = Ctor.from([1, 2, 3]);
    const enc = encodeArray(arr);
    const dec = decodeArray(enc);
    assert.equal(dec.constructor, Ctor);
    assert.deepEqual([...dec], [1, 2, 3]);
  }
});

test("unaligned views are copied, not misread", () => {
  const bytes = new Uint8Array(17);
  new Float64Array(bytes.buffer, 0, 2).set([1.5, -2]);
  bytes.copyWithin(1, 0, 16);
  const view = new DataView(bytes.buffer, 1, 16);
  assert.deepEqual([...decodeArray({ view, dtype: "float64", shape: [2] })], [1.5, -2]);
});

test("shape mismatch and unknown dtype throw", () => {
  const view = new DataView(new ArrayBuffer(8));
  assert.throws(() => decodeArray({ view, dtype: "float64", shape: [2] }), RangeError);
  assert.throws(() => decodeArray({ view, dtype: "int64", shape: [1] }), TypeError);
});

test("decodeTree converts nested encodings only", () => {
  const tree = { a: [encodeArray(Int32Array.from([7]))], b: "x", c: { d: encodeArray(Float32Array.from([0.5])) } };
  const out = decodeTree(tree);
  assert.deepEqual([...out.a[0]], [7]);
  assert.equal(out.b, "x");
  assert.ok(out.c.d instanceof Float32Array);
});

test("pack and unpack round-trip a message", () => {
  const [content, buffers] = pack({ type: "range", y: Float64Array.from([1, 2]), n: [Int32Array.from([3])] });
  assert.equal(buffers.length, 2);
  assert.deepEqual(content.y, { buffer: 0, dtype: "float64", shape: [2] });
  const back = unpack(content, buffers);
  assert.deepEqual([...back.y], [1, 2]);
  assert.deepEqual([...back.n[0]], [3]);
  assert.equal(back.type, "range");
});
