// The images widget's front end (Python side: tbnb/widgets/images/): one card per run and
// tag, a global step slider, brightness/contrast, fit/actual size, comparison of two runs.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { ImagesView } from "./view.js";

export default { render: renderView(ImagesView, { key: "images", css: CSS }) };
