// The images widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/images/widget.py and the media base tbnb/widgets/media.py).

/**
 * @typedef {object} CompareState
 * @property {string} [tag]
 * @property {string} [a]                 run A (left, before)
 * @property {string} [b]                 run B (right, after)
 * @property {"side" | "wipe"} [mode]
 * @property {number} [split]             where the wipe divides A from B, 0..1
 * @property {number | null} [step]       null: the global step (or A's last)
 * @property {number} [sample]
 */

/**
 * @typedef {object} ImagesTraits
 * @property {string[]} selected_runs
 * @property {string} run_filter
 * @property {string} tag_filter
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 * @property {number | null} step                    the global step (null: each card's last)
 * @property {Record<string, import("../../media/card-index").Pin>} positions
 * @property {"shown" | "all"} embed
 * @property {number} max_embed_bytes
 * @property {{mode?: string, items?: number, bytes?: number, left_out?: number, budget?: number}} embedded
 * @property {string[]} problems
 * @property {Record<string, any>} _index            the card index (binary)
 * @property {Record<string, any>} _held             saved items: key -> item (bytes binary)
 * @property {number} brightness                     1 = as logged
 * @property {number} contrast
 * @property {"fit" | "actual"} fit
 * @property {number} size                           image width in fit mode, px
 * @property {"auto" | "on" | "off"} pixelated
 * @property {CompareState} compare                  empty: no comparison
 */

/** @typedef {import("../../core/types").Model<ImagesTraits>} ImagesModel */

export {};
