"""The text dashboard: markdown rendered as TensorBoard does (sanitised), tables, raw text.

``tbnb.text(...)`` (:mod:`~tbnb.widgets.text.factory`) builds a
:class:`~tbnb.widgets.text.widget.TextWidget`; :mod:`~tbnb.widgets.text.render` renders
and sanitises markdown, :mod:`~tbnb.widgets.text.prepare` holds the pure steps and
the view spec ``.to_plotly()`` draws. Its front end is
``js/src/widgets/text/``.
"""

from __future__ import annotations

from tbnb.widgets.text.factory import TextOptions, text
from tbnb.widgets.text.widget import TextWidget

__all__ = ["TextOptions", "TextWidget", "text"]
