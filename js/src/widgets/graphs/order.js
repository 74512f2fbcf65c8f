// Order within the layers of a layered layout (step 4 of layout.js): barycenter sweeps,
// keeping the order with the fewest edge crossings, counted exactly with a Fenwick tree.

/**
 * Barycenter sweeps; the order with the fewest crossings wins.
 * @param {{initial: number[][], count: number, upN: number[][], downN: number[][]}} L  layers with dummies
 * @param {number} sweeps
 */
export function orderLayers(L, sweeps) {
  let layers = L.initial.map((layer) => layer.slice());
  const pos = new Float64Array(L.count);
  const bary = new Float64Array(L.count);
  const scratch = crossingScratch(layers);
  let best = layers.map((l) => l.slice());
  let bestCrossings = countCrossings(layers, L.downN, pos, scratch);
  for (let s = 0; s < sweeps && bestCrossings > 0; s++) {
    const down = s % 2 === 0;
    const start = down ? 1 : layers.length - 2;
    for (let r = start; down ? r < layers.length : r >= 0; r += down ? 1 : -1) {
      const layer = layers[r];
      if (layer.length < 2) continue;
      for (const v of layer) {
        const neighbours = down ? L.upN[v] : L.downN[v];
        if (!neighbours.length) bary[v] = pos[v];
        else {
          let sum = 0;
          for (const u of neighbours) sum += pos[u];
          bary[v] = sum / neighbours.length;
        }
      }
      layer.sort((a, b) => bary[a] - bary[b] || pos[a] - pos[b]);
      for (let i = 0; i < layer.length; i++) pos[layer[i]] = i;
    }
    const crossings = countCrossings(layers, L.downN, pos, scratch);
    if (crossings < bestCrossings) {
      bestCrossings = crossings;
      best = layers.map((l) => l.slice());
    }
  }
  layers = best;
  return { layers, crossings: bestCrossings };
}

/** Work space for {@link countCrossings}, sized to the widest layer. @param {number[][]} layers */
function crossingScratch(layers) {
  let widest = 0;
  for (const layer of layers) widest = Math.max(widest, layer.length);
  return { tree: new Int32Array(widest + 1), targets: new Int32Array(widest + 1) };
}

/**
 * Edge crossings between adjacent layers (inversions counted with a Fenwick tree).
 * @param {number[][]} layers
 * @param {number[][]} downN
 * @param {Float64Array} pos
 * @param {{tree: Int32Array, targets: Int32Array}} [scratch]
 */
export function countCrossings(layers, downN, pos, scratch = crossingScratch(layers)) {
  for (const layer of layers) for (let i = 0; i < layer.length; i++) pos[layer[i]] = i;
  const { tree, targets } = scratch;
  let total = 0;
  for (let r = 0; r + 1 < layers.length; r++) {
    const size = layers[r + 1].length;
    if (size < 2 || layers[r].length < 2) continue; // one node on either side: no crossing
    tree.fill(0, 0, size + 1);
    let seen = 0;
    for (const v of layers[r]) {
      const out = downN[v];
      const k = out.length;
      for (let j = 0; j < k; j++) targets[j] = pos[out[j]];
      if (k > 1) insertionSort(targets, k);
      for (let j = 0; j < k; j++) {
        let greater = seen;
        for (let i = targets[j] + 1; i > 0; i -= i & -i) greater -= tree[i];
        total += greater;
      }
      for (let j = 0; j < k; j++) {
        for (let i = targets[j] + 1; i <= size; i += i & -i) tree[i]++;
        seen++;
      }
    }
  }
  return total;
}

/** Sort the first `k` entries in place (edge fans are short). @param {Int32Array} a @param {number} k */
function insertionSort(a, k) {
  for (let i = 1; i < k; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}
