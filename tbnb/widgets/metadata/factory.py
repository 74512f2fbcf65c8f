"""``tbnb.runs(...)``: the run information panel of an experiment, a logdir or ``exp.info``.

Examples
--------
>>> import tbnb
>>> exp = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
>>> w = tbnb.runs(exp, selected=["lr=0.001,seed=0", "lr=0.01,seed=0"])
>>> w.diff.loc["hparams"].index.tolist()
['lr']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.metadata.widget import RunsWidget
from tbnb.widgets.source import source_of

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["RunsOptions", "runs"]


class RunsOptions(TypedDict, total=False):
    """Keyword arguments of :func:`runs` beyond the documented ones."""

    sections: Sequence[str]
    only_differences: bool
    table_filter: str
    palette: str
    page_size: int


def runs(
    source: Any,
    *,
    selected: Sequence[str] | None = None,
    refresh: float | None = None,
    **kw: Unpack[RunsOptions],
) -> RunsWidget:
    """Run information: a sortable, filterable table of runs, and runs side by side.

    Parameters
    ----------
    source
        An ``Experiment`` (``exp.info``), a logdir path/URL, or a frame like ``exp.info``
        (one row per run, ``(section, key)`` columns).
    selected
        Runs put side by side at first (two or more: their differences).
    refresh
        Reload the experiment every so many seconds.
    **kw
        ``sections`` (columns of the table: ``"run"``, ``"counts"``, ``"hparams"``,
        ``"config"``, ``"environment"``, ``"run_metadata"``, ``"graphs"``),
        ``only_differences`` (default True), ``table_filter`` (regex), ``palette``,
        ``page_size``. Anything else raises ``TypeError``.
    """
    check_kwargs("runs", dict(kw), RunsOptions.__annotations__)
    traits: dict[str, Any] = dict(kw)
    if "sections" in traits:
        traits["sections"] = list(traits["sections"])
    return RunsWidget(
        source=source_of(source, "info", expected="a frame like exp.info"),
        selected=selected,
        refresh=refresh,
        **traits,
    )
