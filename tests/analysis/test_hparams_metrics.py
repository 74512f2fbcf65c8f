"""Default metric columns: the same choice as comparing every pair, in linear work."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import pytest

from tbnb.analysis.hparams import metrics
from tbnb.analysis.hparams.metrics import default_metrics, looks_like_metric


def _pairwise(columns: Mapping[str, pd.Series], declared: Sequence[str]) -> list[str]:
    """The rule as first written: every column compared with every chosen one."""

    def tag_of(column: str) -> str:
        return column.removeprefix("metric:").rsplit(".", 1)[0]

    def same(a: pd.Series, b: pd.Series) -> bool:
        x, y = a.to_numpy(dtype=np.float64), b.to_numpy(dtype=np.float64)
        finite = ~np.isnan(x)
        return bool(
            (np.isnan(x) == np.isnan(y)).all()
            and finite.any()
            and np.allclose(x[finite], y[finite], rtol=1e-6, atol=1e-12)
        )

    ordered = [c for name in declared for c in columns if tag_of(c) == name]
    ordered += [c for c in columns if c not in ordered and looks_like_metric(tag_of(c))]
    chosen: list[str] = []
    for column in ordered:
        if not any(
            same(columns[column], columns[kept])
            for kept in chosen
            if column.rsplit(".", 1)[-1] == kept.rsplit(".", 1)[-1]
        ):
            chosen.append(column)
    return chosen


def _hostile_columns(seed: int, n: int, rows: int) -> dict[str, pd.Series]:
    """Metric columns with exact copies, copies within and just past the tolerance,
    permutations, NaN and infinite values, all-NaN columns and several reductions."""
    rng = np.random.default_rng(seed)
    out: dict[str, pd.Series] = {}
    base = [rng.normal(scale=10.0 ** rng.integers(-3, 4), size=rows) for _ in range(max(n // 4, 1))]
    for i in range(n):
        x = base[rng.integers(len(base))].copy()
        how = rng.integers(8)
        if how == 1:
            x = x * (1 + rng.uniform(-5e-7, 5e-7, rows))  # within rtol
        elif how == 2:
            x = x * (1 + rng.choice([-1, 1], rows) * rng.uniform(1.5e-6, 3e-6, rows))  # past it
        elif how == 3:
            x = rng.permutation(x)
        elif how == 4:
            x[rng.integers(rows)] = np.nan
        elif how == 5:
            x[rng.integers(rows)] = rng.choice([np.inf, -np.inf])
        elif how == 6 and i % 5 == 0:
            x[:] = np.nan
        elif how == 7:
            x = np.zeros(rows) + rng.choice([0.0, 1e-13, 2e-12])  # atol at zero
        reduction = ["last", "min", "max"][rng.integers(3)]
        out[f"val/loss_{i}.{reduction}"] = pd.Series(x)
    out["lr.last"] = pd.Series(rng.normal(size=rows))  # not a metric: never chosen
    return out


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("rows", [1, 2, 7])
def test_the_choice_equals_comparing_every_pair(seed: int, rows: int) -> None:
    columns = _hostile_columns(seed, 160, rows)
    declared = [f"val/loss_{i}" for i in range(0, 160, 37)] + ["val/loss_3", "absent"]
    assert default_metrics(columns, declared) == _pairwise(columns, declared)


def test_declared_metrics_come_first_once() -> None:
    cols = {
        "a/acc.last": pd.Series([0.5]),
        "b/acc.last": pd.Series([0.5]),
        "c/acc.last": pd.Series([0.7]),
    }
    assert default_metrics(cols, ["c/acc", "b/acc", "c/acc"]) == ["c/acc.last", "b/acc.last"]


def test_work_is_linear_in_the_number_of_tags(monkeypatch: pytest.MonkeyPatch) -> None:
    """Columns compared: about one per column, not one per pair (4,000 distinct tags
    were 8 million comparisons)."""
    calls = 0
    same = metrics._same

    def counted(a: pd.Series, b: pd.Series) -> bool:
        nonlocal calls
        calls += 1
        return same(a, b)

    monkeypatch.setattr(metrics, "_same", counted)
    rng = np.random.default_rng(0)
    n = 4000
    columns = {f"val/loss_{i}.last": pd.Series(rng.normal(size=2)) for i in range(n)}
    columns.update({f"copy/loss_{i}.last": columns[f"val/loss_{i}.last"] for i in range(100)})
    chosen = default_metrics(columns, [])
    assert len(chosen) == n
    assert calls < 2 * len(columns)
