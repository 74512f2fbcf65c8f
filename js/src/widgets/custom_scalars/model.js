// The custom-scalars widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/custom_scalars/widget.py; tsc checks every model.get/set against these).

/**
 * One chart of the layout, resolved against the scalars (prepare.py: resolve()).
 * @typedef {object} CustomChartSpec
 * @property {string} key          unique chart key ("<category>/<title>")
 * @property {string} category
 * @property {string} title
 * @property {"multiline" | "margin"} kind
 * @property {boolean} closed      the category is shown folded
 * @property {[string, string][]} series  [run, tag] (margin: [run, value\0lower\0upper])
 * @property {string[]} notes      what could not be drawn, and why
 * @property {string[]} tags       the layout's regexes (multiline) or tags (margin)
 */

/**
 * @typedef {object} CustomScalarsTraits
 * @property {number} smoothing
 * @property {"ema" | "time"} smoothing_mode
 * @property {string} x_axis                    "step", "relative" or "wall"
 * @property {string[]} selected_runs
 * @property {string} run_filter
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 * @property {CustomChartSpec[]} charts
 * @property {string[]} log_y
 * @property {number} height
 * @property {number} max_points
 * @property {string} empty_reason
 * @property {Record<string, any>} _data        multiline series (the scalars wire format)
 * @property {Record<string, any>} _margins     margin series, with lo and hi
 */

/** @typedef {import("../../core/types").Model<CustomScalarsTraits>} CustomScalarsModel */

export {};
