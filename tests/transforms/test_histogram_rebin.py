"""Display re-binning and step sampling (tbnb.transforms.histograms) against TensorBoard.

The oracle is TensorBoard's webapp re-binning (``buildNormalizedHistograms`` in
``tensorboard/webapp/widgets/histogram/histogram_util.ts``) transcribed statement by
statement into Python below: bins as ``{x, dx, y}`` built from ``[left, right, count]``
buckets as its histogram cards build them, the same loop, the same arithmetic in the same
order. tbnb's vectorised version must give the same floats.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tbnb.transforms.histograms import bin_range, flatten, rebin, rebin_ragged, sample_indices


def tb_build_normalized(
    histograms: list[list[tuple[float, float, float]]], bin_count: int
) -> list[list[tuple[float, float, float]]]:
    """TensorBoard's ``buildNormalizedHistograms``, transcribed (bins as ``(x, dx, y)``)."""
    if not histograms or bin_count < 1:
        return []
    all_bins = [[(lo, hi - lo, c) for lo, hi, c in h] for h in histograms]
    left = right = None
    for bins in all_bins:
        if not bins:
            continue
        last = bins[-1]
        h_left, h_right = bins[0][0], last[0] + last[1]
        if left is None or h_left < left:
            left = h_left
        if right is None or h_right > right:
            right = h_right
    if left is None or right is None:
        return [[] for _ in all_bins]
    if left == right:
        right = right * 1.1 + 1
        left = left / 1.1 - 1
    return [tb_rebuild_bins(bins, left, right, bin_count) for bins in all_bins]


def tb_rebuild_bins(
    bins: list[tuple[float, float, float]], left: float, right: float, bin_count: int
) -> list[tuple[float, float, float]]:
    results = []
    dx = (right - left) / bin_count
    bin_index = 0
    next_contribution = 0.0
    for i in range(bin_count):
        result_left = left + i * dx
        result_right = result_left + dx
        is_last = i == bin_count - 1
        result_y = next_contribution
        next_contribution = 0.0
        while bin_index < len(bins):
            x, bdx, y = bins[bin_index]
            curr, nxt = tb_contribution((x, bdx, y), result_left, result_right, not is_last)
            result_y += curr
            next_contribution += nxt
            if x + bdx > result_right:
                break
            bin_index += 1
        results.append((result_left, dx, result_y))
    return results


def tb_contribution(
    b: tuple[float, float, float], result_left: float, result_right: float, has_right_neighbor: bool
) -> tuple[float, float]:
    x, dx, y = b
    bin_left, bin_right = x, x + dx
    if bin_left > result_right or bin_right < result_left:
        return 0.0, 0.0
    if dx == 0:
        if has_right_neighbor and bin_right >= result_right:
            return 0.0, y
        return y, 0.0
    intersection = min(bin_right, result_right) - max(bin_left, result_left)
    return (y * intersection) / dx, 0.0


def as_buckets(edges: np.ndarray, counts: np.ndarray) -> list[tuple[float, float, float]]:
    return [(float(edges[i]), float(edges[i + 1]), float(counts[i])) for i in range(len(counts))]


def assert_equals_tensorboard(edges: list[np.ndarray], counts: list[np.ndarray], bins: int) -> None:
    want = tb_build_normalized([as_buckets(e, c) for e, c in zip(edges, counts, strict=True)], bins)
    display, got = rebin(edges, counts, bins)
    if all(not w for w in want):
        assert got.size == 0
        return
    for h, bins_tb in enumerate(want):
        assert [b[2] for b in bins_tb] == got[h].tolist(), h
        assert [b[0] for b in bins_tb] == display[:-1].tolist()
        assert bins_tb[-1][0] + bins_tb[-1][1] == display[-1]


