"""``tbnb.hparams(...)``: build an hparams widget from an experiment, a logdir or a frame.

Examples
--------
>>> import pandas as pd, tbnb
>>> df = pd.DataFrame({"lr": [0.1, 0.01]}, index=pd.Index(["a", "b"], name="run"))
>>> tbnb.hparams(df, importance=False).order
['lr']
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import pandas as pd

from tbnb.analysis.hparams import hparams_frame
from tbnb.widgets.base import check_kwargs
from tbnb.widgets.hparams.prepare import default_axes, default_metric, default_scales
from tbnb.widgets.hparams.widget import HParamsWidget

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["MAX_DEFAULT_AXES", "HParamsOptions", "hparams"]

MAX_DEFAULT_AXES = 20
"""Axes shown by default (hparams first, then metrics)."""


class HParamsOptions(TypedDict, total=False):
    """Keyword arguments of :func:`hparams` beyond the documented ones."""

    metric_tags: Sequence[str]
    parse_run_names: bool
    scales: Mapping[str, str]
    inverted: Sequence[str]
    brushes: Mapping[str, Any]
    page_size: int
    height: int
    importance: bool
    palette: str


def _frame_of(source: Any, metrics: str | Sequence[str], kw: Mapping[str, Any]) -> pd.DataFrame:
    if isinstance(source, pd.DataFrame):
        frame = source
        if "run" in frame.columns and frame.index.name != "run":
            frame = frame.set_index("run")
        return frame
    defaults = (
        metrics in ("last", ("last",), ["last"])
        and not kw.get("metric_tags")
        and not kw.get("parse_run_names")
    )
    if defaults and isinstance(getattr(source, "hparams", None), pd.DataFrame):
        return source.hparams
    if all(hasattr(source, name) for name in ("runs", "scalars", "hparams_values", "run_path")):
        return hparams_frame(
            source,
            metrics=metrics,
            metric_tags=kw.get("metric_tags"),
            parse_run_names=bool(kw.get("parse_run_names", False)),
        )
    raise TypeError(
        "source must be an Experiment, a logdir path or a DataFrame with one row per run; "
        f"got {type(source).__name__}"
    )


def hparams(
    source: Any,
    *,
    metrics: str | Sequence[str] = ("last",),
    columns: Sequence[str] | None = None,
    metric: str | None = None,
    color: str | None = None,
    **kw: Unpack[HParamsOptions],
) -> HParamsWidget:
    """Interactive hparams view of an experiment, a logdir or a frame with one row per run.

    Parameters
    ----------
    source
        An ``Experiment`` (its ``.hparams``), a logdir path/URL, or a DataFrame with one
        row per run (index or ``run`` column), such as ``exp.hparams``.
    metrics
        Reductions of each scalar tag when the frame is built here (``"last"``,
        ``"min"``, ``"max"``, ``"mean"``).
    columns
        Axes of the parallel coordinates, in order; default every hparam column, then
        the metric columns the frame marks as defaults (``frame.attrs["default_metrics"]``,
        as ``exp.hparams`` does), else every metric column (up to 20 axes, the chosen
        metric always included).
    metric
        Metric of the scatter matrix and importance panel; default the first default
        metric, else the first declared one, else a validation/test/accuracy/loss column,
        else the first metric.
    color
        Column colouring the lines (default ``metric``), or ``"run"`` for the run colours
        every widget of the experiment shares.
    **kw
        ``metric_tags``, ``parse_run_names`` (passed to
        :func:`tbnb.analysis.hparams.frame.hparams_frame`),
        ``scales`` (axis -> ``"linear"``/``"log"``/``"quantile"``; by default a positive
        column spanning 100x or more is ``"log"``), ``inverted`` (axes),
        ``brushes`` (initial brushes), ``page_size`` (table rows per page, default 25),
        ``height`` (pixels of the parallel coordinates, default 320), ``importance``
        (compute parameter importance, default True), ``palette`` (``"default"`` or
        ``"colorblind"``). Anything else raises ``TypeError``.

    Examples
    --------
    >>> import pandas as pd, tbnb
    >>> df = pd.DataFrame({"lr": [0.1, 0.01, 0.001], "opt": ["adam", "sgd", "sgd"],
    ...                    "loss.last": [0.5, 0.3, 0.4]},
    ...                   index=pd.Index(["a", "b", "c"], name="run"))
    >>> w = tbnb.hparams(df, importance=False)
    >>> w.brush("opt", ["sgd"])
    >>> list(w.selected.index), w.selected_runs
    (['b', 'c'], ['b', 'c'])
    """
    check_kwargs("hparams", dict(kw), HParamsOptions.__annotations__)
    if isinstance(source, (str, os.PathLike)):
        from tbnb.loader import load

        source = load(os.fspath(source))
    frame = _frame_of(source, metrics, kw)
    if not frame.columns.is_unique:
        raise ValueError("the hparams frame has duplicate column names")
    widget = HParamsWidget(
        page_size=kw.get("page_size", 25),
        height=kw.get("height", 320),
        palette=kw.get("palette", "default"),
    )
    widget._with_importance = bool(kw.get("importance", True))
    source_runs = None if isinstance(source, pd.DataFrame) else getattr(source, "runs", None)
    widget._set_frame(frame, source_runs=source_runs)
    known = list(frame.columns)
    for name, given in (
        ("metric", [metric] if metric else []),
        ("color", [color] if color and color != "run" else []),
        ("columns", list(columns or [])),
        ("inverted", list(kw.get("inverted", []))),
        ("scales", list(kw.get("scales", {}))),
    ):
        unknown = [c for c in given if c not in known]
        if unknown:
            raise ValueError(f"{name}= names unknown column(s) {unknown}; columns are {known}")
    chosen = metric or default_metric(frame, widget._metric_columns)
    if columns is None:
        axes = default_axes(
            frame, widget._hparam_columns, widget._metric_columns, chosen, MAX_DEFAULT_AXES
        )
    else:
        axes = list(columns)
    widget.order = axes
    widget.inverted = list(kw.get("inverted", []))
    widget.scales = {**default_scales(frame, list(frame.columns)), **dict(kw.get("scales", {}))}
    widget.color_by = color or chosen or (axes[0] if axes else "")
    widget.brushes = dict(kw.get("brushes", {}))
    widget._on_brushes()
    widget.metric = chosen
    return widget
