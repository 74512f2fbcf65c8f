"""``tbnb.hparams(...)``: build an hparams widget from an experiment, a logdir or a frame.

Examples
--------
>>> import pandas as pd, tbnb
>>> df = pd.DataFrame({"lr": [0.1, 0.01]}, index=pd.Index(["a", "b"], name="run"))
>>> tbnb.hparams(df, importance=False).order
['lr']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

import pandas as pd

from tbnb.analysis.hparams import hparams_frame
from tbnb.widgets.base import check_kwargs
from tbnb.widgets.hparams.widget import HParamsWidget
from tbnb.widgets.source import source_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["HParamsOptions", "hparams"]


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


def _table_of(experiment: Any, metrics: str | Sequence[str], kw: Mapping[str, Any]) -> Any:
    """The hparams table of an experiment: ``exp.hparams``, or built with other metrics."""
    defaults = (
        metrics in ("last", ("last",), ["last"])
        and not kw.get("metric_tags")
        and not kw.get("parse_run_names")
    )
    if defaults and isinstance(getattr(experiment, "hparams", None), pd.DataFrame):
        return experiment.hparams
    if all(hasattr(experiment, name) for name in ("runs", "scalars", "hparams_values", "run_path")):
        return hparams_frame(
            experiment,
            metrics=metrics,
            metric_tags=kw.get("metric_tags"),
            parse_run_names=bool(kw.get("parse_run_names", False)),
        )
    return None


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
    given = source_of(
        source,
        "hparams",
        expected="a DataFrame with one row per run",
        read=lambda experiment: _table_of(experiment, metrics, kw),
    )
    frame = given.data
    if given.experiment is None and "run" in frame.columns and frame.index.name != "run":
        frame = frame.set_index("run")
    options = {k: kw[k] for k in ("page_size", "height", "palette") if k in kw}
    return HParamsWidget(
        frame=frame,
        source_runs=given.runs,
        importance=bool(kw.get("importance", True)),
        columns=columns,
        metric=metric,
        color=color,
        inverted=kw.get("inverted", ()),
        scales=kw.get("scales", {}),
        brushes=kw.get("brushes", {}),
        **options,
    )
