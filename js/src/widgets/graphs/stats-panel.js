// The statistics under the graph: op counts (one column per selected run, from the kernel's
// `_stats`; the shown graph's own counts when there are none) and one row per name scope
// (nodes, parameters, compute time, memory), each a sortable, paged table with a CSV of
// what it shows.

import { csvButton } from "../../controls/csv-button.js";
import { DataTable } from "../../controls/table.js";
import { decodeTree } from "../../core/codecs.js";
import { el } from "../../core/dom.js";
import { groupPath, label, SERIES } from "./graph-data.js";
import { formatBytes, formatCount, formatMicros } from "./text.js";

/** @typedef {import("./graph-data").GraphData} GraphData */
/** @typedef {import("../../controls/table").Column} Column */

/**
 * Op counts per run: from `_stats`, else the shown graph's own.
 * @param {GraphData} d
 * @param {any} raw  the `_stats` trait
 * @param {string} run  the run shown
 * @returns {{runs: string[], ops: string[], counts: number[][]}}
 */
export function opTable(d, raw, run) {
  const stats = raw ? decodeTree(raw) : null;
  if (stats?.runs?.length) {
    const runs = /** @type {string[]} */ (stats.runs);
    const ops = /** @type {string[]} */ (stats.ops);
    const flat = stats.counts;
    return { runs, ops, counts: runs.map((_, r) => ops.map((_op, o) => flat[r * ops.length + o])) };
  }
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (let i = 0; i < d.n; i++) {
    const op = label(d, d.nodeOp[i]);
    counts.set(op, (counts.get(op) || 0) + 1);
  }
  const ops = [...counts.keys()].sort((a, b) => (counts.get(b) || 0) - (counts.get(a) || 0) || a.localeCompare(b));
  return { runs: [run || "graph"], ops, counts: [ops.map((op) => counts.get(op) || 0)] };
}

export class StatsPanel {
  /**
   * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void, parent: HTMLElement}} options
   */
  constructor(options) {
    this.mode = "ops";
    /** @type {{header: string[], rows: (string | number)[][]}} */
    this.data = { header: [], rows: [] };
    this.table = new DataTable({ on: options.on });
    this.table.setPageSize(25);
    this.opsTab = el("button", { class: "tbnb-graph-tab tbnb-graph-tab-ops", type: "button", text: "Op counts" });
    this.scopesTab = el("button", { class: "tbnb-graph-tab tbnb-graph-tab-scopes", type: "button", text: "Scopes" });
    this.csv = csvButton({
      className: "tbnb-graph-csv",
      filename: "tbnb-graph-stats.csv",
      parent: options.parent,
      on: options.on,
      rows: () => ({ header: this.data.header, rows: this.table.sorted().map((i) => this.data.rows[i]) }),
    });
    this.node = el(
      "div",
      { class: "tbnb-graph-stats" },
      el("div", { class: "tbnb-toolbar" }, this.opsTab, this.scopesTab, this.csv),
      this.table.node,
    );
    /** @type {() => void} */
    this.refresh = () => {};
    options.on(this.opsTab, "click", () => this.show("ops"));
    options.on(this.scopesTab, "click", () => this.show("scopes"));
  }

  /** @param {string} mode */
  show(mode) {
    this.mode = mode;
    this.refresh();
  }

  /**
   * @param {GraphData} d
   * @param {any} stats
   * @param {string} run
   */
  update(d, stats, run) {
    this.refresh = () => this.update(d, stats, run);
    this.opsTab.classList.toggle("tbnb-active", this.mode === "ops");
    this.scopesTab.classList.toggle("tbnb-active", this.mode === "scopes");
    this.node.setAttribute("data-mode", this.mode);
    if (this.mode === "ops") this.showOps(opTable(d, stats, run));
    else this.showScopes(d);
  }

  /** @param {{runs: string[], ops: string[], counts: number[][]}} t */
  showOps(t) {
    this.data = { header: ["op", ...t.runs], rows: t.ops.map((op, o) => [op, ...t.counts.map((c) => c[o])]) };
    /** @type {Column[]} */
    const columns = [{ key: "op", label: "op", text: (i) => t.ops[i], value: (i) => t.ops[i] }];
    t.runs.forEach((run, r) => {
      columns.push({
        key: `run:${run}`,
        label: run,
        numeric: true,
        text: (i) => String(t.counts[r][i]),
        value: (i) => t.counts[r][i],
      });
    });
    this.table.setColumns(columns);
    this.table.setRows(t.ops.map((_, i) => i));
    this.table.render();
  }

  /** @param {GraphData} d */
  showScopes(d) {
    /** @type {number[]} */
    const groups = [];
    for (let k = 1; k < d.g; k++) if (d.groupKind[k] !== SERIES) groups.push(k);
    const num = (/** @type {Float64Array} */ a, /** @type {number} */ k) => (Number.isFinite(a[k]) ? a[k] : null);
    this.data = {
      header: ["scope", "nodes", "params", "compute_us", "memory_bytes"],
      rows: groups.map((k) => [
        groupPath(d, k),
        d.groupCount[k],
        num(d.groupParams, k) ?? "",
        num(d.groupCompute, k) ?? "",
        num(d.groupMemory, k) ?? "",
      ]),
    };
    /** @param {string} key @param {string} name @param {Float64Array} arr @param {(v: number) => string} fmt @returns {Column} */
    const numeric = (key, name, arr, fmt) => ({
      key,
      label: name,
      numeric: true,
      text: (i) => (Number.isFinite(arr[groups[i]]) ? fmt(arr[groups[i]]) : ""),
      value: (i) => num(arr, groups[i]),
    });
    this.table.setColumns([
      { key: "scope", label: "scope", text: (i) => groupPath(d, groups[i]), value: (i) => groupPath(d, groups[i]) },
      numeric("nodes", "nodes", d.groupCount, formatCount),
      numeric("params", "parameters", d.groupParams, formatCount),
      numeric("compute", "compute", d.groupCompute, formatMicros),
      numeric("memory", "memory", d.groupMemory, formatBytes),
    ]);
    this.table.setRows(groups.map((_, i) => i));
    this.table.render();
  }
}
