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

import os
from typing import TYPE_CHECKING, Any, TypedDict

from tbnb.widgets.base import check_kwargs
from tbnb.widgets.profile.widget import TABS, ProfileWidget

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
    if "tab" in kw and kw["tab"] not in TABS:
        raise ValueError(f"tab must be one of {list(TABS)}, got {kw['tab']!r}")
    experiment = None
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        from tbnb.kinds.profile import is_trace_file, profile

        if is_trace_file(text) or "://" in text:
            profile_set = profile(text)
        else:
            from tbnb.loader import load

            experiment = load(text)
            profile_set = experiment.frame("profile")
    elif hasattr(source, "frame") and hasattr(source, "reload"):
        experiment = source
        profile_set = source.frame("profile")
    elif hasattr(source, "traces") and hasattr(source, "trace"):
        profile_set = source
    else:
        raise TypeError(
            "source must be an Experiment, a logdir or trace path, or a ProfileSet "
            f"(tbnb.profile(path)); got {type(source).__name__}"
        )
    widget = ProfileWidget(
        palette=kw.get("palette", "default"),
        height=int(kw.get("height", 520)),
        by_shape=bool(kw.get("by_shape", False)),
    )
    if experiment is not None:
        widget.follow(experiment)
    widget._set_profile(profile_set, None if trace is None else str(profile_set.name_of(trace)))
    if "compare_with" in kw:
        widget.compare_with = str(profile_set.name_of(kw["compare_with"]))
    if "tab" in kw:
        widget.tab = kw["tab"]
    if refresh is not None:
        if experiment is None:
            raise ValueError("refresh= needs an Experiment or a logdir")
        widget.start_refresh(float(refresh))
    return widget
