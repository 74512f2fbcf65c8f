// The one request channel between a front end and its Python widget.
//
// request(model, type, payload) sends `{type, id, ...payload}` (typed arrays as binary
// buffers) and resolves with the reply whose `id` matches: Python answers from
// `TbnbWidget._request_<type>` (tbnb/widgets/base.py) with `{type, id, ...}` and buffers,
// or `{type, id, error}`, which rejects. Ids are matched here, in one listener per model
// that exists only while requests are pending; a request also rejects on timeout, when its
// AbortSignal fires (a view being disposed), and at once when there is no kernel to ask
// (an exported page's model.send throws).
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

/** Default time to wait for an answer, in milliseconds. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * @typedef {object} Pending
 * @property {(reply: Reply) => void} resolve
 * @property {(err: Error) => void} reject
 * @property {ReturnType<typeof setTimeout>} timer
 * @property {string} type
 */

class Channel {
  /** @param {AnyModel} model */
  constructor(model) {
    this.model = model;
    /** @type {Map<string, Pending>} */
    this.pending = new Map();
    this.attached = false;
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
    clearTimeout(entry.timer);
    this.detachIfIdle();
    return entry;
  }

  /** @param {any} msg @param {DataView[]} buffers */
  receive(msg, buffers) {
    if (!msg || typeof msg !== "object" || typeof msg.id !== "string") return;
    const entry = this.take(msg.id);
    if (!entry) return;
    if (msg.error !== undefined && msg.error !== null) {
      entry.reject(new RequestError(String(msg.error), entry.type));
    } else {
      entry.resolve({ content: unpack(msg, buffers), buffers });
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
 * Ask the Python widget for something; resolves with `{content, buffers}` (arrays in
 * `content` decoded to typed arrays), rejects with a RequestError on an `{error}` reply,
 * and with an Error on timeout, abort or when the message cannot be sent.
 * @param {AnyModel} model
 * @param {string} type  handled in Python by `_request_<type>`
 * @param {Record<string, any>} [payload]  typed arrays travel as binary buffers
 * @param {{timeout?: number, signal?: AbortSignal}} [options]
 * @returns {Promise<Reply>}
 */
export function request(model, type, payload = {}, options = {}) {
  const { timeout = DEFAULT_TIMEOUT_MS, signal } = options;
  const channel = channelOf(model);
  counter += 1;
  const id = `${PREFIX}-${counter}`;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new Error(`request ${type} aborted`));
      return;
    }
    const timer = setTimeout(() => {
      if (channel.take(id)) reject(new Error(`request ${type} timed out after ${timeout} ms`));
    }, timeout);
    channel.pending.set(id, { resolve, reject, timer, type });
    channel.attach();
    signal?.addEventListener(
      "abort",
      () => {
        if (channel.take(id)) reject(new Error(`request ${type} aborted`));
      },
      { once: true },
    );
    try {
      const [content, buffers] = pack({ ...payload, type, id });
      model.send(content, undefined, buffers);
    } catch (err) {
      channel.take(id);
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/**
 * Requests still waiting for an answer from `model` (for tests and status lines).
 * @param {AnyModel} model
 */
export function pendingRequests(model) {
  return CHANNELS.get(model)?.pending.size ?? 0;
}
