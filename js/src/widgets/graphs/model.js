// The graphs widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/graphs/widget.py; tsc checks every model.get/set against these).

/**
 * @typedef {object} GraphOption
 * @property {string} run
 * @property {string} tag
 * @property {string} kind
 * @property {string} view   "op graph" or "conceptual"
 * @property {string} label
 * @property {number} step
 */

/**
 * @typedef {object} GraphTraits
 * @property {GraphOption[]} graphs          every graph that can be shown
 * @property {string} run                    the run shown
 * @property {string} tag                    its graph shown
 * @property {string[]} expanded             keys of the expanded groups
 * @property {string} selected               selected node (full name) or group (key)
 * @property {string} color_by               "op", "device", "compute" or "memory"
 * @property {boolean} show_constants
 * @property {string} search                 regex over node names and ops
 * @property {string} stats_tag              RunMetadata joined ("" none)
 * @property {string[]} profiles             the run's RunMetadata tags
 * @property {string[]} selected_runs        runs whose op counts the table compares
 * @property {string} run_filter
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 * @property {number} height                 of the graph view, in pixels
 * @property {string} message                why nothing is drawn
 * @property {Record<string, any>} _graph    the graph (binary columns)
 * @property {Record<string, any>} _stats    op counts of the selected runs' graphs
 * @property {Record<string, any>} _view     what is drawn, written here for to_plotly()
 */

/** @typedef {import("../../core/types").Model<GraphTraits>} GraphModel */

export {};
