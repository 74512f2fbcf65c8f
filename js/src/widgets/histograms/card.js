// One chart card: its head (the tag; the run with its colour, or the runs of a runs-at-step
// chart, each a toggle for this chart alone) and its chart (the kit's Chart: two canvases),
// made the first time the card scrolls into view (hundreds of cards cost a placeholder each
// until then). The top canvas takes the pointer: hover asks the drawing what is under it,
// shows the tooltip and highlights it on the second layer.
import { Chart } from "../../chart/chart.js";
import { saveImageButton } from "../../controls/save-image.js";
import { el } from "../../core/dom.js";
import { plotBox } from "./frame.js";

/** @typedef {import("./ridges").Drawn} Drawn */
/** @typedef {import("./ridges").Hover} Hover */
/**
 * @typedef {object} CardSpec
 * @property {string} key     unique: the tag and run (or the tag alone in runs mode)
 * @property {string} tag
 * @property {string | null} run
 * @property {string} group
 */
/**
 * @typedef {object} CardHooks
 * @property {(t: EventTarget, type: string, h: (e: any) => void) => void} on
 * @property {import("../../chart/tooltip").Tooltip} tooltip
 * @property {(card: Card, run: string) => void} onToggleRun
 */

const PICTURES = 5;

export class Card {
  /**
   * @param {CardSpec} spec
   * @param {number} height
   * @param {CardHooks} hooks
   */
  constructor(spec, height, hooks) {
    this.spec = spec;
    this.hooks = hooks;
    this.height = height;
    /** @type {false | true} */
    this.dirty = true;
    this.visible = false;
    this.shown = true;
    /** @type {CardChart | null} */
    this.chart = null;
    /** @type {import("../../chart/surface").CanvasStack | null} the chart's canvases */
    this.stack = null;
    /** @type {Drawn | null} */
    this.drawn = null;
    /** @type {Set<string>} runs left out of this chart only (runs mode: hidden_in_chart) */
    this.hiddenRuns = new Set();
    /** @type {any} the data drawn last */
    this.data = null;
    /** @type {Map<string, {data: any, drawn: Drawn | null, canvas: HTMLCanvasElement}>} pictures kept by looks */
    this.pictures = new Map();

    /** @type {((ctx: CanvasRenderingContext2D, box: import("./frame").Box) => Drawn) | null} drawn last */
    this.paint = null;
    /** @type {{run: string, color: string}[]} */
    this.runs = [];
    this.swatch = el("span", { class: "tbnb-swatch" });
    this.legend = el("span", { class: "tbnb-card-legend" });
    this.note = el("span", { class: "tbnb-card-note" });
    const head = el(
      "div",
      { class: "tbnb-chart-head" },
      el("span", { class: "tbnb-chart-title", text: spec.tag, title: spec.tag }),
      spec.run === null
        ? this.legend
        : el(
            "span",
            { class: "tbnb-card-run", title: spec.run },
            this.swatch,
            el("span", { class: "tbnb-run-name", text: spec.run }),
          ),
      this.note,
      saveImageButton({ on: hooks.on, label: spec.tag, image: () => this.image() }),
    );
    this.body = el("div", { class: "tbnb-chart-body" });
    this.body.style.height = `${height}px`;
    this.node = el(
      "div",
      { class: "tbnb-chart", "data-tag": spec.tag, "data-run": spec.run ?? "", "data-state": "waiting" },
      head,
      this.body,
    );
    hooks.on(this.legend, "click", (/** @type {MouseEvent} */ e) => {
      const item = /** @type {HTMLElement | null} */ (
        /** @type {HTMLElement} */ (e.target).closest(".tbnb-legend-entry")
      );
      const run = item?.getAttribute("data-run");
      if (run !== null && run !== undefined) hooks.onToggleRun(this, run);
    });
  }

  /** The canvases, made on first use. */
  ensureStack() {
    if (this.stack) return this.stack;
    this.body.style.height = "";
    this.chart = new CardChart(this, this.body);
    this.stack = this.chart.surface;
    return this.stack;
  }

  /** The width of the plot area (what the kernel is asked to fill, a step per pixel). */
  plotWidth() {
    const width = this.stack ? this.stack.width : this.body.clientWidth || 360;
    const box = plotBox(width, this.height);
    return Math.max(Math.round(box.right - box.left), 10);
  }

  /** The card's width now (a layout read: measure every card before drawing any). */
  measure() {
    return this.body.clientWidth;
  }

