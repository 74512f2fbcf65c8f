"""Areas under PR and ROC curves against scikit-learn on the raw labels and predictions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    auc,
    average_precision_score,
    precision_recall_curve,
    roc_auc_score,
)

from tbnb.analysis.pr_curves import (
    CURVE_ROWS,
    auc_table,
    curve_areas,
    curve_problems,
    kept_lengths,
    pr_table,
    roc_points,
)
from tests.writers_prcurves import curve_counts, grid_inputs


def _frame(curves: list[np.ndarray], steps: list[int] | None = None) -> pd.DataFrame:
    steps = steps or list(range(len(curves)))
    rows = []
    for step, curve in zip(steps, curves, strict=True):
        row = {
            "run": "r",
            "tag": "pr",
            "step": step,
            "wall_time": 1.0 + step,
            "thresholds": np.linspace(0, 1, curve.shape[1]),
        }
        row.update(dict(zip(CURVE_ROWS, curve, strict=True)))
        rows.append(row)
    return pd.DataFrame(rows)


def _sklearn(labels: np.ndarray, predictions: np.ndarray) -> dict[str, float]:
    precision, recall, _ = precision_recall_curve(labels, predictions)
    return {
        "average_precision": average_precision_score(labels, predictions),
        "pr_auc": auc(recall, precision),
        "roc_auc": roc_auc_score(labels, predictions),
    }


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 127),
    count=st.integers(2, 400),
    seed=st.integers(0, 2**32 - 1),
    quality=st.floats(-1, 2),
)
def test_areas_equal_scikit_learn_when_predictions_fall_on_the_grid(
    n: int, count: int, seed: int, quality: float
) -> None:
    labels, predictions = grid_inputs(np.random.default_rng(seed), n, count, quality)
    if labels.all() or not labels.any():
        labels[0] = not labels[0]
    curve = curve_counts(labels, predictions, n)
    areas = curve_areas(curve[None])
    for name, expected in _sklearn(labels, predictions).items():
        assert areas[name][0] == pytest.approx(expected, abs=1e-12), name


def test_areas_of_continuous_predictions_approach_scikit_learn() -> None:
    """Off the grid, the 127-bucket curve (torch's cap) is close to the exact one."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        labels = rng.integers(0, 2, 2000).astype(bool)
        predictions = np.clip(rng.normal(0.5 + (labels - 0.5) * 0.4, 0.2), 0, 1)
        areas = curve_areas(curve_counts(labels, predictions, 127)[None])
        expected = _sklearn(labels, predictions)
        assert areas["roc_auc"][0] == pytest.approx(expected["roc_auc"], abs=2e-3)
        assert areas["average_precision"][0] == pytest.approx(
            expected["average_precision"], abs=1e-2
        )


def test_weighted_counts_keep_their_fractions() -> None:
    rng = np.random.default_rng(2)
    labels, predictions = grid_inputs(rng, 11, 300)
    weights = rng.uniform(0.1, 2.0, labels.size)
    areas = curve_areas(curve_counts(labels, predictions, 11, weights)[None])
    assert areas["average_precision"][0] == pytest.approx(
        average_precision_score(labels, predictions, sample_weight=weights), abs=1e-12
    )
    assert areas["roc_auc"][0] == pytest.approx(
        roc_auc_score(labels, predictions, sample_weight=weights), abs=1e-12
    )


def test_pr_table_trims_as_tensorboard_and_keeps_every_count() -> None:
    tp = np.array([4.0, 3, 1, 0, 0])
    fp = np.array([4.0, 2, 0, 0, 0])
    curve = np.stack([tp, fp, 4 - fp, 4 - tp, tp / np.maximum(tp + fp, 1e-7), tp / 4])
    table = pr_table(_frame([curve]))
    assert table["threshold"].tolist() == [0.0, 0.25, 0.5]  # TP + FP == 0 after 0.5
    assert table["true_negatives"].tolist() == [0.0, 2.0, 4.0]
    assert len(pr_table(_frame([curve]), trim=False)) == 5
    assert kept_lengths(np.zeros((1, 3)), np.zeros((1, 3))).tolist() == [1]


def test_roc_points_and_undefined_areas() -> None:
    fpr, tpr = roc_points(
        np.array([2.0, 0]), np.array([0.0, 0]), np.array([0.0, 0]), np.array([0.0, 2])
    )
    assert np.isnan(fpr).all()  # no negatives: no false positive rate
    assert tpr.tolist() == [1.0, 0.0]
    no_positives = np.stack(
        [np.zeros(3), [3.0, 1, 0], [0.0, 2, 3], np.zeros(3), np.zeros(3), np.zeros(3)]
    )
    areas = auc_table(_frame([no_positives]))
    assert areas[["average_precision", "pr_auc", "roc_auc"]].isna().all(axis=None)
    assert curve_problems(_frame([no_positives])) == [
        "run 'r' tag 'pr' step 0: no positive examples (recall, PR and ROC areas undefined)"
    ]


def test_problems_name_run_tag_and_step_and_are_capped() -> None:
    good = curve_counts(*grid_inputs(np.random.default_rng(0), 5, 50), 5)
    nan = good.copy()
    nan[0, 2] = np.nan
    growing = good.copy()
    growing[1] = growing[1][::-1]
    messages = curve_problems(_frame([good, nan, growing], [0, 7, 9]))
    assert messages[0] == "run 'r' tag 'pr' step 7: counts are not finite"
    assert messages[1].startswith("run 'r' tag 'pr' step 9: false positives grow")
    assert len(messages) == 2
    many = curve_problems(_frame([nan] * 30), limit=5)
    assert len(many) == 6
    assert many[-1] == "... and 25 more curves"
    areas = auc_table(_frame([good, nan]))
    assert np.isfinite(areas.loc[0, "roc_auc"])  # good curves keep their areas
