// TensorBoard's distribution chart: four nested bands (min-max, 6.68-93.32 %, 15.87-84.13 %,
// 30.85-69.15 %) darker toward the middle, the median as a line; hover shows a step's nine
// values. And the runs-at-a-step chart: each run's histogram at one step on common bins.
import { linearScale } from "../../chart/scales.js";
import { formatNumber } from "../../core/format.js";
import { binRange, darker, drawAxes, formatTime, rgbOf, timeScaleOf, timeValues } from "./frame.js";
import { BPS } from "./math.js";

/** @typedef {import("./model").ChartData} ChartData */
/** @typedef {import("./model").AtStepData} AtStepData */
/** @typedef {import("./frame").Box} Box */
/** @typedef {import("./ridges").Drawn} Drawn */

const NB = BPS.length;
const OPACITY = [0.13, 0.22, 0.32, 0.45];
const LABELS = ["max", "93.32%", "84.13%", "69.15%", "median", "30.85%", "15.87%", "6.68%", "min"];

/**
 * @param {CanvasRenderingContext2D} ctx
 * @param {Box} box
 * @param {ChartData} data
 * @param {import("./ridges").DrawOptions} o
 * @returns {Drawn}
 */
export function drawBands(ctx, box, data, o) {
  const n = data.steps.length;
  const times = timeValues(data, o.axis, o.wall0);
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < n; k++) {
    const a = data.bands[k * NB];
    const b = data.bands[k * NB + NB - 1];
    if (Number.isFinite(a)) lo = Math.min(lo, a);
    if (Number.isFinite(b)) hi = Math.max(hi, b);
  }
  if (!(hi >= lo)) [lo, hi] = [0, 1];
  const x = timeScaleOf(o.axis, n ? [times[0], times[n - 1]] : [0, 1], [box.left, box.right]);
  const pad = (hi - lo) * 0.03;
  const y = linearScale([lo - pad, hi + pad], [box.bottom, box.top]);
  drawAxes(ctx, box, x, y, o.styled);
  if (!n) return { pick: () => null };
  const rgb = rgbOf(o.color);
  const px = (/** @type {number} */ k) => (n > 1 ? x.map(times[k]) : (box.left + box.right) / 2);
  for (let band = 0; band < 4; band++) {
    ctx.beginPath();
    for (let k = 0; k < n; k++) ctx.lineTo(px(k), y.map(data.bands[k * NB + NB - 1 - band]));
    for (let k = n - 1; k >= 0; k--) ctx.lineTo(px(k), y.map(data.bands[k * NB + band]));
    ctx.closePath();
    ctx.fillStyle = `rgba(${rgb[0]},${rgb[1]},${rgb[2]},${OPACITY[band]})`;
    ctx.fill();
  }
  ctx.beginPath();
  for (let k = 0; k < n; k++) ctx.lineTo(px(k), y.map(data.bands[k * NB + 4]));
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = darker(rgb, 0.15);
  ctx.stroke();
  return {
    pick(mx) {
      if (mx < box.left - 4 || mx > box.right + 4) return null;
      let k = 0;
      let best = Number.POSITIVE_INFINITY;
      for (let i = 0; i < n; i++) {
        const d = Math.abs(px(i) - mx);
        if (d < best) [best, k] = [d, i];
      }
      const approx = data.exact ? "" : "≈";
      const when = o.axis === "step" ? formatTime("wall", data.wall[k] * 1000) : formatTime(o.axis, times[k]);
      const rows = LABELS.map((label, i) => ({
        color: i === 4 ? o.color : `rgba(${rgb[0]},${rgb[1]},${rgb[2]},${OPACITY[Math.min(i, 8 - i)] + 0.1})`,
        cells: [label, `${approx}${formatNumber(data.bands[k * NB + 8 - i], 5)}`],
      }));
      rows.unshift({ color: "transparent", cells: [`step ${formatNumber(data.steps[k], 12)}`, when] });
      return {
        table: { columns: [{ label: "" }, { label: "value" }], rows },
        points: [{ x: px(k), y: y.map(data.bands[k * NB + 4]) }],
        describe: `step ${data.steps[k]} median ${data.bands[k * NB + 4]}`,
        highlight(c) {
          c.strokeStyle = "#111";
          c.globalAlpha = 0.5;
          c.lineWidth = 1;
          c.beginPath();
          c.moveTo(Math.round(px(k)) + 0.5, box.top);
          c.lineTo(Math.round(px(k)) + 0.5, box.bottom);
          c.stroke();
          c.globalAlpha = 1;
          for (let i = 0; i < NB; i++) {
            c.beginPath();
            c.arc(px(k), y.map(data.bands[k * NB + i]), i === 4 ? 3 : 2, 0, 2 * Math.PI);
            c.fillStyle = i === 4 ? "#111" : o.color;
            c.fill();
          }
        },
      };
    },
  };
}

