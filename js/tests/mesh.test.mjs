import assert from "node:assert/strict";
import { test } from "node:test";
import { edgesOf } from "../src/gl/mesh.js";
import { geometryOf, rgbOf } from "../src/widgets/mesh/geometry.js";

/** A block as tbnb/widgets/mesh/prepare.py lays it out: parts 4-byte aligned. */
function block(positions, colors, faces) {
  const parts = [["positions", new Uint8Array(positions.buffer)]];
  if (colors) parts.push(["colors", colors]);
  if (faces) parts.push(["faces", new Uint8Array(faces.buffer)]);
  const layout = {};
  const chunks = [];
  let offset = 0;
  for (const [name, bytes] of parts) {
    const pad = -offset & 3;
    if (pad) chunks.push(new Uint8Array(pad));
    offset += pad;
    const count = name === "positions" ? positions.length : name === "colors" ? colors.length : faces.length;
    layout[name] = [offset, count];
    chunks.push(bytes);
    offset += bytes.length;
  }
  const data = new Uint8Array(offset);
  let at = 0;
  for (const c of chunks) {
    data.set(c, at);
    at += c.length;
  }
  return { data, layout };
}

test("a mesh block reads back as the arrays Python packed", () => {
  const positions = Uint16Array.from([0, 0, 0, 65535, 0, 0, 0, 65535, 65535]);
  const colors = Uint8Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255]);
  const faces = Uint16Array.from([0, 1, 2]);
  const { data, layout } = block(positions, colors, faces);
  const g = geometryOf({ data, layout, origin: [1, 2, 3], scale: [4, 5, 6], index_type: "uint16" });
  assert.deepEqual([...g.positions], [...positions]);
  assert.deepEqual([...(g.colors || [])], [...colors]);
  assert.deepEqual([...(g.faces || [])], [0, 1, 2]);
  assert.ok(g.faces instanceof Uint16Array);
  assert.deepEqual(g.origin, [1, 2, 3]);
});

test("an unaligned block (a buffer slice) is copied, a missing part is null, a bad layout throws", () => {
  const positions = Uint16Array.from([1, 2, 3]);
  const faces = Uint32Array.from([0, 0, 0]);
  const { data, layout } = block(positions, null, faces);
  const shifted = new Uint8Array(data.length + 1);
  shifted.set(data, 1);
  const g = geometryOf({
    data: shifted.subarray(1),
    layout,
    origin: [0, 0, 0],
    scale: [1, 1, 1],
    index_type: "uint32",
  });
  assert.deepEqual([...g.positions], [1, 2, 3]);
  assert.ok(g.faces instanceof Uint32Array);
  assert.equal(g.colors, null);
  assert.throws(
    () =>
      geometryOf({ data, layout: { positions: [0, 999] }, origin: [0, 0, 0], scale: [1, 1, 1], index_type: "uint16" }),
    /lies outside/,
  );
});

test("edges of triangles: each shared edge once", () => {
  const edges = edgesOf(Uint16Array.from([0, 1, 2, 2, 1, 3]), 4);
  const pairs = [];
  for (let i = 0; i < edges.length; i += 2) pairs.push(`${edges[i]}-${edges[i + 1]}`);
  assert.deepEqual(pairs.sort(), ["0-1", "0-2", "1-2", "1-3", "2-3"]);
});

test("run colours as RGB in 0..1", () => {
  assert.deepEqual(rgbOf("#ff0000"), [1, 0, 0]);
  assert.deepEqual(rgbOf("#0f0"), [0, 1, 0]);
  assert.deepEqual(rgbOf("rgb(0, 0, 255)"), [0, 0, 1]);
  assert.deepEqual(rgbOf("not a colour"), [0.6, 0.6, 0.6]);
});
