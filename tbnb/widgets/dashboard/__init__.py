"""Tabs of views in one anywidget, with a header and a bar above them (see :mod:`.widget`)."""

from tbnb.widgets.dashboard.widget import DashboardWidget

__all__ = ["DashboardWidget"]
