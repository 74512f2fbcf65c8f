// The run information view: renders from model state alone (live kernel, saved notebook or
// exported page). A sortable, filterable, paged table of runs (click a row to put the run
// side by side with the others chosen), the run selector, and the chosen runs side by side:
// every key they have, or only those that differ, highlighted. CSV of either.

import { runColor } from "../../color/palettes.js";
import { csvButton } from "../../controls/csv-button.js";
import { filterInput } from "../../controls/filter-input.js";
import { RunSelector } from "../../controls/run-selector.js";
import { DataTable } from "../../controls/table.js";
import { breakableText, el, setText } from "../../core/dom.js";
import { View } from "../../core/view.js";
import { cellText, cellValue, comparison, decodeTable } from "./table-data.js";

/** @typedef {import("./model").RunsTraits} RunsTraits */
/** @typedef {import("./table-data").InfoColumn} InfoColumn */

const SECTIONS = ["run", "counts", "hparams", "config", "environment", "run_metadata", "graphs"];

/** @extends {View<RunsTraits>} */
export class RunsView extends View {
  /** @param {import("./model").RunsModel} model @param {HTMLElement} host */
  constructor(model, host) {
    super(model, host, "metadata");
    const on = this.on.bind(this);
    this.data = decodeTable(null);
    /** @type {RegExp | null} */
    this.rowFilter = null;
    this.runs = new RunSelector(this, { onChange: () => this.renderCompare() });
    this.filter = filterInput({
      className: "tbnb-runs-filter",
      placeholder: "filter runs (regex)",
      on,
      onChange: (text, re) => {
        this.rowFilter = re;
        this.save({ table_filter: text });
        this.table.goto(0);
        this.renderTable();
      },
    });
    this.sectionBoxes = el("span", { class: "tbnb-runs-sections" });
    this.status = el("span", { class: "tbnb-runs-status" });
    this.table = new DataTable({
      on,
      onPageSize: (size) => this.save({ page_size: size }),
      rowAttrs: (i) => ({
        key: this.data.runs[i],
        classes: this.selected().has(this.data.runs[i]) ? ["tbnb-chosen"] : [],
        swatch: runColor(this.model.get("run_colors") || {}, this.data.runs[i], i),
      }),
    });
    this.onlyDiff = el("input", { class: "tbnb-runs-only-diff", type: "checkbox" });
    this.compareTitle = el("div", { class: "tbnb-runs-compare-title" });
    this.compareBody = el("div", { class: "tbnb-diff-wrap" });
    this.tableCsv = csvButton({
      className: "tbnb-runs-csv",
      filename: "tbnb-runs.csv",
      parent: this.root,
      on,
      rows: () => this.tableCsvRows(),
    });
    this.diffCsv = csvButton({
      className: "tbnb-runs-diff-csv",
      filename: "tbnb-runs-diff.csv",
      parent: this.root,
      on,
      rows: () => this.diffCsvRows(),
    });
  }

  build() {
    const on = this.on.bind(this);
    this.root.append(
      el("div", { class: "tbnb-toolbar" }, this.filter.node, this.sectionBoxes, this.tableCsv, this.status),
      el(
        "div",
        { class: "tbnb-runs-main" },
        el("div", { class: "tbnb-runs-side" }, this.runs.node),
        el(
          "div",
          { class: "tbnb-runs-body" },
          this.table.node,
          el(
            "div",
            { class: "tbnb-runs-compare" },
            el(
              "div",
              { class: "tbnb-toolbar" },
              this.compareTitle,
              el("label", {}, this.onlyDiff, "only differences"),
              this.diffCsv,
            ),
            this.compareBody,
          ),
        ),
      ),
    );
    on(this.onlyDiff, "change", () => this.save({ only_differences: this.onlyDiff.checked }));
    on(this.table.table, "click", (/** @type {MouseEvent} */ e) => {
      const tr = /** @type {Element} */ (e.target).closest("tr[data-run]");
      if (!tr || /** @type {Element} */ (e.target).closest("th")) return;
      const run = tr.getAttribute("data-run") || "";
      const chosen = this.model.get("selected_runs") || [];
      const next = chosen.includes(run) ? chosen.filter((r) => r !== run) : [...chosen, run];
      this.save({ selected_runs: next });
    });
    this.listen("change:_table", () => this.rebuild());
    this.listen("change:sections", () => {
      this.syncSections();
      this.renderTable();
    });
    this.listen("change:selected_runs change:only_differences change:run_colors", () => {
      this.onlyDiff.checked = !!this.model.get("only_differences");
      this.renderTable();
      this.renderCompare();
    });
    this.listen("change:table_filter", () => this.filter.set(this.model.get("table_filter") || ""));
    this.listen("change:page_size", () => this.table.setPageSize(this.model.get("page_size") || 25));
    this.rebuild();
  }

  rebuild() {
    this.data = decodeTable(this.model.get("_table"));
    this.runs.setRuns(this.data.runs);
    this.filter.set(this.model.get("table_filter") || "");
    this.rowFilter = this.filter.input.value ? safeRegex(this.filter.input.value) : null;
    this.onlyDiff.checked = !!this.model.get("only_differences");
    this.syncSections();
    this.table.setPageSize(this.model.get("page_size") || 25);
    this.renderTable();
    this.renderCompare();
  }

