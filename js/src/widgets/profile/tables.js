// The operator and kernel tables: sortable, filterable by name, operators grouped by input
// shapes on request; a row's "timeline" link shows its spans in the timeline.
import { filterInput } from "../../controls/filter-input.js";
import { DataTable } from "../../controls/table.js";
import { el, setText } from "../../core/dom.js";
import { decodeTable } from "./data.js";
import { DURATIONS, tableColumns } from "./overview.js";

const LABELS = {
  device_total: "device total",
  device_self: "device self",
  total_cpu: "CPU total",
  self_cpu: "CPU self",
  input_dims: "input shapes",
  top_kernel: "top kernel",
  shared_memory: "shared mem",
};

export class Tables {
  /**
   * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void, which: "operators" | "kernels",
   *   onShow: (name: string) => void, onShape?: (on: boolean) => void}} options
   */
  constructor(options) {
    this.options = options;
    this.table = new DataTable({ on: options.on });
    /** @type {RegExp | null} */
    this.filter = null;
    this.data = decodeTable(null);
    this.count = el("span", { class: "tbnb-prof-hint" });
    const filter = filterInput({
      className: "tbnb-prof-filter",
      placeholder: "filter names (regex)",
      on: options.on,
      onChange: (_text, re) => {
        this.filter = re;
        this.refresh();
      },
    });
    const bar = el("div", { class: "tbnb-toolbar" }, filter.node);
    if (options.onShape) {
      const box = el("input", { type: "checkbox", class: "tbnb-prof-by-shape" });
      options.on(box, "change", () => options.onShape?.(box.checked));
      this.shape = box;
      bar.append(el("label", {}, box, "group by input shapes"));
    }
    bar.append(
      this.count,
      el("span", { class: "tbnb-prof-hint", text: "click a name to see its spans in the timeline" }),
    );
    this.node = el("div", {}, bar, this.table.node);
    options.on(this.table.table, "click", (/** @type {MouseEvent} */ e) => {
      const td = /** @type {Element} */ (e.target).closest("td");
      const tr = td?.closest("tr[data-row]");
      if (!tr || td !== tr.firstElementChild) return;
      this.options.onShow(this.data.text("name", Number(tr.getAttribute("data-row"))));
    });
  }

  /** @param {any} payload  one table of `_tables`, decoded */
  set(payload) {
    this.data = decodeTable(payload);
    this.table.setColumns(tableColumns(this.data, LABELS, DURATIONS));
    this.refresh();
  }

  refresh() {
    const rows = [];
    for (let i = 0; i < this.data.length; i++) {
      if (!this.filter || this.filter.test(this.data.text("name", i))) rows.push(i);
    }
    this.table.setRows(rows);
    this.table.render();
    setText(this.count, `${rows.length} of ${this.data.length} ${this.options.which}`);
  }
}
