// Keeping a moving view smooth where drawing every point is slow (a software rasteriser,
// or a weak GPU under millions of points): while the view moves, draw a uniform sample of
// the points sized to a frame budget; once it rests, draw them all.
//
// A draw's cost is measured where it is paid, after the WebGL calls return: a fence follows
// the draw and is polled (never waited on) until the rasteriser has passed it. On a GPU that
// draws every point well within the budget the sample is the whole set, so nothing changes.

/** Fewest points a moving frame draws, however slow the rasteriser. */
export const MIN_MOVING_POINTS = 5000;

/** Draws smaller than this say too little about the cost of a point. */
const MIN_MEASURED_POINTS = 2000;

/**
 * How many points a frame can draw, learnt from what earlier draws cost.
 *
 * @example
 *   const budget = new FrameBudget({ budgetMs: 20 });
 *   budget.record(1_000_000, 1200); // a full draw took 1.2 s on the rasteriser
 *   budget.count(1_000_000, true);  // -> 16666 points while moving
 *   budget.count(1_000_000, false); // -> 1000000 at rest
 */
export class FrameBudget {
  /** @param {{budgetMs?: number}} [options]  budgetMs: rasteriser time per moving frame */
  constructor({ budgetMs = 20 } = {}) {
    this.budgetMs = budgetMs;
    /** Milliseconds per point (smoothed); 0 until a draw has been measured. */
    this.msPerPoint = 0;
    /** A draw is being measured. */
    this.pending = false;
  }

  /**
   * Points to draw of `n`: all of them at rest or while the cost is unknown, else as many
   * as the budget allows (never fewer than {@link MIN_MOVING_POINTS}).
   * @param {number} n @param {boolean} moving
   */
  count(n, moving) {
    if (!moving || this.msPerPoint <= 0) return n;
    const fits = Math.floor(this.budgetMs / this.msPerPoint);
    return Math.min(n, Math.max(fits, MIN_MOVING_POINTS));
  }

  /**
   * Learn from a draw of `points` that the rasteriser finished `ms` after it began.
   * @param {number} points @param {number} ms
   */
  record(points, ms) {
    if (points < MIN_MEASURED_POINTS || !(ms >= 0)) return;
    const perPoint = ms / points;
    this.msPerPoint = this.msPerPoint > 0 ? 0.5 * this.msPerPoint + 0.5 * perPoint : perPoint;
  }

  /**
   * Measure the draw just issued on `gl` (begun at `started`, `performance.now()`
   * milliseconds): a fence polled every few milliseconds, one at a time (a draw issued while
   * another is measured is not measured).
   * @param {WebGL2RenderingContext} gl @param {number} points @param {number} started
   */
  watch(gl, points, started) {
    if (this.pending || points < MIN_MEASURED_POINTS || typeof gl.fenceSync !== "function") return;
    const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
    if (!sync) return;
    gl.flush();
    this.pending = true;
    const deadline = started + 10_000;
    const poll = () => {
      const now = performance.now();
      const status = gl.isContextLost() ? null : gl.getSyncParameter(sync, gl.SYNC_STATUS);
      if (status === gl.SIGNALED || status === null || now > deadline) {
        if (status === gl.SIGNALED) this.record(points, now - started);
        if (status !== null) gl.deleteSync(sync);
        this.pending = false;
        return;
      }
      setTimeout(poll, 2);
    };
    setTimeout(poll, 0);
  }
}

/**
 * The indices 0..n-1 in a fixed shuffled order, so that any prefix is a uniform sample
 * (the same on every page load: a seeded xorshift).
 * @param {number} n
 * @returns {Uint32Array}
 */
export function sampleOrder(n) {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  let state = 0x9e3779b9;
  for (let i = n - 1; i > 0; i--) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const j = (state >>> 0) % (i + 1);
    const t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  return order;
}
