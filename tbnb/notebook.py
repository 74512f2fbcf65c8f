"""Notebook glue: the ``%tbnb`` magic and the :class:`Dashboard` widget.

``%load_ext tbnb`` registers the line magic::

    %tbnb LOGDIR [--refresh N] [--runs REGEX] [--tags REGEX]

which shows a :class:`Dashboard` inline: one tab per kind of data present in the
logdir. Everything renders inside the notebook (no TensorBoard server, port or
iframe), so it works behind JupyterHub/SageMaker proxies, in VS Code and Colab.

Adding a kind of data to the dashboard is one entry in :data:`TABS`.

Examples
--------
>>> import tbnb
>>> dash = tbnb.Dashboard("runs/", refresh=10)     # doctest: +SKIP
>>> dash                                           # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import html
import importlib
import os
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import ipywidgets

from tbnb.discovery import is_add_hparams_subrun

__all__ = [
    "LINKS", "TABS", "Dashboard", "TabSpec", "load_ipython_extension", "parse_magic_line",
]


@dataclass(frozen=True)
class TabSpec:
    """One dashboard tab: which data it needs and which widget shows it.

    Attributes
    ----------
    title : str
        Tab label.
    kind : str
        Name of the :class:`tbnb.Experiment` frame the tab shows (``"scalars"``,
        ``"histograms"``, ...); the tab is shown only when that frame has data.
    factory : str or callable
        ``"module:function"`` (imported on first use, so the dashboard loads only
        the widgets it shows) or the function itself; called as
        ``factory(experiment)`` and returning a widget.
    live : bool
        Whether the factory takes ``refresh=`` (seconds between reloads); the
        dashboard's ``refresh`` is passed on to live tabs only.
    present : callable, optional
        ``present(experiment) -> bool`` deciding whether the tab is shown; by
        default, whether the ``kind`` frame has rows and columns.
    """

    title: str
    kind: str
    factory: str | Callable[..., ipywidgets.Widget]
    live: bool = True
    present: Callable[[Any], bool] | None = None

    def shown_for(self, experiment: Any) -> bool:
        """Whether ``experiment`` has data for this tab."""
        if self.present is not None:
            return self.present(experiment)
        return _has_data(experiment, self.kind)

    def build(self, experiment: Any, *, refresh: float | None) -> ipywidgets.Widget:
        """Build this tab's widget for ``experiment``."""
        function = _resolve(self.factory)
        if self.live:
            return function(experiment, refresh=refresh)
        return function(experiment)


def _resolve(target: str | Callable[..., Any]) -> Callable[..., Any]:
    if isinstance(target, str):
        module, _, name = target.partition(":")
        function: Callable[..., Any] = getattr(importlib.import_module(module), name)
        return function
    return target


def _has_data(experiment: Any, kind: str) -> bool:
    """True when the experiment's ``kind`` frame has rows and columns (an hparams
    frame of runs that logged no hparams has rows but no columns)."""
    frame = getattr(experiment, kind, None)
    return frame is not None and not frame.empty


def _has_hparams(experiment: Any) -> bool:
    """True when some run logged hyper-parameters (final metrics alone do not count)."""
    frame = getattr(experiment, "hparams", None)
    if frame is None or frame.empty:
        return False
    return bool(frame.attrs.get("hparam_columns", list(frame.columns)))


#: The dashboard's tabs, in display order. One line per kind of data.
TABS: list[TabSpec] = [
    TabSpec("Scalars", "scalars", "tbnb.widgets.scalars:scalars"),
    TabSpec("HParams", "hparams", "tbnb.widgets.hparams:hparams", live=False,
            present=_has_hparams),
]

#: Links between tabs present together: ``(source kind, target kind, function)``,
#: called as ``function(views[source], views[target])``. Brushing runs in the
#: hparams tab shows only those runs in the scalars tab.
LINKS: list[tuple[str, str, str | Callable[..., Any]]] = [
    ("hparams", "scalars", "tbnb.widgets.hparams:link"),
]


def _check_regex(name: str, pattern: str | None) -> None:
    if pattern is None:
        return
    try:
        re.compile(pattern)
    except re.error as exc:
        raise ValueError(f"{name}={pattern!r} is not a valid regular expression: {exc}") from None


