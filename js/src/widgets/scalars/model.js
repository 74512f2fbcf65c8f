// The scalars widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/scalars/widget.py; tsc checks every model.get/set against these).

/**
 * @typedef {object} ChartSpec
 * @property {string} key     chart key (a tag, or "a | b" for tags drawn together)
 * @property {string[]} tags
 * @property {string} group   the group it is shown under (the tag's prefix)
 */

/**
 * @typedef {object} ScalarsTraits
 * @property {number} smoothing                 EMA weight in [0, 0.999]
 * @property {"ema" | "time"} smoothing_mode
 * @property {string} x_axis                    "step", "relative", "wall" or "tag:<name>"
 * @property {string} run_filter                case-insensitive regex ("" = all)
 * @property {string} tag_filter
 * @property {string[]} selected_runs           runs (or groups) drawn
 * @property {Record<string, string>} run_colors  run -> CSS colour (tbnb.widgets.colors)
 * @property {string[]} log_y                   chart keys with a log y axis
 * @property {string[]} ignore_outliers         chart keys with the 5-95th percentile y range
 * @property {Record<string, [number | null, number | null]>} y_range  manual y ranges
 * @property {ChartSpec[]} charts
 * @property {number} height                    chart height in pixels
 * @property {boolean} show_raw
 * @property {number} max_points
 * @property {Record<string, any>} _data        the downsampled series (binary buffers)
 */

/** @typedef {import("../../core/types").Model<ScalarsTraits>} ScalarsModel */

/** @typedef {import("../../series/store").ScalarsData} ScalarsData the `_data` payload once decoded */

export {};
