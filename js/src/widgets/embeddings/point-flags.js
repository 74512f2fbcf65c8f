// Which points the projector marks: the selection (a mask over the points), search
// matches, the focus point's neighbours and the focus itself, as the per-point flags the
// renderer draws on top and the list of flagged points.

import { FLAG } from "../../gl/points.js";

/**
 * The selection mask of `n` points from the indices the `_selection` trait holds
 * (out-of-range and repeated indices ignored) and how many are selected.
 * @param {ArrayLike<number>} indices @param {number} n
 */
export function selectionMask(indices, n) {
  const mask = new Uint8Array(n);
  let count = 0;
  for (const i of Array.from(indices)) {
    if (i >= 0 && i < n && !mask[i]) {
      mask[i] = 1;
      count++;
    }
  }
  return { mask, count };
}

/**
 * The indices of a selection extended by `indices` (a shift-lasso), in point order.
 * @param {Uint8Array} selected @param {Int32Array} indices @param {number} n
 */
export function mergedSelection(selected, indices, n) {
  const merged = new Uint8Array(n);
  merged.set(selected.subarray(0, n));
  for (const i of indices) merged[i] = 1;
  let count = 0;
  for (let i = 0; i < merged.length; i++) count += merged[i];
  const chosen = new Int32Array(count);
  for (let i = 0, k = 0; i < merged.length; i++) if (merged[i]) chosen[k++] = i;
  return chosen;
}

/**
 * Flags of every point (selected, matched, neighbour, focus) and the flagged points' indices.
 * @param {number} n
 * @param {Uint8Array} selected @param {Uint8Array} matched
 * @param {{indices: ArrayLike<number>} | null} found  the focus point's neighbours
 * @param {number} focus  -1 for none
 */
export function pointFlags(n, selected, matched, found, focus) {
  const flags = new Uint8Array(n);
  for (let i = 0; i < selected.length && i < n; i++) if (selected[i]) flags[i] |= FLAG.selected;
  for (let i = 0; i < matched.length && i < n; i++) if (matched[i]) flags[i] |= FLAG.match;
  if (found) for (const i of Array.from(found.indices)) if (i < n) flags[i] |= FLAG.neighbor;
  if (focus >= 0 && focus < n) flags[focus] |= FLAG.focus;
  let count = 0;
  for (let i = 0; i < n; i++) if (flags[i]) count++;
  const flagged = new Uint32Array(count);
  for (let i = 0, k = 0; i < n; i++) if (flags[i]) flagged[k++] = i;
  return { flags, flagged };
}
