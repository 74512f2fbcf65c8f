// Drawing decoded images on canvases: one frame, an animation, the before/after wipe.

/**
 * Draw `bitmap` on `canvas` at its natural size (CSS scales the canvas).
 * @param {HTMLCanvasElement} canvas
 * @param {ImageBitmap} bitmap
 */
export function paint(canvas, bitmap) {
  if (canvas.width !== bitmap.width || canvas.height !== bitmap.height) {
    canvas.width = bitmap.width;
    canvas.height = bitmap.height;
  }
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.drawImage(bitmap, 0, 0);
}

/**
 * Size a canvas on the page: `width` CSS pixels wide, sharp or smooth pixels.
 * @param {HTMLCanvasElement} canvas
 * @param {{width: number, sharp: boolean}} display
 */
export function place(canvas, display) {
  canvas.style.width = `${display.width}px`;
  canvas.classList.toggle("tbnb-pixelated", display.sharp);
}

/**
 * Play an animation's frames on `canvas` until `stop()`.
 * @param {HTMLCanvasElement} canvas
 * @param {{bitmap: ImageBitmap, duration: number}[]} frames
 * @returns {{stop: () => void}}
 */
export function animate(canvas, frames) {
  let i = 0;
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout>} */
  let timer;
  const tick = () => {
    if (stopped) return;
    i = (i + 1) % frames.length;
    try {
      paint(canvas, frames[i].bitmap);
    } catch {
      stopped = true; // the frames were released (the item left the cache)
      return;
    }
    timer = setTimeout(tick, frames[i].duration);
  };
  timer = setTimeout(tick, frames[0].duration);
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * The before/after wipe: `a` left of `split` (0..1 of the width), `b` right of it, both
 * at `a`'s size (the dividing line is an element over the canvas).
 * @param {HTMLCanvasElement} canvas
 * @param {ImageBitmap} a
 * @param {ImageBitmap} b
 * @param {number} split
 */
export function paintWipe(canvas, a, b, split) {
  const w = a.width;
  const h = a.height;
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  ctx.clearRect(0, 0, w, h);
  ctx.drawImage(a, 0, 0, w, h);
  const x = Math.round(Math.min(Math.max(split, 0), 1) * w);
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, 0, w - x, h);
  ctx.clip();
  ctx.clearRect(x, 0, w - x, h);
  ctx.drawImage(b, 0, 0, w, h);
  ctx.restore();
}
