// The text widget's front end (Python side: tbnb/widgets/text/): markdown rendered as
// TensorBoard does (sanitised), tables, raw text, a step slider per card.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { TextView } from "./view.js";

export default { render: renderView(TextView, { key: "text", css: CSS }) };
