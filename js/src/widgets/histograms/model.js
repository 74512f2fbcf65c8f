// The histograms widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/histograms/widget.py; tsc checks every model.get/set against these).

/** @typedef {"offset" | "overlay" | "heatmap" | "distribution" | "runs"} Mode */
/** @typedef {"step" | "relative" | "wall"} TimeAxis */

/**
 * @typedef {object} HistogramsTraits
 * @property {Mode} mode
 * @property {number} bins                      display bins per chart (1..512)
 * @property {TimeAxis} time_axis               offset axis of ridgelines, x of heatmaps and bands
 * @property {number} max_steps                 histograms per ridgeline or overlay chart
 * @property {number[]} step_window             [first, last] steps shown, or [] for all
 * @property {number | null} step               the step of the runs mode (null: the last)
 * @property {boolean} log_color                heatmap colour on a log scale
 * @property {Record<string, string[]>} hidden_in_chart  runs mode: tag -> runs left out of its chart
 * @property {string[]} selected_runs
 * @property {string} run_filter
 * @property {string} tag_filter
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 * @property {number} height                    chart height in pixels
 * @property {string[]} problems                histograms left out, and why
 * @property {Record<string, any>} _data        runs, tags, series index (binary buffers)
 * @property {Record<string, any>} _preview     every chart's preview, once made (binary buffers)
 */

/** @typedef {import("../../core/types").Model<HistogramsTraits>} HistogramsModel */

/**
 * One chart's data as drawn: steps (sorted) with their histograms on `bins` equal bins over
 * [left, right] and their nine bands. `exact`: computed by the kernel from every writer
 * bucket for these very settings; else derived here from what the view holds.
 * @typedef {object} ChartData
 * @property {string} run
 * @property {string} tag
 * @property {Float64Array} steps
 * @property {Float64Array} wall        seconds since the epoch (NaN unknown)
 * @property {number} left
 * @property {number} right
 * @property {number} bins
 * @property {Float64Array} counts      [steps * bins]
 * @property {Float64Array} bands       [steps * 9]
 * @property {Float64Array} num         each step's total count
 * @property {number} total             histograms in the window (drawn or not)
 * @property {boolean} exact
 * @property {string} params            the settings it was made for (bins|limit|window)
 */

/**
 * Several runs of one tag at one step (the runs mode).
 * @typedef {object} AtStepData
 * @property {string} tag
 * @property {number} left
 * @property {number} right
 * @property {number} bins
 * @property {{run: string, step: number, wall: number, num: number, counts: Float64Array, bands: Float64Array}[]} items
 * @property {boolean} exact
 * @property {string} params
 */

export {};
