"""Pure preparation of the PR-curves view: the curve index, chart grid and wire payload.

:class:`CurveIndex` sorts a ``pr_curves`` frame into series (run, tag), each one curve
per step (the last one written when a step repeats, as the step slider shows one), and
computes every curve's areas (:func:`tbnb.analysis.pr_curves.auc_table`). The payload
sends, per series, every step with its areas (the AUC-over-steps charts and the table
need nothing else) and the curves themselves for an evenly spaced sample of steps
(always the latest), within a budget of curves; the browser asks for any other step's
curve with a ``"curves"`` request.

Examples
--------
>>> groups_of(["pr/cat", "pr/dog", "red/pr_curves", "green/pr_curves", "loss"]).values()
dict_values(['pr', 'pr', 'pr_curves', 'pr_curves', ''])
>>> sample_indices(10, 4).tolist()
[0, 3, 6, 9]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
import pandas as pd

from tbnb.analysis.pr_curves import AREAS, CURVE_ROWS, frame_stats, stats_table
from tbnb.widgets.ordering import natural_key

__all__ = [
    "CurveIndex",
    "chart_specs",
    "check_frame",
    "curve_block",
    "groups_of",
    "names_of",
    "nearest_index",
    "payload",
    "sample_indices",
]

REQUIRED = ("run", "tag", "step", "wall_time", "thresholds", *CURVE_ROWS)


def check_frame(frame: pd.DataFrame) -> None:
    """Raise ``ValueError`` when a frame is not a ``pr_curves`` frame.

    Examples
    --------
    >>> check_frame(pd.DataFrame(columns=["run", "tag", "step"]))
    Traceback (most recent call last):
    ...
    ValueError: pr_curves frame lacks column(s) ['false_negatives', 'false_positives', \
'precision', 'recall', 'thresholds', 'true_negatives', 'true_positives', 'wall_time']
    """
    missing = sorted(set(REQUIRED).difference(frame.columns))
    if missing:
        raise ValueError(f"pr_curves frame lacks column(s) {missing}")


def names_of(column: pd.Series) -> npt.NDArray[np.object_]:
    """A run or tag column as an array of ``str`` (a categorical by its codes, at once).

    Examples
    --------
    >>> names_of(pd.Series(["b", "a", "b"], dtype="category")).tolist()
    ['b', 'a', 'b']
    """
    if isinstance(column.dtype, pd.CategoricalDtype):
        labels = np.asarray([str(c) for c in column.cat.categories] + [""], dtype=object)
        out: npt.NDArray[np.object_] = labels[column.cat.codes.to_numpy()]
        return out
    return np.asarray([str(v) for v in column], dtype=object)


def groups_of(tags: Sequence[str]) -> dict[str, str]:
    """The grid group of each tag: one tag per class, grouped.

    A tag's first path component when another tag shares it (``pr/cat``, ``pr/dog``),
    else its last one when another tag shares that (TensorBoard's demo writes
    ``red/pr_curves``, ``green/pr_curves``), else no group (``""``).
    """
    parts = {tag: tag.split("/") for tag in tags}
    first = Counter(p[0] for p in parts.values() if len(p) > 1)
    last = Counter(p[-1] for p in parts.values() if len(p) > 1)
    out = {}
    for tag, p in parts.items():
        if len(p) > 1 and first[p[0]] > 1:
            out[tag] = p[0]
        elif len(p) > 1 and last[p[-1]] > 1:
            out[tag] = p[-1]
        else:
            out[tag] = ""
    return out


def chart_specs(tags: Sequence[str]) -> list[dict[str, Any]]:
    """One chart per tag, ``{"key", "tag", "group"}``, grouped (groups in natural order of
    their first tag, ungrouped tags last).

    Examples
    --------
    >>> [(c["tag"], c["group"]) for c in chart_specs(["b/x", "a", "b/y"])]
    [('b/x', 'b'), ('b/y', 'b'), ('a', '')]
    """
    groups = groups_of(tags)
    ordered = sorted(tags, key=natural_key)
    rank: dict[str, int] = {}
    for tag in ordered:
        rank.setdefault(groups[tag], len(rank))
    ordered.sort(key=lambda t: (groups[t] == "", rank[groups[t]]))
    return [{"key": t, "tag": t, "group": groups[t]} for t in ordered]


def sample_indices(n: int, k: int) -> npt.NDArray[np.int64]:
    """``k`` of ``range(n)`` evenly spaced, the first and the last always in (all when
    ``k >= n``)."""
    if k >= n:
        return np.arange(n, dtype=np.int64)
    if k <= 1:
        return np.array([n - 1], dtype=np.int64)[: max(n, 0)]
    return np.unique(np.round(np.linspace(0, n - 1, k)).astype(np.int64))


def nearest_index(sorted_steps: npt.NDArray[Any], step: float) -> int:
    """Index of the step nearest to ``step`` (the lower one on a tie; -1 when empty): the
    rule the browser's ``nearestSorted`` follows.

    Examples
    --------
    >>> nearest_index(np.array([0, 10, 20]), 15), nearest_index(np.array([0, 10]), 4)
    (1, 0)
    """
    n = len(sorted_steps)
    if n == 0:
        return -1
    i = int(np.searchsorted(sorted_steps, step, side="left"))
    i = min(i, n - 1)
    if i > 0 and abs(sorted_steps[i - 1] - step) <= abs(sorted_steps[i] - step):
        return i - 1
    return i


@dataclass
class CurveIndex:
    """A ``pr_curves`` frame as series: rows sorted by (run, tag, step), one per step.

    ``bounds[i]:bounds[i + 1]`` are the rows of series ``keys[i]``; ``areas`` holds each
    row's areas, positives and negatives; ``kept`` each row's TensorBoard length and
    ``flags`` its problems (:mod:`tbnb.analysis.pr_areas`).
    """

    frame: pd.DataFrame
    keys: list[tuple[str, str]]
    bounds: npt.NDArray[np.int64]
    areas: pd.DataFrame
    kept: npt.NDArray[np.int64]
    flags: npt.NDArray[np.int64]

    @classmethod
    def build(cls, frame: pd.DataFrame, runs: Sequence[str]) -> CurveIndex:
        """Index the rows of ``runs`` (in this order) of ``frame``."""
        run, tag = names_of(frame["run"]), names_of(frame["tag"])
        keep = np.isin(run, list(runs))
        order_of = {r: i for i, r in enumerate(runs)}
        tags = sorted(set(tag[keep]), key=natural_key)
        tag_of = {t: i for i, t in enumerate(tags)}
        rows = np.flatnonzero(keep)
        run_code = np.fromiter((order_of[r] for r in run[rows]), np.int64, len(rows))
        tag_code = np.fromiter((tag_of[t] for t in tag[rows]), np.int64, len(rows))
        step = frame["step"].to_numpy()[rows]
        order = np.lexsort((np.arange(len(rows)), step, tag_code, run_code))
        rows, run_code, tag_code, step = rows[order], run_code[order], tag_code[order], step[order]
        # one curve per (run, tag, step): the last written
        last = (
            np.r_[
                (run_code[1:] != run_code[:-1])
                | (tag_code[1:] != tag_code[:-1])
                | (step[1:] != step[:-1]),
                True,
            ]
            if len(rows)
            else np.zeros(0, bool)
        )
        rows, run_code, tag_code = rows[last], run_code[last], tag_code[last]
        sorted_frame = frame.iloc[rows].reset_index(drop=True)
        starts = (
            np.flatnonzero(
                np.r_[True, (run_code[1:] != run_code[:-1]) | (tag_code[1:] != tag_code[:-1])]
            )
            if len(rows)
            else (np.zeros(0, np.int64))
        )
        bounds = np.r_[starts, len(rows)].astype(np.int64)
        keys = [(runs[int(run_code[s])], tags[int(tag_code[s])]) for s in starts]
        stats = frame_stats(sorted_frame)
        return cls(
            sorted_frame,
            keys,
            bounds,
            stats_table(sorted_frame, stats),
            stats["kept"],
            stats["flags"],
        )

    def rows_of(self, i: int) -> slice:
        """Rows of series ``i``."""
        return slice(int(self.bounds[i]), int(self.bounds[i + 1]))


def curve_block(index: CurveIndex, rows: Sequence[int]) -> dict[str, Any]:
    """The curves of ``rows`` as the browser takes them, as TensorBoard serves them
    (trimmed, see ``kept``): per curve its offset into the point arrays and its
    threshold spacing; per point TP, FP, TN, FN, precision and recall.

    Counts travel as uint16 when every one is a whole number below 65,536 (half the
    bytes of float32), else float32. Precision and recall are left out (``derived``)
    when they are exactly what every writer stores, ``float32(TP / max(1e-7, TP + FP))``
    and ``float32(TP / max(1e-7, TP + FN))``: the browser computes the same float32
    values (``Math.fround``). A curve from ``add_pr_curve_raw`` with other values sends
    them as they are.

    Examples
    --------
    >>> tp = np.array([2.0, 1.0, 0.0], np.float32)
    >>> frame = pd.DataFrame({"run": ["a"], "tag": ["pr"], "step": [0], "wall_time": [0.0],
    ...     "thresholds": [np.linspace(0, 1, 3)], "true_positives": [tp],
    ...     "false_positives": [tp], "true_negatives": [2 - tp], "false_negatives": [2 - tp],
    ...     "precision": [np.float32(tp / np.maximum(1e-7, 2 * tp))],
    ...     "recall": [np.float32(tp / 2)]})
    >>> block = curve_block(CurveIndex.build(frame, ["a"]), [0])
    >>> block["offset"].tolist(), block["true_positives"].dtype.name, block["derived"]
    ([0, 2], 'uint16', True)
    """
    frame = index.frame
    lengths = index.kept[list(rows)] if len(rows) else np.zeros(0, np.int64)
    offset = np.r_[0, np.cumsum(lengths)].astype(np.int32)
    out: dict[str, Any] = {"rows": np.asarray(rows, dtype=np.int32), "offset": offset}
    spacing = np.zeros(len(rows))
    grids = frame["thresholds"].to_numpy()
    for k, i in enumerate(rows):
        grid = grids[int(i)]
        spacing[k] = grid[1] - grid[0] if len(grid) > 1 else 0.0
    out["spacing"] = spacing
    values = {}
    for name in CURVE_ROWS:
        column = frame[name].to_numpy()
        parts = [
            np.asarray(column[int(i)][:n], dtype=np.float32)
            for i, n in zip(rows, lengths, strict=True)
        ]
        values[name] = np.concatenate(parts) if parts else np.zeros(0, np.float32)
    counts = np.stack([values[name] for name in CURVE_ROWS[:4]]) if len(rows) else np.zeros(0)
    small = bool(np.all((counts >= 0) & (counts < 65536) & (counts == np.round(counts))))
    for name in CURVE_ROWS[:4]:
        out[name] = values[name].astype(np.uint16) if small else values[name]
    tp, fp, fn = (
        values[n].astype(np.float64)
        for n in ("true_positives", "false_positives", "false_negatives")
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        derived = np.array_equal(
            np.float32(tp / np.maximum(1e-7, tp + fp)), values["precision"]
        ) and np.array_equal(np.float32(tp / np.maximum(1e-7, tp + fn)), values["recall"])
    out["derived"] = bool(derived)
    if not derived:
        out["precision"], out["recall"] = values["precision"], values["recall"]
    return out


def payload(index: CurveIndex, runs: list[str], *, max_curves: int) -> dict[str, Any]:
    """The ``_data`` trait: series, every step's areas, and a sample of the curves.

    Each series sends the curves of ``max(1, max_curves // series)`` evenly spaced steps
    (the latest always); ``steps["curve"]`` is the sent curve of a step, or -1.
    """
    tags = sorted({t for _, t in index.keys}, key=natural_key)
    run_of = {r: i for i, r in enumerate(runs)}
    tag_of = {t: i for i, t in enumerate(tags)}
    n_series = len(index.keys)
    per = max(1, max_curves // max(n_series, 1))
    sent: list[int] = []
    for i in range(n_series):
        rows = index.rows_of(i)
        picked = sample_indices(rows.stop - rows.start, per) + rows.start
        sent.extend(int(r) for r in picked)
    curve = np.full(len(index.frame), -1, np.int32)
    curve[sent] = np.arange(len(sent), dtype=np.int32)
    step = index.frame["step"].to_numpy()
    fits = step.size == 0 or (step.min() >= -(2**31) and step.max() < 2**31)
    steps: dict[str, Any] = {
        "step": step.astype(np.int32 if fits else np.float64),
        "wall": index.frame["wall_time"].to_numpy(np.float64),
        "curve": curve,
    }
    for name in (*AREAS, "positives", "negatives"):
        steps[name] = index.areas[name].to_numpy(np.float64).astype(np.float32)
    return {
        "runs": runs,
        "tags": tags,
        "series": {
            "run": np.asarray([run_of[r] for r, _ in index.keys], np.int32),
            "tag": np.asarray([tag_of[t] for _, t in index.keys], np.int32),
            "offset": index.bounds.astype(np.int32),
        },
        "steps": steps,
        "curves": curve_block(index, sent),
        "sent": len(sent),
        "total": len(index.frame),
    }
