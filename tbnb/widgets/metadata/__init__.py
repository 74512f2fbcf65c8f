"""The run information panel: :func:`runs` builds a :class:`RunsWidget` (``tbnb.runs``)."""

from __future__ import annotations

from tbnb.widgets.metadata.factory import runs
from tbnb.widgets.metadata.widget import RunsWidget

__all__ = ["RunsWidget", "runs"]
