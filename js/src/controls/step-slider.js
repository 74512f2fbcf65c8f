// A step slider: drag or arrow keys move through the steps that exist (not every integer),
// the number box takes an exact step (snapped to the nearest one that exists; up/down
// arrows step through them too).
import { nearestSorted } from "../core/arrays.js";
import { el, setText } from "../core/dom.js";

export class StepSlider {
  /**
   * @param {{on: (t: EventTarget, type: string, h: (e: any) => void) => void,
   *   onChange: (step: number) => void, label?: string}} options
   */
  constructor({ on, onChange, label = "step" }) {
    this.onChange = onChange;
    /** @type {number[]} */
    this.steps = [];
    this.index = 0;
    this.range = el("input", {
      class: "tbnb-step-range",
      type: "range",
      min: "0",
      max: "0",
      step: "1",
      "aria-label": label,
    });
    this.box = el("input", { class: "tbnb-step-input", type: "number", "aria-label": `exact ${label}` });
    this.count = el("span", { class: "tbnb-step-count" });
    this.node = el(
      "span",
      { class: "tbnb-step-slider" },
      el("span", { text: label }),
      this.range,
      this.box,
      this.count,
    );
    on(this.range, "input", () => this.select(Number(this.range.value), true));
    /** @type {string | null} what Enter committed (its "change", if any, is not a new entry) */
    this.entered = null;
    on(this.box, "change", () => {
      const same = this.entered === this.box.value;
      this.entered = null;
      if (!same) this.enter(this.box.value);
    });
    on(this.box, "keydown", (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Enter") {
        // JupyterLab's notebook takes Enter before the input's own "change" would fire
        this.enter(this.box.value);
        this.entered = this.box.value;
        return;
      }
      if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
      e.preventDefault();
      this.select(this.index + (e.key === "ArrowUp" ? 1 : -1), true);
    });
  }

  /**
   * The steps to choose from (sorted, unique); keeps the current step when it still exists,
   * else the nearest one.
   * @param {ArrayLike<number>} steps
   */
  setSteps(steps) {
    const current = this.steps.length ? this.steps[this.index] : Number.NaN;
    this.steps = [...new Set(Array.from(steps))].sort((a, b) => a - b);
    this.range.max = String(Math.max(this.steps.length - 1, 0));
    this.range.disabled = this.steps.length < 2;
    const i = Number.isFinite(current) ? nearestSorted(this.steps, current) : this.steps.length - 1;
    this.select(Math.max(i, 0), false);
  }

  /** The chosen step (NaN with no steps). */
  get value() {
    return this.steps.length ? this.steps[this.index] : Number.NaN;
  }

  /**
   * Choose the step nearest to `step` (what typing a step does).
   * @param {string | number} step
   */
  enter(step) {
    const target = String(step).trim() === "" ? Number.NaN : Number(step);
    if (!Number.isFinite(target) || !this.steps.length) {
      this.box.value = String(this.value);
      return;
    }
    this.select(nearestSorted(this.steps, target), true);
  }

  /**
   * @param {number} index
   * @param {boolean} notify
   */
  select(index, notify) {
    const n = this.steps.length;
    const i = Math.min(Math.max(Math.round(index), 0), Math.max(n - 1, 0));
    this.index = i;
    this.range.value = String(i);
    this.box.value = n ? String(this.steps[i]) : "";
    setText(this.count, n ? `${i + 1} of ${n}` : "no steps");
    if (notify && n) this.onChange(this.steps[i]);
  }
}
