// The dashboard run selection's front end (Python side: tbnb/widgets/selection/): one run
// selector every tab of a dashboard follows.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { SelectionView } from "./view.js";

export default { render: renderView(SelectionView, { key: "selection", css: CSS }) };
