// The axes of a clip's pictures: frequency ticks beside the spectrogram (linear or log, as
// it is painted) and time ticks under the waveform and spectrogram, from the kit's scales
// (chart/scales.js: round values, the one number format). Ticks are fractions of the
// picture (0 = top or left), so the labels sit on the pictures at any width.
import { linearScale, logScale } from "../../chart/scales.js";
import { el } from "../../core/dom.js";

/** @typedef {{pos: number, label: string}} AxisTick */

/**
 * Frequency ticks of a spectrogram painted by `paintSpectrogram` (0 Hz, or 20 Hz on a log
 * axis, at the bottom; the Nyquist frequency at the top), in kHz; the top label says the unit.
 * @param {number} rate  samples per second
 * @param {"linear" | "log"} scale
 * @returns {AxisTick[]}  pos: 0 at the top, 1 at the bottom
 */
export function frequencyTicks(rate, scale) {
  const nyquist = rate / 2000;
  if (!(nyquist > 0)) return [];
  const low = Math.min(20 / 1000, nyquist / 100);
  const s = scale === "log" ? logScale([low, nyquist], [1, 0]) : linearScale([0, nyquist], [1, 0]);
  const ticks = s.ticks(4).filter((t) => t.pos >= -1e-9 && t.pos <= 1 + 1e-9);
  return withUnit(ticks, "kHz", ticks.length - 1);
}

/**
 * Time ticks of a clip `duration` seconds long; the last label says the unit.
 * @param {number} duration
 * @param {number} [count]  about this many
 * @returns {AxisTick[]}  pos: 0 at the left, 1 at the right
 */
export function timeTicks(duration, count = 5) {
  if (!(duration > 0)) return [];
  const ticks = linearScale([0, duration], [0, 1]).ticks(count);
  return withUnit(ticks, "s", ticks.length - 1);
}

/**
 * @param {import("../../chart/scales").Tick[]} ticks
 * @param {string} unit
 * @param {number} at  the tick that carries the unit
 * @returns {AxisTick[]}
 */
function withUnit(ticks, unit, at) {
  return ticks.map((t, i) => ({ pos: t.pos, label: i === at ? `${t.label} ${unit}` : t.label }));
}

/**
 * Show `ticks` in `axis` (one label per tick at its fraction along the axis).
 * @param {HTMLElement} axis
 * @param {AxisTick[]} ticks
 * @param {"left" | "top"} side  the CSS property the fraction sets
 */
export function renderTicks(axis, ticks, side) {
  axis.replaceChildren(
    ...ticks.map((t) => {
      const edge = t.pos < 0.04 ? "start" : t.pos > 0.96 ? "end" : "mid";
      return el("span", {
        class: "tbnb-audio-tick",
        "data-edge": edge,
        style: { [side]: `${(t.pos * 100).toFixed(2)}%` },
        text: t.label,
      });
    }),
  );
}
