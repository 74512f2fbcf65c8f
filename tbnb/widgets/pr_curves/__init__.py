"""The PR-curves dashboard: PR and ROC curves per tag, runs overlaid, areas per step.

``tbnb.pr_curves(...)`` (:mod:`~tbnb.widgets.pr_curves.factory`) builds a
:class:`~tbnb.widgets.pr_curves.widget.PrCurvesWidget`;
:mod:`~tbnb.widgets.pr_curves.prepare` holds the pure frame -> payload steps and
:mod:`~tbnb.widgets.pr_curves.view` the view spec ``.to_plotly()`` draws. The areas
come from
:mod:`tbnb.analysis.pr_curves`. Its front end is ``js/src/widgets/pr_curves/``.
"""

from __future__ import annotations

from tbnb.widgets.pr_curves.factory import pr_curves
from tbnb.widgets.pr_curves.widget import PrCurvesWidget

__all__ = ["PrCurvesWidget", "pr_curves"]
