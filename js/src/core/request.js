// The one request channel between a front end and its Python widget.
//
// request(model, type, payload) sends `{type, id, ...payload}` (typed arrays as binary
// buffers) and resolves with the reply whose `id` matches: Python answers from
// `TbnbWidget._request_<type>` (tbnb/widgets/base.py) with `{type, id, ...}` and buffers,
// or `{type, id, error}`, which rejects. Ids are matched here, in one listener per model
// that exists only while requests are pending.
//
// One rule for every widget: a request is never given up on while a kernel may answer.
// A kernel busy running a cell answers its widgets' messages when the cell ends, in the
// order they were sent; so a request unanswered after `slowAfter` ms is only *slow*: the
// view is told (`onSlow`, and `waiting()` counts it) and its reply, whenever it comes,
// resolves it. A slow request also sends a "ping" (answered by every widget): the kernel
// answers in order, so when the reply to a later message arrives first, the earlier
// request was lost (a reconnected websocket drops what the kernel sent meanwhile) and it
// is sent again. A request rejects only on an `{error}` reply (RequestError), when its
// AbortSignal fires (a view being disposed), and at once when there is no kernel to ask
// (NoKernelError: an exported page's model.send throws).
import { pack, unpack } from "./codecs.js";

/** @typedef {import("./types").AnyModel} AnyModel */
/** @typedef {{content: any, buffers: DataView[]}} Reply */

/** The kernel answered with an error (its text is the Python exception). */
export class RequestError extends Error {
  /** @param {string} message @param {string} type */
  constructor(message, type) {
    super(message);
    this.name = "RequestError";
    this.type = type;
  }
}

