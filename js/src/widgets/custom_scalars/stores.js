// The series a custom-scalars model holds: the multiline charts' (run, tag) series and the
// margin charts' series with their band, both in the scalars widget's store format
// (decoded once per trait value and shared by every view of the model).
import { buildStore } from "../../series/store.js";

/** @typedef {import("../../series/store").Store} Store */

/** @type {WeakMap<object, {data: unknown, margins: unknown, plain: Store, margin: Store}>} */
const CACHE = new WeakMap();

/**
 * @param {import("./model").CustomScalarsModel} model
 * @returns {{plain: Store, margin: Store}}
 */
export function storesOf(model) {
  const data = model.get("_data");
  const margins = model.get("_margins");
  let hit = CACHE.get(model);
  if (!hit || hit.data !== data || hit.margins !== margins) {
    hit = { data, margins, plain: buildStore(data), margin: buildStore(margins) };
    CACHE.set(model, hit);
  }
  return hit;
}

/** The separator of a margin series' value, lower and upper tags. */
export const MARGIN_SEP = "\u0000";
