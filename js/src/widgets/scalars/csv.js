// The rows of the scalars CSV download: every drawn series (unzoomed), raw and smoothed.
import { smoothedOverview } from "../../series/series.js";

/** @typedef {import("../../series/store").SeriesRecord} SeriesRecord */

/**
 * @param {SeriesRecord[]} records  each drawn (run, tag) series once
 * @param {{xMode: string, weight: number, mode: "ema" | "time", groups: boolean}} options
 * @returns {{header: string[], rows: unknown[][]}}
 */
export function csvRows(records, { xMode, weight, mode, groups }) {
  const header = ["run", "tag", "step", "wall_time", "value", "smoothed"];
  const xTag = xMode.startsWith("tag:");
  if (groups) header.push("lo", "hi", "n");
  if (xTag) header.push("x");
  /** @type {unknown[][]} */
  const rows = [];
  for (const rec of records) {
    const { sy } = smoothedOverview(rec, xMode, weight, mode);
    const c = rec.cols;
    for (let i = 0; i < c.value.length; i++) {
      /** @type {unknown[]} */
      const row = [rec.run, rec.tag, c.step[i], c.wall[i], c.value[i], sy[i]];
      if (groups) row.push(c.lo ? c.lo[i] : null, c.hi ? c.hi[i] : null, c.n ? c.n[i] : null);
      if (xTag) row.push(c.xv ? c.xv[i] : null);
      rows.push(row);
    }
  }
  return { header, rows };
}
