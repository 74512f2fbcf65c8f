// The graphs widget's front end (Python side: tbnb/widgets/graphs/): a model graph with its
// name scopes collapsed, laid out per expanded group in a Web Worker, from the `_graph` trait.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { GraphView } from "./view.js";

export default { render: renderView(GraphView, { key: "graphs", css: CSS }) };
