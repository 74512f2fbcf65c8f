"""The dashboard: one tab per kind of data present, built from the kind registry.

A kind gets a tab by declaring one (:attr:`tbnb.kinds.base.Kind.tab`): the title,
the widget builder (``"module:function"``, imported when the tab is built, so the
dashboard loads only the widgets it shows) and whether it follows live reloads.

Examples
--------
>>> titles = [spec.title for spec in tabs()]
>>> titles[0], "HParams" in titles
('Scalars', True)
"""

from __future__ import annotations

import html
import importlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ipywidgets

from tbnb.kinds import KINDS, Kind
from tbnb.loader.overview import time_span
from tbnb.loader.report import plural

__all__ = ["LINKS", "Dashboard", "TabSpec", "tabs"]


@dataclass(frozen=True)
class TabSpec:
    """One dashboard tab: the kind it shows and how to build its widget."""

    kind: Kind

    @property
    def key(self) -> str:
        """The kind's key (``dash.views[key]``)."""
        return self.kind.key

    @property
    def title(self) -> str:
        """The tab label."""
        assert self.kind.tab is not None
        return self.kind.tab.title

    def shown_for(self, experiment: Any) -> bool:
        """Whether ``experiment`` has data for this tab."""
        tab = self.kind.tab
        assert tab is not None
        frame = experiment.frame(self.key) if hasattr(experiment, "frame") else getattr(
            experiment, self.key, None)
        if frame is None:
            return False
        if tab.shown is not None:
            return bool(tab.shown(frame))
        return len(frame) > 0

    def build(self, experiment: Any, *, refresh: float | None) -> ipywidgets.Widget:
        """Build this tab's widget for ``experiment``."""
        tab = self.kind.tab
        assert tab is not None
        function = _resolve(tab.factory)
        if tab.live:
            return function(experiment, refresh=refresh)
        return function(experiment)


def tabs() -> list[TabSpec]:
    """Every kind's tab, in the registry's order."""
    return [TabSpec(kind) for kind in KINDS.values() if kind.tab is not None]


def _resolve(target: str | Callable[..., Any]) -> Callable[..., Any]:
    if isinstance(target, str):
        module, _, name = target.partition(":")
        function: Callable[..., Any] = getattr(importlib.import_module(module), name)
        return function
    return target


#: Links between tabs present together: ``(source kind, target kind, function)``,
#: called as ``function(views[source], views[target])``. Brushing runs in the
#: hparams tab shows only those runs in the scalars tab.
LINKS: list[tuple[str, str, str | Callable[..., Any]]] = [
    ("hparams", "scalars", "tbnb.widgets.hparams:link"),
]


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

    Parameters
    ----------
    source : str, path-like or tbnb.Experiment
        A logdir (local path, ``~`` expanded, or any fsspec URL such as
        ``s3://bucket/runs``) or an already loaded experiment.
    refresh : float, optional
        Poll for new data every ``refresh`` seconds (each tab sends only new points).
    runs, tags : str, optional
        Regular expressions: load only matching runs / tags (when ``source`` is a
        logdir).

    Attributes
    ----------
    experiment : tbnb.Experiment
        The data shown.
    views : dict of str to ipywidgets.Widget
        The widget of each tab, by kind (``dash.views["scalars"]``).
    links : list
        The links made between tabs (see :data:`LINKS`).
    tab : ipywidgets.Tab
        The tab container.

    Examples
    --------
    >>> import tbnb
    >>> from tbnb.notebook.samples import sample_logdir
    >>> dash = tbnb.Dashboard(sample_logdir())
    >>> list(dash.views)[:2]
    ['scalars', 'custom_scalars']
    >>> dash.views["scalars"].smoothing = 0.9
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
        if isinstance(source, (str, os.PathLike)):
            from tbnb.loader.experiment import load

            location = expand_location(os.fspath(source))
            experiment = load(location, runs=runs, tags=tags)
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
                "Dashboard needs a logdir path/URL or a tbnb.Experiment, "
                f"got {type(source).__name__}"
            )
        self.experiment = experiment
        self.views: dict[str, ipywidgets.Widget] = {}
        self.filters = {"runs": runs, "tags": tags}
        present = [spec for spec in tabs() if spec.shown_for(experiment)]
        for spec in present:
            self.views[spec.key] = spec.build(experiment, refresh=refresh)
        self.links: list[Any] = [
            _resolve(function)(self.views[source_kind], self.views[target_kind])
            for source_kind, target_kind, function in LINKS
            if source_kind in self.views and target_kind in self.views
        ]
        self.tab = ipywidgets.Tab(
            children=[self.views[spec.key] for spec in present],
            titles=[spec.title for spec in present],
        )
        self.tab.add_class("tbnb-dashboard-tabs")
        header = ipywidgets.HTML(self._header_html(location, present))
        header.add_class("tbnb-dashboard-header")
        children = [header, self.tab] if present else [header]
        super().__init__(children=children)
        self.add_class("tbnb-dashboard")

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
        for view in getattr(self, "views", {}).values():
            view.close()
        tab = getattr(self, "tab", None)
        if tab is not None:
            tab.close()
            for child in self.children:
                child.close()
        super().close()

    def _header_html(self, location: str, present: list[TabSpec]) -> str:
        """What was found (runs, kinds) and what was filtered out, every name escaped."""
        where = html.escape(location) if location else "experiment"
        exp = self.experiment
        filters = [f"{name}={value!r}" for name, value in self.filters.items() if value]
        excluded = getattr(exp, "excluded_runs", [])
        left_out = f": {plural(len(excluded), 'run')} left out" if excluded else ""
        filtered = (f" &middot; filtered by {html.escape(', '.join(filters))}{left_out}"
                    if filters else "")
        if not present:
            reason = getattr(exp, "empty_reason", None)
            looked = ", ".join(spec.title for spec in tabs())
            why = html.escape(str(reason)) if reason else (
                f"no data for any view (looked for: {html.escape(looked)})")
            return f"<b>tbnb</b>: nothing to show in <code>{where}</code>{filtered}: {why}"
        runs = getattr(exp, "runs", None)
        count = f" &middot; {plural(len(runs), 'run')}" if runs is not None else ""
        kinds = " &middot; " + html.escape(", ".join(spec.title for spec in present))
        try:
            span = time_span(exp)
        except AttributeError:  # a stand-in for an Experiment: no files to date
            span = ""
        when = f" &middot; written {html.escape(span)}" if span else ""
        return f"<b>tbnb</b> &middot; <code>{where}</code>{count}{kinds}{when}{filtered}"


def expand_location(location: str) -> str:
    """``~`` expansion for local paths; URLs (``scheme://``) are left untouched."""
    if "://" in location:
        return location
    return os.path.expanduser(location)

