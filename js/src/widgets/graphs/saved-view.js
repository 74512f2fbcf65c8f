// What the graph view draws, written to the `_view` trait so Python's to_plotly() draws
// the same: item ids, box centres and kinds as binary arrays.

import { encodeArray } from "../../core/codecs.js";
import { KIND } from "./scene.js";

/**
 * The `_view` state of a laid-out scene.
 * @param {import("./scene").Scene} s
 * @param {string} run @param {string} tag @param {string[]} expanded
 */
export function savedView(s, run, tag, expanded) {
  const ids = Int32Array.from(s.items);
  const cx = new Float32Array(s.items.length);
  const cy = new Float32Array(s.items.length);
  for (let k = 0; k < s.items.length; k++) {
    cx[k] = s.x[k] + s.w[k] / 2;
    cy[k] = s.y[k] + s.h[k] / 2;
  }
  const kinds = Uint8Array.from(s.kind, (v) => (v === KIND.OPEN ? 2 : v));
  return {
    graph: `${run}\u0000${tag}`,
    expanded: [...expanded].sort(),
    ids: encodeArray(ids),
    x: encodeArray(cx),
    y: encodeArray(cy),
    kind: encodeArray(kinds),
  };
}
