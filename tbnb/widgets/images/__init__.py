"""The images dashboard: one card per (run, tag), a step slider each and a global one.

``tbnb.images(...)`` (:mod:`~tbnb.widgets.images.factory`) builds an
:class:`~tbnb.widgets.images.widget.ImagesWidget`; :mod:`~tbnb.widgets.images.prepare`
holds the pure steps and :mod:`~tbnb.widgets.images.view` the view spec ``.to_plotly()``
draws. Its front end is ``js/src/widgets/images/``.
"""

from __future__ import annotations

from tbnb.widgets.images.factory import ImagesOptions, images
from tbnb.widgets.images.widget import ImagesWidget

__all__ = ["ImagesOptions", "ImagesWidget", "images"]
