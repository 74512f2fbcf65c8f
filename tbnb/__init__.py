"""tbnb: TensorBoard logs in Jupyter, as tidy pandas DataFrames and interactive widgets.

Examples
--------
>>> import tbnb
>>> exp = tbnb.load("runs/")            # doctest: +SKIP
>>> exp.scalars.head()                  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# Public names and the module that defines each. Imported on first use so that
# `import tbnb` stays cheap (no widget stack for a pure loader user).
_LAZY = {
    "load": "tbnb.experiment",
    "Experiment": "tbnb.experiment",
    "SummaryReader": "tbnb.reader",
    "histogram_percentiles": "tbnb.frames",
    "scalars": "tbnb.widgets.scalars",
    "hparams": "tbnb.widgets.hparams",
    "link": "tbnb.widgets.hparams",
    "Dashboard": "tbnb.notebook",
}

__all__ = [
    "Dashboard",
    "Experiment",
    "SummaryReader",
    "histogram_percentiles",
    "hparams",
    "link",
    "load",
    "load_ipython_extension",
    "scalars",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tbnb' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def load_ipython_extension(ipython: Any) -> None:
    """Register the ``%tbnb`` magic (``%load_ext tbnb``)."""
    from tbnb.notebook import load_ipython_extension as _load

    _load(ipython)
