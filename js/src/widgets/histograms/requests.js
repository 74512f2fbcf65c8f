// The exact data the view asks the kernel for: "series" requests batch every chart of the
// same settings wanted in one frame (at most 16 charts each), "at_step" requests one runs-
// at-step chart each. A want is asked once while in flight (again later if the store has
// dropped the answer; never again after the kernel answered it with an error); the reply
// goes into the store and redraws.
// The preview of every chart (the `_preview` trait) is asked for once, when the charts in view
// have their answers (or none is in view), so the kernel answers those first.
// A busy kernel answers late: the view draws from what it holds meanwhile (the preview) and
// uses the answers when they come (the channel's rule, core/request.js). Only without a
// kernel (an exported page: sending throws) does the view stop asking.
import { NoKernelError, RequestError } from "../../core/request.js";
import { paramsKey } from "./store.js";

/** @typedef {import("./store").Params} Params */
/** @typedef {import("./model").AtStepData} AtStepData */

const BATCH = 16;

export class Requests {
  /**
   * @param {import("./view").HistogramsView} view
   * @param {() => void} redraw
   * @param {(text: string) => void} status
   */
  constructor(view, redraw, status) {
    this.view = view;
    this.redraw = redraw;
    this.status = status;
    this.offline = false;
    this.generation = 0;
    /** @type {Set<string>} wants in flight */
    this.pending = new Set();
    /** @type {Set<string>} wants the kernel refused */
    this.refused = new Set();
    /** @type {Map<string, {params: Params, keys: [string, string][]}>} */
    this.queue = new Map();
    /** @type {Map<string, AtStepData>} */
    this.steps = new Map();
    /** @type {Map<string, Record<string, any>>} */
    this.stepQueue = new Map();
    this.previewAsked = false;
  }

  /** Forget every answer and want (the data changed). */
  reset() {
    this.generation += 1;
    this.pending.clear();
    this.refused.clear();
    this.queue.clear();
    this.steps.clear();
    this.stepQueue.clear();
    this.previewAsked = false;
  }

  /**
   * Want the exact data of one chart for `params` (asked at the next flush).
   * @param {string} run
   * @param {string} tag
   * @param {Params} params
   */
  wantSeries(run, tag, params) {
    if (this.offline) return;
    const pk = paramsKey(params);
    const id = `${pk}#${JSON.stringify([run, tag])}`;
    if (this.pending.has(id) || this.refused.has(id)) return;
    this.pending.add(id);
    let entry = this.queue.get(pk);
    if (!entry) {
      entry = { params, keys: [] };
      this.queue.set(pk, entry);
    }
    entry.keys.push([run, tag]);
  }

  /**
   * A runs-at-step chart's exact data, or undefined (then asked at the next flush).
   * @param {string} tag
   * @param {string[]} runs
   * @param {number} step
   * @param {number} bins
   * @param {number[]} window
   */
  atStep(tag, runs, step, bins, window) {
    const id = JSON.stringify([tag, runs, step, bins, window]);
    const hit = this.steps.get(id);
    if (hit || this.offline || !runs.length || !Number.isFinite(step)) return hit;
    if (!this.pending.has(id) && !this.refused.has(id)) {
      this.pending.add(id);
      this.stepQueue.set(id, { tag, runs, step, bins, window });
    }
    return undefined;
  }

  /** Send what is wanted. */
  flush() {
    const generation = this.generation;
    for (const { params, keys } of this.queue.values()) {
      for (let i = 0; i < keys.length; i += BATCH) {
        const batch = keys.slice(i, i + BATCH);
        const ids = batch.map((key) => `${paramsKey(params)}#${JSON.stringify(key)}`);
        this.send(
          "series",
          { keys: batch, ...params, hist: true, bands: true },
          ids,
          (content) => {
            for (const item of content.items || []) this.view.store.putExact(item, params);
          },
          generation,
        );
      }
    }
    this.queue.clear();
    for (const [id, payload] of this.stepQueue) {
      this.send(
        "at_step",
        payload,
        [id],
        (content) => {
          this.steps.set(id, { ...content, tag: payload.tag, exact: true, params: id });
        },
        generation,
      );
    }
    this.stepQueue.clear();
    if (!this.previewAsked && !this.offline && !this.view.store.preview && this.view.looked && !this.pending.size) {
      this.previewAsked = true;
      this.send("preview", {}, [], () => {}, generation);
    }
  }

  /**
   * @param {string} type
   * @param {Record<string, any>} payload
   * @param {string[]} ids  the wants it answers
   * @param {(content: any) => void} keep
   * @param {number} generation
   */
  send(type, payload, ids, keep, generation) {
    this.view
      .request(type, payload)
      .then(({ content }) => {
        if (generation !== this.generation) return;
        keep(content);
        for (const id of ids) this.pending.delete(id);
        this.redraw();
      })
      .catch((err) => {
        if (this.view.disposed || generation !== this.generation) return;
        for (const id of ids) this.pending.delete(id);
        if (err instanceof RequestError) {
          for (const id of ids) this.refused.add(id);
          this.status(`kernel: ${err.message}`);
          return;
        }
        if (!(err instanceof NoKernelError)) return; // aborted: the view is going
        this.offline = true; // no kernel to answer: draw from what the view holds
        this.status("");
      });
  }
}
