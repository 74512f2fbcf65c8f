"""PR-curve statistics: the compiled kernel and the numpy passes agree to the last bit,
and the kernel is a ``tbnb.jit`` group (nothing compiles on the user's path).

Curves are drawn at random with every problem the statistics report: NaN and infinite
counts, negative counts, counts that grow with the threshold, totals that change, no
positives, no negatives, empty curves, rows longer than their curve, both dtypes.
"""

from __future__ import annotations

import numpy as np
import pytest

from tbnb import jit
from tbnb.analysis import pr_areas
from tbnb.jit import loading


@pytest.fixture(scope="module")
def kernel() -> object:
    assert jit.compile_now("curves"), "the curves kernels failed to compile"
    assert jit.load("curves"), loading.problems
    from tbnb.analysis.compiled.pr_areas import curve_kernel

    return curve_kernel


def _curves(rng: np.random.Generator, m: int, width: int, dtype: type) -> tuple[np.ndarray, ...]:
    total_pos = rng.integers(0, 50, m).astype(np.float64)
    total_neg = rng.integers(0, 50, m).astype(np.float64)
    share = np.sort(rng.random((m, width)), axis=1)[:, ::-1]
    tp = np.floor(total_pos[:, None] * share)
    fp = np.floor(total_neg[:, None] * np.sort(rng.random((m, width)), axis=1)[:, ::-1])
    if rng.random() < 0.5:  # fractional counts, as some writers weight them
        tp, fp = tp * 0.37, fp * 1.3
    tn, fn = total_neg[:, None] - fp, total_pos[:, None] - tp
    arrays = [tp, fp, tn, fn]
    for a in arrays:  # every problem, here and there
        for value in (np.nan, np.inf, -np.inf, -1.0, 1e30, -0.0, 0.0):
            hit = rng.random(a.shape) < 0.004
            a[hit] = value
    grow = rng.random(m) < 0.05
    tp[grow, -1] = tp[grow, 0] + 3
    sizes = rng.integers(0, width + 1, m)
    return (*(a.astype(dtype) for a in arrays), sizes.astype(np.int64))


def _run(
    fill: object, tp: np.ndarray, fp: np.ndarray, tn: np.ndarray, fn: np.ndarray, sizes: np.ndarray
) -> tuple[np.ndarray, ...]:
    m = tp.shape[0]
    areas, kept, flags = np.full((m, 5), np.nan), np.zeros(m, np.int64), np.zeros(m, np.int64)
    fill(tp, fp, tn, fn, sizes, areas, kept, flags)  # type: ignore[operator]
    return areas, kept, flags


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_numpy_passes_equal_the_kernel_bit_for_bit(kernel: object, dtype: type) -> None:
    rng = np.random.default_rng(11)
    for trial in range(40):
        width = int(rng.integers(0, 30)) if trial % 4 else int(rng.integers(150, 260))
        data = _curves(rng, int(rng.integers(1, 300)), width, dtype)
        want = _run(kernel, *data)
        got = _run(pr_areas._curve_passes, *data)
        np.testing.assert_array_equal(got[1], want[1], err_msg=f"kept, trial {trial}")
        np.testing.assert_array_equal(got[2], want[2], err_msg=f"flags, trial {trial}")
        same = (got[0] == want[0]) | (np.isnan(got[0]) & np.isnan(want[0]))
        assert same.all(), (trial, np.argwhere(~same)[:5], got[0][~same][:5], want[0][~same][:5])
        assert (np.signbit(got[0]) == np.signbit(want[0])).all(), trial


def test_every_problem_is_met_by_the_random_curves(kernel: object) -> None:
    rng = np.random.default_rng(11)
    seen = 0
    for _ in range(10):
        seen |= int(np.bitwise_or.reduce(_run(kernel, *_curves(rng, 300, 20, np.float64))[2]))
    assert seen == (1 << len(pr_areas.PROBLEMS)) - 1, bin(seen)


def test_curve_stats_takes_the_numpy_path_until_the_group_loads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(3)
    tp, fp, tn, fn, sizes = _curves(rng, 50, 12, np.float64)
    calls: list[str] = []
    real = pr_areas._curve_passes
    monkeypatch.setattr(pr_areas, "load", lambda group, items=None: calls.append(group) or False)
    monkeypatch.setattr(pr_areas, "_curve_passes", lambda *a: (calls.append("numpy"), real(*a)))
    stats = pr_areas.curve_stats(tp, fp, tn, fn, sizes)
    assert calls == ["curves", "numpy"]
    assert stats["kept"].shape == (50,)
