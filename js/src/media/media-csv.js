// The CSV of what a media view shows: one row per shown card at its position (run, tag,
// step, sample, wall time and the widget's own columns). Items not fetched yet are asked
// for without their payload (`meta_only`); with no kernel the rows keep what is known.

import { downloadText, toCSV } from "../core/csv.js";
import { itemKey, positionOf } from "./card-index.js";

/** @typedef {import("./card-index").Card} Card */
/** @typedef {import("./card-index").Position} Position */
/** @typedef {import("./card-index").Pin} Pin */

/**
 * The items shown (each shown card at its position): [card, position, key].
 * @param {Card[]} shown @param {number | null | undefined} step @param {Record<string, Pin>} pins
 */
export function shownItems(shown, step, pins) {
  /** @type {[Card, Position, string][]} */
  const out = [];
  for (const card of shown) {
    const pos = positionOf(card, step, pins[card.key]);
    if (pos) out.push([card, pos, itemKey(card.run, card.tag, pos.step, pos.sample)]);
  }
  return out;
}

/**
 * Download the CSV of what `view` shows (through `a[download]` inside the widget).
 * @param {import("./media-view").MediaView} view
 */
export async function downloadMediaCSV(view) {
  const shown = view.shownItems();
  /** @type {Map<string, any>} */
  const items = new Map();
  const missing = [];
  for (const [, , key] of shown) {
    const item = view.fetcher.entries.get(key)?.item;
    if (item) items.set(key, item);
    else missing.push(key);
  }
  for (let i = 0; i < missing.length && !view.fetcher.offline; i += 256) {
    try {
      const keys = missing.slice(i, i + 256).map((k) => JSON.parse(k));
      const reply = await view.request("items", { keys, meta_only: true });
      for (const item of reply.content.items || []) if (item.error === undefined) items.set(String(item.key), item);
    } catch {
      break; // no kernel: the rows keep what is known here
    }
  }
  const columns = view.spec.csv;
  const header = ["run", "tag", "step", "sample", "wall_time", ...columns.map(([name]) => name)];
  const rows = shown.map(([card, pos, key]) => {
    const item = items.get(key);
    return [
      card.run,
      card.tag,
      pos.step,
      pos.sample,
      item ? item.wall_time : null,
      ...columns.map(([, get]) => (item ? get(item) : null)),
    ];
  });
  view.csvButton.setAttribute("data-rows", String(rows.length));
  downloadText(view.root, `tbnb-${view.key}.csv`, toCSV(header, rows));
}
