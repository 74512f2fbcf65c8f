// The layout worker: receives `{id, jobs}` and answers `{id, results, ms}` (results as
// `[group, result]` pairs; their arrays are transferred, not copied). It keeps its cache of
// laid-out groups between requests. Bundled on its own and inlined into the widget's bundle
// as text (build.mjs, `?worker-source`), started from a blob: URL: nothing is fetched.

import { runJobs } from "./layout-jobs.js";

/** @type {any} */
const scope = self;
/** @type {Map<string, import("./layout-jobs").JobResult>} */
const cache = new Map();

scope.onmessage = (/** @type {MessageEvent} */ event) => {
  const { id, jobs } = event.data;
  const start = performance.now();
  try {
    const done = runJobs(jobs, cache);
    /** @type {ArrayBuffer[]} */
    const transfer = [];
    const results = [...done.entries()].map(([group, r]) => {
      const copy = { ...r, x: r.x.slice(), y: r.y.slice(), points: r.points.slice(), offsets: r.offsets.slice() };
      transfer.push(copy.x.buffer, copy.y.buffer, copy.points.buffer, copy.offsets.buffer);
      return [group, copy];
    });
    scope.postMessage({ id, results, ms: performance.now() - start }, transfer);
  } catch (err) {
    scope.postMessage({ id, error: String(err instanceof Error ? err.stack || err.message : err) });
  }
};
