"""The dashboard: one tab per kind of data present, one run selection for all of them.

Tabs come from the kind registry (:mod:`tbnb.notebook.tabs`) and are built when first
opened. A bar above them (:class:`tbnb.widgets.selection.RunSelectionWidget`) is the one
run selector: every tab that shows runs follows it, a run has one colour everywhere,
and the hparams tab's selection filters every tab.

Examples
--------
>>> from tbnb.notebook.tabs import tabs
>>> [spec.title for spec in tabs()][:2]
['Scalars', 'Custom scalars']
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets

from tbnb.io.safe_text import visible_controls
from tbnb.loader.overview import runs_with_data, time_span
from tbnb.loader.report import plural
from tbnb.notebook.tabs import LazyTabs, LazyViews, TabSpec, tabs
from tbnb.widgets.bundle import shared_front_end
from tbnb.widgets.selection import RunSelectionWidget, follow_hparams, share_runs

__all__ = ["Dashboard", "TabSpec", "tabs"]


def check_regex(name: str, pattern: str | None) -> None:
    """Raise ``ValueError`` naming the option when ``pattern`` is not a regular expression."""
    if pattern is None:
        return
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"{name}={pattern!r} is not a valid regular expression: {exc}") from None


def check_refresh(refresh: float | None) -> float | None:
    """A positive number of seconds, or None."""
    if refresh is None:
        return None
    if isinstance(refresh, bool) or not isinstance(refresh, (int, float)) or not refresh > 0:
        raise ValueError(f"refresh must be a positive number of seconds or None, got {refresh!r}")
    return float(refresh)


class Dashboard(ipywidgets.VBox):
    """Every kind of data in a logdir, one tab per kind, inline in the notebook.

    Tabs are built when first opened; one run selector above them decides the runs
    every tab shows (a run has one colour in every tab), and a selection in the
    HParams tab filters every tab.

    Parameters
    ----------
    source : str, path-like, dict, list or tbnb.Experiment
        A logdir (local path, ``~`` expanded, or any fsspec URL such as
        ``s3://bucket/runs``), several (``{name: logdir}`` or a list, as
        :func:`tbnb.load` takes them) or an already loaded experiment.
    refresh : float, optional
        Poll for new data every ``refresh`` seconds (each built tab sends only new
        points; one poller for the experiment).
    runs, tags : str, optional
        Regular expressions: load only matching runs / tags (when ``source`` is a
        logdir).

    Attributes
    ----------
    experiment : tbnb.Experiment
        The data shown.
    views : Mapping of str to ipywidgets.Widget
        The widget of each tab, by kind (``dash.views["scalars"]``), built when first
        asked for; ``dash.views.built`` holds those built so far.
    selection : tbnb.widgets.selection.RunSelectionWidget
        The run selection every tab follows (``dash.selection.selected_runs``).
    links : list
        The links made between the selection and the tabs built so far.
    tab : ipywidgets.Tab
        The tab container.

    Examples
    --------
    >>> import tbnb
    >>> from tbnb.notebook.samples import sample_logdir
    >>> dash = tbnb.Dashboard(sample_logdir())
    >>> list(dash.views)[:2]
    ['scalars', 'custom_scalars']
    >>> list(dash.views.built)
    ['scalars']
    >>> dash.views["scalars"].smoothing = 0.9
    >>> dash.selection.selected_runs = dash.experiment.runs[:1]
    >>> dash.views["scalars"].selected_runs == dash.experiment.runs[:1]
    True
    >>> dash.close()
    """

    def __init__(
        self,
        source: Any,
        *,
        refresh: float | None = None,
        runs: str | None = None,
        tags: str | None = None,
    ) -> None:
        refresh = check_refresh(refresh)
        check_regex("runs", runs)
        check_regex("tags", tags)
        if isinstance(source, (str, os.PathLike, Mapping, list, tuple)):
            from tbnb.loader.experiment import load

            experiment = load(expand_locations(source), runs=runs, tags=tags)
            location = experiment.logdir
        elif hasattr(source, "scalars") and hasattr(source, "reload"):
            if runs is not None or tags is not None:
                raise TypeError(
                    "runs= and tags= filter what is loaded; pass them to tbnb.load(...) or give "
                    "Dashboard a logdir"
                )
            location = str(getattr(source, "logdir", ""))
            experiment = source
        else:
            raise TypeError(
                "Dashboard needs a logdir path/URL (or several) or a tbnb.Experiment, "
                f"got {type(source).__name__}"
            )
        self.experiment = experiment
        self.filters = {"runs": runs, "tags": tags}
        self._refresh = refresh
        self.links: list[Any] = []
        with shared_front_end():  # the kit ships once, however many tabs are opened
            self.selection = RunSelectionWidget.of(
                [str(r) for r in getattr(experiment, "runs", [])]
            )
        if hasattr(experiment, "reload"):
            self.selection.follow(experiment)
        present = [spec for spec in tabs() if spec.shown_for(experiment)]
        self._tabs = LazyTabs(present, self._build_tab)
        self.views = LazyViews(self._tabs)
        self.tab = self._tabs.tab
        header = ipywidgets.HTML(self._header_html(location, present))
        header.add_class("tbnb-dashboard-header")
        children = [header, self.selection, self.tab] if present else [header]
        super().__init__(children=children)
        self.add_class("tbnb-dashboard")

    def _build_tab(self, spec: TabSpec) -> ipywidgets.Widget:
        with shared_front_end():
            view = spec.build(self.experiment, refresh=self._refresh)
        if spec.key == "hparams":
            self.links += follow_hparams(self.selection, view)
        elif hasattr(view, "selected_runs") and getattr(view, "follows_run_selection", True):
            self.links += share_runs(self.selection, view)
            view.add_class("tbnb-shared-runs")
        return view

    def build_all(self) -> None:
        """Build every tab not built yet (an exported page or report shows them all)."""
        self._tabs.build_all()

    def to_html(
        self, path: str | os.PathLike[str], *, title: str = "tbnb", overwrite: bool = False
    ) -> Path:
        """Write every tab, interactive, to one self-contained HTML page.

        See :func:`tbnb.notebook.export.to_html` (which this calls after building every
        tab).
        """
        from tbnb.notebook.export import to_html

        self.build_all()
        return to_html(self, path, title=title, overwrite=overwrite)

    def close(self) -> None:
        """Close the dashboard and every tab's widget (which also stops polling)."""
        if getattr(self, "_closed", False):  # also called again by Widget.__del__
            return
        self._closed = True
        # getattr: __del__ also runs on a dashboard whose __init__ raised.
        for link in getattr(self, "links", []):
            unlink = getattr(link, "unlink", None)
            if callable(unlink):
                unlink()
        lazy = getattr(self, "_tabs", None)
        if lazy is not None:
            lazy.close()
        selection = getattr(self, "selection", None)
        if selection is not None:
            selection.close()
        for child in getattr(self, "children", ()):
            child.close()
        super().close()

    def _header_html(self, location: str, present: list[TabSpec]) -> str:
        """What was found (runs, kinds) and what was filtered out, every name escaped."""
        where = html.escape(visible_controls(location)) if location else "experiment"
        exp = self.experiment
        filters = [f"{name}={value!r}" for name, value in self.filters.items() if value]
        excluded = getattr(exp, "excluded_runs", [])
        left_out = f": {plural(len(excluded), 'run')} left out" if excluded else ""
        filtered = (
            f" &middot; filtered by {html.escape(visible_controls(', '.join(filters)))}{left_out}"
            if filters
            else ""
        )
        if not present:
            reason = getattr(exp, "empty_reason", None)
            looked = ", ".join(spec.title for spec in tabs())
            why = (
                html.escape(str(reason))
                if reason
                else (f"no data for any view (looked for: {html.escape(looked)})")
            )
            return f"<b>tbnb</b>: nothing to show in <code>{where}</code>{filtered}: {why}"
        state = getattr(exp, "state", None)  # runs of traces only count too
        runs = runs_with_data(state) if state is not None else getattr(exp, "runs", None)
        count = f" &middot; {plural(len(runs), 'run')}" if runs is not None else ""
        kinds = " &middot; " + html.escape(", ".join(spec.title for spec in present))
        try:
            span = time_span(exp)
        except AttributeError:  # a stand-in for an Experiment: no files to date
            span = ""
        when = f" &middot; written {html.escape(span)}" if span else ""
        reason = getattr(exp, "empty_reason", None)  # a tab without runs: say what is there
        notes = [reason] if reason else []
        notes += getattr(exp, "logdir_problems", [])  # of several logdirs, those not read
        note = "".join(f"<br>{html.escape(str(n))}" for n in notes)
        return f"<b>tbnb</b> &middot; <code>{where}</code>{count}{kinds}{when}{filtered}{note}"


def expand_location(location: str) -> str:
    """``~`` expansion for local paths; URLs (``scheme://``) are left untouched."""
    if "://" in location:
        return location
    return os.path.expanduser(location)


def expand_locations(source: Any) -> Any:
    """:func:`expand_location` of one logdir, of each of ``{name: logdir}`` or of a list.

    Examples
    --------
    >>> expand_locations({"a": "memory://a", "b": "s3://b"})
    {'a': 'memory://a', 'b': 's3://b'}
    """
    if isinstance(source, Mapping):
        return {name: expand_locations(path) for name, path in source.items()}
    if isinstance(source, (list, tuple)):
        return [expand_locations(path) for path in source]
    if isinstance(source, (str, os.PathLike)):
        return expand_location(os.fspath(source))
    return source  # not a path: tbnb.load says what is wrong with it
