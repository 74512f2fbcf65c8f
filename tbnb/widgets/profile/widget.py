"""The profiler view: overview, operator and kernel tables, timeline, memory, comparison.

Python side of ``js/src/widgets/profile/`` (widget key ``"profile"``). The chosen trace's
overview (steps by category, findings, top operators and kernels) and its timeline's
lanes with a first view of the whole trace go to the browser at once (``_overview``,
``_timeline``); the tables, the memory curve and the comparison are prepared when their
tab is first opened (``_tables``, ``_memory``, ``_compare``). The timeline asks for what
is in view at its resolution (``"window"`` requests, :mod:`.timeline`), a span's
details (``"span"``) and name searches (``"search"``); a saved notebook or an exported
page keeps every trait, so it shows the overview and tables whole and the timeline at
the resolution saved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import traitlets as t

from tbnb.widgets.colors import RunColored
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.profile.prepare import (
    compare_payload,
    lanes_payload,
    memory_payload,
    overview_payload,
    search_rows,
    span_details,
    table_payload,
)
from tbnb.widgets.profile.source import NO_TRACES, profile_of
from tbnb.widgets.profile.timeline import TimelineIndex
from tbnb.widgets.profile.view import view_spec
from tbnb.widgets.serializers import tree_serialization
from tbnb.widgets.traits import Choice, IntRange, Regex

if TYPE_CHECKING:
    from tbnb.widgets.source import Source
    from tbnb.widgets.spec import ViewSpec

__all__ = ["TABS", "ProfileWidget"]

TABS = ("overview", "operators", "kernels", "timeline", "memory", "compare")
"""The view's tabs, in order."""

FIRST_WINDOW_PIXELS = 2400
"""Resolution of the whole-trace view sent with the trace (what a saved page shows)."""


