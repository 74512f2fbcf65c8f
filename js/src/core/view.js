// The view lifecycle every widget front end shares.
//
// A widget's view class extends View and implements build(). Everything it registers
// through the kit (model events, DOM listeners, resize and visibility observers, frame
// callbacks, pending requests) is undone by dispose(), which anywidget calls when the view
// is removed (the cleanup returned by render). renderView() turns a View class into the
// anywidget module's render() and puts the kit's and the widget's CSS once into each root
// the widget is shown in (the page, or the shadow root marimo renders anywidgets in).
import { KIT_CSS, styleRoots } from "./css.js";
import { el } from "./dom.js";
import { request } from "./request.js";
import { frameScheduler } from "./schedule.js";
import { followTheme } from "./theme.js";

/** @typedef {import("./types").Callback} Callback */
/** @typedef {import("./request").Reply} Reply */

/**
 * @template T
 */
export class View {
  /**
   * @param {import("./types").Model<T>} model
   * @param {HTMLElement} host  the element anywidget gives the view
   * @param {string} key  the widget key (root class `tbnb-w-<key>`)
   */
  constructor(model, host, key) {
    this.model = model;
    this.host = host;
    this.key = key;
    /** The view's root element: `tbnb-root tbnb-w-<key>`; every widget style is scoped by it. */
    this.root = el("div", { class: `tbnb-root tbnb-w-${key}` });
    /** @type {Array<() => void>} */
    this.disposers = [];
    this.disposed = false;
    this.aborter = new AbortController();
    /** Requests of this view the kernel has not answered in time (busy, or gone). */
    this.slow = 0;
  }

  /** Build the DOM into `this.root` and register listeners (subclasses). */
  build() {}

  /**
   * Listen to model events (space-separated names); removed on dispose.
   * @param {string} events
   * @param {Callback} callback
   */
  listen(events, callback) {
    for (const event of events.split(/\s+/).filter(Boolean)) {
      this.model.on(event, callback);
      this.disposers.push(() => this.model.off(event, callback));
    }
  }

  /**
   * addEventListener, removed on dispose.
   * @param {EventTarget} target
   * @param {string} type
   * @param {(event: any) => void} handler
   * @param {AddEventListenerOptions} [options]
   */
  on(target, type, handler, options) {
    target.addEventListener(type, handler, options);
    this.disposers.push(() => target.removeEventListener(type, handler, options));
  }

  /**
   * Call `callback(width, height)` when `element`'s content box changes size (the
   * container, never the window: a view in a narrow cell or a VS Code pane sizes to it).
   * @param {Element} element
   * @param {(width: number, height: number) => void} callback
   */
  observeSize(element, callback) {
    if (typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].contentRect;
      callback(box.width, box.height);
    });
    observer.observe(element);
    this.disposers.push(() => observer.disconnect());
  }

  /**
   * An IntersectionObserver calling `callback(entry)` per observed element; disconnected
   * on dispose. Returns null where there is none (everything counts as visible).
   * @param {(entry: IntersectionObserverEntry) => void} callback
   * @param {IntersectionObserverInit} [options]
   * @returns {IntersectionObserver | null}
   */
  visibilityObserver(callback, options = { rootMargin: "80px" }) {
    if (typeof IntersectionObserver === "undefined") return null;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) callback(entry);
    }, options);
    this.disposers.push(() => observer.disconnect());
    return observer;
  }

  /**
   * A frame scheduler for `callback` (many requests, one call per frame); cancelled on dispose.
   * @param {() => void} callback
   */
  scheduler(callback) {
    const frames = frameScheduler(() => {
      if (!this.disposed) callback();
    });
    this.disposers.push(() => frames.cancel());
    return frames;
  }

  /**
   * Set traits and sync them to Python in one message.
   * @param {Partial<T>} values
   */
  save(values) {
    for (const [k, v] of Object.entries(values)) {
      this.model.set(/** @type {keyof T & string} */ (k), /** @type {any} */ (v));
    }
    this.model.save_changes();
  }

  /**
   * Ask the Python widget (see request.js); rejected when the view is disposed. While a
   * request is slow (a busy kernel) the root carries `data-kernel="waiting"`, which the
   * kit's CSS shows as a note; its answer, whenever it comes, is used.
   * @param {string} type
   * @param {Record<string, any>} [payload]
   * @param {{slowAfter?: number}} [options]
   * @returns {Promise<Reply>}
   */
  request(type, payload = {}, options = {}) {
    return request(/** @type {any} */ (this.model), type, payload, {
      ...options,
      signal: this.aborter.signal,
      onSlow: () => this.waiting(1),
      onSettle: () => this.waiting(-1),
    });
  }

  /**
   * Count requests waiting on a busy kernel, and say so on the root.
   * @param {number} delta
   */
  waiting(delta) {
    this.slow = Math.max(this.slow + delta, 0);
    if (this.slow) this.root.setAttribute("data-kernel", "waiting");
    else this.root.removeAttribute("data-kernel");
  }

  /** Undo everything registered through the kit. Safe to call twice. */
  dispose() {
    if (this.disposed) return;
    this.disposed = true;
    this.aborter.abort();
    for (const undo of this.disposers.splice(0).reverse()) {
      try {
        undo();
      } catch (err) {
        console.error(err);
      }
    }
  }
}

/**
 * The anywidget `render` of a view class: style the roots it shows in, build the view into the host,
 * show a readable error in its place if building fails, and return the cleanup.
 * @param {new (model: any, host: HTMLElement) => View<any>} ViewClass
 * @param {{key: string, css: string}} widget  the widget key and its CSS (scoped by `.tbnb-w-<key>`)
 * @returns {(props: {model: any, el: HTMLElement}) => () => void}
 */
export function renderView(ViewClass, widget) {
  return function render({ model, el: host }) {
    const unstyle = styleRoots(host, { kit: KIT_CSS, [`w-${widget.key}`]: widget.css });
    /** @type {View<any> | null} */
    let view = null;
    /** @type {() => void} */
    let unfollow = () => {};
    try {
      view = new ViewClass(model, host);
      unfollow = followTheme(view.root, host); // light or dark, before anything draws
      host.replaceChildren(view.root);
      view.build();
    } catch (err) {
      const detail = err instanceof Error && err.stack ? err.stack : String(err);
      const message = el("pre", { class: "tbnb-error", text: `tbnb ${widget.key} failed to render: ${detail}` });
      host.replaceChildren(el("div", { class: `tbnb-root tbnb-w-${widget.key}` }, message));
      view?.dispose();
      unfollow();
      unstyle();
      throw err;
    }
    const built = view;
    return () => {
      unfollow();
      unstyle();
      built.dispose();
    };
  };
}
