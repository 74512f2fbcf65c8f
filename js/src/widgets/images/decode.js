// Images from their bytes as logged: createImageBitmap decodes PNG, JPEG, GIF, WebP and BMP
// off the main thread; an animated GIF is decoded frame by frame where the browser has
// ImageDecoder (WebCodecs), else its first frame shows. Bytes are typed by their signature
// (media/media-type.js): anything but an image type that cannot run script is refused.
import { mediaBlob } from "../../media/media-type.js";

/**
 * @typedef {object} Frame
 * @property {ImageBitmap} bitmap
 * @property {number} duration   milliseconds
 */

/**
 * @typedef {object} DecodedImage
 * @property {ImageBitmap} bitmap   the (first) frame
 * @property {number} width
 * @property {number} height
 * @property {Frame[] | null} frames  an animation's frames
 */

/** Frames of one animation at most (a longer GIF shows its first MAX_FRAMES). */
export const MAX_FRAMES = 300;

/**
 * @param {any} item  an item of the images widget (mime, format, data bytes)
 * @returns {Promise<DecodedImage>}
 */
export async function decodeImage(item) {
  const blob = mediaBlob(item.data, "image", item.mime || item.format);
  if (blob.type === "image/gif") {
    const frames = await gifFrames(item.data);
    if (frames && frames.length > 1) {
      const first = frames[0].bitmap;
      return { bitmap: first, width: first.width, height: first.height, frames };
    }
    for (const f of frames || []) f.bitmap.close();
  }
  const bitmap = await createImageBitmap(blob);
  return { bitmap, width: bitmap.width, height: bitmap.height, frames: null };
}

/** @param {DecodedImage} decoded */
export function releaseImage(decoded) {
  decoded.bitmap.close();
  for (const f of decoded.frames || []) f.bitmap.close();
}

/**
 * Every frame of a GIF with its duration, or null where the browser has no ImageDecoder.
 * @param {Uint8Array} data
 * @returns {Promise<Frame[] | null>}
 */
async function gifFrames(data) {
  const Decoder = /** @type {any} */ (globalThis).ImageDecoder;
  if (typeof Decoder !== "function") return null;
  const decoder = new Decoder({ data, type: "image/gif" });
  try {
    await decoder.tracks.ready;
    const count = Math.min(decoder.tracks.selectedTrack?.frameCount || 1, MAX_FRAMES);
    /** @type {Frame[]} */
    const frames = [];
    for (let i = 0; i < count; i++) {
      const { image } = await decoder.decode({ frameIndex: i });
      try {
        const ms = (image.duration || 0) / 1000; // browsers show a GIF delay under 20 ms as 100 ms
        frames.push({ bitmap: await createImageBitmap(image), duration: ms >= 20 ? ms : 100 });
      } finally {
        image.close();
      }
    }
    return frames;
  } finally {
    decoder.close();
  }
}
