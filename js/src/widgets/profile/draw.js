// Drawing the timeline on a 2D canvas from the window's binary columns: spans batched by
// kind (one fill style per kind), names inside spans wide enough, the axis, lane labels,
// search matches and the selection outlined, flow arrows from launches to device events.
import { formatDuration, KIND_COLORS } from "./data.js";
import { AXIS_H, HEAD_H, LABEL_W, ROW_H } from "./layout.js";

/**
 * @typedef {object} Frame
 * @property {CanvasRenderingContext2D} ctx
 * @property {number} width
 * @property {number} height
 * @property {number} v0      view start (us)
 * @property {number} v1      view end (us)
 * @property {import("../../chart/scales").Tick[]} ticks  the time axis (positions in
 *   canvas pixels, labels read from the trace's start)
 * @property {number} scrollY
 * @property {import("./layout").LaneLayout} layout
 * @property {any} lanes
 * @property {any} win        the window's columns
 * @property {string[]} names
 * @property {string[]} kinds
 * @property {number} selected  the selected span's row (-1 none)
 * @property {Set<number>} matches rows matching the search
 * @property {boolean} flows
 * @property {boolean} dark
 */

/** Kinds drawn in light colours: their names are written in dark text. */
const LIGHT_KINDS = new Set(["python", "step", "annotation", "other"]);

/**
 * Draw one frame; returns how many flow arrows it drew.
 * @param {Frame} f
 */
export function drawFrame(f) {
  const { ctx, width, height } = f;
  ctx.clearRect(0, 0, width, height);
  const plotW = width - LABEL_W;
  const k = plotW / (f.v1 - f.v0 || 1);
  const xOf = (/** @type {number} */ t) => LABEL_W + (t - f.v0) * k;
  const win = f.win;
  const n = win?.start?.length || 0;
  const text = f.dark ? "#ddd" : "#222";
  ctx.save();
  ctx.beginPath();
  ctx.rect(LABEL_W, AXIS_H, plotW, height - AXIS_H);
  ctx.clip();
  /** @type {number[][]} */
  const byKind = f.kinds.map(() => []);
  /** @type {number[]} */
  const labelled = [];
  for (let i = 0; i < n; i++) {
    const top = f.layout.top.get(win.lane[i]);
    if (top === undefined) continue;
    const y = AXIS_H + top + win.depth[i] * ROW_H - f.scrollY;
    if (y + ROW_H < AXIS_H || y > height) continue;
    const x0 = xOf(win.start[i]);
    const x1 = xOf(win.start[i] + win.dur[i]);
    if (x1 < LABEL_W || x0 > width) continue;
    (byKind[win.kind[i]] || byKind[byKind.length - 1]).push(i);
    if (x1 - x0 > 40 && win.count[i] === 1) labelled.push(i);
  }
  for (let kind = 0; kind < byKind.length; kind++) {
    const list = byKind[kind];
    if (!list.length) continue;
    const color = KIND_COLORS[/** @type {keyof typeof KIND_COLORS} */ (f.kinds[kind])] || "#999";
    ctx.fillStyle = color;
    for (const i of list) {
      const top = /** @type {number} */ (f.layout.top.get(win.lane[i]));
      const y = AXIS_H + top + win.depth[i] * ROW_H - f.scrollY;
      const x0 = Math.max(LABEL_W - 1, xOf(win.start[i]));
      const x1 = Math.min(width + 1, xOf(win.start[i] + win.dur[i]));
      ctx.globalAlpha = win.count[i] > 1 ? 0.55 : 1;
      ctx.fillRect(x0, y + 1, Math.max(x1 - x0, 0.75), ROW_H - 2);
    }
  }
  ctx.globalAlpha = 1;
  ctx.font = "10px sans-serif";
  ctx.textBaseline = "middle";
  for (const i of labelled) {
    ctx.fillStyle = LIGHT_KINDS.has(f.kinds[win.kind[i]]) ? "#222" : "#fff";
    const top = /** @type {number} */ (f.layout.top.get(win.lane[i]));
    const y = AXIS_H + top + win.depth[i] * ROW_H - f.scrollY;
    const x0 = Math.max(LABEL_W, xOf(win.start[i]));
    const x1 = Math.min(width, xOf(win.start[i] + win.dur[i]));
    const room = x1 - x0 - 6;
    if (room < 20) continue;
    const name = f.names[win.name[i]] || "";
    const chars = Math.max(1, Math.floor(room / 5.6));
    ctx.fillText(name.length > chars ? `${name.slice(0, chars - 1)}…` : name, x0 + 3, y + ROW_H / 2);
  }
  outline(f, xOf, (row) => f.matches.has(row), "#ffb000", 2);
  outline(f, xOf, (row) => row === f.selected, f.dark ? "#fff" : "#000", 2);
  const arrows = f.flows ? drawFlows(f, xOf) : 0;
  ctx.restore();
  drawAxis(f, text);
  drawLabels(f, text);
  return arrows;
}

