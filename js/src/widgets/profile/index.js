// The profiler widget's front end (Python side: tbnb/widgets/profile/): overview, tables,
// timeline, memory and comparison of torch.profiler and XPlane traces.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { ProfileView } from "./view.js";

export default { render: renderView(ProfileView, { key: "profile", css: CSS }) };
