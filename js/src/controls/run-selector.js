// The run selector: one checkbox per run with its colour and whole name (wrapping at `/`,
// `,` and `_`, never cut), "all"/"none", and a regex filter, bound to the model's `selected_runs` (and
// `run_filter`) traits. A run is selected when toggled on and matching the filter; a run
// the filter hides stays toggled, so clearing the filter brings it back. A selection made
// elsewhere (Python, a linked view) resets the toggles; a group is on when any of its
// members is selected. Selected runs the selector does not list stay selected.

import { runColor } from "../color/palettes.js";
import { breakableText, el } from "../core/dom.js";
import { compileFilter, matches } from "../core/filter.js";
import { filterInput } from "./filter-input.js";

/** @typedef {import("../core/types").Model<{selected_runs: string[], run_filter: string, run_colors: Record<string, string>}>} RunModel */

export class RunSelector {
  /**
   * @param {import("../core/view").View<any>} view  owner (listeners live and die with it)
   * @param {{onChange: () => void, noun?: string}} options  called after the selection changed
   */
  constructor(view, { onChange, noun = "runs" }) {
    this.view = view;
    /** @type {RunModel} */
    this.model = view.model;
    this.onChange = onChange;
    this.noun = noun;
    /** @type {string[]} */
    this.runs = [];
    /** @type {Record<string, string[]>} */
    this.members = {};
    /** @type {Set<string>} */
    this.toggled = new Set();
    const on = view.on.bind(view);
    this.filter = filterInput({
      className: "tbnb-run-filter",
      placeholder: `filter ${noun} (regex)`,
      on,
      onChange: (text) => {
        this.model.set("run_filter", text);
        this.commit();
      },
    });
    const all = el("button", { class: "tbnb-all", type: "button", text: "all" });
    const none = el("button", { class: "tbnb-none", type: "button", text: "none" });
    on(all, "click", () => {
      for (const r of this.runs) this.toggled.add(r);
      this.commit();
    });
    on(none, "click", () => {
      this.toggled.clear();
      this.commit();
    });
    this.list = el("div", { class: "tbnb-runs-list" });
    this.node = el("div", { class: "tbnb-runs" }, el("div", { class: "tbnb-runs-buttons" }, all, none), this.list);
    // One listener for every checkbox, however often the list is rebuilt.
    on(this.list, "change", (/** @type {Event} */ e) => {
      const box = /** @type {HTMLInputElement} */ (e.target);
      const run = box.getAttribute("data-run");
      if (!box.classList.contains("tbnb-run-toggle") || run === null) return;
      if (box.checked) this.toggled.add(run);
      else this.toggled.delete(run);
      this.commit();
    });
    view.listen("change:selected_runs", () => {
      const fromElsewhere = !sameList(this.model.get("selected_runs") || [], this.selection());
      if (fromElsewhere) this.fromSelection();
      this.refresh();
      if (fromElsewhere) this.onChange(); // Python, a linked view or a dashboard's selection
    });
    view.listen("change:run_filter", () => {
      this.filter.set(this.model.get("run_filter") || "");
      this.refresh();
    });
    view.listen("change:run_colors", () => this.setRuns(this.runs, this.members));
  }

  /**
   * The runs to list (in order) and the members of each (aggregated groups).
   * @param {string[]} runs
   * @param {Record<string, string[]>} [members]
   */
  setRuns(runs, members = {}) {
    this.runs = [...runs];
    this.members = members;
    const colors = this.model.get("run_colors") || {};
    this.list.replaceChildren(
      ...this.runs.map((run, i) => {
        const box = el("input", { class: "tbnb-run-toggle", type: "checkbox", "data-run": run });
        const group = members[run];
        const item = el(
          "label",
          { class: "tbnb-legend-item", "data-run": run, title: group ? group.join("\n") : run },
          box,
          el("span", { class: "tbnb-swatch", style: { background: runColor(colors, run, i) } }),
          el("span", { class: "tbnb-run-name" }, breakableText(run)),
        );
        if (group) item.append(el("span", { class: "tbnb-members", text: `(${group.length})` }));
        return item;
      }),
    );
    this.fromSelection();
    this.filter.set(this.model.get("run_filter") || "");
    this.refresh();
  }

  /** Toggles from the `selected_runs` trait (runs the filter hides count as on). */
  fromSelection() {
    const { re } = compileFilter(this.model.get("run_filter") || "");
    const selected = new Set(this.model.get("selected_runs") || []);
    const on = (/** @type {string} */ r) => selected.has(r) || (this.members[r] || []).some((m) => selected.has(m));
    this.toggled = new Set(this.runs.filter((r) => on(r) || !matches(re, r)));
  }

  /**
   * The runs toggled on and matching the filter, in order; then the selected runs this
   * selector does not list, kept as they are (a dashboard's tabs share one selection, and
   * a tab lists only its own runs).
   */
  selection() {
    const { re } = compileFilter(this.model.get("run_filter") || "");
    const listed = new Set(this.runs);
    const others = (this.model.get("selected_runs") || []).filter((r) => !listed.has(r));
    return [...this.runs.filter((r) => this.toggled.has(r) && matches(re, r)), ...others];
  }

  /** Write the selection to the model and tell the owner. */
  commit() {
    this.model.set("selected_runs", this.selection());
    this.model.save_changes();
    this.refresh();
    this.onChange();
  }

  /** Checkboxes and filtered-out rows as the model says. */
  refresh() {
    const { re } = compileFilter(this.model.get("run_filter") || "");
    for (const item of this.list.children) {
      const run = item.getAttribute("data-run") || "";
      item.classList.toggle("tbnb-filtered-out", !matches(re, run));
      const box = /** @type {HTMLInputElement} */ (item.querySelector("input"));
      box.checked = this.toggled.has(run);
    }
  }
}

/**
 * @param {string[]} a
 * @param {string[]} b
 */
function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
