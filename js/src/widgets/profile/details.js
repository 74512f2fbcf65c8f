// A selected span's details: its fields and arguments as text, and the device events it
// launched (or its launch), each a link that selects it in the timeline.
import { el, setText } from "../../core/dom.js";
import { formatDuration } from "./data.js";

export class Details {
  /** @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void, onPick: (row: number, start: number, dur: number, lane: number) => void}} options */
  constructor(options) {
    this.options = options;
    this.node = el("div", { class: "tbnb-prof-details" });
    this.clear();
  }

  clear() {
    this.node.replaceChildren(el("div", { class: "tbnb-prof-hint", text: "click a span to see its details" }));
  }

  /** @param {string} message */
  error(message) {
    this.node.replaceChildren(el("div", { class: "tbnb-msg", text: message }));
  }

  /**
   * @param {any} reply  the "span" request's answer
   * @param {string[]} names  the trace's name table
   */
  show(reply, names) {
    const fields = /** @type {string[][]} */ (reply.fields || []);
    const title = fields.find((f) => f[0] === "name")?.[1] || "";
    const rows = fields
      .filter((f) => f[0] !== "name")
      .map(([key, value]) => el("tr", {}, el("th", { text: key }), el("td", { text: value })));
    const related = reply.related || {};
    const count = Number(reply.related_total || 0);
    const links = el("ul", { class: "tbnb-prof-links" });
    for (let i = 0; i < (related.row?.length || 0); i++) {
      const button = el("button", { class: "tbnb-prof-link", type: "button" });
      setText(button, `${names[related.name[i]] || ""} · ${formatDuration(related.dur[i])}`);
      const row = related.row[i];
      const start = related.start[i];
      const dur = related.dur[i];
      const lane = related.lane[i];
      this.options.on(button, "click", () => this.options.onPick(row, start, dur, lane));
      links.append(el("li", {}, button));
    }
    const more = count > (related.row?.length || 0) ? ` (first ${related.row.length} of ${count})` : "";
    this.node.replaceChildren(
      el("div", { class: "tbnb-prof-title", text: title }),
      el("table", {}, el("tbody", {}, ...rows)),
      el("div", { class: "tbnb-prof-title", text: count ? `${reply.related_label}: ${count}${more}` : "" }),
      links,
    );
  }
}
