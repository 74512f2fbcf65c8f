// The card index of a media view (images, audio, text): the mirror of tbnb/widgets/cards.py.
// One card per (run, tag), every step it has and the number of samples at each; the
// position rule that picks each card's step (its pinned step, else the step nearest the
// global one, else its last); the keys naming a card and an item. Pure: no DOM.
import { nearestSorted } from "../core/arrays.js";
import { decodeTree } from "../core/codecs.js";

/** @typedef {import("../core/types").Numbers} Numbers */

/**
 * @typedef {object} Card
 * @property {number} i        position in the index (display order)
 * @property {string} key      cardKey(run, tag)
 * @property {string} run
 * @property {string} tag
 * @property {Numbers} steps   sorted
 * @property {Numbers} counts  samples at each step
 */

/**
 * @typedef {object} CardIndex
 * @property {number} version
 * @property {string[]} runs  runs that have cards, in run order
 * @property {string[]} tags
 * @property {Card[]} cards
 * @property {Map<string, Card>} byKey
 */

/**
 * @typedef {object} Position
 * @property {number} index   position of the step in the card's steps
 * @property {number} step
 * @property {number} sample
 * @property {number} count   samples at that step
 * @property {boolean} pinned the card was moved on its own
 */

/** @typedef {{step?: number | null, sample?: number}} Pin */

/**
 * The key naming a card (Python: tbnb.widgets.cards.card_key).
 * @param {string} run
 * @param {string} tag
 */
export function cardKey(run, tag) {
  return JSON.stringify([run, tag]);
}

/**
 * The key naming one item (Python: tbnb.widgets.cards.item_key).
 * @param {string} run
 * @param {string} tag
 * @param {number} step
 * @param {number} sample
 */
export function itemKey(run, tag, step, sample) {
  return JSON.stringify([run, tag, step, sample]);
}

/**
 * Decode the `_index` trait (names once, steps and counts as binary arrays).
 * @param {any} raw
 * @returns {CardIndex}
 */
export function decodeIndex(raw) {
  const d = decodeTree(raw || {});
  const runs = /** @type {string[]} */ (d.runs || []);
  const tags = /** @type {string[]} */ (d.tags || []);
  const offsets = /** @type {Numbers} */ (d.offsets || [0]);
  /** @type {Card[]} */
  const cards = [];
  const cardRun = d.card_run || [];
  for (let i = 0; i < cardRun.length; i++) {
    const run = runs[cardRun[i]];
    const tag = tags[d.card_tag[i]];
    const lo = offsets[i];
    const hi = offsets[i + 1];
    cards.push({
      i,
      key: cardKey(run, tag),
      run,
      tag,
      steps: d.steps.subarray(lo, hi),
      counts: d.counts.subarray(lo, hi),
    });
  }
  return {
    version: Number(d.version || 0),
    runs: [...new Set(cards.map((c) => c.run))],
    tags,
    cards,
    byKey: new Map(cards.map((c) => [c.key, c])),
  };
}

/**
 * The step and sample a card shows (Python: tbnb.widgets.cards.position).
 * @param {Card} card
 * @param {number | null | undefined} globalStep  null: each card's last step
 * @param {Pin | undefined} pin
 * @returns {Position | null}
 */
export function positionOf(card, globalStep, pin) {
  const n = card.steps.length;
  if (!n) return null;
  const own = pin?.step;
  const target = own === null || own === undefined ? globalStep : own;
  const index = target === null || target === undefined ? n - 1 : nearestSorted(card.steps, target);
  const count = card.counts[index];
  const sample = Math.min(Math.max(Math.trunc(Number(pin?.sample) || 0), 0), count - 1);
  return { index, step: card.steps[index], sample, count, pinned: own !== null && own !== undefined };
}

/**
 * Every step of the given cards, sorted and unique (the global slider's steps).
 * @param {Card[]} cards
 * @returns {number[]}
 */
export function unionSteps(cards) {
  const all = new Set();
  for (const card of cards) for (let j = 0; j < card.steps.length; j++) all.add(card.steps[j]);
  return [...all].sort((a, b) => a - b);
}

/**
 * Item keys around a position: the next and previous `radius` steps, nearest first, at
 * the same sample (what is prefetched while a card is shown).
 * @param {Card} card
 * @param {Position} pos
 * @param {number} radius
 * @returns {string[]}
 */
export function neighbourKeys(card, pos, radius) {
  const out = [];
  for (let d = 1; d <= radius; d++) {
    for (const j of [pos.index + d, pos.index - d]) {
      if (j < 0 || j >= card.steps.length) continue;
      const sample = Math.min(pos.sample, card.counts[j] - 1);
      out.push(itemKey(card.run, card.tag, card.steps[j], sample));
    }
  }
  return out;
}
