// WAV files as the writers store them (torch, tensorboardX and TF2 write 16-bit PCM):
// PCM of 8, 16, 24 or 32 bits and IEEE float of 32 or 64 bits, also inside
// WAVE_FORMAT_EXTENSIBLE, parsed into one Float32Array per channel in [-1, 1] at the
// file's own rate (Web Audio's decodeAudioData would resample to the device's rate).
// The mirror of tbnb/widgets/audio/prepare.py: decode_wav. Pure: no DOM.

/**
 * @typedef {object} Clip
 * @property {number} rate          samples per second
 * @property {Float32Array[]} channels
 * @property {number} frames
 * @property {number} bits
 * @property {"pcm" | "float"} encoding
 */

const PCM = 1;
const FLOAT = 3;
const EXTENSIBLE = 0xfffe;

/**
 * @param {Uint8Array} bytes
 * @returns {Clip}
 */
export function parseWav(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (/** @type {number} */ at) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== "RIFF" || tag(8) !== "WAVE")
    throw new Error("not a WAV file (no RIFF/WAVE header)");
  let pos = 12;
  /** @type {{code: number, channels: number, rate: number, bits: number} | null} */
  let fmt = null;
  while (pos + 8 <= bytes.length) {
    const id = tag(pos);
    const size = view.getUint32(pos + 4, true);
    const body = pos + 8;
    if (id === "fmt " && size >= 16) {
      let code = view.getUint16(body, true);
      if (code === EXTENSIBLE && size >= 26) code = view.getUint16(body + 24, true);
      fmt = {
        code,
        channels: view.getUint16(body + 2, true),
        rate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === "data") {
      if (!fmt) throw new Error("WAV data before its fmt chunk");
      const end = Math.min(body + size, bytes.length);
      return samples(view, body, end, fmt);
    }
    pos = body + size + (size & 1);
  }
  throw new Error("WAV file without a data chunk");
}

/**
 * @param {DataView} view
 * @param {number} start
 * @param {number} end
 * @param {{code: number, channels: number, rate: number, bits: number}} fmt
 * @returns {Clip}
 */
function samples(view, start, end, { code, channels, rate, bits }) {
  const width = bits >> 3;
  if (channels < 1 || width < 1) throw new Error(`WAV with ${channels} channels of ${bits} bits`);
  const frames = Math.floor((end - start) / (width * channels));
  /** @type {(at: number) => number} */
  let read;
  if (code === FLOAT && bits === 32) read = (at) => view.getFloat32(at, true);
  else if (code === FLOAT && bits === 64) read = (at) => view.getFloat64(at, true);
  else if (code === PCM && bits === 8) read = (at) => (view.getUint8(at) - 128) / 128;
  else if (code === PCM && bits === 16) read = (at) => view.getInt16(at, true) / 32768;
  else if (code === PCM && bits === 32) read = (at) => view.getInt32(at, true) / 2147483648;
  else if (code === PCM && bits === 24) {
    read = (at) => {
      const v = view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
      return (v >= 0x800000 ? v - 0x1000000 : v) / 0x800000;
    };
  } else throw new Error(`WAV format ${code} with ${bits} bits is not PCM or float`);
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  const stride = width * channels;
  for (let f = 0; f < frames; f++) {
    const at = start + f * stride;
    for (let c = 0; c < channels; c++) out[c][f] = read(at + c * width);
  }
  return { rate, channels: out, frames, bits, encoding: code === FLOAT ? "float" : "pcm" };
}

/**
 * The mean of the channels (what the spectrogram shows).
 * @param {Float32Array[]} channels
 * @returns {Float32Array}
 */
export function mixdown(channels) {
  if (channels.length === 1) return channels[0];
  const n = channels[0]?.length || 0;
  const out = new Float32Array(n);
  for (const ch of channels) for (let i = 0; i < n; i++) out[i] += ch[i] / channels.length;
  return out;
}
