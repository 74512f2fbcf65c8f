// The caption of a media card's saved image: its run, step and sample as shown.

/**
 * "run, step 12, sample 2/4" of the card that holds `node` (the run alone before the card
 * has a position).
 * @param {Element} node
 * @param {string} run
 */
export function cardCaption(node, run) {
  const card = /** @type {any} */ (node.closest(".tbnb-card"))?.__tbnbCard;
  const pos = /** @type {import("./card-index").Position | null | undefined} */ (card?.pos);
  if (!pos) return run;
  const sample = pos.count > 1 ? `, sample ${pos.sample + 1}/${pos.count}` : "";
  return `${run}, step ${pos.step}${sample}`;
}
