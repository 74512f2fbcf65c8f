"""Layer ``widgets``: one folder per view, ``tbnb/widgets/<key>/``, each with its front end
in ``js/src/widgets/<key>/``.

Every widget derives from :class:`~tbnb.widgets.base.TbnbWidget` (bundle lookup,
the request channel); arrays travel as binary buffers
(:mod:`~tbnb.widgets.serializers`). Builders (``tbnb.scalars``, ``tbnb.hparams``)
live in each folder's ``factory`` module and are imported on first use.
"""

from __future__ import annotations

from tbnb.widgets.base import TbnbWidget

__all__ = ["TbnbWidget"]
