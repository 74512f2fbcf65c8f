// The selection rule, mirror of tbnb/widgets/selection/prepare.py (apply_hparams): an
// hparams selection decides the runs it knows of and leaves the others as they are.

/**
 * @param {string[]} runs      every run, in order
 * @param {string[]} selected  the runs selected before
 * @param {string[]} universe  the runs the hparams view knows
 * @param {string[]} chosen    the runs it selects now
 * @returns {string[]}
 */
export function applyHparams(runs, selected, universe, chosen) {
  const before = new Set(selected);
  const known = new Set(universe);
  const picked = [...new Set(chosen)];
  const pickedSet = new Set(picked);
  const listed = new Set(runs);
  const out = runs.filter((r) => pickedSet.has(r) || (!known.has(r) && before.has(r)));
  return [...out, ...picked.filter((r) => !listed.has(r))];
}
