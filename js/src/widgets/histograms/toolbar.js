// The histograms toolbar: mode, display bins, time axis, steps per ridgeline, log colour,
// tag filter, CSV and status; below it the step window (two step sliders) and, in the runs
// mode, the step the runs are compared at.

import { filterInput } from "../../controls/filter-input.js";
import { StepSlider } from "../../controls/step-slider.js";
import { el, isFocused } from "../../core/dom.js";
import { nearestIndex } from "./math.js";

/** @typedef {(t: EventTarget, type: string, h: (e: any) => void) => void} On */

export const MODE_LABELS = {
  offset: "Offset",
  overlay: "Overlay",
  heatmap: "Heatmap",
  distribution: "Distribution",
  runs: "Runs at a step",
};

/**
 * @param {{on: On, onTagFilter: (text: string) => void, csv: HTMLButtonElement,
 *   onWindow: (edge: "from" | "to", step: number) => void, onStep: (step: number) => void}} options
 */
export function buildToolbar({ on, onTagFilter, csv, onWindow, onStep }) {
  const mode = el(
    "select",
    { class: "tbnb-mode", "aria-label": "view" },
    ...Object.entries(MODE_LABELS).map(([value, label]) => el("option", { value, text: label })),
  );
  const bins = el("input", {
    class: "tbnb-bins",
    type: "number",
    min: "1",
    max: "512",
    step: "1",
    "aria-label": "bins",
  });
  const axis = el(
    "select",
    { class: "tbnb-time-axis", "aria-label": "time axis" },
    el("option", { value: "step", text: "step" }),
    el("option", { value: "relative", text: "relative" }),
    el("option", { value: "wall", text: "wall time" }),
  );
  const binsLabel = el("label", { class: "tbnb-bins-label" }, "bins", bins);
  const axisLabel = el("label", { class: "tbnb-axis-label" }, "time", axis);
  const steps = el("input", {
    class: "tbnb-max-steps",
    type: "number",
    min: "2",
    max: "1000",
    step: "1",
    "aria-label": "steps drawn",
  });
  const stepsLabel = el("label", { class: "tbnb-steps-label" }, "steps", steps);
  const logColor = el("input", { class: "tbnb-log-color", type: "checkbox" });
  const logLabel = el("label", { class: "tbnb-log-label" }, logColor, "log colour");
  const tagFilter = filterInput({
    className: "tbnb-tag-filter",
    placeholder: "filter tags (regex)",
    on,
    onChange: onTagFilter,
  });
  const status = el("span", { class: "tbnb-status" });
  const from = new StepSlider({ on, label: "from step", onChange: (s) => onWindow("from", s) });
  const to = new StepSlider({ on, label: "to step", onChange: (s) => onWindow("to", s) });
  const allSteps = el("button", { class: "tbnb-all-steps", type: "button", text: "all steps" });
  const step = new StepSlider({ on, label: "runs at step", onChange: onStep });
  const windowRow = el("div", { class: "tbnb-toolbar tbnb-window" }, from.node, to.node, allSteps);
  const stepRow = el("div", { class: "tbnb-toolbar tbnb-at-step" }, step.node);
  const node = el(
    "div",
    { class: "tbnb-bars" },
    el(
      "div",
      { class: "tbnb-toolbar" },
      el("label", {}, "view", mode),
      binsLabel,
      axisLabel,
      stepsLabel,
      logLabel,
      tagFilter.node,
      csv,
      status,
    ),
    windowRow,
    stepRow,
  );
  return {
    node,
    mode,
    bins,
    binsLabel,
    axis,
    axisLabel,
    steps,
    stepsLabel,
    logColor,
    logLabel,
    tagFilter,
    status,
    from,
    to,
    allSteps,
    step,
    stepRow,
  };
}

/** @typedef {{steps: ArrayLike<number> | null, lo: number, hi: number}} ControlSteps */

/**
 * Show the model's settings in the toolbar (the controls of the mode only). The step
 * controls are set again only when their steps change (thousands of steps).
 * @param {ReturnType<typeof buildToolbar>} bar
 * @param {import("./model").HistogramsModel} model
 * @param {string} mode
 * @param {ArrayLike<number>} steps  every step
 * @param {[number, number]} window  the step window
 * @param {ControlSteps} held  what the step controls hold
 * @returns {ControlSteps} what they hold now
 */
export function syncToolbar(bar, model, mode, steps, [lo, hi], held) {
  bar.mode.value = mode;
  if (!isFocused(bar.bins)) bar.bins.value = String(model.get("bins"));
  bar.axis.value = model.get("time_axis") || "step";
  bar.steps.value = String(model.get("max_steps"));
  bar.logColor.checked = !!model.get("log_color");
  bar.tagFilter.set(model.get("tag_filter") || "");
  bar.stepsLabel.classList.toggle("tbnb-hidden", !["offset", "overlay"].includes(mode));
  bar.logLabel.classList.toggle("tbnb-hidden", mode !== "heatmap");
  bar.stepRow.classList.toggle("tbnb-hidden", mode !== "runs");
  bar.binsLabel.classList.toggle("tbnb-hidden", mode === "distribution");
  bar.axisLabel.classList.toggle("tbnb-hidden", mode === "runs");
  if (held.steps !== steps) {
    bar.from.setSteps(steps);
    bar.to.setSteps(steps);
  }
  bar.from.select(nearestIndex(bar.from.steps, lo), false);
  bar.to.select(nearestIndex(bar.to.steps, hi), false);
  if (held.steps !== steps || held.lo !== lo || held.hi !== hi) {
    bar.step.setSteps(Array.from(steps).filter((s) => s >= lo && s <= hi));
  }
  const step = model.get("step");
  bar.step.select(
    step === null || step === undefined ? bar.step.steps.length - 1 : nearestIndex(bar.step.steps, step),
    false,
  );
  return { steps, lo, hi };
}

/**
 * Listen to the toolbar's mode, bins, time axis, steps, log colour and "all steps"
 * controls (listeners live and die with the view).
 * @param {import("./view").HistogramsView} view
 */
export function bindToolbar(view) {
  const on = view.on.bind(view);
  const { bar } = view;
  on(bar.mode, "change", () => view.save({ mode: /** @type {any} */ (bar.mode.value) }));
  const bins = () => {
    const value = Math.round(Number(bar.bins.value));
    if (Number.isFinite(value) && value >= 1 && value <= 512 && value !== view.model.get("bins")) {
      view.save({ bins: value });
      view.redrawAll();
    }
  };
  on(bar.bins, "input", bins);
  on(bar.bins, "change", () => {
    bins();
    bar.bins.value = String(view.model.get("bins"));
  });
  on(bar.axis, "change", () => view.save({ time_axis: /** @type {any} */ (bar.axis.value) }));
  const steps = () => {
    const value = Math.round(Number(bar.steps.value));
    if (Number.isFinite(value) && value >= 2 && value <= 1000) view.save({ max_steps: value });
    else bar.steps.value = String(view.model.get("max_steps"));
  };
  on(bar.steps, "change", steps);
  on(bar.steps, "keydown", (/** @type {KeyboardEvent} */ e) => e.key === "Enter" && steps());
  on(bar.logColor, "change", () => view.save({ log_color: bar.logColor.checked }));
  on(bar.allSteps, "click", () => view.save({ step_window: [] }));
}
