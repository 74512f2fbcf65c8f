"""The hparams dashboard: parallel coordinates, table, scatter matrix and importance.

``tbnb.hparams(...)`` (:mod:`~tbnb.widgets.hparams.factory`) builds an
:class:`~tbnb.widgets.hparams.widget.HParamsWidget`; :func:`~tbnb.widgets.hparams.link.link`
joins its selection to another view. Its front end is ``js/src/widgets/hparams/``.
"""

from __future__ import annotations

from tbnb.widgets.hparams.factory import HParamsOptions, hparams
from tbnb.widgets.hparams.link import link
from tbnb.widgets.hparams.widget import HParamsWidget

__all__ = ["HParamsOptions", "HParamsWidget", "hparams", "link"]
