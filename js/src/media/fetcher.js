// The items of a media view (an image, a clip, a text), fetched lazily and decoded ahead.
//
// A view asks for the items it shows now (`want(keys, "now")`) and for their neighbours
// (`want(keys, "ahead")`); the fetcher sends one request per batch of keys (a few in flight
// at most, what is shown now first), keeps the replies (encoded bytes, bounded by
// `maxBytes`, least recently used dropped first) and decodes each item as soon as it
// arrives (an ImageBitmap, samples of a clip), keeping at most `maxDecoded` decoded items.
// A step that was prefetched and decoded is drawn in the same frame the slider moves.
//
// Items saved with the notebook or the exported page (`seed`) need no kernel; with no
// kernel to ask (an exported page) every other item is "missing".

import { NoKernelError } from "../core/request.js";

/**
 * @typedef {object} Entry
 * @property {"queued" | "loading" | "decoding" | "ready" | "error" | "missing"} state
 * @property {any} [item]      the item as Python sent it (metadata and `data` bytes)
 * @property {any} [decoded]   what `decode(item)` made of it
 * @property {string} [error]
 * @property {boolean} [held]  saved with the notebook: never dropped
 */

/**
 * @typedef {object} FetcherOptions
 * @property {(keys: any[]) => Promise<any[]>} ask   one request: parsed keys -> items
 * @property {(item: any) => Promise<any>} decode
 * @property {(decoded: any) => void} [release]        free a decoded item (ImageBitmap.close)
 * @property {(key: string) => void} onUpdate          an entry changed state
 * @property {number} [maxBytes]     encoded bytes kept (default 256 MB)
 * @property {number} [maxDecoded]   decoded items kept (default 400)
 * @property {number} [batch]        keys per request (default 24)
 * @property {number} [inFlight]     requests at once (default 3)
 */

export class ItemFetcher {
  /** @param {FetcherOptions} options */
  constructor(options) {
    this.options = { maxBytes: 256 << 20, maxDecoded: 400, batch: 24, inFlight: 3, ...options };
    /** @type {Map<string, Entry>} */
    this.entries = new Map();
    /** @type {string[]} */
    this.now = [];
    /** @type {string[]} */
    this.ahead = [];
    this.flying = 0;
    this.decoding = 0;
    this.bytes = 0;
    this.decodedCount = 0;
    this.offline = false;
    this.disposed = false;
    this.flushQueued = false;
    /** Requests sent (tests and the status line). */
    this.requests = 0;
  }

