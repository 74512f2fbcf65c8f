// Lane layout of the timeline: one header line per lane (process and thread or device and
// stream), then one row per nesting depth; the time axis above (the chart's x scale
// ticks it); labels on the left.

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
