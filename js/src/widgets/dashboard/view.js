// The dashboard: a header of what was found, the bar over the tabs (the run selection) and a
// WAI-ARIA tab list; each tab's page is another widget's model, drawn when the tab is first
// shown (tabs built in the kernel arrive in `pages` when opened; a saved notebook or an
// exported page holds every page already). Arrow keys, Home and End move between tabs; a
// tab whose page is here is shown at once, one the kernel has yet to build opens with Enter,
// Space or a click (which asks the kernel to build it).
import { el } from "../../core/dom.js";
import { drawModel } from "../../core/embed.js";
import { View } from "../../core/view.js";

/** @typedef {import("./model").DashboardTraits} DashboardTraits */

/** @extends {View<DashboardTraits>} */
export class DashboardView extends View {
  /** @param {import("./model").DashboardModel} model @param {HTMLElement} host */
  constructor(model, host) {
    super(model, host, "dashboard");
    this.root.classList.add("tbnb-dashboard");
    this.header = el("div", { class: "tbnb-dashboard-header" });
    this.bar = el("div", { class: "tbnb-dashboard-bar" });
    this.tablist = el("div", { class: "tbnb-dashboard-tablist", role: "tablist" });
    this.panels = el("div", { class: "tbnb-dashboard-panels" });
    /** @type {Map<string, {button: HTMLButtonElement, panel: HTMLElement, drawn: string | null}>} tab key -> its DOM */
    this.tabs = new Map();
    /** @type {Map<string, Promise<() => void>>} what each drawn model's cleanup is, by key */
    this.drawings = new Map();
    this.base = `tbnb-dash-${Math.random().toString(36).slice(2, 10)}`;
  }

  build() {
    this.root.append(this.header, this.bar, this.tablist, this.panels);
    this.listen("change:header", () => this.showHeader());
    this.listen("change:tabs", () => this.showTabs());
    this.listen("change:selected_index", () => this.select(this.model.get("selected_index")));
    this.listen("change:pages change:errors", () => this.showPages());
    this.listen("change:bar", () => this.showBar());
    this.on(this.tablist, "keydown", (/** @type {KeyboardEvent} */ e) => this.onKey(e));
    this.disposers.push(() => {
      for (const drawing of this.drawings.values()) drawing.then((undo) => undo()).catch(() => {});
      this.drawings.clear();
    });
    this.showHeader();
    this.showBar();
    this.showTabs();
  }

  showHeader() {
    const header = this.model.get("header") || {};
    const where = el("code", { text: header.location || "experiment" });
    const filters = header.filters ? ` · ${header.filters}` : "";
    const line =
      header.state === "empty"
        ? el(
            "div",
            {},
            el("span", { class: "tbnb-dashboard-brand", text: "tbnb" }),
            ": nothing to show in ",
            where,
            `${filters}: ${header.note || ""}`,
          )
        : el(
            "div",
            {},
            el("span", { class: "tbnb-dashboard-brand", text: "tbnb" }),
            " · ",
            where,
            [...(header.parts || []), ...(header.filters ? [header.filters] : [])].map((p) => ` · ${p}`).join(""),
          );
    const note =
      header.state !== "empty" && header.note ? el("div", { class: "tbnb-dashboard-note", text: header.note }) : "";
    this.header.replaceChildren(line, note);
  }

  showBar() {
    const ref = this.model.get("bar");
    this.draw("\u0000bar", ref || null, "selection", this.bar);
  }

  /** The tab list as `tabs` says: buttons and panels kept for tabs that stay. */
  showTabs() {
    const tabs = this.model.get("tabs") || [];
    const keys = new Set(tabs.map((t) => t.key));
    for (const [key, tab] of this.tabs) {
      if (keys.has(key)) continue;
      tab.button.remove();
      tab.panel.remove();
      this.undraw(key);
      this.tabs.delete(key);
    }
    tabs.forEach(({ key, title }) => {
      let tab = this.tabs.get(key);
      if (!tab) {
        const button = /** @type {HTMLButtonElement} */ (
          el("button", { type: "button", role: "tab", id: `${this.base}-tab-${this.tabs.size}`, text: title })
        );
        const panel = el("div", {
          class: "tbnb-dashboard-panel",
          role: "tabpanel",
          id: `${this.base}-panel-${this.tabs.size}`,
        });
        button.setAttribute("aria-controls", panel.id);
        panel.setAttribute("aria-labelledby", button.id);
        panel.hidden = true;
        this.on(button, "click", () => this.open(key));
        tab = { button, panel, drawn: null };
        this.tabs.set(key, tab);
      }
      this.tablist.append(tab.button); // in order
      this.panels.append(tab.panel);
    });
    this.select(this.model.get("selected_index"));
  }

