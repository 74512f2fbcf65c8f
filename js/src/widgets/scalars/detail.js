// The series of the charts in view at screen resolution, asked of the kernel.
//
// `_data` holds a preview of every series within the widget's state budget; a chart in view
// that draws a series from a coarser preview than its width wants asks for it (one batched
// "series" request per resolution each frame). The points a chart asks for are bounded by
// CHART_POINTS whatever the number of runs it draws, so a chart of 2,000 runs stays as
// quick to smooth and draw as one of 20. A busy kernel answers late (core/request.js);
// without a kernel (an exported page) the previews are what is drawn.
import { NoKernelError, RequestError } from "../../core/request.js";
import { applySeries, needsDetail, seriesKey } from "../../series/store.js";

/** @typedef {import("../../series/store").SeriesRecord} SeriesRecord */
/** @typedef {import("../../series/store").Store} Store */

/** Points one chart asks for, over all its series. */
export const CHART_POINTS = 60_000;
const BATCH = 256;

/**
 * Min/max buckets a chart wants per series: its plot's width (one bucket per pixel
 * column), at most `maxPoints / 2`, within CHART_POINTS over its `series`.
 * @param {number} width  pixels
 * @param {number} series
 * @param {number} maxPoints
 */
export function wantedBuckets(width, series, maxPoints) {
  const screen = Math.min(Math.max(Math.ceil(width), 2), Math.max(Math.floor(maxPoints / 2), 2));
  return Math.max(Math.min(screen, Math.floor(CHART_POINTS / Math.max(2 * series, 1))), 2);
}

export class DetailRequests {
  /**
   * @param {import("../../core/view").View<any>} view
   * @param {() => Store} store
   * @param {(keys: Set<string>) => void} changed  series that got their detail
   * @param {(text: string) => void} status
   */
  constructor(view, store, changed, status) {
    this.view = view;
    this.store = store;
    this.changed = changed;
    this.status = status;
    this.offline = false;
    /** @type {Map<string, number>} series key -> buckets in flight */
    this.pending = new Map();
    /** @type {Map<number, [string, string][]>} buckets -> series wanted */
    this.queue = new Map();
  }

  /**
   * Want `rec` at `buckets` (asked at the next flush) unless the view holds it so.
   * @param {SeriesRecord} rec
   * @param {number} buckets
   */
  want(rec, buckets) {
    if (this.offline || !needsDetail(rec, buckets)) return;
    const key = seriesKey(rec.run, rec.tag);
    if ((this.pending.get(key) ?? 0) >= buckets) return;
    this.pending.set(key, buckets);
    const keys = this.queue.get(buckets) || [];
    keys.push([rec.run, rec.tag]);
    this.queue.set(buckets, keys);
  }

  /** Forget what is in flight (the data was replaced: its answers are dropped). */
  reset() {
    this.pending.clear();
    this.queue.clear();
  }

  flush() {
    for (const [buckets, keys] of this.queue) {
      for (let i = 0; i < keys.length; i += BATCH) this.send(buckets, keys.slice(i, i + BATCH));
    }
    this.queue.clear();
  }

  /** @param {number} buckets @param {[string, string][]} keys */
  send(buckets, keys) {
    const store = this.store();
    const done = () => {
      for (const [run, tag] of keys) {
        const key = seriesKey(run, tag);
        if (this.pending.get(key) === buckets) this.pending.delete(key);
      }
    };
    this.view
      .request("series", { keys, buckets })
      .then(({ content }) => {
        if (store !== this.store()) return; // replaced meanwhile (a reload, a restart)
        done();
        this.changed(new Set(applySeries(store, content)));
      })
      .catch((err) => {
        if (this.view.disposed || store !== this.store()) return;
        if (err instanceof RequestError) {
          this.status(`kernel: ${err.message}`);
          return; // the keys stay pending: not asked again until the data changes
        }
        done();
        if (err instanceof NoKernelError) this.offline = true;
      });
  }
}
