// A mesh item (one binary block, tbnb/widgets/mesh/prepare.py) as typed arrays to upload.
// No DOM, no WebGL: tested with node (js/tests/mesh.test.mjs).

/** @typedef {import("./model").MeshItem} MeshItem */
/** @typedef {import("../../gl/mesh").Geometry} Geometry */

/**
 * A typed view of `count` elements at byte `offset` of `data` (copied when unaligned).
 * @template T
 * @param {Uint8Array} data
 * @param {[number, number] | undefined} where  [byte offset, count]
 * @param {{new (buffer: ArrayBufferLike, offset: number, length: number): T, BYTES_PER_ELEMENT: number}} Ctor
 * @returns {T | null}
 */
function part(data, where, Ctor) {
  if (!where) return null;
  const [offset, count] = where;
  const bytes = count * Ctor.BYTES_PER_ELEMENT;
  if (offset < 0 || offset + bytes > data.byteLength) {
    throw new RangeError(`mesh part [${offset}, ${count}] lies outside its ${data.byteLength} bytes`);
  }
  const start = data.byteOffset + offset;
  if (start % Ctor.BYTES_PER_ELEMENT === 0) return new Ctor(data.buffer, start, count);
  return new Ctor(data.slice(offset, offset + bytes).buffer, 0, count);
}

/**
 * The geometry of one mesh item.
 * @param {MeshItem} item
 * @returns {Geometry}
 */
export function geometryOf(item) {
  const data = item.data instanceof Uint8Array ? item.data : new Uint8Array(/** @type {any} */ (item.data));
  const positions = part(data, item.layout.positions, Uint16Array);
  if (!positions) throw new Error("the mesh has no vertices");
  const colors = part(data, item.layout.colors, Uint8Array);
  const faces =
    item.index_type === "uint32"
      ? part(data, item.layout.faces, Uint32Array)
      : part(data, item.layout.faces, Uint16Array);
  return { positions, origin: item.origin, scale: item.scale, colors, faces };
}

/**
 * A CSS colour (`#rrggbb`, `#rgb` or `rgb(r, g, b)`) as RGB in 0..1; grey otherwise.
 * @param {string} css
 * @returns {number[]}
 */
export function rgbOf(css) {
  const text = String(css || "").trim();
  let m = /^#([0-9a-f]{6})$/i.exec(text);
  if (m) return [0, 2, 4].map((i) => Number.parseInt(m?.[1].slice(i, i + 2) || "0", 16) / 255);
  m = /^#([0-9a-f]{3})$/i.exec(text);
  if (m) return [0, 1, 2].map((i) => Number.parseInt(m?.[1][i] || "0", 16) / 15);
  m = /^rgb\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)$/i.exec(text);
  if (m) return [m[1], m[2], m[3]].map((v) => Math.min(Number(v), 255) / 255);
  return [0.6, 0.6, 0.6];
}
