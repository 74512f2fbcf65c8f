"""Optional packages of the projector, imported when first needed.

Examples
--------
>>> require("math", "a test").sqrt(9.0)
3.0
>>> try:
...     require("no_such_package", "t-SNE")
... except ImportError as error:
...     print(error)
t-SNE needs no_such_package, which is not installed: pip install 'tbnb[projector]'
"""

from __future__ import annotations

from typing import Any

import tbnb.extras

__all__ = ["EXTRA", "require"]

EXTRA = "projector"
"""The extra that installs them: ``pip install 'tbnb[projector]'``."""


def require(module: str, what: str) -> Any:
    """Import ``module``, or raise an ``ImportError`` naming the extra that installs it."""
    return tbnb.extras.require(module, what, EXTRA)
