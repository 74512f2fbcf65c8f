// Layout jobs: one per expanded group, innermost first, each laying out the group's
// children with the layered layout. A child that is itself expanded takes the size its own
// job gave it (plus a frame), so one request lays out every expanded group; a job whose
// children and edges are unchanged comes from the cache (expanding one group recomputes
// that group and its ancestors only). Run in the layout worker, or in the page in small
// steps when a worker cannot be made.

import { layeredLayout } from "./layout.js";

/** Frame of an expanded group around its children: padding and the title bar. */
export const FRAME = { pad: 10, header: 26 };

/**
 * @typedef {object} LayoutJob
 * @property {number} group
 * @property {Float64Array} sizes  w, h per child; an expanded child: w = -(its title's width),
 *   h = its group
 * @property {Int32Array} edges    pairs of child positions
 */

/**
 * @typedef {object} JobResult
 * @property {number} width
 * @property {number} height
 * @property {Float64Array} x       centres of the children
 * @property {Float64Array} y
 * @property {Float64Array} points  every route, concatenated (x, y, x, y, ...)
 * @property {Int32Array} offsets   route r is points[offsets[r] .. offsets[r + 1])
 * @property {number} ms            time spent (0 from the cache)
 */

const CACHE_LIMIT = 400;

/**
 * The size of an expanded group's box from the layout of its children (and its title).
 * @param {{width: number, height: number}} result
 * @param {number} [minWidth]
 */
export function frameSize(result, minWidth = 120) {
  return {
    w: Math.max(result.width + 2 * FRAME.pad, minWidth, 120),
    h: result.height + FRAME.header + FRAME.pad,
  };
}

/**
 * Run one job (sizes of expanded children filled from `done`).
 * @param {LayoutJob} job
 * @param {Map<number, JobResult>} done
 * @param {Map<string, JobResult>} cache
 * @returns {JobResult}
 */
export function runJob(job, done, cache) {
  const count = job.sizes.length >> 1;
  /** @type {{w: number, h: number}[]} */
  const sizes = [];
  for (let i = 0; i < count; i++) {
    const w = job.sizes[2 * i];
    const h = job.sizes[2 * i + 1];
    if (w >= 0) sizes.push({ w, h });
    else {
      const inner = done.get(h);
      sizes.push(inner ? frameSize(inner, -w) : { w: Math.max(-w, 120), h: 40 });
    }
  }
  const key = `${job.group}|${sizes.map((s) => `${s.w.toFixed(1)},${s.h.toFixed(1)}`).join(";")}|${job.edges.join(",")}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key); // most recently used last
    cache.set(key, cached);
    return { ...cached, ms: 0 };
  }
  const start = typeof performance !== "undefined" ? performance.now() : Date.now();
  const laid = layeredLayout(sizes, job.edges);
  let total = 0;
  for (const r of laid.routes) total += r.length;
  const points = new Float64Array(total);
  const offsets = new Int32Array(laid.routes.length + 1);
  let at = 0;
  laid.routes.forEach((r, i) => {
    points.set(r, at);
    at += r.length;
    offsets[i + 1] = at;
  });
  const ms = (typeof performance !== "undefined" ? performance.now() : Date.now()) - start;
  const result = { width: laid.width, height: laid.height, x: laid.x, y: laid.y, points, offsets, ms };
  cache.set(key, result);
  while (cache.size > CACHE_LIMIT) cache.delete(/** @type {string} */ (cache.keys().next().value));
  return result;
}

/**
 * Run every job, innermost first.
 * @param {LayoutJob[]} jobs
 * @param {Map<string, JobResult>} cache
 * @returns {Map<number, JobResult>}
 */
export function runJobs(jobs, cache) {
  /** @type {Map<number, JobResult>} */
  const done = new Map();
  for (const job of jobs) done.set(job.group, runJob(job, done, cache));
  return done;
}