class ProfileWidget(LiveWidget, RunColored):
    """The profiler view (build it with :func:`tbnb.profiler`).

    Traits (synced with the browser)
    --------------------------------
    traces : list of dict
        Every trace: ``trace``, ``run``, ``format``, ``bytes``.
    trace : str
        The trace shown.
    compare_with : str
        A second trace shown beside it in the ``compare`` tab ("" none).
    tab : str
        One of :data:`TABS`.
    by_shape : bool
        The operator table groups by input shapes too.
    search : str
        The timeline's search (a case-insensitive regular expression over span names,
        or the text itself when it is not one).
    flows : bool
        Draw arrows from launches to their device events in the timeline.
    height : int
        Pixels of the timeline.
    selected_runs, run_filter, run_colors, palette
        The run selection (traces of the selected runs are listed; two selected runs
        are compared); a run's colour is the experiment's (its run order, then the runs
        holding traces only).
    message : str
        Why nothing is shown.
    """

    _widget_key = "profile"

    traces = t.List(t.Dict()).tag(sync=True)
    trace = t.Unicode("").tag(sync=True)
    compare_with = t.Unicode("").tag(sync=True)
    tab = Choice(TABS).tag(sync=True)
    by_shape = t.Bool(False).tag(sync=True)
    search = t.Unicode("").tag(sync=True)
    flows = t.Bool(False).tag(sync=True)
    selected_runs = t.List(t.Unicode()).tag(sync=True)
    run_filter = Regex().tag(sync=True)
    height = IntRange(520, lo=160, hi=4000, unit="pixels").tag(sync=True)
    message = t.Unicode("").tag(sync=True)
    _overview = t.Dict().tag(sync=True, **tree_serialization)
    _timeline = t.Dict().tag(sync=True, **tree_serialization)
    _tables = t.Dict().tag(sync=True, **tree_serialization)
    _memory = t.Dict().tag(sync=True, **tree_serialization)
    _compare = t.Dict().tag(sync=True, **tree_serialization)

    _loading = True  # until __init__ is done: trait defaults set while building load nothing

    def __init__(
        self,
        *,
        source: Source | None = None,
        trace: int | str | None = None,
        compare_with: int | str | None = None,
        refresh: float | None = None,
        **traits: Any,
    ) -> None:
        """Show the traces of ``source`` (its data a
        :class:`~tbnb.kinds.profile.ProfileSet`), opening on ``trace`` (a row of its
        traces, a trace name or a run) beside ``compare_with``."""
        self._profile: Any = None
        self._indexes: dict[str, TimelineIndex] = {}
        super().__init__(**traits)
        self._loading = False
        self._open(
            source,
            refresh,
            lambda given: self._set_profile(given.data, given.runs, trace, compare_with),
        )

    @t.validate("trace", "compare_with")
    def _valid_trace(self, proposal: Any) -> str:
        value = str(proposal["value"])
        names = [row["trace"] for row in self.traces]
        if value and names and value not in names:
            raise t.TraitError(f"no trace {value!r}; traces: {names}")
        return value

    # ---------------------------------------------------------------- data
    def _set_profile(
        self,
        profile: Any,
        runs: list[str] | None,
        trace: int | str | None = None,
        compare_with: int | str | None = None,
    ) -> None:
        """Show the traces of ``profile``, run colours in the order of ``runs`` (the
        experiment's) then of the runs holding traces only."""
        self._profile = profile
        self._indexes = {}
        self._loading = True
        try:
            self.traces = [
                {
                    "trace": str(r["trace"]),
                    "run": str(r["run"]),
                    "format": str(r["format"]),
                    "bytes": int(r["bytes"]),
                }
                for r in profile.traces.to_dict("records")
            ]
            held = list(dict.fromkeys(row["run"] for row in self.traces))
            self.color_runs([*(runs or []), *[r for r in held if r not in (runs or [])]])
            self.selected_runs = held
            self.message = "" if self.traces else NO_TRACES
            if not self.traces:
                return
            self.trace = profile.name_of(trace) if trace is not None else self.traces[0]["trace"]
            if compare_with is not None:
                self.compare_with = profile.name_of(compare_with)
            elif len(self.traces) > 1 and not self.compare_with:
                other = next((r["trace"] for r in self.traces if r["trace"] != self.trace), "")
                self.compare_with = other
        finally:
            self._loading = False
        self._show()

    def _show(self) -> None:
        """Send the chosen trace's overview and timeline; drop what other tabs hold."""
        if self._profile is None or not self.trace:
            return
        trace = self._profile.trace(self.trace)
        index = self._index(self.trace)
        with self.hold_sync():
            self._overview = overview_payload(self._profile, self.trace)
            self._timeline = {
                "trace": self.trace,
                "lanes": lanes_payload(trace),
                "window": index.window(index.t0, index.t1, FIRST_WINDOW_PIXELS),
                "t0": index.t0,
                "t1": index.t1,
            }
            self._tables = {}
            self._memory = {}
            self._compare = {}
        self._fill_tab()

    def _index(self, name: str) -> TimelineIndex:
        index = self._indexes.get(name)
        if index is None:
            index = self._indexes[name] = TimelineIndex(self._profile.trace(name).events)
        return index

    def _fill_tab(self) -> None:
        """Prepare what the open tab shows, once per trace."""
        if self._profile is None or not self.trace:
            return
        if self.tab in ("operators", "kernels") and self._tables.get("trace") != (
            self.trace,
            self.by_shape,
        ):
            self._tables = self._tables_payload()
        elif self.tab == "memory" and self._memory.get("trace") != self.trace:
            self._memory = {"trace": self.trace, **memory_payload(self._profile.trace(self.trace))}
        elif self.tab == "compare" and self.compare_with:
            key = [self.trace, self.compare_with]
            if [self._compare.get("a"), self._compare.get("b")] != key:
                self._compare = compare_payload(self._profile, *key)

    def _tables_payload(self) -> dict[str, Any]:
        events = self._profile.trace(self.trace).events
        from tbnb.analysis.profile import device, operators

        ops = operators.operator_table(events, by_shape=self.by_shape)
        return {
            "trace": [self.trace, self.by_shape],
            "operators": table_payload(ops),
            "kernels": table_payload(device.kernel_table(events)),
        }

    @t.observe("trace")
    def _on_trace(self, _change: Any) -> None:
        if not self._loading:
            self._show()

    @t.observe("tab", "by_shape", "compare_with")
    def _on_tab(self, _change: Any) -> None:
        if not self._loading:
            self._fill_tab()

    @t.observe("selected_runs")
    def _on_runs(self, _change: Any) -> None:
        if self._loading or not self.traces:
            return
        chosen = [r for r in self.traces if r["run"] in self.selected_runs]
        if chosen and self.trace not in [r["trace"] for r in chosen]:
            self.trace = chosen[0]["trace"]
        runs = list(dict.fromkeys(r["run"] for r in chosen))
        if len(runs) >= 2:  # two runs chosen in the run bar: compare them
            other = next(r["trace"] for r in chosen if r["run"] != runs[0])
            first = next(r["trace"] for r in chosen if r["run"] == runs[0])
            with self.hold_trait_notifications():
                self.trace, self.compare_with = first, other

    def _on_reload(self, _report: Any = None) -> None:
        experiment = self._source
        if experiment is None:
            return
        with self._lock:
            profile = profile_of(experiment)
            if profile is None or profile is self._profile:
                return
            names = profile.traces["trace"].tolist()
            keep = self.trace if self.trace in names else None
            other = self.compare_with if self.compare_with in names else None
            runs = [str(r) for r in getattr(experiment, "runs", [])]
            self._set_profile(profile, runs, keep, other)
            self._sent += 1

    # ---------------------------------------------------------------- public
    @property
    def profile(self) -> Any:
        """The :class:`~tbnb.kinds.profile.ProfileSet` shown."""
        return self._profile

    def view_spec(self) -> ViewSpec:
        """The shown trace's steps stacked by category and its memory curve per device
        (the peak marked), as the overview and memory tabs draw them."""
        if self._profile is None or not self.trace:
            return view_spec(None, "", self.message)
        return view_spec(self._profile.trace(self.trace), self.trace)

    def window(self, t0: float, t1: float, pixels: int = 1600) -> dict[str, Any]:
        """What the timeline draws for ``[t0, t1]`` (microseconds) at ``pixels`` across."""
        return self._index(self.trace).window(t0, t1, pixels)

    # ---------------------------------------------------------------- requests
    def _trace_of(self, content: dict[str, Any]) -> str:
        name = str(content.get("trace") or self.trace)
        return str(self._profile.name_of(name))

    def _request_window(self, content: dict[str, Any]) -> dict[str, Any]:
        """``{trace, t0, t1, pixels}`` -> the spans in view (:meth:`window`)."""
        name = self._trace_of(content)
        index = self._index(name)
        pixels = int(min(max(int(content.get("pixels", 1600)), 1), 16384))
        return {"trace": name, **index.window(float(content["t0"]), float(content["t1"]), pixels)}

    def _request_span(self, content: dict[str, Any]) -> dict[str, Any]:
        """``{trace, row}`` -> a span's fields and the device events it launched."""
        name = self._trace_of(content)
        return {"trace": name, **span_details(self._profile.trace(name), int(content["row"]))}

    def _request_search(self, content: dict[str, Any]) -> dict[str, Any]:
        """``{trace, query, exact}`` -> matching spans, first ones first."""
        name = self._trace_of(content)
        query = str(content.get("query", ""))
        if not query:
            raise ValueError("empty search")
        found = search_rows(self._profile.trace(name), query, exact=bool(content.get("exact")))
        return {"trace": name, **found}
