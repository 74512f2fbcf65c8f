// The hparams widget's front end (Python side: tbnb/widgets/hparams/): parallel coordinates,
// scatter row, importance and table, all from the `_table` trait.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { HParamsView } from "./view.js";

export default { render: renderView(HParamsView, { key: "hparams", css: CSS }) };