/**
 * Each run's histogram at one step: a translucent area and a line in the run's colour.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Box} box
 * @param {AtStepData} data
 * @param {{colors: Record<string, string>, styled: Element, axis: import("./model").TimeAxis}} o
 * @returns {Drawn}
 */
export function drawRuns(ctx, box, data, o) {
  let most = 0;
  for (const item of data.items) for (const c of item.counts) most = Math.max(most, c);
  const ok = Number.isFinite(data.left) && data.items.length > 0;
  const x = linearScale(ok ? [data.left, data.right] : [0, 1], [box.left, box.right]);
  const y = linearScale([0, most || 1], [box.bottom, box.top], { nice: 4 });
  drawAxes(ctx, box, x, y, o.styled);
  if (!ok) return { pick: () => null };
  const dx = (data.right - data.left) / data.bins;
  const cx = (/** @type {number} */ j) => x.map(data.left + (j + 0.5) * dx);
  for (const item of data.items) {
    const rgb = rgbOf(o.colors[item.run] || "#4e79a7");
    ctx.beginPath();
    ctx.moveTo(x.map(data.left), box.bottom);
    for (let j = 0; j < data.bins; j++) ctx.lineTo(cx(j), y.map(item.counts[j]));
    ctx.lineTo(x.map(data.left + (data.bins - 1) * dx + dx), box.bottom);
    ctx.fillStyle = `rgba(${rgb[0]},${rgb[1]},${rgb[2]},${Math.max(0.04, 0.3 / data.items.length)})`;
    ctx.fill();
    ctx.beginPath();
    for (let j = 0; j < data.bins; j++) ctx.lineTo(cx(j), y.map(item.counts[j]));
    ctx.lineWidth = 1.6;
    ctx.strokeStyle = o.colors[item.run] || "#4e79a7";
    ctx.stroke();
  }
  return {
    pick(mx) {
      if (mx < box.left || mx > box.right) return null;
      const j = Math.min(Math.max(Math.floor((x.invert(mx) - data.left) / dx), 0), data.bins - 1);
      const [lo, hi] = binRange(data.left, data.right, data.bins, j);
      const approx = data.exact ? "" : "≈";
      const rows = data.items.map((item) => ({
        color: o.colors[item.run] || "#4e79a7",
        cells: [
          item.run,
          formatNumber(item.step, 12),
          `${approx}${formatNumber(item.counts[j], 4)}`,
          formatNumber(item.num, 6),
        ],
      }));
      return {
        table: {
          columns: [
            { label: `bin [${formatNumber(lo)}, ${formatNumber(hi)})`, name: true },
            { label: "step" },
            { label: "count" },
            { label: "total" },
          ],
          rows,
        },
        points: data.items.map((item) => ({ x: cx(j), y: y.map(item.counts[j]) })),
        describe: `bin ${j} ${data.items.map((i) => `${i.run}:${i.counts[j]}`).join(" ")}`,
        highlight(c) {
          c.strokeStyle = "#111";
          c.globalAlpha = 0.45;
          c.beginPath();
          c.moveTo(Math.round(cx(j)) + 0.5, box.top);
          c.lineTo(Math.round(cx(j)) + 0.5, box.bottom);
          c.stroke();
          c.globalAlpha = 1;
        },
      };
    },
  };
}