  /** @param {string} key  open tab `key` (the kernel builds its page if it has none yet) */
  open(key) {
    const index = (this.model.get("tabs") || []).findIndex((t) => t.key === key);
    if (index < 0) return;
    if (this.model.get("selected_index") !== index) this.save({ selected_index: index });
    this.select(index);
  }

  /** @param {number} index */
  select(index) {
    const tabs = this.model.get("tabs") || [];
    const at = Number.isInteger(index) && index >= 0 && index < tabs.length ? index : 0;
    tabs.forEach(({ key }, i) => {
      const tab = this.tabs.get(key);
      if (!tab) return;
      tab.button.setAttribute("aria-selected", String(i === at));
      tab.button.tabIndex = i === at ? 0 : -1;
      tab.panel.hidden = i !== at;
    });
    this.showPages();
  }

  /** Each tab's page: its widget once the kernel built it, why not, or that it is coming. */
  showPages() {
    const tabs = this.model.get("tabs") || [];
    const pages = this.model.get("pages") || {};
    const errors = this.model.get("errors") || {};
    const shown = tabs[this.model.get("selected_index")]?.key ?? tabs[0]?.key;
    /** @type {string[]} */
    const later = [];
    for (const { key, title } of tabs) {
      const tab = this.tabs.get(key);
      if (!tab) continue;
      if (errors[key]) {
        this.undraw(key);
        tab.panel.replaceChildren(
          el("div", { class: "tbnb-dashboard-error", text: `${title} could not be shown: ${errors[key]}` }),
        );
      } else if (pages[key]) {
        if (key === shown) this.drawPage(key);
        else later.push(key);
      } else if (!tab.drawn) {
        tab.panel.replaceChildren(el("div", { class: "tbnb-dashboard-pending", text: `${title}: building…` }));
      }
    }
    // the pages not shown, once the shown one is drawn: a tab then opens at once
    const first = shown === undefined ? Promise.resolve() : this.drawings.get(shown)?.catch(() => {});
    Promise.resolve(first).then(async () => {
      for (const key of later) {
        if (this.disposed) return;
        await new Promise((resolve) => setTimeout(resolve, 0));
        this.drawPage(key);
      }
    });
  }

  /** @param {string} key */
  drawPage(key) {
    const tab = this.tabs.get(key);
    const ref = this.model.get("pages")?.[key];
    if (!tab || !ref) return;
    const widgetKey = this.model.get("page_keys")?.[key] || "";
    tab.drawn = ref;
    this.draw(key, ref, widgetKey, tab.panel);
  }

  /**
   * Draw the model `ref` into `host` under `slot` (once per reference).
   * @param {string} slot @param {string | null} ref @param {string} widgetKey @param {HTMLElement} host
   */
  draw(slot, ref, widgetKey, host) {
    const current = /** @type {any} */ (this.drawings.get(slot));
    if (current && current.ref === ref) return;
    this.undraw(slot);
    if (!ref) return;
    const frame = el("div", { class: "tbnb-dashboard-page" });
    host.replaceChildren(frame);
    const drawing = /** @type {Promise<() => void> & {ref?: string}} */ (
      drawModel(this.model, ref, widgetKey, frame).catch((err) => {
        frame.replaceChildren(el("pre", { class: "tbnb-error", text: `tbnb: this tab did not draw: ${err}` }));
        console.error(err);
        return () => {};
      })
    );
    drawing.ref = ref;
    this.drawings.set(slot, drawing);
  }

  /** @param {string} slot */
  undraw(slot) {
    const drawing = this.drawings.get(slot);
    if (!drawing) return;
    this.drawings.delete(slot);
    drawing.then((undo) => undo()).catch(() => {});
  }

  /** @param {KeyboardEvent} e */
  onKey(e) {
    const tabs = this.model.get("tabs") || [];
    const buttons = tabs.map(({ key }) => this.tabs.get(key)?.button);
    const at = buttons.indexOf(/** @type {any} */ (e.target));
    if (at < 0) return;
    const n = buttons.length;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      this.open(tabs[at].key);
      return;
    }
    const next = /** @type {Record<string, number>} */ ({
      ArrowRight: at + 1,
      ArrowLeft: at - 1 + n,
      Home: 0,
      End: n - 1,
    })[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const target = next % n;
    buttons.forEach((b, i) => {
      if (b) b.tabIndex = i === target ? 0 : -1;
    });
    buttons[target]?.focus();
    // a page that is here shows at once (selection follows focus); one to build waits for Enter
    if (this.model.get("pages")?.[tabs[target].key]) this.open(tabs[target].key);
  }
}
