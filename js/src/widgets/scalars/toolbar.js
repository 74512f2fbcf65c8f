// The scalars toolbar: smoothing (slider, value, mode), x axis, tag filter, tooltip order,
// raw lines, CSV and the status line. The run filter comes from the run selector.

import { filterInput } from "../../controls/filter-input.js";
import { smoothingSlider, xAxisSelect } from "../../controls/line-controls.js";
import { el } from "../../core/dom.js";

/**
 * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void, runFilter: HTMLElement,
 *   onTagFilter: (text: string) => void, csv: HTMLButtonElement}} options
 */
export function buildToolbar({ on, runFilter, onTagFilter, csv }) {
  const { input: smoothing, value: smoothingValue } = smoothingSlider();
  const mode = el(
    "select",
    { class: "tbnb-smoothing-mode", title: "EMA as TensorBoard, or weighted by distance in x" },
    el("option", { value: "ema", text: "EMA" }),
    el("option", { value: "time", text: "time-weighted" }),
  );
  const xaxis = xAxisSelect();
  const tagFilter = filterInput({
    className: "tbnb-tag-filter",
    placeholder: "filter tags (regex)",
    on,
    onChange: onTagFilter,
  });
  const sort = el(
    "select",
    { class: "tbnb-tooltip-sort", title: "order of the hover readout" },
    el("option", { value: "value-desc", text: "value ↓" }),
    el("option", { value: "value-asc", text: "value ↑" }),
    el("option", { value: "name", text: "name" }),
    el("option", { value: "nearest", text: "nearest x" }),
  );
  const showRaw = el("input", { class: "tbnb-show-raw", type: "checkbox" });
  const status = el("span", { class: "tbnb-status" });
  const node = el(
    "div",
    { class: "tbnb-toolbar" },
    el("label", {}, "Smoothing", smoothing, smoothingValue, mode),
    el("label", {}, "X", xaxis),
    runFilter,
    tagFilter.node,
    el("label", {}, "Tooltip", sort),
    el("label", {}, showRaw, "raw"),
    csv,
    status,
  );
  return { node, smoothing, smoothingValue, mode, xaxis, tagFilter, sort, showRaw, status };
}
