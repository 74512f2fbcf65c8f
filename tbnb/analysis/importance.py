"""Parameter importance of hparams for a metric, as W&B's parameter-importance panel shows it.

For each hparam, :func:`parameter_importance` reports

- ``importance``: a random forest (scikit-learn, fixed ``random_state``; the ``stats``
  extra, imported only here) is fitted with the hparams as inputs and the metric as
  target; this is its impurity-based feature importance (the features' importances
  sum to 1). Without scikit-learn, ``importance="skip"`` gives the correlations alone
  (importances NaN) and the default raises an error naming the extra;
- ``spearman`` and ``pearson``: the rank and linear correlation of the feature with
  the metric over the runs where both are present.

Encoding follows W&B: a categorical hparam (strings, or anything not numeric or
boolean) is one-hot encoded by default, one feature per value named
``"<hparam>=<value>"``; ``categorical="ordinal"`` keeps one feature per hparam
(integer codes in sorted order of the values) and then gives no correlation for it,
since the order of the codes means nothing. Booleans are 0/1; missing numeric
values are imputed with the column median for the forest (correlations just skip
those runs). Runs without a finite metric value are left out.

Impurity-based importance favours features with many distinct values: an hparam
that is unique per run (a random seed from a large range) can score above a
two-valued hparam that matters; read it together with the correlations.

Examples
--------
>>> import pandas as pd
>>> df = pd.DataFrame({"lr": [0.1, 0.01, 0.001, 0.1, 0.01, 0.001],
...                    "opt": ["adam", "sgd"] * 3,
...                    "acc.last": [0.5, 0.7, 0.9, 0.52, 0.71, 0.88]})
>>> imp = parameter_importance(df, "acc.last")
>>> imp.index[0], round(float(imp.loc["lr", "spearman"]), 2)
('lr', -0.96)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from tbnb.extras import installed, require

__all__ = ["IMPORTANCE_EXTRA", "forest_available", "parameter_importance"]

IMPORTANCE_EXTRA = "stats"
"""The extra that brings scikit-learn: ``pip install 'tbnb[stats]'``."""


def forest_available() -> bool:
    """Whether scikit-learn (the random forest) is installed, found without importing it."""
    return installed("sklearn")


_COLUMNS = ["parameter", "importance", "spearman", "pearson", "n"]


def _is_numeric(series: pd.Series) -> bool:
    return bool(pd.api.types.is_numeric_dtype(series)) and not pd.api.types.is_bool_dtype(series)


def _is_boolean(series: pd.Series) -> bool:
    if pd.api.types.is_bool_dtype(series):
        return True
    present = series.dropna()
    return len(present) > 0 and all(isinstance(v, (bool, np.bool_)) for v in present)


def _encode(
    frame: pd.DataFrame, columns: Sequence[str], categorical: str
) -> tuple[pd.DataFrame, dict[str, str], set[str]]:
    """Numeric features (NaN where missing), feature -> hparam, and unordered features."""
    features: dict[str, pd.Series] = {}
    parent: dict[str, str] = {}
    unordered: set[str] = set()
    for column in columns:
        series = frame[column]
        if _is_boolean(series) or _is_numeric(series):
            features[column] = series.astype("Float64").astype(np.float64)
            parent[column] = column
        else:
            text = series.astype("string")
            levels = sorted(text.dropna().unique())
            if categorical == "ordinal":
                codes = {level: float(i) for i, level in enumerate(levels)}
                features[column] = pd.Series(
                    [np.nan if pd.isna(v) else codes[v] for v in text], index=frame.index
                )
                parent[column] = column
                unordered.add(column)
            else:
                present = text.notna().to_numpy()
                for level in levels:
                    name = f"{column}={level}"
                    values = (text == level).fillna(False).to_numpy(dtype=np.float64)
                    features[name] = pd.Series(np.where(present, values, np.nan), index=frame.index)
                    parent[name] = column
    return pd.DataFrame(features, index=frame.index), parent, unordered


def _correlations(x: np.ndarray, y: np.ndarray) -> tuple[float, float, int]:
    """Spearman and Pearson correlation over the rows where both are finite."""
    mask = np.isfinite(x) & np.isfinite(y)
    n = int(mask.sum())
    if n < 2:
        return np.nan, np.nan, n
    xs, ys = x[mask], y[mask]
    if np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return np.nan, np.nan, n
    pearson = float(np.corrcoef(xs, ys)[0, 1])
    xr = pd.Series(xs).rank().to_numpy()
    yr = pd.Series(ys).rank().to_numpy()
    spearman = float(np.corrcoef(xr, yr)[0, 1])
    return spearman, pearson, n


def parameter_importance(
    hparams: pd.DataFrame,
    metric: str,
    *,
    columns: Sequence[str] | None = None,
    categorical: Literal["onehot", "ordinal"] = "onehot",
    n_estimators: int = 100,
    random_state: int = 0,
    importance: Literal["forest", "skip"] = "forest",
) -> pd.DataFrame:
    """Random-forest importance and correlation of each hparam with ``metric``.

    Parameters
    ----------
    hparams
        One row per run, such as ``exp.hparams``.
    metric
        The metric column (for example ``"val/loss.last"``).
    columns
        The hparam columns to rate; default those of ``hparams.attrs["hparam_columns"]``
        in the frame when that is set, else every column except ``metric``.
    categorical
        ``"onehot"`` (one feature per value, as W&B) or ``"ordinal"``.
    n_estimators, random_state
        Passed to :class:`sklearn.ensemble.RandomForestRegressor`; the result is
        deterministic for a fixed ``random_state``.
    importance
        ``"forest"`` (fit the random forest: needs scikit-learn) or ``"skip"`` (the
        correlations alone, strongest linear correlation first; importances NaN).

    Returns
    -------
    pandas.DataFrame
        Indexed by feature (the hparam, or ``"<hparam>=<value>"`` for one-hot
        features), with columns ``parameter`` (the hparam it encodes),
        ``importance``, ``spearman``, ``pearson`` and ``n`` (runs with both values),
        sorted by importance. With fewer than two usable runs, or a constant metric,
        importances are NaN.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"bs": [16, 32, 64, 128], "loss": [4.0, 3.0, 2.0, 1.0]})
    >>> parameter_importance(df, "loss").loc["bs", ["importance", "pearson"]].round(2).tolist()
    [1.0, -0.96]
    """
    if metric not in hparams.columns:
        raise KeyError(f"metric column {metric!r} not in the frame")
    if importance not in ("forest", "skip"):
        raise ValueError(f"importance must be 'forest' or 'skip', not {importance!r}")
    if categorical not in ("onehot", "ordinal"):
        raise ValueError(f"categorical must be 'onehot' or 'ordinal', not {categorical!r}")
    if columns is None:
        declared = hparams.attrs.get("hparam_columns")
        if declared is None:
            columns = list(hparams.columns)
        else:  # attrs survive slicing: keep the declared columns still present
            columns = [c for c in declared if c in hparams.columns]
    missing = [c for c in columns if c not in hparams.columns]
    if missing:
        raise KeyError(f"columns not in the frame: {missing}")
    columns = [c for c in columns if c != metric]

    target = pd.to_numeric(hparams[metric], errors="coerce").astype("Float64")
    target_values = target.astype(np.float64).to_numpy()
    usable = np.isfinite(target_values)
    frame = hparams.loc[usable]
    y = target_values[usable]
    features, parent, unordered = _encode(frame, columns, categorical)

    rows = []
    for name in features.columns:
        x = features[name].to_numpy(dtype=np.float64)
        spearman, pearson, n = _correlations(x, y)
        if name in unordered:
            spearman = pearson = np.nan
        rows.append((name, parent[name], spearman, pearson, n))
    out = pd.DataFrame(rows, columns=["feature", "parameter", "spearman", "pearson", "n"])
    out = out.set_index("feature")
    out.insert(1, "importance", np.nan)

    if importance == "forest" and len(features.columns) and len(y) >= 2 and np.ptp(y) > 0:
        ensemble = require("sklearn.ensemble", "parameter importance", IMPORTANCE_EXTRA)
        matrix = features.to_numpy(dtype=np.float64)
        finite = np.isfinite(matrix)
        medians = pd.DataFrame(np.where(finite, matrix, np.nan)).median().fillna(0.0)
        matrix = np.where(finite, matrix, medians.to_numpy())
        forest = ensemble.RandomForestRegressor(
            n_estimators=n_estimators, random_state=random_state
        )
        forest.fit(matrix, y)
        out["importance"] = forest.feature_importances_
    if importance == "skip":  # the strongest correlation first
        order = out["pearson"].abs().sort_values(ascending=False, kind="stable").index
        out = out.loc[order]
    else:
        out = out.sort_values("importance", ascending=False, kind="stable", na_position="last")
    out.index.name = "feature"
    return out[_COLUMNS]
