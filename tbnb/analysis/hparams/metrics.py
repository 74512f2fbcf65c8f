"""Final metrics: reductions of every (run, tag) scalar series, in one vectorised pass.

Examples
--------
>>> import pandas as pd
>>> scalars = pd.DataFrame({"run": ["a", "a", "a"], "tag": ["loss"] * 3, "step": [0, 2, 1],
...                         "wall_time": [0.0, 2.0, 1.0], "value": [3.0, 1.0, 2.0]})
>>> reduce_scalars(scalars, ["last", "min"])[["run", "tag", "last", "min"]].to_dict("records")
[{'run': 'a', 'tag': 'loss', 'last': 1.0, 'min': 1.0}]
"""

from __future__ import annotations

import bisect
import fnmatch
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "REDUCTIONS",
    "combine",
    "default_metrics",
    "looks_like_metric",
    "reduce_scalars",
    "tag_selected",
]

REDUCTIONS = ("last", "min", "max", "mean")
"""Metric reductions :func:`hparams_frame` knows."""


def _codes(column: pd.Series) -> tuple[np.ndarray[Any, Any], list[str]]:
    """Integer codes (-1 = missing) and names of a run or tag column."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy(dtype=np.int64), [str(c) for c in column.cat.categories]
    codes, uniques = pd.factorize(column, sort=False)
    return codes.astype(np.int64), [str(u) for u in uniques]


def reduce_scalars(scalars: pd.DataFrame, reductions: Sequence[str]) -> pd.DataFrame:
    """Per (run, tag): ``last_step``, ``last_wall_time``, ``last`` and the reductions.

    One vectorised pass over the categorical codes (no sort, no string keys): about
    20M points a second.
    """
    columns = ["run", "tag", "last_step", "last_wall_time", *REDUCTIONS]
    if scalars.empty:
        return pd.DataFrame(columns=columns)
    run_codes, run_names = _codes(scalars["run"])
    tag_codes, tag_names = _codes(scalars["tag"])
    keep = (run_codes >= 0) & (tag_codes >= 0)
    step = scalars["step"].to_numpy(dtype=np.int64)
    wall = scalars["wall_time"].to_numpy(dtype=np.float64)
    value = scalars["value"].to_numpy(dtype=np.float64)
    if not keep.all():
        run_codes, tag_codes = run_codes[keep], tag_codes[keep]
        step, wall, value = step[keep], wall[keep], value[keep]
    if not len(step):
        return pd.DataFrame(columns=columns)
    n_tags = max(len(tag_names), 1)
    key = run_codes * n_tags + tag_codes
    size = len(run_names) * n_tags
    top = np.full(size, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(top, key, step)
    at_top = np.flatnonzero(step == top[key])
    last = np.full(size, -1, dtype=np.int64)
    np.maximum.at(last, key[at_top], at_top)  # the latest written among the top steps
    cells = np.flatnonzero(last >= 0)
    rows = last[cells]
    out = pd.DataFrame(
        {
            "run": [run_names[i] for i in cells // n_tags],
            "tag": [tag_names[i] for i in cells % n_tags],
            "last_step": step[rows],
            "last_wall_time": wall[rows],
            "last": value[rows],
        }
    )
    if any(r in reductions for r in ("min", "max", "mean")):
        finite = ~np.isnan(value)
        count = np.bincount(key[finite], minlength=size)[cells]
        with np.errstate(invalid="ignore", divide="ignore"):
            if "min" in reductions:
                low = np.full(size, np.inf)
                np.fmin.at(low, key, value)
                out["min"] = np.where(count > 0, low[cells], np.nan)
            if "max" in reductions:
                high = np.full(size, -np.inf)
                np.fmax.at(high, key, value)
                out["max"] = np.where(count > 0, high[cells], np.nan)
            if "mean" in reductions:
                total = np.bincount(key[finite], weights=value[finite], minlength=size)[cells]
                out["mean"] = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return out


def combine(rows: pd.DataFrame, reductions: Sequence[str]) -> pd.DataFrame:
    """Combine the per-run reductions that land in the same (row, column) cell."""
    if not rows.duplicated(["row", "name"]).any():
        return rows
    rows = rows.sort_values(["last_step", "last_wall_time"], kind="stable")
    groups = rows.groupby(["row", "name"], sort=False)
    out = groups.tail(1).set_index(["row", "name"])[["last"]]  # tail keeps a final NaN
    for reduction in ("min", "max"):
        if reduction in reductions:
            out[reduction] = groups[reduction].agg(reduction)
    if "mean" in reductions:  # a plain mean of the per-run means
        out["mean"] = groups["mean"].mean()
    return out.reset_index()


def tag_selected(name: str, tag: str, patterns: Sequence[str] | None) -> bool:
    if patterns is None:
        return True
    return any(pattern in (name, tag) or fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


METRIC_WORDS = frozenset(
    {
        "loss",
        "losses",
        "acc",
        "accuracy",
        "err",
        "error",
        "f1",
        "auc",
        "roc",
        "ap",
        "map",
        "precision",
        "recall",
        "iou",
        "miou",
        "dice",
        "bleu",
        "rouge",
        "perplexity",
        "ppl",
        "score",
        "mse",
        "mae",
        "rmse",
        "r2",
        "reward",
        "return",
        "wer",
        "cer",
        "top1",
        "top5",
        "nll",
        "kl",
        "elbo",
        "psnr",
        "ssim",
        "fid",
        "metric",
        "metrics",
        "correct",
    }
)
"""Words that make a scalar tag look like a metric (``val/acc``, ``epoch_loss``)."""

_WORD = re.compile(r"[a-z]+[0-9]*|[0-9]+")


def looks_like_metric(tag: str) -> bool:
    """Whether a scalar tag looks like a metric rather than a schedule or a statistic.

    Examples
    --------
    >>> [looks_like_metric(t) for t in ("val/acc", "epoch_loss", "lr", "grad_norm", "top5")]
    [True, True, False, False, True]
    """
    return any(word in METRIC_WORDS for word in _WORD.findall(tag.lower()))


def _same(a: pd.Series, b: pd.Series) -> bool:
    x, y = a.to_numpy(dtype=np.float64), b.to_numpy(dtype=np.float64)
    both = np.isnan(x) == np.isnan(y)
    finite = ~np.isnan(x)
    return bool(
        both.all() and finite.any() and np.allclose(x[finite], y[finite], rtol=_RTOL, atol=_ATOL)
    )


_RTOL, _ATOL = 1e-6, 1e-12
"""Two metric columns hold the same values when they agree this closely (``np.allclose``)."""


def default_metrics(columns: Mapping[str, pd.Series], declared: Sequence[str]) -> list[str]:
    """Metric columns a view shows by default, in order.

    The metrics the writer declared (hparams metrics, Keras and TF2 session metrics)
    first, then the columns of tags that look like metrics (:func:`looks_like_metric`);
    a column holding the same values as one already chosen (``hparam/val_acc.last``
    and ``val/acc.last``) is left out. Everything else (``lr.last``) is opt-in.
    Linear in the number of columns (:func:`_distinct`).

    Examples
    --------
    >>> cols = {"lr.last": pd.Series([1e-3]), "val/acc.last": pd.Series([0.9]),
    ...         "hparam/acc.last": pd.Series([0.9]), "loss.last": pd.Series([0.2])}
    >>> default_metrics(cols, ["hparam/acc"])
    ['hparam/acc.last', 'loss.last']
    """

    def tag_of(column: str) -> str:
        return column.removeprefix("metric:").rsplit(".", 1)[0]

    by_tag: dict[str, list[str]] = {}
    for column in columns:
        by_tag.setdefault(tag_of(column), []).append(column)
    ordered = list(dict.fromkeys(c for name in declared for c in by_tag.get(name, ())))
    first = set(ordered)
    ordered += [c for c in columns if c not in first and looks_like_metric(tag_of(c))]
    return _distinct(ordered, columns)


def _distinct(ordered: list[str], columns: Mapping[str, pd.Series]) -> list[str]:
    """``ordered`` without each column that holds the same values (:func:`_same`) as an
    earlier kept one of the same reduction.

    Comparing every column with every kept one is quadratic (4,000 tags took
    minutes). Instead each column gets a projection, a fixed positive weighting of its
    finite values: two columns that agree within the tolerance have projections at
    most a bound apart (below), so a column is compared only with the kept columns of
    its reduction and pattern of NaN and infinite values whose projections fall within
    its bound, found by bisection in a sorted list. Exact: the bound never leaves out
    a match.
    """
    if not ordered:
        return []
    matrix = np.column_stack([columns[c].to_numpy(dtype=np.float64) for c in ordered])
    nan, finite = np.isnan(matrix), np.isfinite(matrix)
    pattern = np.concatenate([nan, matrix == np.inf, matrix == -np.inf])  # must agree
    weights = np.random.default_rng(0).uniform(0.5, 1.5, size=(matrix.shape[0], 1))
    clean = np.where(finite, matrix, 0.0)
    projection = (weights * clean).sum(axis=0)
    total = (weights * finite).sum(axis=0)  # sum of the weights of the finite values
    biggest = np.abs(clean).max(axis=0)
    # |x - y| <= atol + rtol |y| everywhere gives |y| <= (|x| + atol) / (1 - rtol), so
    # the projections differ by at most total * (atol + rtol (max|x| + atol) / (1 - rtol));
    # a little more for the rounding of the sums.
    bound = total * (_ATOL + _RTOL * (biggest + _ATOL) / (1 - _RTOL)) * (1 + 1e-9)
    bound += 16 * np.finfo(np.float64).eps * total * biggest * matrix.shape[0]
    kept: dict[tuple[str, bytes], tuple[list[float], list[int]]] = {}
    chosen: list[str] = []
    for i, column in enumerate(ordered):
        if nan[:, i].all():  # an all-NaN column matches nothing
            chosen.append(column)
            continue
        key = (column.rsplit(".", 1)[-1], np.packbits(pattern[:, i]).tobytes())
        points, members = kept.setdefault(key, ([], []))
        p = float(projection[i])
        lo = bisect.bisect_left(points, p - bound[i])
        hi = bisect.bisect_right(points, p + bound[i])
        target = columns[column]
        if any(_same(target, columns[ordered[members[j]]]) for j in range(lo, hi)):
            continue
        at = bisect.bisect_left(points, p)
        points.insert(at, p)
        members.insert(at, i)
        chosen.append(column)
    return chosen
