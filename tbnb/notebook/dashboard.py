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

import os
import re
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import ipywidgets

from tbnb.io.safe_text import visible_controls
from tbnb.loader.overview import runs_with_data, time_span
from tbnb.loader.report import plural
from tbnb.notebook.tabs import LazyTabs, LazyViews, TabSpec, tabs
from tbnb.widgets.bundle import shared_front_end
from tbnb.widgets.dashboard import DashboardWidget
from tbnb.widgets.selection import RunSelectionWidget, follow_hparams, share_runs

__all__ = ["Dashboard", "TabSpec", "header_text", "tabs"]


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


class Dashboard(DashboardWidget):
    """Every kind of data in a logdir, one tab per kind, inline in the notebook.

    One anywidget (:class:`~tbnb.widgets.dashboard.DashboardWidget`), so it draws
    wherever anywidgets draw: JupyterLab, Notebook 7, VS Code, marimo (where ``%tbnb``
    does not exist: put ``tbnb.Dashboard("logs")`` last in a cell), Voilà, saved
    notebooks and exported pages. Tabs are built when first opened; one run selector
    above them decides the runs every tab shows (a run has one colour in every tab),
    and a selection in the HParams tab filters every tab. With ``refresh``, new runs,
    tags and kinds appear as they are written (a kind's tab appears when its first
    data does), with no reload of the page.

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
    selected_index : int
        The tab shown (``dash.titles[dash.selected_index]``); set it to open a tab.

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
        with shared_front_end():  # the kit ships once, however many tabs are opened
            super().__init__()
            self.selection = RunSelectionWidget.of(
                [str(r) for r in getattr(experiment, "runs", [])]
            )
        self.experiment = experiment
        self.location = location
        self.filters = {"runs": runs, "tags": tags}
        self._refresh = refresh
        self.links: list[Any] = []
        self._subscription: Any = None
        self._watch: Any = None
        self._reload_lock = threading.Lock()
        if hasattr(experiment, "reload"):
            self.selection.follow(experiment)
        self.bar = self.selection
        present = [spec for spec in tabs() if spec.shown_for(experiment)]
        self.header = self._header(present)
        self._tabs = LazyTabs(self, present, self._build_tab)
        self.views = LazyViews(self._tabs)
        if builds_widgets_in_cells_only():
            self.build_all()  # marimo: a tab opened later could not make its widget
        subscribe = getattr(experiment, "subscribe", None)
        if callable(subscribe):
            self._subscription = subscribe(self._on_reload)
        watch = getattr(experiment, "watch", None)
        if refresh is not None and callable(watch):
            self._watch = watch(refresh)  # new kinds appear even before any tab polls

    def _build_tab(self, spec: TabSpec) -> ipywidgets.Widget:
        try:
            with shared_front_end():
                view = spec.build(self.experiment, refresh=self._refresh)
        except AssertionError as err:
            if builds_widgets_in_cells_only():
                raise RuntimeError(
                    f"new data for {spec.title}: marimo makes widgets only while a cell runs; "
                    "run this cell again to show the tab"
                ) from err
            raise
        if spec.key == "hparams":
            self.links += follow_hparams(self.selection, view)
        elif hasattr(view, "selected_runs") and getattr(view, "follows_run_selection", True):
            self.links += share_runs(self.selection, view)
            view.add_class("tbnb-shared-runs")
        return view

    def _on_reload(self, _report: Any = None) -> None:
        """A reload found something: tabs for kinds that now have data, a new header."""
        with self._reload_lock:
            if getattr(self, "_closed", False):
                return
            for spec in tabs():
                if spec.key not in self.views and spec.shown_for(self.experiment):
                    self._tabs.add(spec)
            self.header = self._header(self._tabs.specs)

    def build_all(self) -> None:
        """Build every tab not built yet (an exported page or report shows them all)."""
        self._tabs.build_all()

    def to_html(
        self,
        path: str | os.PathLike[str],
        *,
        title: str = "tbnb",
        overwrite: bool = False,
        theme: str = "auto",
        full_paths: bool = False,
    ) -> Path:
        """Write every tab, interactive, to one self-contained HTML page.

        See :func:`tbnb.notebook.export.to_html` (which this calls after building every
        tab). The page's header names each logdir by its last folder (a report shared
        outside this machine shows no home directory); ``full_paths=True`` keeps them whole.
        """
        from tbnb.notebook.export import to_html

        self.build_all()
        return to_html(
            self, path, title=title, overwrite=overwrite, theme=theme, full_paths=full_paths
        )

    def export_paths(self, *, full_paths: bool) -> dict[str, str]:
        """How an exported page names each logdir: ``{full path: last folder}``, every
        string of the page's widgets rewritten so (the header, the Runs table), unless
        ``full_paths``."""
        if full_paths or not self.location:
            return {}
        named = getattr(self.experiment, "logdirs", None)
        paths = list(named.values()) if isinstance(named, Mapping) and named else [self.location]
        return {str(path): last_folder(str(path)) for path in paths if str(path)}

    @property
    def header_text(self) -> str:
        """The header as the browser shows it, as plain text.

        Examples
        --------
        >>> import tbnb
        >>> dash = tbnb.Dashboard(tbnb.samples.sample_logdir())
        >>> dash.header_text.startswith("tbnb · ")
        True
        >>> dash.close()
        """
        return header_text(self.header)

    def close(self) -> None:
        """Close the dashboard and every tab's widget (which also stops polling)."""
        if getattr(self, "_closed", False):  # also called again by Widget.__del__
            return
        self._closed = True
        # getattr: __del__ also runs on a dashboard whose __init__ raised.
        for handle, stop in (
            (getattr(self, "_watch", None), "stop"),
            (getattr(self, "_subscription", None), "cancel"),
        ):
            if handle is not None:
                getattr(handle, stop)()
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
        super().close()

    def _header(self, present: list[TabSpec]) -> dict[str, Any]:
        """What was found (runs, kinds) and what was filtered out, as text."""
        exp = self.experiment
        filters = [f"{name}={value!r}" for name, value in self.filters.items() if value]
        excluded = getattr(exp, "excluded_runs", [])
        left_out = f": {plural(len(excluded), 'run')} left out" if excluded else ""
        filtered = f"filtered by {', '.join(filters)}{left_out}" if filters else ""
        reason = getattr(exp, "empty_reason", None)
        header: dict[str, Any] = {
            "location": visible_controls(self.location) if self.location else "",
            "filters": visible_controls(filtered),
        }
        if not present:
            looked = ", ".join(spec.title for spec in tabs())
            why = str(reason) if reason else f"no data for any view (looked for: {looked})"
            if self._refresh is not None:
                why += f"; looking again every {self._refresh:g} s"
            return {**header, "state": "empty", "parts": [], "note": visible_controls(why)}
        parts = []
        state = getattr(exp, "state", None)  # runs of traces only count too
        runs = runs_with_data(state) if state is not None else getattr(exp, "runs", None)
        if runs is not None:
            parts.append(plural(len(runs), "run"))
        parts.append(", ".join(spec.title for spec in present))
        try:
            span = time_span(exp)
        except AttributeError:  # a stand-in for an Experiment: no files to date
            span = ""
        if span:
            parts.append(f"written {span}")
        notes = [str(reason)] if reason else []  # a tab without runs: say what is there
        notes += getattr(exp, "logdir_problems", [])  # of several logdirs, those not read
        note = "\n".join(notes)
        return {
            **header,
            "state": "data",
            "parts": [visible_controls(p) for p in parts],
            "note": visible_controls(note),
        }


