"""The dashboard's tabs: one per kind present, each built when first opened.

A kind gets a tab by declaring one (:attr:`tbnb.kinds.base.Kind.tab`): the title, the
widget builder (``"module:function"``, imported when the tab is built, so the dashboard
loads only the widgets it shows) and whether it follows live reloads. :class:`LazyTabs`
fills the tabs of a :class:`~tbnb.widgets.dashboard.DashboardWidget`; a page's widget is
built the first time its tab is selected (or asked for through :class:`LazyViews`), so a
dashboard of twelve kinds costs one widget until the user looks further. The other tabs'
modules are imported in a background thread meanwhile.

Examples
--------
>>> titles = [spec.title for spec in tabs()]
>>> titles[0], "HParams" in titles
('Scalars', True)
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import ipywidgets

from tbnb.kinds import KINDS, Kind
from tbnb.kinds.base import resolve as resolve_reference

if TYPE_CHECKING:
    from tbnb.widgets.dashboard import DashboardWidget

__all__ = ["LazyTabs", "LazyViews", "TabSpec", "tabs"]

log = logging.getLogger(__name__)


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
        try:
            if tab.present is not None:
                return bool(tab.present(experiment))
            count = experiment.count(self.key) if tab.shown is None else -1
            if count >= 0:  # counted by the loader: no frame built to know
                return count > 0
        except AttributeError:  # a stand-in for an Experiment: build the frame
            pass
        frame = (
            experiment.frame(self.key)
            if hasattr(experiment, "frame")
            else getattr(experiment, self.key, None)
        )
        if frame is None:
            return False
        if tab.shown is not None:
            return bool(tab.shown(frame))
        return len(frame) > 0

    def build(self, experiment: Any, *, refresh: float | None) -> ipywidgets.Widget:
        """Build this tab's widget for ``experiment``."""
        tab = self.kind.tab
        assert tab is not None
        function = resolve(tab.factory)
        if tab.live:
            return function(experiment, refresh=refresh)
        return function(experiment)


def tabs() -> list[TabSpec]:
    """Every kind's tab, in the registry's order."""
    return [TabSpec(kind) for kind in KINDS.values() if kind.tab is not None]


def resolve(target: str | Callable[..., Any]) -> Callable[..., Any]:
    """The function ``"module:name"`` names (imported now), or ``target`` itself."""
    return resolve_reference(target) if isinstance(target, str) else target


class LazyTabs:
    """The tabs of a :class:`~tbnb.widgets.dashboard.DashboardWidget`, each page built
    when its tab is first selected.

    Parameters
    ----------
    board
        The widget showing the tabs (its ``tabs``, ``pages`` and ``selected_index``).
    specs
        The tabs, in order.
    build
        Builds the widget of one tab (called once per tab).
    """

    def __init__(
        self,
        board: DashboardWidget,
        specs: list[TabSpec],
        build: Callable[[TabSpec], ipywidgets.Widget],
    ) -> None:
        self.board = board
        self.specs = list(specs)
        self._build = build
        self.built: dict[str, ipywidgets.Widget] = {}
        board.tabs = [{"key": s.key, "title": s.title} for s in self.specs]
        board.observe(self._on_select, "selected_index")
        if self.specs:
            self.view(self.specs[0].key)
        self._warm = threading.Thread(
            target=self._import_the_rest, name="tbnb-tab-imports", daemon=True
        )
        self._warm.start()

    def _import_the_rest(self) -> None:
        """Import the other tabs' widget modules now, so opening one costs no imports
        (the hparams view's importance needs scikit-learn: seconds to import)."""
        for spec in self.specs[1:]:
            tab = spec.kind.tab
            if tab is not None and isinstance(tab.factory, str):
                try:
                    resolve(tab.factory)
                except Exception:
                    log.debug("tbnb: importing %s failed", tab.factory, exc_info=True)

    def add(self, spec: TabSpec) -> None:
        """Add a tab that has data now, at its place in the registry's order (the tab
        shown stays shown); nothing is built until it is opened."""
        if any(s.key == spec.key for s in self.specs):
            return
        order = [s.key for s in tabs()]
        at = sum(1 for s in self.specs if order.index(s.key) < order.index(spec.key))
        self.specs.insert(at, spec)
        self.board.add_tab(spec.key, spec.title, at)
        if len(self.specs) == 1:
            self.view(spec.key)

    def _on_select(self, change: Any) -> None:
        index = change["new"]
        if isinstance(index, int) and 0 <= index < len(self.specs):
            # A failure is logged and shown on the page; the other tabs keep working.
            with contextlib.suppress(Exception):
                self.view(self.specs[index].key)

    def view(self, key: str) -> ipywidgets.Widget:
        """The widget of tab ``key``, built now if it was not yet."""
        if key in self.built:
            return self.built[key]
        spec = next((s for s in self.specs if s.key == key), None)
        if spec is None:
            raise KeyError(f"no {key!r} tab; tabs: {[s.key for s in self.specs]}")
        try:
            widget = self._build(spec)
        except Exception as err:  # one tab's failure leaves the others working
            log.exception("tbnb: building the %s tab failed", spec.title)
            self.board.set_error(key, f"{type(err).__name__}: {err}")
            raise
        self.built[key] = widget
        self.board.set_page(key, widget)
        return widget

    def build_all(self) -> None:
        """Build every tab not built yet (an exported page shows them all)."""
        for spec in list(self.specs):
            if spec.key not in self.built:
                try:
                    self.view(spec.key)
                except Exception:
                    continue

    def close(self) -> None:
        """Close every built widget."""
        for widget in self.built.values():
            widget.close()


class LazyViews(Mapping[str, ipywidgets.Widget]):
    """``dash.views``: every present tab's widget by kind, built on first access."""

    def __init__(self, tabs: LazyTabs) -> None:
        self._tabs = tabs

    def __getitem__(self, key: str) -> ipywidgets.Widget:
        if key not in self:
            raise KeyError(key)
        return self._tabs.view(key)

    def __contains__(self, key: object) -> bool:
        return any(spec.key == key for spec in self._tabs.specs)

    def __iter__(self) -> Iterator[str]:
        return (spec.key for spec in self._tabs.specs)

    def __len__(self) -> int:
        return len(self._tabs.specs)

    @property
    def built(self) -> dict[str, ipywidgets.Widget]:
        """The widgets built so far, by kind."""
        return dict(self._tabs.built)
