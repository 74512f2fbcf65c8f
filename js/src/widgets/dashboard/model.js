// The dashboard's model: its synced traits, declared once (the Python side is
// tbnb/widgets/dashboard/widget.py; tsc checks every model.get/set against these).

/**
 * @typedef {object} DashboardHeader
 * @property {string} state          "data" or "empty"
 * @property {string} location       the logdir (shown as code)
 * @property {string[]} parts        what was found: runs, kinds, when written
 * @property {string} filters        the filters in force, or ""
 * @property {string} note           a line under it (why a tab is empty, why nothing shows)
 */

/**
 * @typedef {object} DashboardTraits
 * @property {Partial<DashboardHeader>} header
 * @property {{key: string, title: string}[]} tabs
 * @property {number} selected_index
 * @property {Record<string, string>} pages        tab key -> "IPY_MODEL_<id>" of its widget
 * @property {Record<string, string>} page_keys    tab key -> the widget key that draws it
 * @property {Record<string, string>} errors       tab key -> why it could not be built
 * @property {string | null} bar                   "IPY_MODEL_<id>" of the bar over the tabs
 */

/** @typedef {import("../../core/types").Model<DashboardTraits>} DashboardModel */

export {};