def builds_widgets_in_cells_only() -> bool:
    """Whether this kernel is a marimo notebook's, where a widget can be made only while a
    cell runs (marimo gives its front-end module a file of the running cell): a tab built
    when the user opens it, from the browser's message, would fail there, so the dashboard
    builds every tab at once.

    Examples
    --------
    >>> builds_widgets_in_cells_only()
    False
    """
    marimo = sys.modules.get("marimo")
    running = getattr(marimo, "running_in_notebook", None)
    try:
        return bool(callable(running) and running())
    except Exception:  # an unexpected marimo: the lazy tabs of every other front end
        return False


def header_text(header: dict[str, Any]) -> str:
    """A dashboard header as plain text (what ``js/src/widgets/dashboard`` shows).

    Examples
    --------
    >>> header_text({"state": "data", "location": "logs", "parts": ["2 runs", "Scalars"],
    ...              "filters": "", "note": ""})
    'tbnb · logs · 2 runs · Scalars'
    """
    where = header.get("location") or "experiment"
    filters = header.get("filters") or ""
    if header.get("state") == "empty":
        text = f"tbnb: nothing to show in {where}"
        text += f" · {filters}" if filters else ""
        text += f": {header.get('note', '')}"
        return text
    text = " · ".join(["tbnb", where, *header.get("parts", []), *([filters] if filters else [])])
    note = header.get("note") or ""
    return f"{text}\n{note}" if note else text


def expand_location(location: str) -> str:
    """``~`` expansion for local paths; URLs (``scheme://``) are left untouched."""
    if "://" in location:
        return location
    return os.path.expanduser(location)


def last_folder(location: str) -> str:
    """A logdir's last folder (a URL's last path part), as an exported page names it.

    Examples
    --------
    >>> last_folder("/home/me/exp/runs/"), last_folder("s3://bucket/sweeps/lr"), last_folder("/")
    ('runs', 'lr', '/')
    """
    stripped = location.rstrip("/")
    return stripped.rsplit("/", 1)[-1] or location


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
