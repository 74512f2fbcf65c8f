// The text widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/text/widget.py and the media base tbnb/widgets/media.py).

/**
 * @typedef {object} TextTraits
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
 * @property {boolean} raw   show texts as logged instead of markdown
 */

/** @typedef {import("../../core/types").Model<TextTraits>} TextModel */

/**
 * A text item once decoded (tbnb/widgets/text/prepare.py: text_payload).
 * @typedef {object} DecodedText
 * @property {"markdown" | "table"} kind
 * @property {string} raw              the text as logged (a table: cells by tab and line)
 * @property {string | null} html      sanitised HTML (null: a long text not rendered yet)
 * @property {boolean} long
 * @property {number} chars
 * @property {number[]} [shape]        a table's rows and columns
 * @property {string[]} [cells]        a table's raw cells, row-major
 * @property {string} [warning]        sanitised HTML of a warning (a rank above 2 was sliced)
 */

export {};
