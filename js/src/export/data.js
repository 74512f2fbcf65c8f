// The data block of an exported page (tbnb/notebook/page_data.py writes it): base85 text of
// deflate(uint32 JSON length | JSON | filtered buffers). Unpacked with the browser's own
// DecompressionStream; each buffer's filter (byte shuffle, 32-bit delta, 64-bit XOR) undone.

/**
 * @typedef {{offset: number, length: number, filter: string}} BufferSpec
 */

// Python's base85 alphabet (base64.b85encode) with "<", ">", "&" written as ".", ",", ":".
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%:()*+-;.=,?@^_`{|}~";
const DIGIT = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i;

/**
 * Decode the page's base85 text (a last group of k < 5 characters holds k - 1 bytes).
 * @param {string} text
 */
export function bytesFromBase85(text) {
  const n = text.length;
  const tail = n % 5;
  if (tail === 1) throw new Error("corrupt data block: bad base85 length");
  const out = new Uint8Array(Math.floor(n / 5) * 4 + (tail ? tail - 1 : 0));
  let o = 0;
  for (let i = 0; i < n; i += 5) {
    let acc = 0;
    for (let j = 0; j < 5; j++) {
      const code = i + j < n ? text.charCodeAt(i + j) : 126; // pad with the last digit, "~"
      const digit = code < 128 ? DIGIT[code] : -1;
      if (digit < 0) throw new Error(`corrupt data block: ${JSON.stringify(text[i + j])} at ${i + j}`);
      acc = acc * 85 + digit;
    }
    if (acc > 0xffffffff) throw new Error(`corrupt data block: base85 overflow at ${i}`);
    const take = Math.min(4, out.length - o);
    for (let k = 0; k < take; k++) out[o + k] = (acc >>> (24 - 8 * k)) & 0xff;
    o += take;
  }
  return out;
}

/** @param {Uint8Array} bytes */
async function inflate(bytes) {
  const stream = new Blob([/** @type {BlobPart} */ (bytes)]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Undo a byte shuffle of `size`-byte elements (a trailing partial element is kept as is).
 * @param {Uint8Array} data
 * @param {number} size
 */
export function unshuffle(data, size) {
  const whole = data.length - (data.length % size);
  const n = whole / size;
  const out = new Uint8Array(data.length);
  for (let k = 0; k < size; k++) {
    const from = k * n;
    for (let i = 0; i < n; i++) out[i * size + k] = data[from + i];
  }
  out.set(data.subarray(whole), whole);
  return out;
}

/** @param {Uint8Array} data */
function undelta32(data) {
  const bytes = unshuffle(data, 4);
  const words = new Uint32Array(bytes.buffer, 0, bytes.length / 4);
  for (let i = 1; i < words.length; i++) words[i] = (words[i] + words[i - 1]) >>> 0;
  return bytes;
}

/** @param {Uint8Array} data */
function unxor64(data) {
  const bytes = unshuffle(data, 8);
  const halves = new Uint32Array(bytes.buffer, 0, bytes.length / 4);
  for (let i = 2; i < halves.length; i++) halves[i] ^= halves[i - 2];
  return bytes;
}

/** @type {Record<string, (data: Uint8Array) => Uint8Array>} */
export const UNFILTERS = {
  none: (data) => data.slice(),
  shuffle4: (data) => unshuffle(data, 4),
  shuffle8: (data) => unshuffle(data, 8),
  delta32: undelta32,
  xor64: unxor64,
};

/**
 * Split an inflated block into its payload and its (unfiltered) buffers.
 * @param {Uint8Array} block
 * @returns {{payload: Record<string, any>, buffers: Uint8Array[]}}
 */
export function splitBlock(block) {
  const size = new DataView(block.buffer, block.byteOffset, block.byteLength).getUint32(0, true);
  const payload = JSON.parse(new TextDecoder().decode(block.subarray(4, 4 + size)));
  const data = block.subarray(4 + size);
  /** @type {BufferSpec[]} */
  const specs = payload.buffers || [];
  delete payload.buffers;
  const buffers = specs.map(({ offset, length, filter }) => {
    const undo = UNFILTERS[filter];
    if (!undo) throw new Error(`unknown buffer filter ${filter}`);
    return undo(data.subarray(offset, offset + length));
  });
  return { payload, buffers };
}

/** @param {string} text the page's base85 data block */
export async function unpackPage(text) {
  return splitBlock(await inflate(bytesFromBase85(text.trim())));
}
