// Lane layout of the timeline: one header line per lane (process and thread or device and
// stream), then one row per nesting depth; the time axis above; labels on the left.

export const AXIS_H = 20;
export const ROW_H = 14;
export const HEAD_H = 16;
export const LABEL_W = 170;

/**
 * @typedef {object} LaneLayout
 * @property {Map<number, number>} top    lane id -> y of its first row (content coordinates)
 * @property {number[]} order             lane ids, drawn top to bottom
 * @property {number[]} heads             y of each lane's header
 * @property {number} height              total content height
 */

/**
 * @param {any} lanes  `_timeline.lanes` (lane, depth, process, thread, device)
 * @returns {LaneLayout}
 */
export function layoutLanes(lanes) {
  const top = new Map();
  const order = [];
  const heads = [];
  let y = 0;
  const ids = lanes?.lane || [];
  for (let i = 0; i < ids.length; i++) {
    heads.push(y);
    y += HEAD_H;
    top.set(ids[i], y);
    order.push(ids[i]);
    y += Math.max(1, lanes.depth[i]) * ROW_H + 4;
  }
  return { top, order, heads, height: y };
}

/**
 * Tick values for the axis between `v0` and `v1` (microseconds), about `n` of them.
 * @param {number} v0
 * @param {number} v1
 * @param {number} n
 */
export function ticks(v0, v1, n) {
  const span = v1 - v0;
  if (!(span > 0)) return [];
  const raw = span / Math.max(1, n);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || 10 * power;
  const out = [];
  for (let v = Math.ceil(v0 / step) * step; v <= v1; v += step) out.push(v);
  return out;
}
