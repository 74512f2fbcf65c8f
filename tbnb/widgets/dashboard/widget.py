"""Tabs of views in one anywidget: the dashboard's container, drawn wherever anywidgets draw.

Python side of ``js/src/widgets/dashboard/`` (widget key ``"dashboard"``). One widget holds
a header (structured text, never HTML), a bar above the tabs (the run selection) and one
page per tab; each page is another widget's model, referenced by id, which the front end
draws with that widget's view from the one bundle (:mod:`tbnb.widgets.bundle`). No
ipywidgets container is involved, so the dashboard draws in every front end that runs
anywidgets: JupyterLab, Notebook 7, VS Code, marimo, Voilà, saved notebooks and exported
pages. What goes in the tabs is decided by :class:`tbnb.Dashboard`
(``tbnb/notebook/dashboard.py``); this widget only shows them.

Examples
--------
>>> import ipywidgets
>>> box = DashboardWidget(tabs=[{"key": "a", "title": "A"}, {"key": "b", "title": "B"}])
>>> box.set_page("a", ipywidgets.Widget())
>>> list(box.pages), box.titles
(['a'], ['A', 'B'])
>>> box.set_error("b", "ValueError: no <data>")
>>> box.errors
{'b': 'ValueError: no <data>'}
>>> box.close()
"""

from __future__ import annotations

import ipywidgets
import traitlets as t

from tbnb.widgets.base import TbnbWidget

__all__ = ["DashboardWidget"]


class DashboardWidget(TbnbWidget):
    """Tabs of widgets, a header and a bar, in one anywidget.

    Traits (synced with the browser)
    --------------------------------
    header : dict
        ``{"location", "parts", "filters", "note", "state"}``: the logdir (shown as
        code), what was found (a list of short texts), the filters in force, a note
        under it, and ``"data"`` or ``"empty"``. All text: the front end never parses
        it as HTML.
    tabs : list of dict
        ``{"key", "title"}`` per tab, in order.
    selected_index : int
        The tab shown (the front end sets it when the user opens one).
    pages : dict of str to Widget
        The widget of each tab built so far, by tab key.
    page_keys : dict of str to str
        The widget key of each page (which view of the one bundle draws it).
    errors : dict of str to str
        Why a tab could not be built (shown as text in its page).
    bar : Widget or None
        The widget drawn above the tabs (the run selection).
    """

    _widget_key = "dashboard"

    header = t.Dict().tag(sync=True)
    tabs = t.List(t.Dict()).tag(sync=True)
    selected_index = t.Int(0).tag(sync=True)
    pages = t.Dict(value_trait=t.Instance(ipywidgets.Widget)).tag(
        sync=True, **ipywidgets.widget_serialization
    )
    page_keys = t.Dict(value_trait=t.Unicode()).tag(sync=True)
    errors = t.Dict(value_trait=t.Unicode()).tag(sync=True)
    bar = t.Instance(ipywidgets.Widget, allow_none=True).tag(
        sync=True, **ipywidgets.widget_serialization
    )

    @property
    def titles(self) -> list[str]:
        """The tab titles, in order."""
        return [str(tab.get("title", "")) for tab in self.tabs]

    @property
    def tab_keys(self) -> list[str]:
        """The tab keys, in order."""
        return [str(tab.get("key", "")) for tab in self.tabs]

    def set_page(self, key: str, widget: ipywidgets.Widget) -> None:
        """Show ``widget`` as tab ``key``'s page."""
        with self.hold_sync():
            self.page_keys = {**self.page_keys, key: getattr(widget, "_widget_key", "") or ""}
            self.pages = {**self.pages, key: widget}
            self.errors = {k: v for k, v in self.errors.items() if k != key}

    def set_error(self, key: str, message: str) -> None:
        """Show ``message`` (text) in tab ``key``'s page instead of a widget."""
        self.errors = {**self.errors, key: str(message)}

    def add_tab(self, key: str, title: str, at: int | None = None) -> None:
        """Add tab ``key`` at position ``at`` (the end by default); the tab shown stays."""
        if key in self.tab_keys:
            return
        tabs = list(self.tabs)
        index = len(tabs) if at is None else max(0, min(at, len(tabs)))
        tabs.insert(index, {"key": key, "title": title})
        shown = self.selected_index
        with self.hold_sync():
            self.tabs = tabs
            if index <= shown and len(tabs) > 1:
                self.selected_index = shown + 1
