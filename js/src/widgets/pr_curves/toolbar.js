// The PR-curves toolbar: PR or ROC, the global step slider, the tag filter, the two CSV
// downloads and the status line. The run filter comes from the run selector.
import { filterInput } from "../../controls/filter-input.js";
import { StepSlider } from "../../controls/step-slider.js";
import { el } from "../../core/dom.js";

/**
 * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void,
 *   onStep: (step: number) => void, onTagFilter: (text: string) => void,
 *   csvCurves: HTMLButtonElement, csvAreas: HTMLButtonElement}} options
 */
export function buildToolbar({ on, onStep, onTagFilter, csvCurves, csvAreas }) {
  const view = el(
    "select",
    { class: "tbnb-pr-view", title: "precision-recall, or true against false positive rate" },
    el("option", { value: "pr", text: "PR" }),
    el("option", { value: "roc", text: "ROC" }),
  );
  const slider = new StepSlider({ on, onChange: onStep, label: "all charts at step" });
  slider.node.classList.add("tbnb-pr-global-step");
  const tagFilter = filterInput({
    className: "tbnb-tag-filter",
    placeholder: "filter tags (regex)",
    on,
    onChange: onTagFilter,
  });
  const status = el("span", { class: "tbnb-status" });
  const node = el(
    "div",
    { class: "tbnb-toolbar" },
    el("label", {}, "Curve", view),
    slider.node,
    tagFilter.node,
    csvCurves,
    csvAreas,
    status,
  );
  return { node, view, slider, tagFilter, status };
}
