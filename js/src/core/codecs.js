// Binary codecs: the mirror of tbnb/widgets/serializers.py.
// Arrays arrive as {view, dtype, shape} inside trait state, or as {buffer: i, dtype, shape}
// inside custom messages with the bytes in buffers[i]. Never JSON lists, never base64.

/** @typedef {import("./types").EncodedArray} EncodedArray */
/** @typedef {import("./types").TypedArray} TypedArray */

/** @type {Record<string, any>} */
const CTORS = {
  int8: Int8Array,
  uint8: Uint8Array,
  int16: Int16Array,
  uint16: Uint16Array,
  int32: Int32Array,
  uint32: Uint32Array,
  float32: Float32Array,
  float64: Float64Array,
};

const DTYPE_OF = new Map(Object.entries(CTORS).map(([name, ctor]) => [ctor, name]));

/**
 * @param {unknown} view
 * @returns {{buffer: ArrayBufferLike, byteOffset: number, byteLength: number}}
 */
function bytesOf(view) {
  if (view instanceof ArrayBuffer) return { buffer: view, byteOffset: 0, byteLength: view.byteLength };
  if (ArrayBuffer.isView(view)) {
    return { buffer: view.buffer, byteOffset: view.byteOffset, byteLength: view.byteLength };
  }
  throw new TypeError("expected an ArrayBuffer or a view of one");
}

/**
 * Decode one `{view, dtype, shape}` into a flat typed array.
 * @param {EncodedArray} enc
 * @returns {TypedArray}
 */
export function decodeArray(enc) {
  const Ctor = CTORS[enc.dtype];
  if (!Ctor) throw new TypeError(`unknown dtype ${enc.dtype}`);
  let { buffer, byteOffset, byteLength } = bytesOf(enc.view);
  if (byteOffset % Ctor.BYTES_PER_ELEMENT !== 0) {
    // Typed arrays need aligned offsets: copy the bytes once.
    buffer = new Uint8Array(buffer, byteOffset, byteLength).slice().buffer;
    byteOffset = 0;
  }
  const out = new Ctor(buffer, byteOffset, byteLength / Ctor.BYTES_PER_ELEMENT);
  const expected = (enc.shape || []).reduce((a, b) => a * b, 1);
  if (enc.shape?.length && expected !== out.length) {
    throw new RangeError(`shape ${enc.shape} does not match ${out.length} elements`);
  }
  return out;
}

/**
 * Encode a typed array as `{view, dtype, shape}`.
 * @param {TypedArray} arr
 * @returns {{view: DataView, dtype: string, shape: number[]}}
 */
export function encodeArray(arr) {
  const dtype = DTYPE_OF.get(arr.constructor);
  if (!dtype) throw new TypeError("not a supported typed array");
  return { view: new DataView(arr.buffer, arr.byteOffset, arr.byteLength), dtype, shape: [arr.length] };
}

/**
 * @param {unknown} o
 * @returns {o is Record<string, any>}
 */
function isPlainObject(o) {
  return o !== null && typeof o === "object" && !ArrayBuffer.isView(o) && !(o instanceof ArrayBuffer);
}

/**
 * Whether `o` is an encoded array (exactly the keys view, dtype, shape).
 * @param {unknown} o
 * @returns {o is EncodedArray}
 */
export function isEncoded(o) {
  return isPlainObject(o) && "view" in o && "dtype" in o && "shape" in o && Object.keys(o).length === 3;
}

/**
 * Replace every encoded array inside nested objects/arrays by a typed array.
 * @param {any} tree
 * @returns {any}
 */
export function decodeTree(tree) {
  if (isEncoded(tree)) return decodeArray(tree);
  if (Array.isArray(tree)) return tree.map(decodeTree);
  if (isPlainObject(tree)) {
    /** @type {Record<string, any>} */
    const out = {};
    for (const [k, v] of Object.entries(tree)) out[k] = decodeTree(v);
    return out;
  }
  return tree;
}

/**
 * Content of a custom message + its buffers -> a tree with typed arrays.
 * @param {any} content
 * @param {ArrayLike<unknown>} buffers
 * @returns {any}
 */
export function unpack(content, buffers) {
  if (Array.isArray(content)) return content.map((c) => unpack(c, buffers));
  if (isPlainObject(content)) {
    const keys = Object.keys(content);
    if (keys.length === 3 && "buffer" in content && "dtype" in content && "shape" in content) {
      const view = /** @type {DataView} */ (buffers[content.buffer]);
      return decodeArray({ view, dtype: content.dtype, shape: content.shape });
    }
    /** @type {Record<string, any>} */
    const out = {};
    for (const k of keys) out[k] = unpack(content[k], buffers);
    return out;
  }
  return content;
}

/**
 * A tree with typed arrays -> `[content, buffers]` for `model.send(content, callbacks, buffers)`.
 * @param {any} tree
 * @returns {[any, DataView[]]}
 */
export function pack(tree) {
  /** @type {DataView[]} */
  const buffers = [];
  /** @param {any} node @returns {any} */
  const walk = (node) => {
    if (ArrayBuffer.isView(node) && !(node instanceof DataView)) {
      const enc = encodeArray(/** @type {TypedArray} */ (node));
      buffers.push(enc.view);
      return { buffer: buffers.length - 1, dtype: enc.dtype, shape: enc.shape };
    }
    if (Array.isArray(node)) return node.map(walk);
    if (isPlainObject(node)) {
      /** @type {Record<string, any>} */
      const out = {};
      for (const [k, v] of Object.entries(node)) out[k] = walk(v);
      return out;
    }
    return node;
  };
  return [walk(tree), buffers];
}
