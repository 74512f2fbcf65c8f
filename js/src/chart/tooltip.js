// The hover readout: a DOM table (whole run names, wrapping; numbers never cut) placed
// beside the hovered points, never over them.
import { el } from "../core/dom.js";

/**
 * @typedef {object} Point
 * @property {number} x
 * @property {number} y
 */

/**
 * @typedef {object} Placement
 * @property {number} left
 * @property {number} top
 * @property {"right" | "left" | "below" | "above"} side
 */

/**
 * @param {number} v
 * @param {number} lo
 * @param {number} hi
 */
const clamp = (v, lo, hi) => Math.max(lo, Math.min(v, Math.max(lo, hi)));

/**
 * Where to put a tooltip of `size` so that it covers none of `points` (each drawn with
 * `radius`) nor the `anchor` (the pointer): right of the rightmost point if it fits in
 * `bounds`, else left of the leftmost, else below the lowest, else above the highest, else
 * below anyway (outside the bounds rather than over a point). Coordinates share one origin.
 * @param {{points: Point[], anchor: Point, size: {width: number, height: number},
 *   bounds: {width: number, height: number}, gap?: number, radius?: number}} input
 * @returns {Placement}
 */
export function placeTooltip({ points, anchor, size, bounds, gap = 10, radius = 4 }) {
  const all = [...points, anchor].filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  const xs = all.map((p) => p.x);
  const ys = all.map((p) => p.y);
  const minX = xs.length ? Math.min(...xs) : 0;
  const maxX = xs.length ? Math.max(...xs) : 0;
  const minY = ys.length ? Math.min(...ys) : 0;
  const maxY = ys.length ? Math.max(...ys) : 0;
  const pad = gap + radius;
  const top = clamp(anchor.y - size.height / 2, 0, bounds.height - size.height);
  const right = maxX + pad;
  if (right + size.width <= bounds.width) return { left: right, top, side: "right" };
  const left = minX - pad - size.width;
  if (left >= 0) return { left, top, side: "left" };
  const across = clamp(anchor.x - size.width / 2, 0, bounds.width - size.width);
  const below = maxY + pad;
  if (below + size.height <= bounds.height) return { left: across, top: below, side: "below" };
  const above = minY - pad - size.height;
  if (above >= 0) return { left: across, top: above, side: "above" };
  return { left: across, top: below, side: "below" };
}

/**
 * @typedef {object} TooltipColumn
 * @property {string} label
 * @property {boolean} [name]  a name column: wraps instead of widening the table
 */

/**
 * @typedef {object} TooltipRow
 * @property {string} color
 * @property {string[]} cells  one per column, as text
 */

/** One tooltip element per view, absolutely positioned in the view's root. */
export class Tooltip {
  /** @param {HTMLElement} parent  a positioned element (the view root) */
  constructor(parent) {
    this.parent = parent;
    this.node = el("div", { class: "tbnb-tooltip", role: "tooltip" });
    this.node.style.display = "none";
    parent.append(this.node);
    /** @type {Placement | null} */
    this.placement = null;
    /** @type {unknown} the chart whose readout is shown */
    this.owner = null;
  }

  /**
   * Fill the tooltip and place it by {@link placeTooltip} (coordinates relative to the parent).
   * @param {{columns: TooltipColumn[], rows: TooltipRow[], more?: number}} table
   * @param {{points: Point[], anchor: Point}} where
   * @param {unknown} [owner]  who shows it (only the owner's hide() hides it)
   */
  show(table, where, owner = null) {
    this.owner = owner;
    const head = el(
      "tr",
      {},
      el("th"),
      ...table.columns.map((c) => el("th", { class: c.name ? "tbnb-tip-name" : null, text: c.label })),
    );
    const rows = table.rows.map((row) =>
      el(
        "tr",
        {},
        el("td", {}, el("span", { class: "tbnb-swatch", style: { background: row.color } })),
        ...row.cells.map((cell, i) => el("td", { class: table.columns[i]?.name ? "tbnb-tip-name" : null, text: cell })),
      ),
    );
    if (table.more) {
      rows.push(
        el(
          "tr",
          {},
          el("td"),
          el("td", { class: "tbnb-tip-more", colspan: table.columns.length, text: `+${table.more} more` }),
        ),
      );
    }
    this.node.replaceChildren(el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows)));
    const bounds = { width: this.parent.clientWidth, height: this.parent.clientHeight };
    this.node.style.maxWidth = `${Math.max(bounds.width - 4, 160)}px`;
    this.node.style.display = "block";
    const size = { width: this.node.offsetWidth, height: this.node.offsetHeight };
    this.placement = placeTooltip({ ...where, size, bounds });
    this.node.style.left = `${Math.round(this.placement.left)}px`;
    this.node.style.top = `${Math.round(this.placement.top)}px`;
    this.node.setAttribute("data-side", this.placement.side);
    // where the hovered points are (parent coordinates): what the placement kept clear
    this.node.setAttribute("data-points", JSON.stringify(where.points.map((p) => [Math.round(p.x), Math.round(p.y)])));
  }

  /** Hide the tooltip if `owner` shows it (or whoever shows it, without an owner). @param {unknown} [owner] */
  hide(owner = null) {
    if (owner !== null && this.owner !== owner) return;
    this.owner = null;
    this.node.style.display = "none";
    this.placement = null;
  }

  get visible() {
    return this.node.style.display !== "none";
  }
}
