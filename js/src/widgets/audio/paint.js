// Drawing a clip: its waveform (one band per channel, min/max per column) and its
// spectrogram (viridis, 0 Hz at the bottom, a linear or log frequency axis).
import { viridis } from "../../color/palettes.js";

/** @type {Uint8ClampedArray | null} */
let LUT = null;

/** 256 viridis colours as RGB bytes. */
function lut() {
  if (LUT) return LUT;
  LUT = new Uint8ClampedArray(256 * 3);
  for (let i = 0; i < 256; i++) {
    const [r, g, b] = (viridis(i / 255).match(/\d+/g) || ["0", "0", "0"]).map(Number);
    LUT.set([r, g, b], i * 3);
  }
  return LUT;
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {number} width
 * @param {number} height
 */
function sized(canvas, width, height) {
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
  }
  return /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{min: Float32Array, max: Float32Array}[]} bands  one envelope per channel
 * @param {string} color
 * @param {number} height  pixels of the canvas
 */
export function paintWaveform(canvas, bands, color, height) {
  const width = bands[0]?.min.length || 1;
  const ctx = sized(canvas, width, height);
  ctx.clearRect(0, 0, width, height);
  const band = height / Math.max(bands.length, 1);
  bands.forEach((env, c) => {
    const mid = band * (c + 0.5);
    ctx.fillStyle = "rgba(128,128,128,0.35)";
    ctx.fillRect(0, Math.round(mid), width, 1);
    ctx.fillStyle = color;
    for (let x = 0; x < env.min.length; x++) {
      const top = mid - (Math.min(Math.max(env.max[x], -1), 1) * band) / 2;
      const bottom = mid - (Math.min(Math.max(env.min[x], -1), 1) * band) / 2;
      ctx.fillRect(x, top, 1, Math.max(bottom - top, 1));
    }
  });
}

/**
 * @param {HTMLCanvasElement} canvas
 * @param {{db: Float32Array, bins: number, columns: number}} spec
 * @param {number} rate
 * @param {"linear" | "log"} scale
 * @param {number} floorDb
 */
export function paintSpectrogram(canvas, spec, rate, scale, floorDb = -80) {
  const { db, bins, columns } = spec;
  const height = scale === "log" ? 160 : bins;
  const ctx = sized(canvas, columns, height);
  const image = ctx.createImageData(columns, height);
  const colors = lut();
  const nyquist = rate / 2;
  const low = Math.min(20, nyquist / 100);
  for (let y = 0; y < height; y++) {
    const t = 1 - y / Math.max(height - 1, 1); // 1 at the top
    const hz = scale === "log" ? low * (nyquist / low) ** t : t * nyquist;
    const k = Math.min(Math.round((hz / nyquist) * (bins - 1)), bins - 1);
    for (let x = 0; x < columns; x++) {
      const v = Math.round(((db[k * columns + x] - floorDb) / -floorDb) * 255);
      const o = (y * columns + x) * 4;
      const i = Math.min(Math.max(v, 0), 255) * 3;
      image.data[o] = colors[i];
      image.data[o + 1] = colors[i + 1];
      image.data[o + 2] = colors[i + 2];
      image.data[o + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
}
