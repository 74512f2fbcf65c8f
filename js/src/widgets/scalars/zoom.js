// A scalars chart's drag-zoom: drawn at once from the points the view holds, then from the
// range at full resolution the kernel sends (without a kernel, as in an exported page, the
// points held stay).
import { setText } from "../../core/dom.js";
import { RequestError } from "../../core/request.js";
import { seriesKey } from "../../series/store.js";

/** @typedef {import("./chart-panel").ChartPanel} ChartPanel */
/** @typedef {import("./view").ScalarsView} ScalarsView */

/** Back to the whole range. @param {ChartPanel} p */
export function clearZoom(p) {
  if (p.chart) p.chart.zoom = null;
  p.zoomData = null;
  p.zoomSerial += 1;
}

/**
 * @param {ScalarsView} view
 * @param {ChartPanel} p
 * @param {[number, number] | null} domain
 */
export function zoomTo(view, p, domain) {
  if (p.reset) p.reset.hidden = !domain;
  if (!domain) {
    clearZoom(p);
    view.redraw(p, "all");
    return;
  }
  p.zoomData = null;
  const serial = ++p.zoomSerial;
  const xMode = view.xMode();
  const field =
    xMode === "wall" ? "wall" : xMode === "relative" ? "relative" : xMode.startsWith("tag:") ? "xv" : "step";
  const scale = xMode === "wall" ? 1 / 1000 : 1;
  view
    .request("range", {
      chart: p.spec.key,
      field,
      lo: domain[0] * scale,
      hi: domain[1] * scale,
      buckets: Math.max(64, Math.round(p.chart?.surface.width || 400)),
      runs: [...new Set(p.records.map((r) => r.run))],
    })
    .then(({ content }) => {
      if (serial !== p.zoomSerial || !p.chart?.zoom) return;
      /** @type {{run: string, tag: string, columns: Record<string, import("../../core/types").Numbers>}[]} */
      const series = content.series || [];
      p.zoomData = new Map(series.map((s) => [seriesKey(s.run, s.tag), { cols: s.columns, x: null }]));
      view.redraw(p, "all");
    })
    .catch((err) => {
      if (view.disposed || serial !== p.zoomSerial) return;
      if (err instanceof RequestError) setText(view.bar.status, `zoom: ${err.message}`);
    });
  view.redraw(p, "all");
}
