// Which groups are expanded: the `expanded` trait holds their keys; revealing an item
// expands every group that hides it, toggling a group adds or removes its key.

import { label } from "./graph-data.js";
import { groupsToReveal } from "./visible.js";

/** @typedef {import("./graph-data").GraphData} GraphData */

/**
 * The expanded groups that `keys` name (unknown keys ignored).
 * @param {GraphData} d @param {string[]} keys
 */
export function expandedGroups(d, keys) {
  /** @type {Set<number>} */
  const out = new Set();
  for (const key of keys) {
    const k = d.groupByKey.get(key);
    if (k !== undefined && k > 0) out.add(k);
  }
  return out;
}

/**
 * The expanded keys with every group that hides `item` added, and whether any was added.
 * @param {GraphData} d @param {number} item @param {string[]} keys
 */
export function revealing(d, item, keys) {
  const expanded = new Set(keys);
  let changed = false;
  for (const g of groupsToReveal(d, item)) {
    const key = label(d, d.groupKey[g]);
    if (!expanded.has(key)) {
      expanded.add(key);
      changed = true;
    }
  }
  return { expanded: [...expanded], changed };
}

/**
 * The expanded keys with group `k` expanded if it was collapsed, collapsed if it was expanded.
 * @param {GraphData} d @param {number} k @param {string[]} keys
 */
export function toggled(d, k, keys) {
  const key = label(d, d.groupKey[k]);
  const expanded = new Set(keys);
  if (expanded.has(key)) expanded.delete(key);
  else expanded.add(key);
  return [...expanded];
}