  /**
   * @param {string} key
   * @returns {Entry | undefined}
   */
  entry(key) {
    const e = this.entries.get(key);
    if (e) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, e);
    }
    return e;
  }

  /**
   * Items saved with the notebook or page: ready to decode, never dropped.
   * @param {Record<string, any>} items  key -> item
   */
  seed(items) {
    for (const [key, item] of Object.entries(items || {})) {
      const e = this.entries.get(key);
      if (e?.held) continue;
      if (e && e.state !== "missing" && e.state !== "error" && e.state !== "queued") {
        e.held = true;
        continue;
      }
      this.entries.set(key, { state: "decoding", item, held: true });
      this.bytes += sizeOf(item);
      this.decode(key);
    }
  }

  /**
   * Ask for items: "now" ones go before every "ahead" one still waiting.
   * @param {string[]} keys
   * @param {"now" | "ahead"} priority
   */
  want(keys, priority) {
    let missing = "";
    for (const key of keys) {
      const e = this.entries.get(key);
      if (e && e.state !== "queued") {
        if (e.state === "ready" && e.decoded === undefined) this.redecode(key, e);
        continue;
      }
      if (!e) {
        if (this.offline) {
          this.entries.set(key, { state: "missing" });
          missing = key;
          continue;
        }
        this.entries.set(key, { state: "queued" });
      }
      (priority === "now" ? this.now : this.ahead).push(key);
    }
    if (this.ahead.length > 2048) this.drop(this.ahead.splice(0, this.ahead.length - 2048));
    this.scheduleFlush();
    // no kernel: the view asked for these in the frame it drew, so tell it they are missing
    if (missing) this.options.onUpdate(missing);
  }

  scheduleFlush() {
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  flush() {
    while (!this.disposed && this.flying < Number(this.options.inFlight)) {
      const keys = this.take(Number(this.options.batch));
      if (!keys.length) return;
      this.send(keys);
    }
  }

  /** @param {number} n @returns {string[]} */
  take(n) {
    /** @type {string[]} */
    const out = [];
    for (const queue of [this.now, this.ahead]) {
      while (queue.length && out.length < n) {
        const key = /** @type {string} */ (queue.shift());
        const e = this.entries.get(key);
        if (e?.state === "queued" && !out.includes(key)) out.push(key);
      }
    }
    return out;
  }

  /** Keys no longer wanted before they were sent. @param {string[]} keys */
  drop(keys) {
    for (const key of keys) if (this.entries.get(key)?.state === "queued") this.entries.delete(key);
  }

  /** @param {string[]} keys */
  async send(keys) {
    this.flying += 1;
    this.requests += 1;
    for (const key of keys) {
      const e = this.entries.get(key);
      if (e) e.state = "loading";
    }
    try {
      const items = await this.options.ask(keys.map((k) => JSON.parse(k)));
      const got = new Set();
      for (const item of items || []) {
        const key = String(item.key);
        got.add(key);
        const e = this.entries.get(key);
        if (e?.state !== "loading") continue;
        if (item.error !== undefined) this.fail(key, String(item.error));
        else {
          e.item = item;
          e.state = "decoding";
          this.bytes += sizeOf(item);
          this.decode(key);
        }
      }
      for (const key of keys) if (!got.has(key)) this.fail(key, "not in the reply");
      this.evict();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof NoKernelError) this.goOffline();
      for (const key of keys) {
        if (this.offline) this.settle(key, { state: "missing" });
        else this.fail(key, message);
      }
    } finally {
      this.flying -= 1;
      if (!this.disposed) this.scheduleFlush();
    }
  }

  goOffline() {
    this.offline = true;
    for (const key of [...this.now, ...this.ahead]) this.settle(key, { state: "missing" });
    this.now = [];
    this.ahead = [];
  }

  /** @param {string} key @param {string} message */
  fail(key, message) {
    this.settle(key, { state: "error", error: message });
  }

  /** @param {string} key @param {Entry} entry */
  settle(key, entry) {
    if (this.disposed) return;
    this.entries.set(key, entry);
    this.options.onUpdate(key);
  }

  /** Items asked for and not settled yet: queued, in flight or decoding. */
  pending() {
    return this.now.length + this.ahead.length + this.flying + this.decoding;
  }

  /** @param {string} key */
  async decode(key) {
    const e = this.entries.get(key);
    if (!e) return;
    this.decoding += 1;
    try {
      const decoded = await this.options.decode(e.item);
      if (this.disposed || this.entries.get(key) !== e) {
        this.options.release?.(decoded);
        return;
      }
      e.decoded = decoded;
      e.state = "ready";
      this.decodedCount += 1;
      this.trimDecoded();
      this.evict();
    } catch (err) {
      e.state = "error";
      e.error = err instanceof Error ? err.message : String(err);
    } finally {
      this.decoding -= 1;
    }
    if (!this.disposed) this.options.onUpdate(key);
  }

  /** A ready entry whose decoded form was dropped: decode it again. @param {string} key @param {Entry} e */
  redecode(key, e) {
    e.state = "decoding";
    this.decode(key);
  }

  /** Drop decoded forms beyond `maxDecoded`, least recently used first. */
  trimDecoded() {
    const max = Number(this.options.maxDecoded);
    if (this.decodedCount <= max) return;
    for (const e of this.entries.values()) {
      if (this.decodedCount <= max) break;
      if (e.decoded === undefined) continue;
      this.options.release?.(e.decoded);
      e.decoded = undefined;
      this.decodedCount -= 1;
    }
  }

  /** Drop encoded items beyond `maxBytes`, least recently used first (never saved ones). */
  evict() {
    const max = Number(this.options.maxBytes);
    if (this.bytes <= max) return;
    for (const [key, e] of this.entries) {
      if (this.bytes <= max) break;
      if (e.held || !e.item || e.state === "decoding") continue;
      this.bytes -= sizeOf(e.item);
      if (e.decoded !== undefined) {
        this.options.release?.(e.decoded);
        this.decodedCount -= 1;
      }
      this.entries.delete(key);
    }
  }

  /** Forget every item that is not saved (the index changed: steps may hold new data). */
  reset() {
    for (const [key, e] of this.entries) {
      if (e.held) continue;
      if (e.decoded !== undefined) {
        this.options.release?.(e.decoded);
        this.decodedCount -= 1;
      }
      if (e.item) this.bytes -= sizeOf(e.item);
      this.entries.delete(key);
    }
    this.now = [];
    this.ahead = [];
  }

  dispose() {
    this.disposed = true;
    for (const e of this.entries.values()) if (e.decoded !== undefined) this.options.release?.(e.decoded);
    this.entries.clear();
  }
}

/** @param {any} item */
function sizeOf(item) {
  return (item?.data?.byteLength || 0) + 200;
}
