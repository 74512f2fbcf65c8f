// Render scheduling: any number of requests within one frame give one call.

/**
 * @typedef {object} FrameScheduler
 * @property {() => void} request  ask for one call of the callback on the next frame
 * @property {() => void} cancel   drop a pending call
 * @property {() => boolean} pending
 */

/**
 * Coalesce redraw requests onto `requestAnimationFrame` (a 16 ms timer where there is none,
 * as in node's tests). Requests made while the callback runs schedule the next frame.
 * @param {() => void} callback
 * @param {{raf?: (cb: FrameRequestCallback) => number, caf?: (id: number) => void}} [timers]
 * @returns {FrameScheduler}
 */
export function frameScheduler(callback, timers = {}) {
  const raf =
    timers.raf ||
    (typeof requestAnimationFrame === "function"
      ? requestAnimationFrame
      : (/** @type {FrameRequestCallback} */ cb) => Number(setTimeout(() => cb(Date.now()), 16)));
  const caf =
    timers.caf ||
    (typeof cancelAnimationFrame === "function"
      ? cancelAnimationFrame
      : (/** @type {number} */ id) => clearTimeout(id));
  let frame = 0;
  return {
    request() {
      if (frame) return;
      frame = raf(() => {
        frame = 0;
        callback();
      });
    },
    cancel() {
      if (frame) caf(frame);
      frame = 0;
    },
    pending: () => frame !== 0,
  };
}
