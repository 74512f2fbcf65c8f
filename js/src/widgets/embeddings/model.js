// The projector's model: its synced traits, declared once (the Python side is
// tbnb/widgets/embeddings/widget.py; tsc checks every model.get/set against these).

/**
 * @typedef {object} Status
 * @property {string} [method]
 * @property {string} [state]     idle, running, done, cancelled, error
 * @property {string} [phase]     reducing, neighbours, graph, affinities, optimizing, done
 * @property {number} [step]
 * @property {number} [total]
 * @property {string} [message]
 * @property {number} [elapsed]
 * @property {string} [error]
 * @property {boolean} [cached]
 * @property {number | null} [first_layout_s]
 */

/**
 * @typedef {object} Listed
 * @property {number} index
 * @property {string} run
 * @property {string} tag
 * @property {number} step
 * @property {string} name
 * @property {number} num_points
 * @property {number} dim
 * @property {string} note
 */

/**
 * @typedef {object} ProjectorTraits
 * @property {string} method                 pca, tsne, umap or raw
 * @property {number} dims                   2 or 3
 * @property {Record<string, Record<string, any>>} params  method -> parameters
 * @property {Status} status                 the last layout job
 * @property {number[]} explained            PCA explained variance ratios
 * @property {string} color_by
 * @property {string} label_by
 * @property {number} top_n
 * @property {number} point_size
 * @property {number} opacity
 * @property {boolean} sprites
 * @property {boolean} density              contours and region labels (2-D, low zoom)
 * @property {string} histogram_by           the panel's histogram column ("": the colour one)
 * @property {string} search
 * @property {string} search_column
 * @property {number} focus
 * @property {number} neighbors_k
 * @property {string} neighbor_metric
 * @property {Listed[]} embeddings
 * @property {number} embedding
 * @property {string} title
 * @property {string[]} selected_runs
 * @property {string} run_filter
 * @property {Record<string, string>} run_colors
 * @property {string} palette
 * @property {number} height
 * @property {Record<string, any>} _positions  {coords, method, dims, version, final}
 * @property {Record<string, any>} _meta       {n, columns}
 * @property {Record<string, any>} _sprite     {png, width, height}
 * @property {Record<string, any>} _selection  {indices}
 * @property {Record<string, any>} _neighbors  {index, metric, indices, distances}
 */

/** @typedef {import("../../core/types").Model<ProjectorTraits>} ProjectorModel */

export {};
