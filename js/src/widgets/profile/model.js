// The profiler widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/profile/widget.py; tsc checks every model.get/set against these).

/**
 * @typedef {object} TraceOption
 * @property {string} trace
 * @property {string} run
 * @property {string} format
 * @property {number} bytes
 */

/**
 * @typedef {object} ProfileTraits
 * @property {TraceOption[]} traces          every trace that can be shown
 * @property {string} trace                  the trace shown
 * @property {string} compare_with           a second trace for the compare tab ("" none)
 * @property {string} tab                    overview, operators, kernels, timeline, memory, compare
 * @property {boolean} by_shape              operators grouped by input shapes too
 * @property {string} search                 the timeline's search
 * @property {boolean} flows                 arrows from launches to device events
 * @property {string[]} selected_runs
 * @property {string} run_filter
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 * @property {number} height                 of the timeline, in pixels
 * @property {string} message                why nothing is shown
 * @property {Record<string, any>} _overview steps by category, findings, top tables
 * @property {Record<string, any>} _timeline lanes, names, the whole-trace window
 * @property {Record<string, any>} _tables   operators and kernels
 * @property {Record<string, any>} _memory   curves per device and peaks
 * @property {Record<string, any>} _compare  two traces side by side
 */

/** @typedef {import("../../core/types").Model<ProfileTraits>} ProfileModel */

export {};
