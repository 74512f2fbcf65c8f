"""One run selection for a whole dashboard: the run selector every tab follows.

Python side of ``js/src/widgets/selection/`` (widget key ``"selection"``). A compact bar
(how many runs are shown, the hparams filter in force) that opens the kit's run selector
over every run of the experiment, in the experiment's colours. :func:`share_runs` ties a
tab's ``selected_runs`` to it both in Python and in the browser (``ipywidgets.jslink``, so
a saved notebook or an exported page stays linked), and an hparams view's selection
filters it (:func:`tbnb.widgets.selection.apply_hparams`).
"""

from __future__ import annotations

from typing import Any

import ipywidgets
import traitlets as t

from tbnb.widgets.colors import RunColored
from tbnb.widgets.live import LiveWidget
from tbnb.widgets.selection.prepare import apply_hparams
from tbnb.widgets.traits import Regex

__all__ = ["RunSelectionWidget", "follow_hparams", "share_runs"]


class RunSelectionWidget(LiveWidget, RunColored):
    """The runs every tab of a dashboard shows.

    Traits (synced with the browser)
    --------------------------------
    runs : list of str
        Every run, in the experiment's order.
    selected_runs : list of str
        The runs shown (tabs tied by :func:`share_runs` follow it).
    run_filter : str
        Case-insensitive regex over run names (the selector's filter).
    hparams_runs, hparams_universe : list of str
        The runs the hparams view selects, among those it knows.
    run_colors, palette
        The experiment's run colours.

    Examples
    --------
    >>> hub = RunSelectionWidget.of(["a", "b", "c"])
    >>> hub.selected_runs
    ['a', 'b', 'c']
    >>> hub.filter_by_hparams(universe=["a", "b"], chosen=["b"])
    >>> hub.selected_runs
    ['b', 'c']
    """

    _widget_key = "selection"

    runs = t.List(t.Unicode()).tag(sync=True)
    selected_runs = t.List(t.Unicode()).tag(sync=True)
    run_filter = Regex().tag(sync=True)
    hparams_runs = t.List(t.Unicode()).tag(sync=True)
    hparams_universe = t.List(t.Unicode()).tag(sync=True)

    @classmethod
    def of(cls, runs: list[str], palette: str = "default") -> RunSelectionWidget:
        """A selection over ``runs``, all selected."""
        runs = [str(r) for r in runs]
        hub = cls(runs=runs, selected_runs=runs, palette=palette)
        hub.color_runs(runs)
        return hub

    def filter_by_hparams(self, *, universe: list[str], chosen: list[str]) -> None:
        """Select exactly ``chosen`` among the runs an hparams view knows (``universe``)."""
        with self.hold_trait_notifications():
            self.hparams_universe = [str(r) for r in universe]
            self.hparams_runs = [str(r) for r in chosen]

    @t.observe("hparams_runs")
    def _on_hparams(self, change: Any) -> None:
        if not self.hparams_universe:
            return
        self.selected_runs = apply_hparams(
            self.runs, self.selected_runs, self.hparams_universe, change["new"]
        )

    def _on_reload(self, _report: Any = None) -> None:
        with self._lock:
            runs = [str(r) for r in self._source.runs]
            fresh = [r for r in runs if r not in self.runs]
            if not fresh:
                return
            self.runs = runs
            self.color_runs(runs)
            self.selected_runs = list(dict.fromkeys([*self.selected_runs, *fresh]))
            self._sent += 1


def share_runs(hub: RunSelectionWidget, view: ipywidgets.Widget) -> list[Any]:
    """Make ``view`` show the runs ``hub`` selects, and its run changes ``hub``'s.

    Returns the links made (``.unlink()`` each to undo): a Python link (works with no
    browser) and a browser one (a saved notebook or exported page stays linked).

    Examples
    --------
    >>> from tbnb.widgets.hparams import HParamsWidget
    >>> hub = RunSelectionWidget.of(["a", "b"])
    >>> view = RunSelectionWidget.of(["a", "b"])  # any widget with selected_runs
    >>> links = share_runs(hub, view)
    >>> hub.selected_runs = ["b"]
    >>> view.selected_runs
    ['b']
    """
    if not hasattr(view, "selected_runs"):
        raise TypeError(f"{type(view).__name__} has no selected_runs to share")
    python_link = t.link((hub, "selected_runs"), (view, "selected_runs"))
    browser_link = ipywidgets.jslink((hub, "selected_runs"), (view, "selected_runs"))
    return [python_link, browser_link]


def follow_hparams(hub: RunSelectionWidget, hp: Any) -> list[Any]:
    """Let the hparams view ``hp``'s selection filter ``hub`` (Python and browser).

    The runs ``hp`` knows are every member of its rows; runs it does not know keep
    their state.
    """
    universe = hp.known_runs
    # Known first, applied never: tying a view on changes nothing until it selects.
    hub.hparams_universe = []
    hub.hparams_runs = [str(r) for r in hp.selected_runs]
    hub.hparams_universe = universe

    def forward(change: Any) -> None:
        hub.hparams_runs = list(change["new"])

    hp.observe(forward, "selected_runs")
    browser_link = ipywidgets.jsdlink((hp, "selected_runs"), (hub, "hparams_runs"))

    class _Unlink:
        def unlink(self) -> None:
            hp.unobserve(forward, "selected_runs")

    return [_Unlink(), browser_link]
