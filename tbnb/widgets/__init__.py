"""anywidget widgets: one Python module + one front-end module (``js/src/<key>.js``) each."""

from __future__ import annotations

from tbnb.widgets._base import TbnbWidget, run_color
from tbnb.widgets.scalars import ScalarsWidget, scalars

__all__ = ["ScalarsWidget", "TbnbWidget", "run_color", "scalars"]
