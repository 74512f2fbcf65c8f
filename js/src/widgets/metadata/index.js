// The run information widget's front end (Python side: tbnb/widgets/metadata/): a table of
// runs and the selected runs side by side, from the `_table` trait.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { RunsView } from "./view.js";

export default { render: renderView(RunsView, { key: "metadata", css: CSS }) };
