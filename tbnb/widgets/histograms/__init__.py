"""The histograms and distributions dashboards: one widget, five modes.

``tbnb.histograms(...)`` and ``tbnb.distributions(...)``
(:mod:`~tbnb.widgets.histograms.factory`) build a
:class:`~tbnb.widgets.histograms.widget.HistogramsWidget` (traits, requests, live refresh)
over a :class:`~tbnb.widgets.histograms.store.HistogramStore`;
:mod:`~tbnb.widgets.histograms.prepare` holds the pure store -> payload steps,
:mod:`~tbnb.widgets.histograms.frames` the shown data as frames and
:mod:`~tbnb.widgets.histograms.view` the view spec ``.to_plotly()`` draws. Its front
end is
``js/src/widgets/histograms/``.
"""

from __future__ import annotations

from tbnb.widgets.histograms.factory import HistogramsOptions, distributions, histograms
from tbnb.widgets.histograms.widget import HistogramsWidget

__all__ = ["HistogramsOptions", "HistogramsWidget", "distributions", "histograms"]
