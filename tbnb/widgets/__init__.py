"""Layer ``widgets``: one folder per view, ``tbnb/widgets/<key>/``, each with its front end
in ``js/src/widgets/<key>/``.

Every widget derives from :class:`~tbnb.widgets.base.TbnbWidget` (bundle lookup,
the request channel, ``to_plotly()`` of its view spec); arrays travel as binary buffers
(:mod:`~tbnb.widgets.serializers`). The platform the views share lives here: what a
builder accepts (:mod:`~tbnb.widgets.source`), trait types (:mod:`~tbnb.widgets.traits`),
run colours (:mod:`~tbnb.widgets.colors`), name ordering (:mod:`~tbnb.widgets.ordering`),
line series (:mod:`~tbnb.widgets.series`), cards (:mod:`~tbnb.widgets.cards`,
:mod:`~tbnb.widgets.media`) and the view spec (:mod:`~tbnb.widgets.spec`, drawn by
:mod:`~tbnb.widgets.plotly_figure`). Builders (``tbnb.scalars``, ``tbnb.hparams``) live
in each folder's ``factory`` module and are imported on first use.
"""

from __future__ import annotations

from tbnb.widgets.base import TbnbWidget

__all__ = ["TbnbWidget"]
