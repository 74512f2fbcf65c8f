// The histograms widget's front end (Python side: tbnb/widgets/histograms/): ridgelines,
// overlays, heatmaps, TensorBoard's distribution bands and runs at a step.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { HistogramsView } from "./view.js";

export default { render: renderView(HistogramsView, { key: "histograms", css: CSS }) };
