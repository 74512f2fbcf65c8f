// A sortable, paged table: click a header to sort (again to reverse; missing values last
// either way), pages of `pageSize` rows, a hovered row highlighted. Cells are text.
import { naturalCompare } from "../core/arrays.js";
import { breakableText, el, setText } from "../core/dom.js";

/**
 * @typedef {object} Column
 * @property {string} key
 * @property {string} label
 * @property {boolean} [numeric]   right-aligned, tabular digits, never wrapped
 * @property {(row: number) => string} text            what the cell shows
 * @property {(row: number) => number | string | null} value  what it sorts by (null = missing)
 */

const PAGE_SIZES = [10, 25, 50, 100, 500];

export class DataTable {
  /**
   * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void,
   *   onPageSize?: (size: number) => void, onHover?: (row: number) => void,
   *   rowAttrs?: (row: number) => {key: string, classes: string[], swatch?: string}}} options
   */
  constructor(options) {
    this.options = options;
    /** @type {Column[]} */
    this.columns = [];
    /** @type {number[]} */
    this.rows = [];
    this.page = 0;
    this.pageSize = 25;
    /** @type {string | null} */
    this.sortBy = null;
    this.sortDesc = false;
    this.hover = -1;
    this.table = el("table", { class: "tbnb-table" });
    this.prev = el("button", { class: "tbnb-prev", type: "button", text: "‹", "aria-label": "previous page" });
    this.next = el("button", { class: "tbnb-next", type: "button", text: "›", "aria-label": "next page" });
    this.info = el("span", { class: "tbnb-page" });
    this.sizes = el("select", { class: "tbnb-page-size" });
    for (const n of PAGE_SIZES) this.sizes.append(el("option", { value: String(n), text: String(n) }));
    this.sizes.value = String(this.pageSize); // the select says what the table shows
    this.wrap = el("div", { class: "tbnb-table-wrap" }, this.table);
    this.node = el(
      "div",
      { class: "tbnb-table-box" },
      this.wrap,
      el("div", { class: "tbnb-pager" }, this.prev, this.info, this.next, el("label", {}, "rows/page", this.sizes)),
    );
    const { on } = options;
    on(this.prev, "click", () => this.goto(this.page - 1));
    on(this.next, "click", () => this.goto(this.page + 1));
    on(this.sizes, "change", () => {
      this.setPageSize(Number(this.sizes.value));
      this.options.onPageSize?.(this.pageSize);
    });
    on(this.table, "click", (/** @type {MouseEvent} */ e) => {
      const th = /** @type {Element} */ (e.target).closest("th[data-column]");
      if (th) this.sort(th.getAttribute("data-column") || "");
    });
    on(this.table, "pointerover", (/** @type {PointerEvent} */ e) => {
      const tr = /** @type {Element} */ (e.target).closest("tr[data-row]");
      if (tr) this.options.onHover?.(Number(tr.getAttribute("data-row")));
    });
    on(this.table, "pointerleave", () => this.options.onHover?.(-1));
  }

  /** @param {Column[]} columns */
  setColumns(columns) {
    this.columns = columns;
    if (this.sortBy !== null && !columns.some((c) => c.key === this.sortBy)) this.sortBy = null;
  }

  /** The rows to show (indices), before sorting. @param {number[]} rows */
  setRows(rows) {
    this.rows = rows;
  }

  /** @param {number} size */
  setPageSize(size) {
    this.pageSize = Math.max(1, size | 0);
    const value = String(this.pageSize);
    if (![...this.sizes.options].some((o) => o.value === value)) {
      this.sizes.append(el("option", { value, text: value })); // a size set from Python
    }
    this.sizes.value = value;
    this.page = 0;
    this.render();
  }

  /** @param {number} page */
  goto(page) {
    this.page = Math.max(0, page);
    this.render();
  }

  /** Sort by a column (the same one again reverses). @param {string} key */
  sort(key) {
    if (this.sortBy === key) this.sortDesc = !this.sortDesc;
    else {
      this.sortBy = key;
      this.sortDesc = false;
    }
    this.render();
  }

  /** Every shown row in display order (all pages): what a CSV holds. @returns {number[]} */
  sorted() {
    const col = this.columns.find((c) => c.key === this.sortBy);
    if (!col) return [...this.rows];
    const dir = this.sortDesc ? -1 : 1;
    return [...this.rows].sort((a, b) => {
      const va = col.value(a);
      const vb = col.value(b);
      if (va === null && vb === null) return a - b;
      if (va === null) return 1;
      if (vb === null) return -1;
      const c = typeof va === "number" && typeof vb === "number" ? va - vb : naturalCompare(String(va), String(vb));
      return c === 0 ? a - b : c * dir;
    });
  }

  render() {
    const rows = this.sorted();
    const pages = Math.max(1, Math.ceil(rows.length / this.pageSize));
    this.page = Math.min(this.page, pages - 1);
    const first = this.page * this.pageSize;
    const shown = rows.slice(first, first + this.pageSize);
    const head = el(
      "tr",
      {},
      ...this.columns.map((c) => {
        const mark = this.sortBy === c.key ? (this.sortDesc ? " ▼" : " ▲") : "";
        return el(
          "th",
          { class: c.numeric ? "tbnb-num" : null, "data-column": c.key, title: `sort by ${c.label}` },
          breakableText(c.label),
          mark,
        );
      }),
    );
    const body = shown.map((i) => {
      const attrs = this.options.rowAttrs?.(i);
      const classes = ["tbnb-row", ...(attrs?.classes || [])].join(" ");
      const tr = el("tr", { "data-row": String(i), "data-run": attrs?.key ?? null, class: classes });
      if (i === this.hover) tr.classList.add("tbnb-hover");
      this.columns.forEach((c, k) => {
        const td = el("td", { class: c.numeric ? "tbnb-num" : "tbnb-text" });
        const content = c.numeric ? c.text(i) : breakableText(c.text(i));
        if (k === 0 && attrs?.swatch) {
          // swatch and name in one flex box: the name wraps, never away from its swatch
          const swatch = el("span", { class: "tbnb-swatch", style: { background: attrs.swatch } });
          td.append(el("span", { class: "tbnb-cell-key" }, swatch, el("span", {}, content)));
        } else td.append(content);
        tr.append(td);
      });
      return tr;
    });
    this.table.replaceChildren(el("thead", {}, head), el("tbody", {}, ...body));
    setText(this.info, rows.length ? `${first + 1}–${first + shown.length} of ${rows.length}` : "no rows");
    this.prev.disabled = this.page === 0;
    this.next.disabled = this.page >= pages - 1;
  }

  /** Highlight row `i` (-1: none) without rebuilding the table. @param {number} i */
  setHover(i) {
    this.hover = i;
    for (const tr of this.table.querySelectorAll("tr[data-row]")) {
      tr.classList.toggle("tbnb-hover", Number(tr.getAttribute("data-row")) === i);
    }
  }
}
