// The PR-curves widget's front end (Python side: tbnb/widgets/pr_curves/): PR and ROC
// curves per tag, runs overlaid, areas per step.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { PrCurvesView } from "./view.js";

export default { render: renderView(PrCurvesView, { key: "pr_curves", css: CSS }) };