def _check_refresh(refresh: float | None) -> float | None:
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
    >>> from tbnb.samples import sample_logdir
    >>> dash = tbnb.Dashboard(sample_logdir())          # doctest: +SKIP
    >>> list(dash.views)                                # doctest: +SKIP
    ['scalars', 'hparams']
    >>> dash.views["scalars"].smoothing = 0.9           # doctest: +SKIP
    """

    def __init__(
        self,
        source: Any,
        *,
        refresh: float | None = None,
        runs: str | None = None,
        tags: str | None = None,
    ) -> None:
        refresh = _check_refresh(refresh)
        _check_regex("runs", runs)
        _check_regex("tags", tags)
        if isinstance(source, (str, os.PathLike)):
            from tbnb.experiment import load

            location = _expand_location(os.fspath(source))
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
        present = [spec for spec in TABS if spec.shown_for(experiment)]
        for spec in present:
            self.views[spec.kind] = spec.build(experiment, refresh=refresh)
        self.links: list[Any] = [
            _resolve(function)(self.views[source_kind], self.views[target_kind])
            for source_kind, target_kind, function in LINKS
            if source_kind in self.views and target_kind in self.views
        ]
        self.tab = ipywidgets.Tab(
            children=[self.views[spec.kind] for spec in present],
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
        where = html.escape(location) if location else "experiment"
        if not present:
            kinds = ", ".join(spec.kind for spec in TABS)
            return (
                f"<b>tbnb</b>: no data to show in <code>{where}</code> "
                f"(looked for: {html.escape(kinds)})"
            )
        runs = getattr(self.experiment, "runs", None)
        if runs is not None:  # add_hparams' sub-runs are part of their parent run
            runs = [r for r in runs if not is_add_hparams_subrun(r, runs)]
        count = f" &middot; {len(runs)} runs" if runs is not None else ""
        return f"<b>tbnb</b> &middot; <code>{where}</code>{count}"


def _expand_location(location: str) -> str:
    """``~`` expansion for local paths; URLs (``scheme://``) are left untouched."""
    if "://" in location:
        return location
    return os.path.expanduser(location)


class _HelpShownError(Exception):
    """``%tbnb --help`` printed the help: nothing else to do."""


class _MagicArgumentParser(argparse.ArgumentParser):
    """argparse that raises instead of exiting the kernel."""

    def error(self, message: str) -> NoReturn:
        from IPython.core.error import UsageError

        raise UsageError(f"{self.format_usage().strip()}\n%tbnb: error: {message}")

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        if status == 0:
            raise _HelpShownError
        self.error(message or "invalid arguments")


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0 seconds, got {text!r}")
    return value


def _regex(text: str) -> str:
    try:
        re.compile(text)
    except re.error as exc:
        raise argparse.ArgumentTypeError(f"invalid regular expression {text!r}: {exc}") from None
    return text


def _parser() -> argparse.ArgumentParser:
    parser = _MagicArgumentParser(
        prog="%tbnb",
        allow_abbrev=False,  # options added later must not change what a line means
        description="Show a TensorBoard logdir inline: one tab per kind of data.",
        epilog="Examples: %tbnb runs/   %tbnb '~/my runs' --refresh 30 --runs 'lr=0\\.01'",
    )
    parser.add_argument("logdir", help="local path (quote it if it has spaces) or fsspec URL")
    parser.add_argument("--refresh", type=_positive_seconds, metavar="N",
                        help="poll for new data every N seconds")
    parser.add_argument("--runs", type=_regex, metavar="REGEX", help="only runs matching REGEX")
    parser.add_argument("--tags", type=_regex, metavar="REGEX", help="only tags matching REGEX")
    return parser


def parse_magic_line(line: str) -> argparse.Namespace | None:
    """Parse the arguments of ``%tbnb``; ``None`` when ``--help`` was shown.

    Quoting follows the shell (``'my runs/'``); ``~`` is expanded for local paths
    and URLs are kept as they are. A local path that does not exist is an error.

    Raises
    ------
    IPython.core.error.UsageError
        On any invalid argument, with the usage line and the reason.

    Examples
    --------
    >>> from tbnb.notebook import parse_magic_line
    >>> ns = parse_magic_line("memory://runs --refresh 5 --runs 'seed=0'")
    >>> (ns.logdir, ns.refresh, ns.runs)
    ('memory://runs', 5.0, 'seed=0')
    """
    parser = _parser()
    try:
        words = shlex.split(line, posix=os.name != "nt")
    except ValueError as exc:  # unbalanced quotes
        parser.error(f"cannot parse {line!r}: {exc}")
    try:
        args = parser.parse_args(words)
    except _HelpShownError:
        return None
    args.logdir = _expand_location(args.logdir)
    if "://" not in args.logdir and not Path(args.logdir).is_dir():
        what = "is not a directory" if Path(args.logdir).exists() else "does not exist"
        parser.error(f"logdir {args.logdir!r} {what}")
    return args


def tbnb_magic(line: str) -> None:
    """``%tbnb LOGDIR [--refresh N] [--runs REGEX] [--tags REGEX]``: show a Dashboard."""
    from IPython.display import display

    args = parse_magic_line(line)
    if args is None:
        return
    display(Dashboard(args.logdir, refresh=args.refresh, runs=args.runs, tags=args.tags))


tbnb_magic.__doc__ = _parser().format_help()


def load_ipython_extension(ipython: Any) -> None:
    """Register the ``%tbnb`` line magic (run ``%load_ext tbnb``).

    Examples
    --------
    >>> from IPython.testing.globalipapp import get_ipython   # doctest: +SKIP
    >>> load_ipython_extension(get_ipython())                 # doctest: +SKIP
    """
    ipython.register_magic_function(tbnb_magic, magic_kind="line", magic_name="tbnb")
