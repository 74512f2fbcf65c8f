// The meshes widget's front end (Python side: tbnb/widgets/mesh/): a 3-D view per run and
// tag on the media kit's cards, drawn with WebGL2 (js/src/gl/mesh.js).
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { MeshView } from "./view.js";

export default { render: renderView(MeshView, { key: "mesh", css: CSS }) };
