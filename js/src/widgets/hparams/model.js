// The hparams widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/hparams/widget.py; tsc checks every model.get/set against these).

/** @typedef {{range: [number, number]} | {values: string[]}} Brush */

/**
 * @typedef {object} HParamsTraits
 * @property {string[]} order                    axes of the parallel coordinates, left to right
 * @property {string[]} inverted                 axes drawn upside down
 * @property {Record<string, "linear" | "log" | "quantile">} scales  axis -> scale (default linear)
 * @property {Record<string, Brush>} brushes     axis -> brush, in value space
 * @property {string} color_by                   a column, or "run" (the run colours)
 * @property {string} metric                     metric of the scatter plots and importance
 * @property {string[]} selected_runs            runs of the selected rows (and their members)
 * @property {Record<string, string>} run_colors row -> CSS colour (tbnb.widgets.colors)
 * @property {string} palette                    "default" or "colorblind" (category colours)
 * @property {number} page_size
 * @property {number} height
 * @property {Record<string, any>} _table        the columns (binary buffers)
 * @property {Record<string, any>} _importance   metric -> importance table
 */

/** @typedef {import("../../core/types").Model<HParamsTraits>} HParamsModel */

export {};
