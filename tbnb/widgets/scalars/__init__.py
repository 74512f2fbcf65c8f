"""The scalars dashboard: one chart per tag, every selected run in it.

``tbnb.scalars(...)`` (:mod:`~tbnb.widgets.scalars.factory`) builds a
:class:`~tbnb.widgets.scalars.widget.ScalarsWidget` (traits, data channel, live
refresh); :mod:`~tbnb.widgets.scalars.prepare` holds the pure frame -> payload steps
and the view spec ``.to_plotly()`` draws. Its front end is
``js/src/widgets/scalars/``.
"""

from __future__ import annotations

from tbnb.widgets.scalars.factory import ScalarsOptions, scalars
from tbnb.widgets.scalars.widget import ScalarsWidget

__all__ = ["ScalarsOptions", "ScalarsWidget", "scalars"]
