// The PR-curves widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/pr_curves/widget.py; tsc checks every model.get/set against these).

/**
 * @typedef {object} PrChartSpec
 * @property {string} key     chart key (the tag)
 * @property {string} tag
 * @property {string} group   the grid it is shown in ("" = no group)
 */

/**
 * @typedef {object} PrCurvesTraits
 * @property {"pr" | "roc"} view
 * @property {number | null} step                 the global step (null: each chart's latest)
 * @property {Record<string, number>} chart_steps  chart -> its own slider's step
 * @property {string[]} selected_runs
 * @property {string} run_filter
 * @property {string} tag_filter
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 * @property {PrChartSpec[]} charts
 * @property {number} height
 * @property {number} max_curves
 * @property {string[]} problems
 * @property {string} empty_reason
 * @property {Record<string, any>} _data            series, steps and curves (binary buffers)
 */

/** @typedef {import("../../core/types").Model<PrCurvesTraits>} PrCurvesModel */

export {};
