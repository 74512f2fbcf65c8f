"""Optional packages, imported when first needed, with the extra that installs them.

``pip install tbnb`` is the loader, the widgets and the dashboard. What only some
features use comes with an extra and is imported by those features alone, through
:func:`require`, which names the extra when the package is missing:

- ``projector``: t-SNE (openTSNE) and UMAP (numba kernels, scipy) layouts;
- ``stats``: parameter importance in the hparams view (scikit-learn) and the ci95
  band of seed aggregation (scipy's Student's t);
- ``demo``: JupyterLab and the sample logdir's writer (tensorboardX, with pillow and
  soundfile for its images and audio);
- ``plotly``, ``graph``, ``s3``, ``gcs``, ``azure``: ``.to_plotly()``,
  ``ModelGraph.to_networkx()`` and remote logdirs.

Examples
--------
>>> require("math", "a test", "stats").sqrt(9.0)
3.0
>>> try:
...     require("no_such_package", "t-SNE", "projector")
... except MissingExtraError as error:
...     print(error)
t-SNE needs no_such_package, which is not installed: pip install 'tbnb[projector]'
>>> installed("no_such_package")
False
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from typing import Any

__all__ = ["DISTRIBUTIONS", "MissingExtraError", "installed", "require"]

DISTRIBUTIONS = {
    "numba": "numba",
    "scipy": "scipy",
    "sklearn": "scikit-learn",
    "openTSNE": "openTSNE",
    "tensorboardX": "tensorboardX",
    "PIL": "pillow",
    "soundfile": "soundfile",
    "plotly": "plotly",
    "networkx": "networkx",
}
"""Import name -> the distribution an extra lists for it (checked against pyproject.toml)."""


class MissingExtraError(ImportError):
    """An optional package is missing; the message names the extra that installs it."""

    def __init__(self, message: str, *, name: str, extra: str) -> None:
        super().__init__(message, name=name)
        self.extra = extra


def installed(module: str) -> bool:
    """Whether ``module`` is importable, found without importing it.

    Examples
    --------
    >>> installed("json")
    True
    """
    if module in sys.modules:
        return sys.modules[module] is not None
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def require(module: str, what: str, extra: str) -> Any:
    """Import ``module``, or raise :class:`MissingExtraError` naming ``extra``.

    Parameters
    ----------
    module
        What to import (``"sklearn.ensemble"``, ``"scipy.stats"``, ...).
    what
        The feature that needs it, as the user knows it (``"parameter importance"``).
    extra
        The extra of ``tbnb`` that installs it (``pip install 'tbnb[<extra>]'``).

    Returns
    -------
    module
        The imported module.
    """
    try:
        return importlib.import_module(module)
    except ImportError as error:
        package = module.split(".", maxsplit=1)[0]
        if error.name is not None and error.name.split(".")[0] != package:
            raise  # the package is there but broken: its own error says more
        raise MissingExtraError(
            f"{what} needs {package}, which is not installed: pip install 'tbnb[{extra}]'",
            name=package,
            extra=extra,
        ) from None
