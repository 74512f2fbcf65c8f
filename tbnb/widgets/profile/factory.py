"""``tbnb.profiler(...)``: the profiler view of an experiment, a logdir or a trace.

Examples
--------
>>> import json, pathlib, tempfile, warnings, tbnb
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> events = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1,
...            "tid": 1, "ts": 0, "dur": 10}, {"ph": "X", "cat": "cpu_op",
...            "name": "aten::mm", "pid": 1, "tid": 1, "ts": 2, "dur": 5}]
>>> _ = (folder / "w.1.pt.trace.json").write_text(json.dumps({"traceEvents": events}))
>>> with warnings.catch_warnings():
...     warnings.simplefilter("ignore")
...     view = tbnb.profiler(folder)
>>> view.trace, view.tab
('w.1', 'overview')
>>> len(view.window(0.0, 10.0, 100)["row"])
2
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.profile.source import profile_source
from tbnb.widgets.profile.widget import ProfileWidget

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ProfilerOptions", "profiler"]


class ProfilerOptions(TypedDict, total=False):
    """Keyword arguments of :func:`profiler` beyond the documented ones."""

    tab: str
    compare_with: str
    by_shape: bool
    palette: str
    height: int


def profiler(
    source: Any,
    trace: int | str | None = None,
    *,
    refresh: float | None = None,
    **kw: Unpack[ProfilerOptions],
) -> ProfileWidget:
    """The profiler view: overview, operators, kernels, timeline, memory, comparison.

    Parameters
    ----------
    source
        An ``Experiment`` (its ``exp.profile``), a logdir or trace path/URL, or a
        :class:`~tbnb.kinds.profile.ProfileSet` (``tbnb.profile(path)``).
    trace
        The trace shown first: a row of ``profile.traces``, a trace name or a run.
    refresh
        Reload the experiment every so many seconds; new traces appear.
    **kw
        ``tab`` (one of ``overview``, ``operators``, ``kernels``, ``timeline``,
        ``memory``, ``compare``), ``compare_with`` (a second trace), ``by_shape``
        (operators grouped by input shapes), ``palette``, ``height`` (pixels of the
        timeline). Anything else raises ``TypeError``.
    """
    check_kwargs("profiler", dict(kw), ProfilerOptions.__annotations__)
    traits: dict[str, Any] = {k: v for k, v in kw.items() if k != "compare_with"}
    return ProfileWidget(
        source=profile_source(source),
        trace=trace,
        compare_with=kw.get("compare_with"),
        refresh=refresh,
        **traits,
    )
