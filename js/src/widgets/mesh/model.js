// The meshes widget's model: its synced traits, declared once (the Python side is
// tbnb/widgets/mesh/widget.py and the media base tbnb/widgets/media.py).

/**
 * @typedef {object} CameraState
 * @property {number} [theta]   around the vertical, radians
 * @property {number} [phi]     elevation, radians
 * @property {number} [zoom]    1 = each mesh fitted to its card
 */

/**
 * @typedef {object} MeshTraits
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
 * @property {Record<string, any>} _held             saved meshes: key -> item (bytes binary)
 * @property {"solid" | "wireframe" | "points"} mode
 * @property {number} point_size                     CSS pixels
 * @property {CameraState} camera
 * @property {number} card_size                      CSS pixels
 * @property {number} max_points
 */

/** @typedef {import("../../core/types").Model<MeshTraits>} MeshModel */

/**
 * One mesh as Python sends it (tbnb/widgets/mesh/prepare.py: mesh_payload).
 * @typedef {object} MeshItem
 * @property {string} key
 * @property {Uint8Array} data                  positions, colours and faces in one block
 * @property {Record<string, [number, number]>} layout   part -> [byte offset, count]
 * @property {number[]} origin
 * @property {number[]} scale
 * @property {"uint16" | "uint32"} index_type
 * @property {number} num_vertices
 * @property {number} num_faces
 * @property {number} drawn_vertices
 * @property {number | null} fov
 * @property {string} note
 * @property {number} wall_time
 */

export {};