/**
 * @param {Frame} f
 * @param {(t: number) => number} xOf
 * @param {(row: number) => boolean} test
 * @param {string} color
 * @param {number} lineWidth
 */
function outline(f, xOf, test, color, lineWidth) {
  const { ctx, win } = f;
  const n = win?.start?.length || 0;
  ctx.strokeStyle = color;
  ctx.lineWidth = lineWidth;
  for (let i = 0; i < n; i++) {
    if (win.row[i] < 0 || !test(win.row[i])) continue;
    const top = f.layout.top.get(win.lane[i]);
    if (top === undefined) continue;
    const y = AXIS_H + top + win.depth[i] * ROW_H - f.scrollY;
    const x0 = xOf(win.start[i]);
    const w = Math.max(xOf(win.start[i] + win.dur[i]) - x0, 2);
    ctx.strokeRect(x0, y + 0.5, w, ROW_H - 1);
  }
}

/**
 * Arrows from each launch (a host span with a correlation id, drawn alone at this zoom)
 * to its device events; returns how many.
 * @param {Frame} f
 * @param {(t: number) => number} xOf
 */
function drawFlows(f, xOf) {
  const { ctx, win } = f;
  const n = win?.start?.length || 0;
  const device = new Set();
  const lanes = f.lanes;
  for (let i = 0; i < (lanes?.lane?.length || 0); i++) if (lanes.device[i]) device.add(lanes.lane[i]);
  /** @type {Map<number, number>} */
  const launch = new Map();
  for (let i = 0; i < n; i++) {
    if (win.correlation[i] >= 0 && win.count[i] === 1 && !device.has(win.lane[i])) launch.set(win.correlation[i], i);
  }
  let arrows = 0;
  ctx.strokeStyle = "rgba(200,60,20,.8)";
  ctx.fillStyle = "rgba(200,60,20,.8)";
  ctx.lineWidth = 1;
  const yOf = (/** @type {number} */ i) =>
    AXIS_H + /** @type {number} */ (f.layout.top.get(win.lane[i])) + win.depth[i] * ROW_H - f.scrollY;
  for (let i = 0; i < n; i++) {
    if (!device.has(win.lane[i]) || win.correlation[i] < 0) continue;
    const from = launch.get(win.correlation[i]);
    if (from === undefined) continue;
    const x0 = xOf(win.start[from]);
    const y0 = yOf(from) + ROW_H / 2;
    const x1 = xOf(win.start[i]);
    const y1 = yOf(i) + 1;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.lineTo(x1, y1);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - 3, y1 - 5);
    ctx.lineTo(x1 + 3, y1 - 5);
    ctx.fill();
    arrows += 1;
  }
  return arrows;
}

/**
 * @param {Frame} f
 * @param {string} color
 */
function drawAxis(f, color) {
  const { ctx, width } = f;
  ctx.fillStyle = f.dark ? "#222" : "#f6f6f6";
  ctx.fillRect(0, 0, width, AXIS_H);
  ctx.fillStyle = color;
  ctx.font = "10px sans-serif";
  ctx.textBaseline = "middle";
  ctx.textAlign = "left";
  for (const t of f.ticks) {
    ctx.fillRect(t.pos, AXIS_H - 5, 1, 5);
    ctx.fillText(t.label, t.pos + 3, AXIS_H / 2);
  }
  ctx.fillText(`view ${formatDuration(f.v1 - f.v0)}`, 4, AXIS_H / 2);
}

/**
 * @param {Frame} f
 * @param {string} color
 */
function drawLabels(f, color) {
  const { ctx, height } = f;
  const lanes = f.lanes;
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, AXIS_H, LABEL_W, height - AXIS_H);
  ctx.clip();
  ctx.fillStyle = f.dark ? "#1b1b1b" : "#fafafa";
  ctx.fillRect(0, AXIS_H, LABEL_W, height - AXIS_H);
  ctx.font = "10.5px sans-serif";
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  for (let i = 0; i < (lanes?.lane?.length || 0); i++) {
    const y = AXIS_H + f.layout.heads[i] - f.scrollY;
    if (y > height || y + HEAD_H + lanes.depth[i] * ROW_H < AXIS_H) continue;
    ctx.fillStyle = color;
    const label = `${lanes.process[i]} · ${lanes.thread[i]}`;
    ctx.fillText(label.length > 30 ? `${label.slice(0, 29)}…` : label, 4, y + HEAD_H / 2);
    ctx.fillStyle = f.dark ? "#333" : "#e4e4e4";
    ctx.fillRect(0, y, f.width, 1);
  }
  ctx.restore();
}
