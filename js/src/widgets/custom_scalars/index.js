// The custom-scalars widget's front end (Python side: tbnb/widgets/custom_scalars/): the
// charts a layout asks for, drawn with the kit's line chart and the scalars smoothing.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { CustomScalarsView } from "./view.js";

export default { render: renderView(CustomScalarsView, { key: "custom_scalars", css: CSS }) };
