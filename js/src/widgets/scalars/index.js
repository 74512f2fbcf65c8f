// The scalars widget's front end (Python side: tbnb/widgets/scalars/): one chart per tag.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { ScalarsView } from "./view.js";

export default { render: renderView(ScalarsView, { key: "scalars", css: CSS }) };