/** There is no kernel to ask (an exported page): the view draws from what it holds. */
export class NoKernelError extends Error {
  /** @param {string} type @param {unknown} cause */
  constructor(type, cause) {
    super(`no kernel to answer ${type}: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = "NoKernelError";
    this.type = type;
  }
}

/** Time after which an unanswered request counts as slow, in milliseconds. */
export const SLOW_AFTER_MS = 20_000;

/**
 * @typedef {object} Pending
 * @property {(reply: Reply) => void} resolve
 * @property {(err: Error) => void} reject
 * @property {ReturnType<typeof setTimeout> | null} timer
 * @property {string} type
 * @property {number} seq  order of sending (the kernel answers in this order)
 * @property {[any, any[]]} message  what was sent, to send again if it was lost
 * @property {boolean} slow
 * @property {number} slowAfter
 * @property {(() => void) | undefined} onSlow
 * @property {(() => void) | undefined} onSettle
 */

class Channel {
  /** @param {AnyModel} model */
  constructor(model) {
    this.model = model;
    /** @type {Map<string, Pending>} */
    this.pending = new Map();
    this.attached = false;
    this.seq = 0;
    this.lastPing = -Infinity;
    /** Requests sent again because a later one was answered first (tests, status). */
    this.resent = 0;
    /** @param {any} msg @param {DataView[]} [buffers] */
    this.onMessage = (msg, buffers) => this.receive(msg, buffers || []);
  }

  attach() {
    if (this.attached) return;
    this.model.on("msg:custom", this.onMessage);
    this.attached = true;
  }

  detachIfIdle() {
    if (!this.attached || this.pending.size) return;
    this.model.off("msg:custom", this.onMessage);
    this.attached = false;
  }

  /** @param {string} id @returns {Pending | undefined} */
  take(id) {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    if (entry.timer !== null) clearTimeout(entry.timer);
    this.detachIfIdle();
    if (entry.slow) entry.onSettle?.();
    return entry;
  }

  /** @param {string} id @param {Pending} entry */
  arm(id, entry) {
    if (entry.timer !== null) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = null;
      if (this.pending.get(id) !== entry) return;
      if (!entry.slow) {
        entry.slow = true;
        entry.onSlow?.();
      }
      this.ping(entry.slowAfter);
    }, entry.slowAfter);
  }

  /**
   * Ask the kernel for a sign of life (at most once per `every` ms): its answer tells
   * which earlier requests were lost.
   * @param {number} every
   */
  ping(every) {
    const now = Date.now();
    if (now - this.lastPing < every) return;
    this.lastPing = now;
    request(this.model, "ping", {}, { slowAfter: every }).catch(() => {});
  }

  /** @param {any} msg @param {DataView[]} buffers */
  receive(msg, buffers) {
    if (!msg || typeof msg !== "object" || typeof msg.id !== "string") return;
    const entry = this.take(msg.id);
    if (!entry) return;
    // Answered in order: whatever was sent before this and is still unanswered was lost.
    for (const [id, earlier] of this.pending) {
      if (earlier.seq < entry.seq) this.resend(id, earlier);
    }
    if (msg.error !== undefined && msg.error !== null) {
      entry.reject(new RequestError(String(msg.error), entry.type));
    } else {
      entry.resolve({ content: unpack(msg, buffers), buffers });
    }
  }

  /** @param {string} id @param {Pending} entry */
  resend(id, entry) {
    this.resent += 1;
    entry.seq = ++this.seq;
    try {
      this.model.send(entry.message[0], undefined, entry.message[1]);
      this.arm(id, entry);
    } catch (err) {
      this.take(id);
      entry.reject(new NoKernelError(entry.type, err));
    }
  }
}

/** @type {WeakMap<object, Channel>} */
const CHANNELS = new WeakMap();
let counter = 0;
const PREFIX = Math.random().toString(36).slice(2, 8);

/**
 * @param {AnyModel} model
 * @returns {Channel}
 */
function channelOf(model) {
  let channel = CHANNELS.get(model);
  if (!channel) {
    channel = new Channel(model);
    CHANNELS.set(model, channel);
  }
  return channel;
}

/**
 * @typedef {object} RequestOptions
 * @property {number} [slowAfter]  ms without an answer before the request counts as slow
 * @property {AbortSignal} [signal]  rejects the request (a view being disposed)
 * @property {() => void} [onSlow]  called once, when the request becomes slow
 * @property {() => void} [onSettle]  called when a slow request is answered or ends
 */

/**
 * Ask the Python widget for something; resolves with `{content, buffers}` (arrays in
 * `content` decoded to typed arrays), rejects with a RequestError on an `{error}` reply,
 * with a NoKernelError when the message cannot be sent and with an Error on abort.
 * @param {AnyModel} model
 * @param {string} type  handled in Python by `_request_<type>`
 * @param {Record<string, any>} [payload]  typed arrays travel as binary buffers
 * @param {RequestOptions} [options]
 * @returns {Promise<Reply>}
 */
export function request(model, type, payload = {}, options = {}) {
  const { slowAfter = SLOW_AFTER_MS, signal, onSlow, onSettle } = options;
  const channel = channelOf(model);
  counter += 1;
  const id = `${PREFIX}-${counter}`;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error(`request ${type} aborted`));
      return;
    }
    /** @type {[any, any[]]} */
    let message;
    try {
      message = pack({ ...payload, type, id });
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    /** @type {Pending} */
    const entry = {
      resolve,
      reject,
      timer: null,
      type,
      seq: ++channel.seq,
      message,
      slow: false,
      slowAfter,
      onSlow,
      onSettle,
    };
    channel.pending.set(id, entry);
    channel.attach();
    signal?.addEventListener(
      "abort",
      () => {
        if (channel.take(id)) reject(new Error(`request ${type} aborted`));
      },
      { once: true },
    );
    try {
      model.send(message[0], undefined, message[1]);
    } catch (err) {
      channel.take(id);
      reject(new NoKernelError(type, err));
      return;
    }
    channel.arm(id, entry);
  });
}

/**
 * Requests still waiting for an answer from `model` (for tests and status lines).
 * @param {AnyModel} model
 */
export function pendingRequests(model) {
  return CHANNELS.get(model)?.pending.size ?? 0;
}

/**
 * Requests sent again to `model` because a later one was answered first.
 * @param {AnyModel} model
 */
export function resentRequests(model) {
  return CHANNELS.get(model)?.resent ?? 0;
}
