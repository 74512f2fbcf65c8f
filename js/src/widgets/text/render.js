// Showing one text: rendered markdown through the kit's markdown allow-list, a table of
// cells, or the raw text (as logged, as text nodes). A raw text longer than RAW_CHARS
// shows its beginning and a button for the rest, so a card never stalls the page.
import { el } from "../../core/dom.js";
import { safeMarkdown } from "../../core/safe-html.js";

/** @typedef {import("./model").DecodedText} DecodedText */

/** Characters of raw text shown before "show all". */
export const RAW_CHARS = 200_000;

/**
 * @param {DecodedText} text
 * @param {{raw: boolean, full: boolean, on: (t: EventTarget, type: string, h: (e: any) => void) => void,
 *   onFull: () => void, onRender: () => void}} options
 * @returns {Node[]}
 */
export function textNodes(text, { raw, full, on, onFull, onRender }) {
  /** @type {Node[]} */
  const out = [];
  if (text.warning) out.push(el("div", { class: "tbnb-text-warning" }, safeMarkdown(text.warning)));
  const rendered = !raw && text.html !== null;
  if (rendered) {
    out.push(el("div", { class: "tbnb-markdown" }, safeMarkdown(/** @type {string} */ (text.html))));
    return out;
  }
  if (!raw && text.long) {
    const button = el("button", { class: "tbnb-render-markdown", type: "button", text: "render markdown" });
    on(button, "click", onRender);
    out.push(
      el(
        "div",
        { class: "tbnb-text-note" },
        `long text (${text.chars.toLocaleString()} characters), shown raw `,
        button,
      ),
    );
  }
  if (text.kind === "table" && text.shape && text.cells) {
    const [rows, cols] = text.shape;
    const body = el("tbody");
    for (let r = 0; r < rows; r++) {
      const tr = el("tr");
      for (let c = 0; c < cols; c++) tr.append(el("td", { text: text.cells[r * cols + c] }));
      body.append(tr);
    }
    out.push(el("table", { class: "tbnb-raw-table" }, body));
    return out;
  }
  const cut = !full && text.raw.length > RAW_CHARS;
  out.push(el("pre", { class: "tbnb-raw", text: cut ? text.raw.slice(0, RAW_CHARS) : text.raw }));
  if (cut) {
    const more = el("button", {
      class: "tbnb-show-all",
      type: "button",
      text: `show all ${text.raw.length.toLocaleString()} characters`,
    });
    on(more, "click", onFull);
    out.push(more);
  }
  return out;
}
