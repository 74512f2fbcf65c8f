// A clip from its WAV bytes: samples per channel (wav.js), a blob: URL for the player,
// and the waveform and spectrogram computed once, when the clip arrives, so moving the
// step slider over fetched steps only paints.
import { mediaBlob } from "../../media/media-type.js";
import { envelope, fftSize, spectrogram } from "./spectrum.js";
import { mixdown, parseWav } from "./wav.js";

/** Columns of the precomputed waveform and spectrogram (the canvases scale them). */
export const COLUMNS = 400;

/**
 * @typedef {object} DecodedClip
 * @property {string} url        blob: URL of the WAV bytes (the <audio> element plays it)
 * @property {number} rate
 * @property {number} frames
 * @property {number} channels
 * @property {number} duration   seconds
 * @property {{min: Float32Array, max: Float32Array}[]} bands
 * @property {{db: Float32Array, bins: number, columns: number}} spectrum
 */

/**
 * @param {any} item  an item of the audio widget (content_type, data bytes)
 * @returns {Promise<DecodedClip>}
 */
export async function decodeClip(item) {
  const blob = mediaBlob(item.data, "audio", item.content_type); // typed by its bytes, not its claim
  const clip = parseWav(item.data);
  const mono = mixdown(clip.channels);
  const url = URL.createObjectURL(blob);
  return {
    url,
    rate: clip.rate,
    frames: clip.frames,
    channels: clip.channels.length,
    duration: clip.rate ? clip.frames / clip.rate : 0,
    bands: clip.channels.map((ch) => envelope(ch, COLUMNS)),
    spectrum: spectrogram(mono, Math.min(COLUMNS, Math.max(1, Math.floor(clip.frames / 16))), {
      nfft: fftSize(clip.rate),
    }),
  };
}

/** @param {DecodedClip} decoded */
export function releaseClip(decoded) {
  URL.revokeObjectURL(decoded.url);
}