CASES = {
    "equal width": ([np.linspace(0, 3, 4)], [np.array([1.0, 2.0, 3.0])]),
    "variable width": ([np.array([-1.0, -0.1, 0.0, 0.05, 2.0])], [np.array([3.0, 0.0, 7.0, 1.0])]),
    "zero width inside": ([np.array([0.0, 1.0, 1.0, 2.0])], [np.array([0.0, 20.0, 0.0])]),
    "zero width on edges": (
        [np.array([0.0, 0.0, 1.5, 3.0, 3.0])],
        [np.array([5.0, 1.0, 1.0, 4.0])],
    ),
    "single point": ([np.array([2.5, 2.5])], [np.array([9.0])]),
    "negative point": ([np.array([-4.0, -4.0])], [np.array([2.0])]),
    "large negative point": ([np.array([-100.0, -100.0])], [np.array([2.0])]),
    "several steps": (
        [np.array([0.0, 1.0]), np.array([-3.0, 0.5, 4.0]), np.zeros(0)],
        [np.array([4.0]), np.array([1.0, 2.0]), np.zeros(0)],
    ),
    "none": ([np.zeros(0)], [np.zeros(0)]),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("bins", [1, 2, 7, 30, 64])
def test_rebin_equals_tensorboard(name: str, bins: int) -> None:
    edges, counts = CASES[name]
    if name == "large negative point":
        # TensorBoard widens [-100, -100] to a reversed range (-91.9..., -109): its bins
        # have a negative width. tbnb keeps the same two numbers in order.
        assert bin_range(*flatten(edges, counts)[::2]) == (-100 * 1.1 + 1, -100 / 1.1 - 1)
        return
    assert_equals_tensorboard(edges, counts, bins)


@st.composite
def histograms(draw: st.DrawFn) -> tuple[list[np.ndarray], list[np.ndarray]]:
    n = draw(st.integers(1, 5))
    edges, counts = [], []
    for _ in range(n):
        k = draw(st.integers(0, 12))
        if k == 0:
            edges.append(np.zeros(0))
            counts.append(np.zeros(0))
            continue
        start = draw(st.floats(-1e3, 1e3, allow_nan=False))
        widths = draw(
            st.lists(st.sampled_from([0.0, 1e-3, 0.1, 0.5, 1.0, 3.7, 50.0]), min_size=k, max_size=k)
        )
        edges.append(start + np.r_[0.0, np.cumsum(widths)])
        counts.append(
            np.array(
                draw(
                    st.lists(
                        st.sampled_from([0.0, 1.0, 2.0, 17.0, 0.25, 1e6]), min_size=k, max_size=k
                    )
                )
            )
        )
    return edges, counts


@settings(max_examples=300, deadline=None)
@given(histograms(), st.integers(1, 80))
def test_rebin_equals_tensorboard_on_any_histograms(
    data: tuple[list[np.ndarray], list[np.ndarray]], bins: int
) -> None:
    edges, counts = data
    want = tb_build_normalized([as_buckets(e, c) for e, c in zip(edges, counts, strict=True)], bins)
    if want and want[0] and want[0][0][1] <= 0:
        return  # a reversed widened range (a constant negative chart): see above
    assert_equals_tensorboard(edges, counts, bins)


def test_rebin_keeps_the_mass_inside_the_range() -> None:
    rng = np.random.default_rng(0)
    edges = [np.sort(rng.normal(size=40)) for _ in range(20)]
    counts = [rng.integers(0, 50, size=39).astype(float) for _ in range(20)]
    _, got = rebin(edges, counts, 17)
    np.testing.assert_allclose(got.sum(axis=1), [c.sum() for c in counts], rtol=1e-12)


def test_rebin_ragged_with_given_bounds_spreads_outside_buckets_partly() -> None:
    flat_edges, flat_counts, lengths = flatten([np.array([0.0, 4.0])], [np.array([8.0])])
    got = rebin_ragged(flat_edges, flat_counts, lengths, 2, (1.0, 3.0))
    assert got.tolist() == [[2.0, 2.0]]  # the quarter on each side is outside the chart
    with pytest.raises(ValueError, match="bins must be >= 1"):
        rebin_ragged(flat_edges, flat_counts, lengths, 0, (1.0, 3.0))


def test_rebin_of_writer_buckets_equals_tensorboard(tmp_path: Path) -> None:
    """torch's default ``bins='tensorflow'``: hundreds of variable-width buckets."""
    from torch.utils.tensorboard.summary import make_histogram
    from torch.utils.tensorboard.writer import SummaryWriter

    writer = SummaryWriter(str(tmp_path))
    limits = np.array(writer.default_bins)  # what add_histogram(bins="tensorflow") uses
    writer.close()
    from tbnb.kinds.histograms import legacy_histogram

    rng = np.random.default_rng(3)
    edges, counts = [], []
    for step in range(6):
        proto = make_histogram(rng.normal(step, 1 + step, size=300), np.array(limits))
        data = legacy_histogram(proto)
        edges.append(data["edges"])
        counts.append(data["counts"])
    assert max(len(c) for c in counts) > 100
    for bins in (30, 64, 512):
        assert_equals_tensorboard(edges, counts, bins)


def test_sample_indices_are_even_in_step_with_both_ends() -> None:
    steps = np.r_[np.arange(0, 100), np.arange(100, 10_000, 100)]
    picks = sample_indices(steps, 11)
    assert picks[0] == 0
    assert picks[-1] == len(steps) - 1
    chosen = steps[picks]
    np.testing.assert_allclose(np.diff(chosen), 1000, atol=100)
    assert sample_indices(steps, 11).tolist() == picks.tolist()  # deterministic
    assert sample_indices(steps, 1).tolist() == [len(steps) - 1]
    assert sample_indices([], 5).tolist() == []
    assert math.isclose(len(sample_indices(np.arange(10**6), 51)), 51)
