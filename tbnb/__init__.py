"""tbnb: TensorBoard logs in Jupyter, as tidy pandas DataFrames and interactive widgets.

Layers, each a folder, a lower one never importing a higher one::

    io -> decode -> kinds -> loader -> analysis / transforms / compat -> widgets -> notebook

Examples
--------
>>> import tbnb
>>> experiment = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
>>> len(experiment.runs), len(experiment.hparams)
(9, 9)
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

# Public names and the module that defines each. Imported on first use so that
# `import tbnb` stays cheap (no widget stack for a pure loader user). The builder of
# every dashboard view (``tbnb.scalars``, ``tbnb.hparams``, ...) comes from the kind
# registry: a kind's ``Tab("Title", "tbnb.widgets.<key>:<builder>")`` makes
# ``tbnb.<builder>``.
_LAZY = {
    "load": "tbnb.loader.experiment",
    "Experiment": "tbnb.loader.experiment",
    "SummaryReader": "tbnb.compat.tbparse",
    "histogram_percentiles": "tbnb.kinds.distributions",
    "link": "tbnb.widgets.hparams",
    "Dashboard": "tbnb.notebook.dashboard",
    "to_csv": "tbnb.io.safe_text",
    "profile": "tbnb.kinds.profile",
    "ProfileSet": "tbnb.kinds.profile",
}

# Modules reachable as attributes (``tbnb.samples.sample_logdir()``) without an import.
_MODULES = {
    "samples": "tbnb.notebook.samples",
    "kinds": "tbnb.kinds",
}

__all__ = [
    "Dashboard",
    "Experiment",
    "ProfileSet",
    "SummaryReader",
    "histogram_percentiles",
    "hparams",
    "link",
    "load",
    "load_ipython_extension",
    "profile",
    "samples",
    "scalars",
    "to_csv",
]


def _builders() -> dict[str, str]:
    """``{builder name: module}`` of every kind's dashboard tab (see ``tbnb.kinds``)."""
    from tbnb.kinds import KINDS

    out = {}
    for kind in KINDS.values():
        factory = kind.tab.factory if kind.tab is not None else None
        if isinstance(factory, str):
            module, _, name = factory.partition(":")
            out[name] = module
    return out


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is not None:
        value = importlib.import_module(module)
    else:
        where = _LAZY.get(name) or (None if name.startswith("_") else _builders().get(name))
        if where is None:
            raise AttributeError(f"module 'tbnb' has no attribute {name!r}")
        value = getattr(importlib.import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | set(_MODULES) | set(_builders()))


def load_ipython_extension(ipython: Any) -> None:
    """Register the ``%tbnb`` magic (``%load_ext tbnb``)."""
    from tbnb.notebook.magic import load_ipython_extension as _load

    _load(ipython)
