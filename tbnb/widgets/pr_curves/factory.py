"""``tbnb.pr_curves(...)``: build a PR-curves widget from an experiment, a frame or a logdir.

Examples
--------
>>> import numpy as np, pandas as pd, tbnb
>>> tp, fp = np.array([4.0, 3, 1]), np.array([4.0, 1, 0])
>>> frame = pd.DataFrame({"run": "a", "tag": "pr", "step": [0], "wall_time": [0.0],
...     "thresholds": [np.linspace(0, 1, 3)], "precision": [tp / (tp + fp)],
...     "recall": [tp / 4], "true_positives": [tp], "false_positives": [fp],
...     "true_negatives": [4 - fp], "false_negatives": [4 - tp]})
>>> w = tbnb.pr_curves(frame)
>>> w.shown_auc[["run", "tag", "step", "average_precision"]].to_dict("records")
[{'run': 'a', 'tag': 'pr', 'step': 0, 'average_precision': 0.75}]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.pr_curves.widget import PrCurvesWidget
from tbnb.widgets.source import source_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["PrCurvesOptions", "pr_curves"]


class PrCurvesOptions(TypedDict, total=False):
    """Keyword arguments of :func:`pr_curves` beyond the documented ones."""

    run_filter: str
    tag_filter: str
    max_curves: int
    palette: str
    chart_steps: dict[str, int]


def pr_curves(
    source: Any,
    *,
    view: str = "pr",
    step: int | None = None,
    runs: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    refresh: float | None = None,
    height: int = 260,
    **kw: Unpack[PrCurvesOptions],
) -> PrCurvesWidget:
    """PR and ROC curves of an experiment, a ``pr_curves`` frame or a logdir.

    One chart per tag (tags of one class family, ``pr/cat``, ``pr/dog``, in one grid),
    every selected run overlaid at the chosen step; the legend and a table give each
    run's average precision, PR-AUC and ROC-AUC at that step, and a small chart under
    each curve shows the area over all steps. Hovering shows the nearest threshold's
    threshold, precision, recall, TP, FP, TN and FN.

    Parameters
    ----------
    source
        An ``Experiment`` (its ``pr_curves`` frame, followed on reloads), a frame like
        ``exp.pr_curves``, or a logdir path/URL.
    view
        ``"pr"`` (precision against recall) or ``"roc"`` (TPR against FPR).
    step
        Show every chart at this step (each run at its nearest); default the latest.
    runs, tags
        Keep only these: a case-insensitive regex or a list of names.
    refresh
        Reload the source every so many seconds.
    height
        Chart height in pixels.
    **kw
        ``run_filter``, ``tag_filter`` (regexes the browser applies), ``max_curves``
        (curves sent with the widget, default 2000: an evenly spaced sample of each
        series' steps, the latest always; a live kernel sends any other on request),
        ``palette`` (``"default"`` or ``"colorblind"``), ``chart_steps`` (chart ->
        step). Anything else raises ``TypeError``.
    """
    check_kwargs("pr_curves", dict(kw), PrCurvesOptions.__annotations__)
    traits: dict[str, Any] = dict(kw)
    traits["chart_steps"] = dict(kw.get("chart_steps", {}))
    return PrCurvesWidget(
        source=source_of(source, "pr_curves", expected="a pr_curves DataFrame (exp.pr_curves)"),
        runs=runs,
        tags=tags,
        refresh=refresh,
        view=view,
        step=step,
        height=height,
        **traits,
    )
