"""Parameter importance: random-forest importance and correlations, W&B-style encoding."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from tbnb.analysis.importance import parameter_importance
from tbnb.extras import MissingExtraError


@pytest.fixture
def sweep() -> pd.DataFrame:
    """27 runs: lr x batch size x optimizer, plus a seed in 0..2; accuracy driven by lr and
    optimizer."""
    rng = np.random.default_rng(0)
    rows = []
    for lr in (1e-1, 1e-2, 1e-3):
        for bs in (16, 32, 64):
            for opt in ("adam", "sgd", "rmsprop"):
                acc = 0.9 - 0.1 * abs(np.log10(lr) + 2) + (0.05 if opt == "adam" else 0.0)
                acc += rng.normal(0, 0.002)
                rows.append((lr, bs, opt, int(rng.integers(0, 3)), acc))
    df = pd.DataFrame(rows, columns=["lr", "bs", "opt", "seed", "acc.last"])
    df["bs"] = df["bs"].astype("Int64")
    df["opt"] = df["opt"].astype("string")
    df.attrs["hparam_columns"] = ["lr", "bs", "opt", "seed"]
    df.attrs["metric_columns"] = ["acc.last"]
    return df


def test_onehot_features_and_ranking(sweep: pd.DataFrame) -> None:
    imp = parameter_importance(sweep, "acc.last")
    assert list(imp.columns) == ["parameter", "importance", "spearman", "pearson", "n"]
    assert imp.index.name == "feature"
    assert set(imp.index) == {"lr", "bs", "seed", "opt=adam", "opt=rmsprop", "opt=sgd"}
    assert imp.loc["opt=adam", "parameter"] == "opt"
    assert imp["importance"].sum() == pytest.approx(1.0)
    assert imp["importance"].is_monotonic_decreasing
    assert imp.index[0] in ("lr", "opt=adam")
    assert imp.loc["lr", "importance"] > 5 * imp.loc["bs", "importance"]
    assert imp.loc["opt=adam", "importance"] > imp.loc["seed", "importance"]
    assert imp.loc["opt=adam", "pearson"] > 0.3  # adam helps
    assert imp.loc["opt=sgd", "pearson"] < 0
    assert (imp["n"] == 27).all()


def test_correlations_match_scipy(sweep: pd.DataFrame) -> None:
    imp = parameter_importance(sweep, "acc.last")
    for column in ("lr", "bs", "seed"):
        x = sweep[column].astype(float).to_numpy()
        y = sweep["acc.last"].to_numpy()
        assert imp.loc[column, "spearman"] == pytest.approx(stats.spearmanr(x, y).statistic)
        assert imp.loc[column, "pearson"] == pytest.approx(stats.pearsonr(x, y).statistic)
    adam = (sweep["opt"] == "adam").to_numpy(dtype=float)
    expected = stats.pearsonr(adam, sweep["acc.last"]).statistic
    assert imp.loc["opt=adam", "pearson"] == pytest.approx(expected)


def test_importance_is_the_forest_on_encoded_features(sweep: pd.DataFrame) -> None:
    from sklearn.ensemble import RandomForestRegressor

    numeric = sweep[["lr", "bs", "seed"]]
    imp = parameter_importance(numeric.assign(m=sweep["acc.last"]), "m", random_state=3)
    forest = RandomForestRegressor(n_estimators=100, random_state=3)
    forest.fit(numeric.astype(float).to_numpy(), sweep["acc.last"].to_numpy())
    expected = dict(zip(["lr", "bs", "seed"], forest.feature_importances_, strict=True))
    for name, value in expected.items():
        assert imp.loc[name, "importance"] == pytest.approx(value)


def test_deterministic_for_a_fixed_seed(sweep: pd.DataFrame) -> None:
    first = parameter_importance(sweep, "acc.last", random_state=7)
    second = parameter_importance(sweep, "acc.last", random_state=7)
    pd.testing.assert_frame_equal(first, second)


def test_ordinal_keeps_one_feature_and_no_correlation(sweep: pd.DataFrame) -> None:
    imp = parameter_importance(sweep, "acc.last", categorical="ordinal")
    assert set(imp.index) == {"lr", "bs", "opt", "seed"}
    assert np.isnan(imp.loc["opt", "spearman"])
    assert np.isnan(imp.loc["opt", "pearson"])
    assert imp.loc["opt", "importance"] > imp.loc["seed", "importance"]


def test_default_columns_come_from_attrs(sweep: pd.DataFrame) -> None:
    sweep["loss.last"] = -sweep["acc.last"]
    sweep.attrs["metric_columns"].append("loss.last")
    imp = parameter_importance(sweep, "acc.last")
    assert "loss.last" not in imp.index
    imp = parameter_importance(sweep, "acc.last", columns=["lr"])
    assert list(imp.index) == ["lr"]
    assert imp.loc["lr", "importance"] == pytest.approx(1.0)
    plain = pd.DataFrame({"a": [1, 2, 3], "b": [3, 1, 2], "m": [1.0, 2.0, 3.0]})
    assert set(parameter_importance(plain, "m").index) == {"a", "b"}


def test_missing_values_booleans_and_metric_gaps() -> None:
    df = pd.DataFrame(
        {
            "amp": pd.array([True, False, True, False, None, True], dtype="boolean"),
            "wd": [0.1, np.nan, 0.3, 0.4, 0.5, 0.6],
            "opt": pd.array(["a", "b", None, "a", "b", "a"], dtype="string"),
            "m": [1.0, 2.0, 3.0, np.nan, 5.0, np.inf],
        }
    )
    imp = parameter_importance(df, "m")
    # Rows 3 (NaN metric) and 5 (inf metric) are out: 4 runs remain.
    assert imp.loc["amp", "n"] == 3
    assert imp.loc["wd", "n"] == 3
    assert imp.loc["opt=a", "n"] == 3
    assert imp.loc["amp", "pearson"] == pytest.approx(
        stats.pearsonr([1.0, 0.0, 1.0], [1.0, 2.0, 3.0]).statistic
    )
    assert np.isfinite(imp["importance"]).all()


def test_degenerate_inputs() -> None:
    one = pd.DataFrame({"lr": [0.1], "m": [1.0]})
    assert np.isnan(parameter_importance(one, "m").loc["lr", "importance"])
    flat = pd.DataFrame({"lr": [0.1, 0.2, 0.3], "m": [1.0, 1.0, 1.0]})
    row = parameter_importance(flat, "m").loc["lr"]
    assert np.isnan(row["importance"])
    assert np.isnan(row["spearman"])
    constant = pd.DataFrame({"c": [1, 1, 1], "lr": [1, 2, 3], "m": [1.0, 2.0, 4.0]})
    imp = parameter_importance(constant, "m")
    assert imp.loc["c", "importance"] == 0.0
    assert np.isnan(imp.loc["c", "pearson"])
    assert parameter_importance(pd.DataFrame({"m": [1.0, 2.0]}), "m").empty


def test_bad_arguments(sweep: pd.DataFrame) -> None:
    with pytest.raises(KeyError, match="nope"):
        parameter_importance(sweep, "nope")
    with pytest.raises(KeyError, match="missing"):
        parameter_importance(sweep, "acc.last", columns=["missing"])
    with pytest.raises(ValueError, match="onehot"):
        parameter_importance(sweep, "acc.last", categorical="dummy")  # type: ignore[arg-type]


def test_without_the_forest_correlations_stay_and_the_extra_is_named(
    sweep: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = parameter_importance(sweep, "acc.last")
    skipped = parameter_importance(sweep, "acc.last", importance="skip")
    assert skipped["importance"].isna().all()
    pd.testing.assert_frame_equal(
        skipped[["parameter", "spearman", "pearson", "n"]].sort_index(),
        full[["parameter", "spearman", "pearson", "n"]].sort_index(),
    )
    strength = skipped["pearson"].abs().dropna().to_numpy()
    assert (strength[:-1] >= strength[1:]).all()  # the strongest correlation first

    monkeypatch.setitem(sys.modules, "sklearn.ensemble", None)  # as if not installed
    with pytest.raises(MissingExtraError, match=r"pip install 'tbnb\[stats\]'"):
        parameter_importance(sweep, "acc.last")