  syncSections() {
    const chosen = new Set(this.model.get("sections") || []);
    const present = SECTIONS.filter((s) => this.data.columns.some((c) => c.section === s));
    this.sectionBoxes.replaceChildren(
      ...present.map((section) => {
        const box = el("input", { type: "checkbox", class: "tbnb-runs-section", "data-section": section });
        box.checked = chosen.has(section);
        box.addEventListener("change", () => {
          const next = new Set(this.model.get("sections") || []);
          if (box.checked) next.add(section);
          else next.delete(section);
          this.save({ sections: SECTIONS.filter((s) => next.has(s)) });
        });
        return el("label", {}, box, section.replace("_", " "));
      }),
    );
  }

  /** @returns {Set<string>} */
  selected() {
    return new Set(this.model.get("selected_runs") || []);
  }

  /** Columns of the table: the keys of the chosen sections. */
  shownColumns() {
    const sections = new Set(this.model.get("sections") || []);
    return this.data.columns.filter((c) => sections.has(c.section));
  }

  renderTable() {
    const t = this.data;
    const columns = this.shownColumns();
    this.table.setColumns([
      { key: "run", label: "run", text: (i) => t.runs[i], value: (i) => t.runs[i] },
      ...columns.map((c) => ({
        key: `${c.section}\u0000${c.key}`,
        label: c.section === "run" || c.section === "counts" ? c.key : `${c.section}: ${c.key}`,
        numeric: !c.codes,
        text: (/** @type {number} */ i) => cellText(t, c, i),
        value: (/** @type {number} */ i) => cellValue(t, c, i),
      })),
    ]);
    const re = this.rowFilter;
    /** @type {number[]} */
    const rows = [];
    for (let i = 0; i < t.runs.length; i++) {
      if (re && !re.test(t.runs[i]) && !columns.some((c) => re.test(cellText(t, c, i)))) continue;
      rows.push(i);
    }
    this.table.setRows(rows);
    this.table.render();
    setText(this.status, `${rows.length} of ${t.runs.length} runs`);
    this.root.setAttribute("data-rows", String(rows.length));
  }

  /** Indices of the chosen runs, in the order they were chosen. */
  chosenRows() {
    const index = new Map(this.data.runs.map((r, i) => [r, i]));
    return (this.model.get("selected_runs") || []).map((r) => index.get(r)).filter((i) => i !== undefined);
  }

  renderCompare() {
    const t = this.data;
    const rows = /** @type {number[]} */ (this.chosenRows());
    const only = !!this.model.get("only_differences");
    if (!rows.length) {
      setText(this.compareTitle, "Side by side");
      this.compareBody.replaceChildren(
        el("p", {
          class: "tbnb-runs-hint",
          text: "Click runs in the table (or tick them on the left) to put them side by side.",
        }),
      );
      this.root.setAttribute("data-differences", "0");
      return;
    }
    const keys = comparison(t, rows, only);
    const differing = keys.filter((k) => k.differs).length;
    setText(
      this.compareTitle,
      rows.length === 1
        ? `${t.runs[rows[0]]}: everything the logs tell`
        : `${rows.length} runs side by side: ${differing} of ${comparison(t, rows, false).length} keys differ`,
    );
    const colors = this.model.get("run_colors") || {};
    const head = el(
      "tr",
      {},
      el("th", { text: "section" }),
      el("th", { text: "key" }),
      ...rows.map((i) =>
        el(
          "th",
          { "data-run": t.runs[i] },
          el("span", { class: "tbnb-swatch", style: { background: runColor(colors, t.runs[i], i) } }),
          " ",
          breakableText(t.runs[i]),
        ),
      ),
    );
    const body = keys.map(({ column, differs }) =>
      el(
        "tr",
        {
          class: differs ? "tbnb-diff-row tbnb-differs" : "tbnb-diff-row",
          "data-key": `${column.section}/${column.key}`,
        },
        el("td", { class: "tbnb-diff-section", text: column.section }),
        el("td", { class: "tbnb-diff-key" }, breakableText(column.key)),
        ...rows.map((i) => el("td", {}, breakableText(cellText(t, column, i)))),
      ),
    );
    this.compareBody.replaceChildren(
      el("table", { class: "tbnb-diff" }, el("thead", {}, head), el("tbody", {}, ...body)),
    );
    this.root.setAttribute("data-differences", String(differing));
  }

  tableCsvRows() {
    const t = this.data;
    const columns = this.shownColumns();
    return {
      header: ["run", ...columns.map((c) => `${c.section}: ${c.key}`)],
      rows: this.table.sorted().map((i) => [t.runs[i], ...columns.map((c) => cellValue(t, c, i))]),
    };
  }

  diffCsvRows() {
    const t = this.data;
    const rows = /** @type {number[]} */ (this.chosenRows());
    const keys = comparison(t, rows, !!this.model.get("only_differences"));
    return {
      header: ["section", "key", ...rows.map((i) => t.runs[i]), "differs"],
      rows: keys.map(({ column, differs }) => [
        column.section,
        column.key,
        ...rows.map((i) => cellValue(t, column, i)),
        differs ? "true" : "false",
      ]),
    };
  }
}

/** @param {string} text */
function safeRegex(text) {
  try {
    return new RegExp(text, "i");
  } catch {
    return null;
  }
}
