// The page's side of the layout worker: one worker per view, started from the worker's
// bundled source through a blob: URL (no file or network fetch; the exported page's CSP
// allows blob: scripts). Requests are answered in order; a newer request makes older ones
// resolve to null (the view draws only the latest). Where no worker can be made (a host
// whose CSP forbids blob: workers, or node's test runner), jobs run in the page one group at
// a time, yielding between groups, so the notebook never waits for a whole layout.

import WORKER_SOURCE from "./layout.worker.js?worker-source";
import { runJob } from "./layout-jobs.js";

/** @typedef {import("./layout-jobs").LayoutJob} LayoutJob */
/** @typedef {import("./layout-jobs").JobResult} JobResult */
/** @typedef {{results: Map<number, JobResult>, ms: number, mode: string}} Layout */

export class LayoutClient {
  constructor() {
    /** @type {Worker | null} */
    this.worker = null;
    this.url = "";
    this.mode = "main";
    this.latest = 0;
    /** @type {Map<number, {resolve: (value: Layout | null) => void, reject: (err: Error) => void}>} */
    this.pending = new Map();
    /** @type {Map<number, LayoutJob[]>} */
    this.jobsOf = new Map();
    /** @type {Map<string, JobResult>} */
    this.cache = new Map();
    this.disposed = false;
    try {
      if (typeof Worker === "undefined" || typeof Blob === "undefined") return;
      this.url = URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "text/javascript" }));
      this.worker = new Worker(this.url);
      this.mode = "worker";
      this.worker.onmessage = (event) => this.receive(event.data);
      this.worker.onerror = (event) => {
        event.preventDefault?.();
        this.fallBack();
      };
    } catch {
      this.fallBack();
    }
  }

  /** Stop using the worker (it failed or cannot start): pending requests run in the page. */
  fallBack() {
    this.worker?.terminate();
    this.worker = null;
    this.mode = "main";
    const waiting = [...this.pending.entries()];
    this.pending.clear();
    for (const [id, entry] of waiting) {
      const jobs = this.jobsOf.get(id);
      if (jobs) this.inPage(id, jobs).then(entry.resolve, entry.reject);
      else entry.resolve(null);
    }
  }

  /**
   * Lay out `jobs` (innermost first). Resolves to null when a newer request came first.
   * @param {LayoutJob[]} jobs
   * @returns {Promise<Layout | null>}
   */
  layout(jobs) {
    const id = ++this.latest;
    for (const [older, entry] of this.pending) {
      this.pending.delete(older);
      this.jobsOf.delete(older);
      entry.resolve(null);
    }
    if (!this.worker) return this.inPage(id, jobs);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.jobsOf.set(id, jobs);
      /** @type {any} */ (this.worker).postMessage({ id, jobs });
    });
  }

  /** @param {{id: number, results?: [number, JobResult][], ms?: number, error?: string}} data */
  receive(data) {
    const entry = this.pending.get(data.id);
    this.jobsOf.delete(data.id);
    if (!entry) return;
    this.pending.delete(data.id);
    if (data.error) entry.reject(new Error(`graph layout failed: ${data.error}`));
    else entry.resolve({ results: new Map(data.results || []), ms: data.ms || 0, mode: "worker" });
  }

  /**
   * Run the jobs in the page, one group per macrotask.
   * @param {number} id
   * @param {LayoutJob[]} jobs
   * @returns {Promise<Layout | null>}
   */
  async inPage(id, jobs) {
    const start = performance.now();
    /** @type {Map<number, JobResult>} */
    const done = new Map();
    for (const job of jobs) {
      if (this.disposed || id !== this.latest) return null;
      done.set(job.group, runJob(job, done, this.cache));
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    return { results: done, ms: performance.now() - start, mode: "main" };
  }

  dispose() {
    this.disposed = true;
    this.worker?.terminate();
    this.worker = null;
    if (this.url) URL.revokeObjectURL(this.url);
    for (const entry of this.pending.values()) entry.resolve(null);
    this.pending.clear();
  }
}
