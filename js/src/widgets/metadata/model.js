// The run information widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/metadata/widget.py; tsc checks every model.get/set against these).

/**
 * @typedef {object} RunsTraits
 * @property {string[]} selected_runs        runs put side by side
 * @property {string} run_filter             regex over run names (the run selector)
 * @property {string} table_filter           regex over the table's names and cells
 * @property {string[]} sections             sections whose keys are the table's columns
 * @property {boolean} only_differences      the side-by-side view lists differing keys only
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 * @property {number} page_size
 * @property {Record<string, any>} _table    exp.info as binary columns
 */

/** @typedef {import("../../core/types").Model<RunsTraits>} RunsModel */

export {};
