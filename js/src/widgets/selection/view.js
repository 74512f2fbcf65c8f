// The dashboard's run selection: one bar above the tabs saying how many runs are shown and
// whether an hparams selection filters them; it opens the kit's run selector over every run
// (colours, all/none, regex filter). Tabs are tied to `selected_runs` by links the Python
// side makes, so this bar works the same in a live kernel, a saved notebook and an exported
// page; the hparams rule runs here too (rule.js) for pages without a kernel.

import { RunSelector } from "../../controls/run-selector.js";
import { el, setText } from "../../core/dom.js";
import { View } from "../../core/view.js";
import { applyHparams } from "./rule.js";

/** @typedef {import("./model").SelectionTraits} SelectionTraits */

/** @extends {View<SelectionTraits>} */
export class SelectionView extends View {
  /** @param {import("./model").SelectionModel} model @param {HTMLElement} host */
  constructor(model, host) {
    super(model, host, "selection");
    this.runs = new RunSelector(this, { onChange: () => this.summarise() });
    this.summary = el("span", { class: "tbnb-selection-summary" });
    this.hparams = el("span", { class: "tbnb-selection-hparams" });
    this.details = el(
      "details",
      { class: "tbnb-selection-details" },
      el("summary", { class: "tbnb-selection-toggle", title: "choose the runs every tab shows" }, this.summary),
      el("div", { class: "tbnb-selection-panel" }, this.runs.filter.node, this.runs.node),
    );
  }

  build() {
    this.root.append(el("div", { class: "tbnb-selection-bar" }, this.details, this.hparams));
    this.listen("change:runs", () => this.setRuns());
    this.listen("change:selected_runs change:run_filter", () => this.summarise());
    this.listen("change:hparams_runs", () => this.applyHparams());
    this.setRuns();
  }

  setRuns() {
    this.runs.setRuns(this.model.get("runs") || []);
    this.summarise();
  }

  /** The hparams view's selection decides the runs it knows (also with no kernel). */
  applyHparams() {
    const universe = this.model.get("hparams_universe") || [];
    if (universe.length) {
      const runs = this.model.get("runs") || [];
      const next = applyHparams(
        runs,
        this.model.get("selected_runs") || [],
        universe,
        this.model.get("hparams_runs") || [],
      );
      this.save({ selected_runs: next });
    }
    this.summarise();
  }

  summarise() {
    const runs = this.model.get("runs") || [];
    const selected = new Set(this.model.get("selected_runs") || []);
    const shown = runs.filter((r) => selected.has(r)).length;
    setText(this.summary, `Runs: ${shown} of ${runs.length} shown`);
    const universe = new Set(this.model.get("hparams_universe") || []);
    const chosen = new Set(this.model.get("hparams_runs") || []);
    const known = runs.filter((r) => universe.has(r));
    const hidden = known.filter((r) => !chosen.has(r)).length;
    setText(this.hparams, hidden ? `hparams selection hides ${hidden} of ${known.length} runs` : "");
    this.hparams.hidden = hidden === 0;
  }
}
