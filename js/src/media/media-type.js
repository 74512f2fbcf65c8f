// Which bytes from logs may become a blob: URL, and with which type.
//
// A blob: URL lives in the page's origin: opened in a new tab (the browser's own menu, a
// copied address), a blob typed text/html or image/svg+xml is a document whose script runs
// with the user's Jupyter credentials. So media get a URL only under an allow-list of
// types that cannot run script, decided from the bytes' signature, never from the type
// the file claims (an audio summary's content_type is the writer's word): WAV, MP3, Ogg,
// FLAC; PNG, JPEG, GIF, WebP, BMP. Anything else is "unsupported media type", offered as
// a download (application/octet-stream, which no browser renders). tbnb/kinds/blob.py
// (media_type) sniffs with the same signatures (tests/kinds/test_media_types.py runs both).

/** Start of the message of a refused item (the card offers the bytes as a download). */
export const UNSUPPORTED = "unsupported media type";

/**
 * The media type of `bytes` from their signature, "" when none is allowed.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function sniffMediaType(bytes) {
  const b = bytes;
  const ascii = (/** @type {number} */ at, /** @type {string} */ s) =>
    b.length >= at + s.length && [...s].every((c, i) => b[at + i] === c.charCodeAt(0));
  if (ascii(0, "RIFF") && ascii(8, "WAVE")) return "audio/wav";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "image/webp";
  if (ascii(0, "OggS")) return "audio/ogg";
  if (ascii(0, "fLaC")) return "audio/flac";
  if (ascii(0, "ID3") || (b.length >= 2 && b[0] === 0xff && (b[1] & 0xe0) === 0xe0 && (b[1] & 0x06) !== 0)) {
    return "audio/mpeg"; // an ID3 tag, or an MPEG audio frame (layer bits set: not AAC)
  }
  if (b.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((v, i) => b[i] === v)) {
    return "image/png";
  }
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return "image/gif";
  if (ascii(0, "BM") && b.length >= 14) return "image/bmp";
  return "";
}

/**
 * A blob of `bytes` typed by their signature, if it is an allowed type of `kind`.
 * @param {Uint8Array} bytes
 * @param {"audio" | "image"} kind
 * @param {string} [claimed]  the type the file claims (named in the error only)
 * @returns {Blob}
 */
export function mediaBlob(bytes, kind, claimed = "") {
  const type = sniffMediaType(bytes);
  if (!type.startsWith(`${kind}/`)) {
    const said = claimed ? `, logged as ${claimed}` : "";
    throw new Error(`${UNSUPPORTED} (${bytes.length} bytes${said}: not ${kind} a browser plays safely)`);
  }
  return new Blob([/** @type {BlobPart} */ (bytes)], { type });
}

/**
 * Bytes as a download only (application/octet-stream: saved, never rendered).
 * @param {Uint8Array} bytes
 * @returns {Blob}
 */
export function downloadOnly(bytes) {
  return new Blob([/** @type {BlobPart} */ (bytes)], { type: "application/octet-stream" });
}
