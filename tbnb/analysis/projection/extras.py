"""Optional packages of the projector, imported when first needed.

Examples
--------
>>> require("math", "a test").sqrt(9.0)
3.0
>>> require("no_such_package", "t-SNE")
Traceback (most recent call last):
...
ImportError: t-SNE needs no_such_package, which is not installed: pip install 'tbnb[projector]'
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["EXTRA", "require"]

EXTRA = "projector"
"""The extra that installs them: ``pip install 'tbnb[projector]'``."""


def require(module: str, what: str) -> Any:
    """Import ``module``, or raise an ``ImportError`` naming the extra that installs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        package = module.split(".", maxsplit=1)[0]
        raise ImportError(
            f"{what} needs {package}, which is not installed: pip install 'tbnb[{EXTRA}]'"
        ) from None
