"""The projector's selection: indices from the browser's lasso or box, back in Python.

The browser sends the selected row numbers as one binary ``int32`` buffer
(``_selection``); :class:`Selectable` checks them against the metadata's length (a
selection outside it is dropped with a warning), keeps them sorted and unique, and calls
every ``on_select`` callback with :attr:`~Selectable.selected`, a DataFrame of the row
numbers and their metadata.

Examples
--------
>>> import pandas as pd
>>> class View(Selectable):
...     def __init__(self):
...         super().__init__()
...         self._frame = pd.DataFrame({"label": ["a", "b", "c"]})
>>> view = View()
>>> seen = []
>>> view.on_select(lambda df: seen.append(df["label"].tolist()))
>>> view.select([2, 0])
>>> view.selected_indices.tolist(), seen
([0, 2], [['a', 'c']])
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import traitlets as t

from tbnb.widgets.embeddings.prepare import selection_frame, unique_rows
from tbnb.widgets.serializers import tree_serialization

__all__ = ["Selectable"]

log = logging.getLogger(__name__)


class Selectable(t.HasTraits):
    """The ``_selection`` trait and what Python makes of it (needs ``self._frame``)."""

    _selection = t.Dict().tag(sync=True, **tree_serialization)
    _frame: pd.DataFrame

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._callbacks: list[Callable[[pd.DataFrame], Any]] = []
        self._last_selection: np.ndarray = np.zeros(0, np.int64)
        self.observe(self._on_selection, "_selection")

    def _on_selection(self, change: Any) -> None:
        raw = (change["new"] or {}).get("indices")
        indices = np.zeros(0, np.int64) if raw is None else np.asarray(raw, np.int64).ravel()
        n = len(self._frame)
        if len(indices) and (indices.min() < 0 or indices.max() >= n):
            log.warning("tbnb projector: selection outside 0..%d ignored", n - 1)
            indices = indices[(indices >= 0) & (indices < n)]
        indices = unique_rows(indices, n)
        if np.array_equal(indices, self._last_selection):
            return
        self._last_selection = indices
        if self._callbacks:
            selected = self.selected
            for callback in list(self._callbacks):
                callback(selected)

    @property
    def selected_indices(self) -> np.ndarray:
        """Row numbers of the selected points (sorted)."""
        indices: np.ndarray = self._last_selection.copy()
        return indices

    @property
    def selected(self) -> pd.DataFrame:
        """The selected points: ``index`` (row number), then their metadata."""
        return selection_frame(self._frame, self._last_selection)

    def select(self, indices: Any) -> None:
        """Select points by row number (shown in the browser; ``[]`` clears)."""
        self._selection = {"indices": np.asarray(indices, dtype=np.int32).ravel()}

    def on_select(self, callback: Callable[[pd.DataFrame], Any]) -> None:
        """Call ``callback(selected)`` whenever the selection changes (lasso, box, Python)."""
        self._callbacks.append(callback)
