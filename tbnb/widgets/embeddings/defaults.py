"""The projector's defaults for the data shown: colour and label columns, sprites, point size.

:class:`ChosenDefaults` picks what a user did not choose whenever data is shown (a new
embedding from the picker included): a colour column that groups points, a label
column, sprites only when no column colours the points (a sprite hides its point's
colour), and a point size for the number of points. A value the user sets (``sprites``,
``point_size``) is theirs from then on.

Examples
--------
>>> import numpy as np, pandas as pd, tbnb
>>> w = tbnb.projector(np.eye(3, dtype=np.float32), pd.DataFrame({"k": ["a", "b", "a"]}))
>>> w.color_by, w.sprites, w.point_size
('k', False, 10.0)
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

import pandas as pd
import traitlets as t

from tbnb.widgets.embeddings.prepare import default_color, default_label, default_point_size

__all__ = ["ChosenDefaults"]


class ChosenDefaults(t.HasTraits):
    """Defaults chosen for the data (needs ``self._frame`` and the projector's traits)."""

    _frame: pd.DataFrame
    color_by: str
    label_by: str
    sprites: bool
    point_size: float
    if TYPE_CHECKING:  # an ipywidgets Widget's, on the class this is mixed into

        def hold_sync(self) -> AbstractContextManager[Any]: ...

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._automatic = {"sprites", "point_size"}  # chosen for the data until a user sets them
        self._defaulting = False
        self.observe(self._on_style, ["sprites", "point_size"])

    def _on_style(self, change: Any) -> None:
        if not self._defaulting:
            self._automatic.discard(change["name"])

    def _choose_defaults(self, color: str | None = None, label: str | None = None) -> None:
        """Colour and label columns (``None``: kept if the data has them, else chosen),
        then the sprites and point size nobody chose, for the data shown."""
        frame = self._frame
        columns = set(map(str, frame.columns))
        self._defaulting = True
        try:
            with self.hold_sync():
                if color is None:
                    color = self.color_by if self.color_by in columns else default_color(frame)
                self.color_by = color
                if label is None:
                    label = (
                        self.label_by
                        if self.label_by in columns
                        else default_label(frame, self.color_by)
                    )
                self.label_by = label
                if "sprites" in self._automatic:
                    self.sprites = not self.color_by
                if "point_size" in self._automatic:
                    self.point_size = default_point_size(len(frame))
        finally:
            self._defaulting = False
