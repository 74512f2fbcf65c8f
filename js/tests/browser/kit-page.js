// Entry of the kit's browser test page (tests/ui/test_kit.py bundles it with esbuild and
// drives it in Chromium): the kit's DOM pieces, exposed on window.kit.

import { Tooltip } from "../../src/chart/tooltip.js";
import { csvButton } from "../../src/controls/csv-button.js";
import { filterInput } from "../../src/controls/filter-input.js";
import { RunSelector } from "../../src/controls/run-selector.js";
import { StepSlider } from "../../src/controls/step-slider.js";
import { DataTable } from "../../src/controls/table.js";
import { adoptStyles, KIT_CSS } from "../../src/core/css.js";
import { breakableText, el, setText, text } from "../../src/core/dom.js";
import { request } from "../../src/core/request.js";
import { safeFragment } from "../../src/core/safe-html.js";
import { renderView, View } from "../../src/core/view.js";

/** A model like anywidget's: traits, change events, custom messages (sent ones recorded). */
export function fakeModel(traits = {}) {
  const handlers = new Map();
  const state = { ...traits };
  return {
    sent: [],
    saves: 0,
    get: (k) => state[k],
    set(k, v) {
      state[k] = v;
      for (const fn of [...(handlers.get(`change:${k}`) || [])]) fn();
    },
    save_changes() {
      this.saves += 1;
    },
    on(event, fn) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event).add(fn);
    },
    off(event, fn) {
      handlers.get(event)?.delete(fn);
    },
    send(content) {
      this.sent.push(content);
    },
    deliver(content) {
      for (const fn of [...(handlers.get("msg:custom") || [])]) fn(content, []);
    },
    listeners() {
      let n = 0;
      for (const set of handlers.values()) n += set.size;
      return n;
    },
  };
}

/** A view registering one of everything the kit offers, counting what fires. */
class ProbeView extends View {
  constructor(model, host) {
    super(model, host, "probe");
    this.counts = { change: 0, window: 0, frame: 0, resize: 0 };
  }

  build() {
    this.root.append(el("span", { class: "probe", text: "probe" }));
    this.listen("change:x change:y", () => this.counts.change++);
    this.on(window, "probe-event", () => this.counts.window++);
    this.observeSize(this.root, () => this.counts.resize++);
    this.visibilityObserver(() => {})?.observe(this.root);
    this.frames = this.scheduler(() => this.counts.frame++);
    this.pending = this.request("range", {}, { timeout: 60_000 });
    this.pending.catch((err) => {
      this.rejected = String(err);
    });
  }
}

window.kit = {
  adoptKitStyles: () => adoptStyles("kit", KIT_CSS),
  breakableText,
  csvButton,
  el,
  fakeModel,
  filterInput,
  DataTable,
  ProbeView,
  renderProbe: renderView(ProbeView, { key: "probe", css: ".tbnb-w-probe .probe{color:red}" }),
  request,
  RunSelector,
  safeFragment,
  setText,
  StepSlider,
  text,
  Tooltip,
  View,
};
window.kitReady = true;
