"""The profiler view: :func:`profiler` builds a :class:`ProfileWidget` (``tbnb.profiler``)."""

from __future__ import annotations

from tbnb.widgets.profile.factory import profiler
from tbnb.widgets.profile.widget import ProfileWidget

__all__ = ["ProfileWidget", "profiler"]
