// Where the media cards stand: the `positions` trait holds the cards moved on their own
// (a step, a sample or both) by card key; every other card follows the global `step`.

/** @typedef {import("./card-index").Pin} Pin */

/**
 * The pins left when the global step moves: every card follows it again, keeping only
 * the sample it was moved to; `changed` when any pin was dropped or lost its step.
 * @param {Record<string, Pin>} pins
 * @returns {{next: Record<string, Pin>, changed: boolean}}
 */
export function followGlobal(pins) {
  /** @type {Record<string, Pin>} */
  const next = {};
  let changed = false;
  for (const [key, pin] of Object.entries(pins)) {
    if (pin.step !== null && pin.step !== undefined) changed = true;
    if (pin.sample) next[key] = { step: null, sample: pin.sample };
    else changed = true;
  }
  return { next, changed };
}

/**
 * The pins with one card moved (`step: null` follows the global step again; a card back
 * at the global step and the first sample is unpinned).
 * @param {Record<string, Pin>} current @param {string} key @param {Pin} change
 * @returns {Record<string, Pin>}
 */
export function pinned(current, key, change) {
  const pins = { ...current };
  const old = pins[key] || {};
  const pin = { step: old.step ?? null, sample: old.sample || 0, ...change };
  if (pin.step === null && !pin.sample) delete pins[key];
  else pins[key] = pin;
  return pins;
}
