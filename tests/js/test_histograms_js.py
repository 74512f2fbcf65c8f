"""The histograms view's browser-side math equals Python's (and so TensorBoard's).

The view re-bins held histograms and computes bands in the browser when the kernel has
not answered yet (and always in an exported page): ``js/src/widgets/histograms/math.js``
run by node on the same variable-width histograms as ``tbnb.transforms.histograms`` and
``tbnb.kinds.distributions`` (whose results the Python tests check against TensorBoard's
webapp loop and compressor).
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from tbnb.kinds.distributions import percentiles
from tbnb.transforms.histograms import rebin_ragged, sample_indices
from tests.js.test_js import run_node

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

SCRIPT = """
import { readFileSync } from "node:fs";
import { compress, rebinBuckets, sampleIndices } from "./src/widgets/histograms/math.js";
const p = JSON.parse(readFileSync(0, "utf8"));
const out = { rebinned: [], bands: [], picks: [] };
for (const h of p.histograms) {
  const xs = h.edges.slice(0, -1);
  const dxs = xs.map((x, i) => h.edges[i + 1] - x);
  out.rebinned.push(Array.from(rebinBuckets(xs, dxs, h.counts, p.bins, p.left, p.right)));
  out.bands.push(compress(h.counts, h.edges.slice(1), h.edges[0], h.edges[h.edges.length - 1]));
}
for (const [n, limit] of p.samples) {
  out.picks.push(sampleIndices(Array.from({ length: n }, (_, i) => 3 * i + 1), limit));
}
process.stdout.write(JSON.stringify(out));
"""


def _histograms(rng: np.random.Generator, n: int) -> list[tuple[np.ndarray, np.ndarray]]:
    out = []
    for _ in range(n):
        k = int(rng.integers(1, 40))
        edges = np.cumsum(np.r_[rng.normal(), rng.exponential(0.3, size=k)])
        if rng.random() < 0.3:  # a zero-width bucket (every value equal) among them
            edges[k // 2 + 1] = edges[k // 2]
        counts = rng.poisson(5.0, size=k).astype(np.float64)
        counts[rng.random(k) < 0.2] = 0.0
        out.append((edges, counts))
    return out


@pytest.mark.parametrize("bins", [1, 7, 30, 64])
def test_browser_rebinning_and_bands_equal_pythons(bins: int) -> None:
    rng = np.random.default_rng(bins)
    hists = _histograms(rng, 60)
    left = min(float(e[0]) for e, _ in hists)
    right = max(float(e[-1]) for e, _ in hists)
    samples = [(1, 5), (5, 5), (61, 7), (1000, 51), (997, 2)]
    got = run_node(SCRIPT, {
        "histograms": [{"edges": e.tolist(), "counts": c.tolist()} for e, c in hists],
        "bins": bins, "left": left, "right": right, "samples": samples})
    assert isinstance(got, dict)
    edges = np.concatenate([e for e, _ in hists])
    counts = np.concatenate([c for _, c in hists])
    lengths = np.array([c.size for _, c in hists])
    want = rebin_ragged(edges, counts, lengths, bins, (left, right))
    np.testing.assert_allclose(np.array(got["rebinned"]), want, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(np.array(got["bands"]), percentiles(edges, counts, lengths))
    for (n, limit), picks in zip(samples, got["picks"], strict=True):
        assert picks == sample_indices(3 * np.arange(n) + 1, limit).tolist(), (n, limit)
