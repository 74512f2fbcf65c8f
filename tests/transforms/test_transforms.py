"""Smoothing, downsampling and aggregation (tbnb.transforms)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from tbnb.transforms import aggregate, ema, group_runs, minmax_indices, smooth, time_weighted_ema
from tbnb.transforms.downsample import minmax_indices_blocks
from tbnb.transforms.series import SeriesStore, present_names


def tb_reference(values: list[float], weight: float) -> list[float]:
    """TensorBoard's classic smoothing, transcribed statement by statement."""
    first = values[0] if values else None
    if all(v == first for v in values):
        return list(values)
    last = 0.0
    num_accum = 0
    out = []
    for v in values:
        if not math.isfinite(v):
            out.append(v)
            continue
        last = last * weight + (1 - weight) * v
        num_accum += 1
        out.append(last / (1 - weight**num_accum))
    return out


def assert_same(got: np.ndarray, want: list[float], tol: float = 1e-12) -> None:
    assert got.shape == (len(want),)
    for g, w in zip(got.tolist(), want, strict=True):
        if math.isnan(w):
            assert math.isnan(g)
        elif math.isinf(w):
            assert g == w
        else:
            assert abs(g - w) <= tol * max(1.0, abs(w))


RNG = np.random.default_rng(7)
CASES = {
    "noisy": list(RNG.normal(size=200)),
    "nan": [1.0, float("nan"), 2.0, 4.0, float("nan"), 3.0],
    "inf": [float("inf"), 1.0, -float("inf"), 5.0, 2.0],
    "leading_nan": [float("nan"), float("nan"), 7.0, 1.0],
    "constant": [3.5] * 20,
    "constant_with_nan": [3.5, float("nan"), 3.5],
    "single": [2.0],
    "empty": [],
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("weight", [0.0, 0.6, 0.9, 0.999])
def test_ema_matches_tensorboard(name: str, weight: float) -> None:
    values = CASES[name]
    assert_same(ema(values, weight), tb_reference(values, weight))


def test_ema_semantics() -> None:
    # Non-finite values pass through and are not counted in the debiasing.
    out = ema([2.0, float("nan"), 4.0], 0.5)
    assert math.isnan(out[1])
    assert out[2] == pytest.approx((0.25 * 2 + 0.5 * 4) / (1 - 0.25))
    # The first finite value comes out unchanged, whatever the weight.
    assert ema([float("nan"), 9.0, 1.0], 0.999)[1] == 9.0
    # A constant series is returned unchanged even at 0.999.
    assert ema([1.0] * 5, 0.999).tolist() == [1.0] * 5
    # w = 0 is the identity.
    assert ema([1.0, 5.0, 2.0], 0.0).tolist() == [1.0, 5.0, 2.0]


@pytest.mark.parametrize("weight", [-0.1, 1.0, float("nan")])
def test_weight_out_of_range(weight: float) -> None:
    with pytest.raises(ValueError, match="smoothing weight"):
        ema([1.0, 2.0], weight)


def test_time_weighted_equals_ema_on_even_spacing() -> None:
    values = RNG.normal(size=50)
    np.testing.assert_allclose(
        time_weighted_ema(np.arange(50) * 10, values, 0.8), ema(values, 0.8), rtol=1e-12
    )


def test_time_weighted_uses_distance() -> None:
    values = [1.0, 4.0, 2.0, 8.0, 3.0]
    far = time_weighted_ema([0, 1, 2, 3, 1000], values, 0.7)
    assert far[-1] == pytest.approx(3.0, abs=1e-9)  # far away: the past is forgotten
    assert abs(ema(values, 0.7)[-1] - 3.0) > 0.5
    # dense logging late (uneven steps) does not make the curve lag more in x
    with pytest.raises(ValueError, match="shape"):
        time_weighted_ema([0, 1], [1.0], 0.5)
    with pytest.raises(ValueError, match="needs x"):
        smooth([1.0], 0.5, mode="time")
    with pytest.raises(ValueError, match="mode"):
        smooth([1.0], 0.5, mode="gauss")  # type: ignore[arg-type]


def test_downsample_keeps_extremes_first_last_and_is_deterministic() -> None:
    n = 100_000
    x = np.arange(n, dtype=np.float64)
    y = np.sin(x / 500) + RNG.normal(0, 0.01, n)
    y[31_337] = 50.0
    y[77_777] = -50.0
    y[5000] = np.nan
    idx = minmax_indices(x, y, 200)
    assert idx[0] == 0
    assert idx[-1] == n - 1
    assert {31_337, 77_777, 5000} <= set(idx.tolist())
    assert len(idx) <= 3 * 200 + 2
    assert np.all(np.diff(idx) > 0)
    np.testing.assert_array_equal(idx, minmax_indices(x, y, 200))
    # per bucket, the min and max of the bucket are kept
    bucket = np.minimum((x / (n - 1) * 200).astype(int), 199)
    finite = np.isfinite(y)
    for b in (0, 57, 199):
        sel = np.flatnonzero((bucket == b) & finite)
        assert sel[np.argmin(y[sel])] in idx
        assert sel[np.argmax(y[sel])] in idx


def test_downsample_small_and_degenerate() -> None:
    assert minmax_indices([0, 1, 2], [1, 2, 3], 10).tolist() == [0, 1, 2]
    same_x = minmax_indices(np.zeros(1000), np.arange(1000.0), 10)
    assert same_x[0] == 0
    assert same_x[-1] == 999
    with pytest.raises(ValueError, match="buckets"):
        minmax_indices([0, 1], [0, 1], 0)
    with pytest.raises(ValueError, match="equal length"):
        minmax_indices([0, 1], [0], 5)


def _seeds() -> pd.DataFrame:
    rows = []
    for group, base in (("a", 0.0), ("b", 10.0)):
        for seed in range(3):
            for step in range(0, 50, 10):
                rows.append(
                    (f"{group}/seed{seed}", "loss", step, 1000.0 + step, base + step + seed)
                )
    return pd.DataFrame(rows, columns=["run", "tag", "step", "wall_time", "value"])


def test_downsample_blocks_equal_one_series_at_a_time() -> None:
    rng = np.random.default_rng(3)
    sizes = [0, 1, 5, 400, 401, 3000, 1, 2500]
    bounds = np.r_[0, np.cumsum(sizes)]
    steps = np.concatenate([np.arange(n, dtype=np.int64) * 3 for n in sizes])
    y = rng.normal(size=steps.size)
    y[rng.integers(0, y.size, 40)] = np.nan
    y[50] = np.inf
    for x in (steps, steps.astype(np.float64), steps.astype(np.int32)):
        idx, offsets = minmax_indices_blocks(x, y, bounds, 100)
        assert offsets.tolist()[0] == 0
        assert offsets[-1] == idx.size
        for k in range(len(sizes)):
            a, b = bounds[k], bounds[k + 1]
            want = minmax_indices(steps[a:b].astype(float), y[a:b], 100) + a if b > a else []
            np.testing.assert_array_equal(idx[offsets[k] : offsets[k + 1]], want)
    with pytest.raises(ValueError, match="bounds"):
        minmax_indices_blocks(steps, y, [0, 10, 5], 10)
    with pytest.raises(ValueError, match="buckets"):
        minmax_indices_blocks(steps, y, bounds, 0)


def _long(parts: list[tuple[str, str, list[int]]]) -> pd.DataFrame:
    rows = [(run, tag, st) for run, tag, steps in parts for st in steps]
    return pd.DataFrame(
        {
            "run": pd.Categorical([r for r, _, _ in rows]),
            "tag": pd.Categorical([t for _, t, _ in rows]),
            "step": np.array([st for _, _, st in rows], dtype=np.int64),
            "wall_time": np.arange(len(rows), dtype=np.float64),
            "value": np.arange(len(rows), dtype=np.float64) * 10,
        }
    )


def _as_dict(store: SeriesStore) -> dict[tuple[str, str], dict[str, list[float]]]:
    return {
        key: {k: v.tolist() for k, v in store.series(i).items()} for i, key in enumerate(store.keys)
    }


def test_series_store_grouped_reloaded_and_unordered_frames() -> None:
    grouped = _long([("a", "x", [0, 1, 2]), ("a", "y", [0, 5]), ("b", "x", [1, 2])])
    store = SeriesStore.from_frame(grouped)
    assert store.keys == [("a", "x"), ("a", "y"), ("b", "x")]
    assert store.bounds.tolist() == [0, 3, 5, 7]
    # already grouped: the frame's own arrays, no copy
    assert np.shares_memory(store.columns["value"], grouped["value"].to_numpy())
    assert store.columns["step"].dtype == np.int64
    # a reload appended new points of a/x and b/x at the end: gathered, not sorted
    reloaded = _long(
        [
            ("a", "x", [0, 1, 2]),
            ("a", "y", [0, 5]),
            ("b", "x", [1, 2]),
            ("a", "x", [3, 4]),
            ("b", "x", [3]),
        ]
    )
    got = _as_dict(SeriesStore.from_frame(reloaded))
    assert got[("a", "x")]["step"] == [0, 1, 2, 3, 4]
    assert got[("a", "x")]["value"] == [0, 10, 20, 70, 80]
    assert got[("b", "x")]["wall_time"] == [5, 6, 9]
    # steps going back (a restart not purged): sorted by step, stably
    unordered = _long([("a", "x", [5, 6]), ("b", "x", [0]), ("a", "x", [1, 6])])
    got = _as_dict(SeriesStore.from_frame(unordered))
    assert got[("a", "x")]["step"] == [1, 5, 6, 6]
    assert got[("a", "x")]["value"] == [30, 0, 10, 40]
    # the same answer from plain string columns (factorised, then the same paths)
    plain = reloaded.assign(run=reloaded["run"].astype(str), tag=reloaded["tag"].astype(str))
    assert _as_dict(SeriesStore.from_frame(plain)) == _as_dict(SeriesStore.from_frame(reloaded))
    empty = SeriesStore.from_frame(grouped.iloc[:0])
    assert empty.keys == []
    assert empty.bounds.tolist() == [0]


def test_present_names() -> None:
    col = pd.Series(pd.Categorical(["b", "a"], categories=["a", "b", "c"]))
    assert present_names(col) == ["a", "b"]
    assert present_names(pd.Series(["z", "y", "z"])) == ["z", "y"]


def test_aggregate_mean_std_minmax_ci() -> None:
    df = _seeds()
    out = aggregate(df, r"^(\w+)/seed\d+$", agg="mean", band="std")
    a = out[out["group"] == "a"]
    assert a["step"].tolist() == [0, 10, 20, 30, 40]
    assert a["value"].tolist() == pytest.approx([1, 11, 21, 31, 41])
    assert (a["hi"] - a["value"]).tolist() == pytest.approx([np.std([0, 1, 2])] * 5)
    assert a["n"].tolist() == [3] * 5
    assert a["runs"].iloc[0] == "a/seed0|a/seed1|a/seed2"
    mm = aggregate(df, r"^(\w+)/", band="minmax")
    b = mm[mm["group"] == "b"]
    assert b["lo"].tolist() == pytest.approx([10, 20, 30, 40, 50])
    assert b["hi"].tolist() == pytest.approx([12, 22, 32, 42, 52])
    ci = aggregate(df, r"^(\w+)/", band="ci95")
    from scipy import stats

    half = stats.t.ppf(0.975, 2) * np.std([0, 1, 2], ddof=1) / math.sqrt(3)
    assert (ci["hi"] - ci["value"]).tolist() == pytest.approx([half] * 10)
    med = aggregate(df.assign(value=df["value"] ** 2), r"^(\w+)/", agg="median", band="none")
    assert med["value"].iloc[0] == 1.0
    assert med["lo"].iloc[0] == med["hi"].iloc[0] == 1.0


def test_aggregate_interpolates_without_extrapolating() -> None:
    df = pd.DataFrame(
        {
            "run": ["s0"] * 3 + ["s1"] * 2,
            "tag": "x",
            "step": [0, 10, 20, 5, 15],
            "value": [0.0, 10.0, 20.0, 100.0, 200.0],
        }
    )
    out = aggregate(df, {"s0": "g", "s1": "g"}, band="minmax")
    assert out["step"].tolist() == [0, 5, 10, 15, 20]
    # s1 exists only on [5, 15]: at 0 and 20 only s0 counts
    assert out["n"].tolist() == [1, 2, 2, 2, 1]
    assert out["value"].tolist() == pytest.approx([0, 52.5, 80, 107.5, 20])
    assert out["wall_time"].isna().all()


def test_group_runs() -> None:
    runs = ["lr=0.1,seed=1", "lr=0.1,seed=2", "other"]
    assert group_runs(runs, r"lr=([\d.]+)") == {
        "lr=0.1,seed=1": "0.1",
        "lr=0.1,seed=2": "0.1",
        "other": "other",
    }
    assert group_runs(runs, pd.Series({"other": "x", "lr=0.1,seed=1": None})) == {
        "lr=0.1,seed=1": "lr=0.1,seed=1",
        "lr=0.1,seed=2": "lr=0.1,seed=2",
        "other": "x",
    }
    with pytest.raises(ValueError, match="regex"):
        group_runs(runs, "(")
    with pytest.raises(ValueError, match="agg"):
        aggregate(_seeds(), "x", agg="max")  # type: ignore[arg-type]
