// The kit's line chart with the custom-scalars readout: the series ("tag (run)"), its
// smoothed and raw value, the band's lower and upper values (margin charts), step and times.
import { LineChart } from "../../chart/line-chart.js";
import { formatDuration, formatNumber, formatWallTime } from "../../core/format.js";

/** @typedef {import("../../chart/readout").ReadoutRow} ReadoutRow */

export class ScalarChart extends LineChart {
  /**
   * @param {ReadoutRow[]} rows
   * @returns {import("../../chart/chart").TooltipTable}
   */
  readoutTable(rows) {
    const band = rows.some((r) => r.series.loRaw);
    const columns = [
      { label: "series", name: true },
      { label: "smoothed" },
      { label: "value" },
      ...(band ? [{ label: "lower" }, { label: "upper" }] : []),
      { label: "step" },
      { label: "wall time" },
      { label: "relative" },
    ];
    const shown = rows.slice(0, 40).map((r) => {
      const s = r.series;
      const j = s.x === s.sx ? r.i : -1; // the band lives on the overview's points
      const edge = (/** @type {import("../../core/types").Numbers | null} */ a) =>
        a && j >= 0 ? formatNumber(a[j], 6) : "";
      return {
        color: s.color,
        cells: [
          s.label,
          formatNumber(r.smoothed, 6),
          formatNumber(r.value, 6),
          ...(band ? [edge(s.loRaw), edge(s.hiRaw)] : []),
          String(r.step),
          formatWallTime(r.wall),
          formatDuration(r.relative),
        ],
      };
    });
    return { columns, rows: shown, more: Math.max(rows.length - 40, 0) };
  }
}
