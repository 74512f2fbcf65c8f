// A "Download CSV" button: the rows come from a callback at click time; text cells are
// neutralised against spreadsheet formulas (core/csv.js).
import { downloadText, toCSV } from "../core/csv.js";
import { el } from "../core/dom.js";

/**
 * @param {{className: string, filename: string, parent: HTMLElement,
 *   on: (t: EventTarget, type: string, h: (e: any) => void) => void,
 *   rows: () => {header: unknown[], rows: unknown[][]}}} options
 * @returns {HTMLButtonElement}
 */
export function csvButton({ className, filename, parent, on, rows }) {
  const button = el("button", { class: className, type: "button", text: "Download CSV" });
  on(button, "click", () => {
    const table = rows();
    button.setAttribute("data-rows", String(table.rows.length));
    downloadText(parent, filename, toCSV(table.header, table.rows));
  });
  return button;
}
