"""The custom-scalars dashboard: a layout's multiline and margin charts, drawn as scalars.

``tbnb.custom_scalars(...)`` (:mod:`~tbnb.widgets.custom_scalars.factory`) builds a
:class:`~tbnb.widgets.custom_scalars.widget.CustomScalarsWidget`;
:mod:`~tbnb.widgets.custom_scalars.prepare` resolves a layout against the scalars and
builds the view spec ``.to_plotly()`` draws. Layouts
are decoded by :mod:`tbnb.kinds.custom_scalars`. Its front end is
``js/src/widgets/custom_scalars/``.
"""

from __future__ import annotations

from tbnb.widgets.custom_scalars.factory import custom_scalars
from tbnb.widgets.custom_scalars.widget import CustomScalarsWidget

__all__ = ["CustomScalarsWidget", "custom_scalars"]
