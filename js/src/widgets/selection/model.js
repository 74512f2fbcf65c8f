// The dashboard run selection's model: its synced traits, declared once (the Python side is
// tbnb/widgets/selection/widget.py; tsc checks every model.get/set against these).

/**
 * @typedef {object} SelectionTraits
 * @property {string[]} runs                 every run, in the experiment's order
 * @property {string[]} selected_runs        the runs every tied tab shows
 * @property {string} run_filter             regex over run names (the selector's filter)
 * @property {string[]} hparams_runs         the runs the hparams view selects
 * @property {string[]} hparams_universe     the runs the hparams view knows
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 */

/** @typedef {import("../../core/types").Model<SelectionTraits>} SelectionModel */

export {};
