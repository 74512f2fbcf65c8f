"""PR curves as tidy tables, ROC curves and areas under both (layer: analysis).

``exp.pr_curves`` keeps one row per (run, tag, step) with the plugin's six arrays (the
compact form: 20 runs x 10 tags x 200 steps x 127 thresholds would be 5M rows in long
form). This module turns it into what TensorBoard's PR-curve plugin serves and into
what TensorBoard never computed (its issue #2127, tensorboardX #536):

- :func:`pr_table`: the tidy frame, one row per threshold, exactly the points
  TensorBoard's ``pr_curves`` route returns (the tail of thresholds where nothing is
  predicted positive, ``TP + FP == 0``, is trimmed as it trims it; precision and recall
  are the values the writer stored). Counts stay float64: weighted curves keep their
  fractions, which TensorBoard truncates to integers.
- :func:`curve_arrays`: every curve of a frame as ``(curves, thresholds)`` arrays.
- :func:`roc_points`: TPR against FPR at every threshold, from the counts.
- :func:`curve_areas` and :func:`auc_table`: per curve, three areas from the counts:

  ``average_precision``
      sum over thresholds of (R_k - R_k+1) * P_k, the step-wise area scikit-learn's
      ``average_precision_score`` computes (no interpolation: it never overstates);
      this is what the widget shows as the PR-AUC.
  ``pr_auc``
      the trapezoid under the (recall, precision) points, ending at (0, 1) as
      scikit-learn's ``precision_recall_curve`` does (its ``auc(recall, precision)``).
  ``roc_auc``
      the trapezoid under (FPR, TPR) from (1, 1) to (0, 0): ``roc_auc_score``.

  Precision and recall are recomputed from the counts in float64 (the stored ones are
  float32). When the predictions fall on the writer's threshold grid (one bucket per
  distinct score), the three equal scikit-learn's values on the raw labels and
  predictions; otherwise they are the areas of the bucketed curve (127 buckets by
  default in torch, which caps ``num_thresholds`` at 127).
- :func:`curve_problems`: what is wrong with a curve (counts not finite, negative,
  growing with the threshold, no positives), each message naming run, tag and step.

Examples
--------
>>> import numpy as np, pandas as pd
>>> tp, fp = np.array([2.0, 1, 0]), np.array([2.0, 0, 0])
>>> frame = pd.DataFrame({"run": ["a"], "tag": ["pr"], "step": [1], "wall_time": [0.0],
...     "thresholds": [np.linspace(0, 1, 3)], "precision": [tp / np.maximum(tp + fp, 1e-7)],
...     "recall": [tp / 2], "true_positives": [tp], "false_positives": [fp],
...     "true_negatives": [2 - fp], "false_negatives": [2 - tp]})
>>> pr_table(frame)[["threshold", "precision", "recall"]].to_numpy().tolist()
[[0.0, 0.5, 1.0], [0.5, 1.0, 0.5]]
>>> auc_table(frame)[["average_precision", "roc_auc"]].to_numpy().tolist()
[[0.75, 0.75]]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from tbnb.analysis.pr_areas import curve_stats, problem_texts

__all__ = [
    "AREAS",
    "COUNTS",
    "CURVE_ROWS",
    "auc_table",
    "curve_areas",
    "curve_arrays",
    "curve_problems",
    "frame_stats",
    "kept_lengths",
    "pr_table",
    "roc_points",
    "stats_table",
]

COUNTS = ("true_positives", "false_positives", "true_negatives", "false_negatives")
"""The count rows of the plugin tensor."""

CURVE_ROWS = (*COUNTS, "precision", "recall")
"""The six rows of a curve, in the order :func:`curve_arrays` stacks them."""

AREAS = ("average_precision", "pr_auc", "roc_auc")
"""The areas :func:`curve_areas` computes."""

Floats = npt.NDArray[np.float64]


def kept_lengths(tp: Floats, fp: Floats) -> npt.NDArray[np.int64]:
    """How many thresholds of each curve TensorBoard serves: up to the last one where
    ``int(TP) + int(FP) != 0`` (at least one).

    Examples
    --------
    >>> kept_lengths(np.array([[3.0, 1, 0, 0]]), np.array([[2.0, 0, 0, 0]])).tolist()
    [2]
    """
    with np.errstate(invalid="ignore"):
        predicted = np.trunc(tp) + np.trunc(fp)
    nonzero = ~(predicted == 0)  # NaN counts as non-zero, as int(NaN) never equals 0
    n = tp.shape[-1]
    last = n - np.argmax(nonzero[..., ::-1], axis=-1)
    return np.where(nonzero.any(axis=-1), last, 1).astype(np.int64)


def curve_arrays(frame: pd.DataFrame) -> tuple[Floats, Floats]:
    """``(curves, thresholds)`` of every row of a ``pr_curves`` frame.

    ``curves`` has shape ``[rows, 6, n]`` in :data:`CURVE_ROWS` order; rows whose
    curves have fewer thresholds than the longest are padded with NaN (TP + FP = NaN is
    never trimmed, so padding is cut by the callers through each row's own length).

    Examples
    --------
    >>> frame = pd.DataFrame({name: [np.ones(3)] for name in ("thresholds", *CURVE_ROWS)})
    >>> curves, thresholds = curve_arrays(frame)
    >>> curves.shape, thresholds.shape
    ((1, 6, 3), (1, 3))
    """
    rows = len(frame)
    thresholds = list(frame["thresholds"]) if rows else []
    n = max((len(t) for t in thresholds), default=0)
    curves = np.full((rows, len(CURVE_ROWS), n), np.nan)
    grid = np.full((rows, n), np.nan)
    lengths = np.fromiter((len(t) for t in thresholds), dtype=np.int64, count=rows)
    for size in np.unique(lengths):
        where = np.flatnonzero(lengths == size)
        if size == 0:
            continue
        for k, name in enumerate(CURVE_ROWS):
            column = frame[name].to_numpy()
            curves[where, k, :size] = np.stack([column[i] for i in where])
        grid[where, :size] = np.stack([thresholds[i] for i in where])
    return curves, grid


def pr_table(frame: pd.DataFrame, *, trim: bool = True) -> pd.DataFrame:
    """The tidy PR-curve frame: one row per (run, tag, step, threshold).

    Columns: run, tag, step, wall_time, threshold, precision, recall, true_positives,
    false_positives, true_negatives, false_negatives. With ``trim`` (default) each
    curve ends where TensorBoard's ``pr_curves`` route ends it (see
    :func:`kept_lengths`), so the frame holds exactly the points TensorBoard serves.

    Examples
    --------
    >>> frame = pd.DataFrame({"run": ["a"], "tag": ["pr"], "step": [0], "wall_time": [1.0],
    ...     **{name: [np.array([1.0, 0.0])] for name in ("thresholds", *CURVE_ROWS)}})
    >>> len(pr_table(frame)), len(pr_table(frame, trim=False))
    (1, 2)
    """
    columns = ["run", "tag", "step", "wall_time", "threshold", "precision", "recall", *COUNTS]
    if len(frame) == 0:
        return pd.DataFrame({c: pd.Series(dtype=np.float64) for c in columns}).astype(
            {"run": object, "tag": object, "step": np.int64}
        )
    sizes = np.fromiter((len(t) for t in frame["thresholds"]), np.int64, count=len(frame))
    row_of = np.repeat(np.arange(len(frame)), sizes)
    position = np.arange(row_of.size) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    keep = (position < frame_stats(frame)["kept"][row_of]) if trim else np.ones(row_of.size, bool)
    taken = np.flatnonzero(keep)
    rows = row_of[taken]
    out: dict[str, Any] = {}
    for name in ("run", "tag"):
        column = frame[name]
        if isinstance(column.dtype, pd.CategoricalDtype):  # take the codes, not the labels
            out[name] = pd.Categorical.from_codes(
                column.cat.codes.to_numpy()[rows], dtype=column.dtype
            )
        else:
            out[name] = column.to_numpy()[rows]
    out["step"] = frame["step"].to_numpy()[rows].astype(np.int64)
    out["wall_time"] = frame["wall_time"].to_numpy(dtype=np.float64)[rows]
    for name, source in (("threshold", "thresholds"), *((n, n) for n in CURVE_ROWS)):
        flat = np.concatenate(list(frame[source].to_numpy()))
        out[name] = flat[taken].astype(np.float64)
    return pd.DataFrame(out, columns=columns)


def _ratio(num: Floats, den: Floats) -> Floats:
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def roc_points(tp: Floats, fp: Floats, tn: Floats, fn: Floats) -> tuple[Floats, Floats]:
    """``(fpr, tpr)`` at every threshold: FP / (FP + TN) and TP / (TP + FN) (NaN when
    a denominator is 0).

    Examples
    --------
    >>> fpr, tpr = roc_points(np.array([2.0, 1]), np.array([2.0, 0]), np.array([0.0, 2]),
    ...                       np.array([0.0, 1]))
    >>> fpr.tolist(), tpr.tolist()
    ([1.0, 0.0], [1.0, 0.5])
    """
    return _ratio(fp, fp + tn), _ratio(tp, tp + fn)


def curve_areas(curves: Floats, lengths: npt.NDArray[np.int64] | None = None) -> dict[str, Floats]:
    """Average precision, PR-AUC (trapezoid) and ROC-AUC of curves ``[m, 6, n]``.

    ``lengths`` gives each curve's number of thresholds (default: all ``n``). Points
    are in threshold order (ascending, so recall and FPR go down). See the module
    docstring for the definitions; a curve without positives (TP + FN == 0) has no
    recall and gets NaN everywhere, one without negatives has no ROC-AUC. Computed in
    one pass (:func:`tbnb.analysis.pr_areas.curve_stats`).

    Examples
    --------
    >>> tp, fp = np.array([3.0, 2, 1, 0]), np.array([3.0, 1, 0, 0])
    >>> curve = np.stack([tp, fp, 3 - fp, 3 - tp, tp * 0, tp * 0])[None]
    >>> {k: round(float(v[0]), 4) for k, v in curve_areas(curve).items()}
    {'average_precision': 0.7222, 'pr_auc': 0.8056, 'roc_auc': 0.7222}
    """
    m, _, n = curves.shape
    size = np.full(m, n, np.int64) if lengths is None else np.asarray(lengths, np.int64)
    stats = curve_stats(curves[:, 0], curves[:, 1], curves[:, 2], curves[:, 3], size)
    return {name: stats[name].astype(np.float64) for name in AREAS}


def frame_stats(frame: pd.DataFrame, *, chunk: int = 4096) -> dict[str, npt.NDArray[Any]]:
    """:func:`~tbnb.analysis.pr_areas.curve_stats` of every row of a ``pr_curves`` frame
    (areas, positives, negatives, TensorBoard's length ``kept``, problem ``flags``),
    ``chunk`` rows at a time (the stacked counts stay small).

    Examples
    --------
    >>> tp = np.array([2.0, 1, 0])
    >>> frame = pd.DataFrame({"thresholds": [np.linspace(0, 1, 3)], "true_positives": [tp],
    ...     "false_positives": [tp], "true_negatives": [2 - tp], "false_negatives": [2 - tp]})
    >>> stats = frame_stats(frame)
    >>> float(stats["roc_auc"][0]), int(stats["kept"][0])
    (0.5, 2)
    """
    sizes = np.fromiter((len(t) for t in frame["thresholds"]), np.int64, count=len(frame))
    parts = []
    columns = [frame[name].to_numpy() for name in COUNTS]
    for start in range(0, len(frame), chunk):
        stop = min(start + chunk, len(frame))
        block = sizes[start:stop]
        width = int(block.max(initial=0))
        tp, fp, tn, fn = (_stacked(column[start:stop], block, width) for column in columns)
        parts.append(curve_stats(tp, fp, tn, fn, block))
    if not parts:
        empty = np.zeros((0, 0))
        return curve_stats(empty, empty, empty, empty, np.zeros(0, np.int64))
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


def _stacked(
    arrays: npt.NDArray[Any], sizes: npt.NDArray[np.int64], width: int
) -> npt.NDArray[np.floating[Any]]:
    """Rows stacked into ``[len, width]`` (their own dtype when all share one); ragged
    ones padded with zeros."""
    if len(arrays) and bool((sizes == width).all()):
        flat = np.concatenate(list(arrays))  # much cheaper per row than np.stack
        if flat.dtype.kind == "f":
            stacked: npt.NDArray[np.floating[Any]] = flat.reshape(len(arrays), width)
            return stacked
    out = np.zeros((len(arrays), width))
    for i, a in enumerate(arrays):
        out[i, : len(a)] = a
    return out


def auc_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per curve: run, tag, step, wall_time, average_precision, pr_auc,
    roc_auc, positives, negatives (see :func:`curve_areas`).

    Examples
    --------
    >>> tp = np.array([2.0, 2, 0])
    >>> frame = pd.DataFrame({"run": ["a"], "tag": ["pr"], "step": [3], "wall_time": [0.0],
    ...     "thresholds": [np.linspace(0, 1, 3)], "precision": [tp / 4], "recall": [tp / 2],
    ...     "true_positives": [tp], "false_positives": [np.array([2.0, 0, 0])],
    ...     "true_negatives": [np.array([0.0, 2, 2])], "false_negatives": [2 - tp]})
    >>> auc_table(frame).loc[0, ["average_precision", "roc_auc", "positives"]].tolist()
    [1.0, 1.0, 2.0]
    """
    return stats_table(frame, frame_stats(frame))


def stats_table(frame: pd.DataFrame, stats: dict[str, npt.NDArray[Any]]) -> pd.DataFrame:
    """:func:`auc_table` from stats :func:`frame_stats` computed already."""
    out = frame[["run", "tag", "step", "wall_time"]].reset_index(drop=True)
    for name in (*AREAS, "positives", "negatives"):
        out[name] = stats[name]
    return out


def curve_problems(
    frame: pd.DataFrame, *, limit: int = 20, stats: dict[str, npt.NDArray[Any]] | None = None
) -> list[str]:
    """What is wrong with the curves of a ``pr_curves`` frame, one message per curve.

    Checked: counts that are not finite or negative, TP or FP growing with the threshold
    (a curve's counts are of predictions at or above it), positives (TP + FN) or
    negatives (FP + TN) changing across thresholds, and curves without positives (no
    recall: areas undefined) or without negatives (no ROC-AUC). At most ``limit``
    messages, then a count of the rest. ``stats``: :func:`frame_stats` of ``frame``, if
    computed already.

    Examples
    --------
    >>> ones, tp = np.ones(2), np.array([1.0, 2.0])
    >>> frame = pd.DataFrame({"run": ["a"], "tag": ["pr"], "step": [4], "wall_time": [0.0],
    ...     "thresholds": [ones], "precision": [ones], "recall": [ones],
    ...     "true_positives": [tp], "false_positives": [ones], "true_negatives": [ones],
    ...     "false_negatives": [2 - tp]})
    >>> curve_problems(frame)
    ["run 'a' tag 'pr' step 4: true positives grow with the threshold"]
    """
    flags = (stats if stats is not None else frame_stats(frame))["flags"]
    bad = np.flatnonzero(flags)
    messages = []
    for i in bad[:limit].tolist():
        row = frame.iloc[i]
        messages.append(
            f"run {str(row['run'])!r} tag {str(row['tag'])!r} step "
            f"{int(row['step'])}: {'; '.join(problem_texts(int(flags[i])))}"
        )
    if len(bad) > limit:
        rest = len(bad) - limit
        messages.append(f"... and {rest} more curve{'s' * (rest > 1)}")
    return messages
