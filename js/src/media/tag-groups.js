// The media view's tag groups: one collapsible section per tag holding its cards' grid,
// with the count of cards shown in its summary.

import { el, setText } from "../core/dom.js";

/** @typedef {{node: HTMLDetailsElement, count: HTMLElement, grid: HTMLElement}} TagGroup */

export class TagGroups {
  /**
   * @param {(t: EventTarget, type: string, h: (e: any) => void) => void} on  the view's listener
   * @param {() => void} onToggle  a group opened or closed
   */
  constructor(on, onToggle) {
    this.on = on;
    this.onToggle = onToggle;
    /** @type {Map<string, TagGroup>} */
    this.groups = new Map();
  }

  /** The group of a tag, made on first use. @param {string} tag */
  of(tag) {
    let group = this.groups.get(tag);
    if (!group) {
      const count = el("span", { class: "tbnb-group-count" });
      const grid = el("div", { class: "tbnb-cards" });
      const node = el(
        "details",
        { class: "tbnb-group", "data-tag": tag, open: true },
        el("summary", {}, `${tag} `, count),
        grid,
      );
      this.on(node, "toggle", this.onToggle);
      group = { node, count, grid };
      this.groups.set(tag, group);
    }
    return group;
  }

  /** Drop the groups of tags no longer in the index. @param {string[]} tags */
  keepOnly(tags) {
    for (const [tag, group] of this.groups) {
      if (!tags.includes(tag)) {
        group.node.remove();
        this.groups.delete(tag);
      }
    }
  }

  /** Show each group's count of shown cards; hide the groups with none. @param {{tag: string}[]} shown */
  count(shown) {
    for (const [tag, group] of this.groups) {
      const n = shown.filter((c) => c.tag === tag).length;
      group.node.hidden = n === 0;
      setText(group.count, `(${n})`);
    }
  }
}
