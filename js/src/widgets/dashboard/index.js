// The dashboard's front end (Python side: tbnb/widgets/dashboard/, tbnb/notebook/dashboard.py):
// a header, the run selection and one tab per kind, each tab another widget's model drawn
// with its view from the one bundle. One anywidget: it draws wherever anywidgets draw.
import { renderView } from "../../core/view.js";
import { CSS } from "./style.js";
import { DashboardView } from "./view.js";

export default { render: renderView(DashboardView, { key: "dashboard", css: CSS }) };
