// The audio widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/audio/widget.py and the media base tbnb/widgets/media.py).

/**
 * @typedef {object} AudioTraits
 * @property {string[]} selected_runs
 * @property {string} run_filter
 * @property {string} tag_filter
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 * @property {number | null} step
 * @property {Record<string, import("../../media/card-index").Pin>} positions
 * @property {"shown" | "all"} embed
 * @property {number} max_embed_bytes
 * @property {Record<string, any>} embedded
 * @property {string[]} problems
 * @property {Record<string, any>} _index
 * @property {Record<string, any>} _held
 * @property {"both" | "waveform" | "spectrogram"} display
 * @property {"linear" | "log"} frequency_scale
 */

/** @typedef {import("../../core/types").Model<AudioTraits>} AudioModel */

export {};
