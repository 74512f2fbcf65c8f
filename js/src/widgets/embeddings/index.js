// The embedding projector's front end (Python side: tbnb/widgets/embeddings/): WebGL points
// (js/src/gl), colours, labels, sprites, search, selection and neighbours.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { ProjectorView } from "./view.js";

export default { render: renderView(ProjectorView, { key: "embeddings", css: CSS }) };