  /**
   * Draw with `paint(ctx, box)` at the current size.
   * @param {(ctx: CanvasRenderingContext2D, box: import("./frame").Box) => Drawn} paint
   * @param {any} data
   * @param {number} [width]  measured beforehand (else read now)
   * @param {string} [looks]  what else the picture depends on: kept under it (with the
   *   data and size), a later draw of the same data and looks copies it back
   */
  draw(paint, data, width, looks) {
    const stack = this.ensureStack();
    stack.resize(width || this.body.clientWidth || stack.width, this.height);
    const ctx = stack.context(0);
    stack.context(1);
    if (!ctx) return;
    this.data = data;
    this.paint = paint;
    this.unhover();
    const key = looks === undefined ? "" : `${looks}|${stack.width}x${stack.height}@${stack.dpr}`;
    const kept = key ? this.pictures.get(key) : undefined;
    if (kept && kept.data === data) {
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.drawImage(kept.canvas, 0, 0);
      ctx.restore();
      this.drawn = kept.drawn;
    } else {
      this.drawn = paint(ctx, plotBox(stack.width, stack.height));
      if (key) this.keep(key, data, ctx.canvas);
    }
    setAttr(this.node, "data-state", data?.exact ? "exact" : "approximate");
    setAttr(this.node, "data-steps", String(data?.steps?.length ?? data?.items?.length ?? 0));
  }

  /**
   * Keep a copy of the picture just drawn (at most PICTURES per card: one per mode).
   * @param {string} key
   * @param {any} data
   * @param {HTMLCanvasElement} source
   */
  keep(key, data, source) {
    const old = this.pictures.get(key);
    const canvas = old?.canvas ?? document.createElement("canvas");
    canvas.width = source.width;
    canvas.height = source.height;
    canvas.getContext("2d")?.drawImage(source, 0, 0);
    this.pictures.delete(key);
    this.pictures.set(key, { data, drawn: this.drawn, canvas });
    while (this.pictures.size > PICTURES)
      this.pictures.delete(/** @type {string} */ (this.pictures.keys().next().value));
  }

  /**
   * The chart as shown, for the save-image button (the last paint, run again).
   * @returns {import("../../chart/image-export").ChartImage | null}
   */
  image() {
    const { stack, paint, spec } = this;
    if (!stack || !paint) return null;
    const legend = this.runs.filter((r) => !this.hiddenRuns.has(r.run)).map((r) => ({ label: r.run, color: r.color }));
    return {
      title: spec.tag,
      subtitle: spec.run ?? undefined,
      width: stack.width,
      height: stack.height,
      element: this.body,
      legend,
      draw: (ctx) => {
        paint(ctx, plotBox(stack.width, stack.height));
      },
    };
  }

  /**
   * Show what is under the pointer at (x, y) (canvas coordinates).
   * @param {number} x
   * @param {number} y
   */
  hover(x, y) {
    const stack = this.stack;
    const hit = this.drawn?.pick(x, y);
    const ctx = stack?.context(1);
    if (!hit || !stack || !ctx) {
      this.unhover();
      return;
    }
    hit.highlight(ctx);
    this.chart?.showTooltip(hit.table, hit.points, { x, y });
    this.node.setAttribute("data-hover", hit.describe);
  }

  unhover() {
    this.stack?.context(1);
    this.chart?.hideTooltip();
    this.node.removeAttribute("data-hover");
  }

  /**
   * The runs of a runs-at-step chart, each a toggle for this chart.
   * @param {{run: string, color: string}[]} runs
   */
  setLegend(runs) {
    this.runs = runs;
    this.legend.replaceChildren(
      ...runs.map(({ run, color }) =>
        el(
          "button",
          {
            type: "button",
            class: `tbnb-legend-entry${this.hiddenRuns.has(run) ? " tbnb-off" : ""}`,
            "data-run": run,
            title: `${run}: show or hide in this chart`,
          },
          el("span", { class: "tbnb-swatch", style: { background: color } }),
          el("span", { class: "tbnb-run-name", text: run }),
        ),
      ),
    );
  }
}

/**
 * Set an attribute only when it changes (an unchanged write still invalidates styles).
 * @param {Element} node
 * @param {string} name
 * @param {string} value
 */
function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/**
 * The `hidden_in_chart` trait with `run` shown again in the chart of `tag` if it was
 * hidden there, hidden if it was shown (a chart with no hidden run drops its entry).
 * @param {Record<string, string[]>} hiddenInChart @param {string} tag @param {string} run
 */
export function runToggled(hiddenInChart, tag, run) {
  const all = { ...hiddenInChart };
  const hidden = new Set(all[tag] || []);
  if (hidden.has(run)) hidden.delete(run);
  else hidden.add(run);
  if (hidden.size) all[tag] = [...hidden];
  else delete all[tag];
  return all;
}

/**
 * A card's chart: two canvases (the drawing, and the highlight under the pointer); what it
 * draws is the card's last paint (ridges, overlay, heatmap, bands), each laying out its own
 * plot box (frame.js), so this chart keeps no scales of its own.
 */
class CardChart extends Chart {
  /**
   * @param {Card} card
   * @param {HTMLElement} body
   */
  constructor(card, body) {
    super(body, { height: card.height, tooltip: card.hooks.tooltip, on: card.hooks.on, layers: 2 });
    this.card = card;
  }

  /** @param {number} x @param {number} y */
  pointerMove(x, y) {
    this.card.hover(x, y);
  }

  pointerLeave() {
    this.card.unhover();
  }
}
