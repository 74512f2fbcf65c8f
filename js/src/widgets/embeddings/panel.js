// The projector's side panel: what is shown, the colour legend (or colour bar), the
// selection, the focused point's neighbours and the hovered point. All text, never markup.
import { el, setText } from "../../core/dom.js";
import { cssOf, viridisRgb } from "./coloring.js";
import { textOf } from "./metadata.js";

export class Panel {
  /** @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void, focus: (i: number) => void}} options */
  constructor({ on, focus }) {
    this.title = el("div", { class: "tbnb-pj-title" });
    this.runs = el("div", { class: "tbnb-pj-runs" });
    this.legend = el("div", { class: "tbnb-pj-legend" });
    this.selection = el("div", { class: "tbnb-pj-selection" });
    this.neighbors = el("div", { class: "tbnb-pj-neighbors" });
    this.hover = el("div", { class: "tbnb-pj-hover" });
    this.message = el("div", { class: "tbnb-pj-message" });
    this.node = el(
      "div",
      { class: "tbnb-pj-panel" },
      this.title,
      this.message,
      this.runs,
      this.legend,
      this.selection,
      this.neighbors,
      this.hover,
    );
    on(this.neighbors, "click", (/** @type {MouseEvent} */ e) => {
      const row = /** @type {Element} */ (e.target).closest("[data-index]");
      if (row) focus(Number(row.getAttribute("data-index")));
    });
  }

  /** @param {string} text */
  setMessage(text) {
    setText(this.message, text);
    this.message.hidden = !text;
  }

  /** @param {import("./coloring").Coloring} coloring */
  setLegend(coloring) {
    if (coloring.kind === "category") {
      this.legend.replaceChildren(
        el("div", { class: "tbnb-pj-head", text: `colour: ${coloring.column}` }),
        ...coloring.legend.map((item) =>
          el(
            "div",
            { class: "tbnb-pj-legend-item", "data-label": item.label },
            el("span", { class: "tbnb-swatch", style: { background: item.color } }),
            el("span", { class: "tbnb-pj-legend-label", text: item.label }),
            el("span", { class: "tbnb-pj-count", text: String(item.count) }),
          ),
        ),
      );
    } else if (coloring.kind === "number" && coloring.range) {
      const stops = Array.from({ length: 11 }, (_, k) => `${cssOf(viridisRgb(k / 10))} ${k * 10}%`);
      const [lo, hi] = coloring.range;
      this.legend.replaceChildren(
        el("div", { class: "tbnb-pj-head", text: `colour: ${coloring.column}` }),
        el("div", {
          class: "tbnb-pj-colorbar",
          style: { background: `linear-gradient(to right, ${stops.join(", ")})` },
        }),
        el(
          "div",
          { class: "tbnb-pj-colorbar-ticks" },
          el("span", { class: "tbnb-pj-lo", text: formatValue(lo) }),
          el("span", { class: "tbnb-pj-hi", text: formatValue(hi) }),
        ),
      );
    } else {
      this.legend.replaceChildren();
    }
  }

  /**
   * @param {number} count  selected points
   * @param {number} total
   */
  setSelection(count, total) {
    this.selection.replaceChildren(
      ...(count ? [el("div", { class: "tbnb-pj-head", text: `${count} of ${total} points selected` })] : []),
    );
    this.selection.setAttribute("data-count", String(count));
  }

  /**
   * @param {number} focus
   * @param {{indices: ArrayLike<number>, distances: ArrayLike<number>, metric: string} | null} found
   * @param {(i: number) => string} label
   * @param {string} note  shown instead (an error, or "needs the kernel")
   */
  setNeighbors(focus, found, label, note) {
    if (focus < 0) {
      this.neighbors.replaceChildren();
      this.neighbors.setAttribute("data-focus", "-1");
      return;
    }
    const rows = [];
    if (found) {
      for (let k = 0; k < found.indices.length; k++) {
        const i = found.indices[k];
        rows.push(
          el(
            "div",
            { class: "tbnb-pj-neighbor", "data-index": String(i) },
            el("span", { class: "tbnb-pj-neighbor-label", text: label(i) || `#${i}` }),
            el("span", { class: "tbnb-pj-distance", text: formatValue(found.distances[k]) }),
          ),
        );
      }
    }
    const metric = found ? ` (${found.metric}, original space)` : "";
    this.neighbors.replaceChildren(
      el("div", { class: "tbnb-pj-head", text: `#${focus} ${label(focus)}` }),
      el("div", { class: "tbnb-pj-sub", text: note || `nearest neighbours${metric}` }),
      ...rows,
    );
    this.neighbors.setAttribute("data-focus", String(focus));
    this.neighbors.setAttribute("data-count", String(rows.length));
  }

  /**
   * @param {number} i  hovered point (-1: none)
   * @param {Map<string, import("./metadata").Column>} columns
   */
  setHover(i, columns) {
    if (i < 0) {
      this.hover.replaceChildren();
      return;
    }
    const rows = [el("div", { class: "tbnb-pj-head", text: `point #${i}` })];
    let shown = 0;
    for (const column of columns.values()) {
      if (shown++ >= 12) break;
      rows.push(
        el(
          "div",
          { class: "tbnb-pj-kv" },
          el("span", { class: "tbnb-pj-key", text: column.name }),
          el("span", { class: "tbnb-pj-value", text: textOf(column, i) }),
        ),
      );
    }
    this.hover.replaceChildren(...rows);
  }
}

/** @param {number} v */
export function formatValue(v) {
  if (!Number.isFinite(v)) return String(v);
  if (v === 0) return "0";
  const a = Math.abs(v);
  return a >= 1e5 || a < 1e-3 ? v.toExponential(3) : String(Number(v.toPrecision(4)));
}
