// The projector's side panel: what is shown, the colour legend (or colour bar), the
// selection, a column's distribution over all points and the selection (a click on a bar
// selects its points), the focused point's neighbours with their sprites and metadata, and
// the hovered point. All text, never markup.
import { el, setText } from "../../core/dom.js";
import { cssOf, viridisRgb } from "./coloring.js";
import { bars, pointsOf } from "./histogram.js";
import { textOf } from "./metadata.js";

/** @typedef {(i: number) => HTMLCanvasElement | null} Thumb  a point's sprite, or null */

export class Panel {
  /**
   * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void, focus: (i: number) => void,
   *   select: (indices: Int32Array, additive: boolean) => void, column: (name: string) => void}} options
   */
  constructor({ on, focus, select, column }) {
    this.title = el("div", { class: "tbnb-pj-title" });
    this.histogram = el("div", { class: "tbnb-pj-histogram" });
    this.histogramColumn = el("select", {
      class: "tbnb-pj-histogram-column",
      title: "column whose distribution is shown",
    });
    /** @type {import("./histogram").Bar[]} */
    this.bars = [];
    this.n = 0;
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
      this.histogram,
      this.neighbors,
      this.hover,
    );
    on(this.neighbors, "click", (/** @type {MouseEvent} */ e) => {
      const row = /** @type {Element} */ (e.target).closest("[data-index]");
      if (row) focus(Number(row.getAttribute("data-index")));
    });
    on(this.histogram, "click", (/** @type {MouseEvent} */ e) => {
      const row = /** @type {Element} */ (e.target).closest("[data-bar]");
      const bar = row ? this.bars[Number(row.getAttribute("data-bar"))] : undefined;
      if (bar) select(pointsOf(bar, this.n), e.shiftKey || e.ctrlKey || e.metaKey);
    });
    on(this.histogramColumn, "change", () => column(this.histogramColumn.value));
  }

  /**
   * The distribution of `chosen` over every point and over the selection.
   * @param {import("./metadata").Column | undefined} chosen
   * @param {string[]} names  every column (the chooser's options)
   * @param {number} n @param {Uint8Array} selected @param {number} count  selected points
   */
  setHistogram(chosen, names, n, selected, count) {
    this.n = n;
    this.bars = chosen && n ? bars(chosen, n, selected) : [];
    const options = names.map((name) => el("option", { value: name, text: name }));
    if (
      this.histogramColumn.options.length !== options.length ||
      names.some((name, k) => this.histogramColumn.options[k].value !== name)
    ) {
      this.histogramColumn.replaceChildren(...options);
    }
    this.histogramColumn.value = chosen?.name || "";
    if (!this.bars.length) {
      this.histogram.replaceChildren();
      this.histogram.hidden = true;
      return;
    }
    this.histogram.hidden = false;
    const share = (/** @type {number} */ v, /** @type {number} */ of) => (of ? v / of : 0);
    let most = 0;
    for (const bar of this.bars) most = Math.max(most, share(bar.total, n), share(bar.chosen, count));
    const width = (/** @type {number} */ v) => `${((100 * v) / (most || 1)).toFixed(1)}%`;
    const rows = this.bars.map((bar, k) =>
      el(
        "div",
        { class: "tbnb-pj-bar", "data-bar": String(k), title: `${bar.label}: ${bar.chosen} of ${bar.total} selected` },
        el("span", { class: "tbnb-pj-bar-label", text: bar.label }),
        el(
          "span",
          { class: "tbnb-pj-bar-track" },
          el("span", { class: "tbnb-pj-bar-all", style: { width: width(share(bar.total, n)) } }),
          ...(count
            ? [el("span", { class: "tbnb-pj-bar-chosen", style: { width: width(share(bar.chosen, count)) } })]
            : []),
        ),
        el("span", { class: "tbnb-pj-count", text: count ? `${bar.chosen}/${bar.total}` : String(bar.total) }),
      ),
    );
    const sub = count ? "share of the selection (dark) and of all points" : "click a bar to select its points";
    this.histogram.replaceChildren(
      el("div", { class: "tbnb-pj-head" }, "distribution of ", this.histogramColumn),
      el("div", { class: "tbnb-pj-sub", text: sub }),
      ...rows,
    );
    this.histogram.setAttribute("data-bars", String(rows.length));
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
   * @param {Thumb} [thumb]  a point's sprite
   * @param {(i: number) => string} [detail]  a point's other metadata, in brief
   */
  setNeighbors(focus, found, label, note, thumb = () => null, detail = () => "") {
    if (focus < 0) {
      this.neighbors.replaceChildren();
      this.neighbors.setAttribute("data-focus", "-1");
      return;
    }
    const rows = [];
    if (found) {
      for (let k = 0; k < found.indices.length; k++) {
        const i = found.indices[k];
        const image = thumb(i);
        const more = detail(i);
        rows.push(
          el(
            "div",
            { class: "tbnb-pj-neighbor", "data-index": String(i) },
            ...(image ? [image] : []),
            el(
              "span",
              { class: "tbnb-pj-neighbor-label" },
              el("span", { text: label(i) || `#${i}` }),
              ...(more ? [el("span", { class: "tbnb-pj-neighbor-meta", text: more })] : []),
            ),
            el("span", { class: "tbnb-pj-distance", text: formatValue(found.distances[k]) }),
          ),
        );
      }
    }
    const metric = found ? ` (${found.metric}, original space)` : "";
    const own = thumb(focus);
    this.neighbors.replaceChildren(
      el("div", { class: "tbnb-pj-head" }, ...(own ? [own] : []), `#${focus} ${label(focus)}`),
      el("div", { class: "tbnb-pj-sub", text: note || `nearest neighbours${metric}` }),
      ...rows,
    );
    this.neighbors.setAttribute("data-focus", String(focus));
    this.neighbors.setAttribute("data-count", String(rows.length));
  }

  /**
   * @param {number} i  hovered point (-1: none)
   * @param {Map<string, import("./metadata").Column>} columns
   * @param {Thumb} [thumb]
   */
  setHover(i, columns, thumb = () => null) {
    if (i < 0) {
      this.hover.replaceChildren();
      return;
    }
    const image = thumb(i);
    const rows = [el("div", { class: "tbnb-pj-head" }, ...(image ? [image] : []), `point #${i}`)];
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
