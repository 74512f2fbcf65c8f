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

import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import pandas as pd

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.pr_curves.widget import PrCurvesWidget

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


def _frame_of(source: Any) -> tuple[pd.DataFrame, Any, str]:
    """The ``pr_curves`` frame of ``source``, the object to reload (or None), and why it
    is empty (or "")."""
    if isinstance(source, pd.DataFrame):
        return source, None, "the frame has no rows"
    if isinstance(source, (str, os.PathLike)):
        from tbnb.loader import load

        source = load(os.fspath(source))
    frame = getattr(source, "pr_curves", None)
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(
            "source must be an Experiment, a pr_curves DataFrame (exp.pr_curves) or a logdir "
            f"path; got {type(source).__name__}"
        )
    why = getattr(source, "empty_reason", None) or (
        f"no PR curves in {getattr(source, 'logdir', 'the experiment')!r} (written by "
        "add_pr_curve, add_pr_curve_raw or a TF pr_curve summary)"
    )
    reloadable = source if callable(getattr(source, "reload", None)) else None
    return frame, reloadable, why


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
    frame, reloadable, why = _frame_of(source)
    widget = PrCurvesWidget(
        view=view,
        step=step,
        height=height,
        run_filter=kw.get("run_filter", ""),
        tag_filter=kw.get("tag_filter", ""),
        max_curves=kw.get("max_curves", 2000),
        palette=kw.get("palette", "default"),
        chart_steps=dict(kw.get("chart_steps", {})),
    )
    for name in ("run_filter", "tag_filter"):
        pattern = getattr(widget, name)
        try:
            re.compile(pattern)
        except re.error as err:
            raise ValueError(f"{name}= is not a valid regex: {pattern!r} ({err})") from err
    widget._build = {"runs": runs, "tags": tags}
    if reloadable is not None:
        widget.follow(reloadable)
    widget._set_frame(frame, initial=True)
    if not widget.charts:
        widget.empty_reason = (
            why if len(frame) == 0 else (f"no PR curves left after runs={runs!r}, tags={tags!r}")
        )
    if refresh is not None:
        if reloadable is None:
            raise ValueError("refresh= needs a source with .reload() (an Experiment or a logdir)")
        widget.start_refresh(float(refresh))
    return widget
