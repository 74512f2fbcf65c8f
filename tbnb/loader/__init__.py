"""Layer ``loader``: logdirs into tidy DataFrames, kept up to date.

Above ``io``, ``decode`` and ``kinds``; below ``analysis``, ``transforms``,
``widgets`` and ``notebook``. One task per run reads its new bytes
(:mod:`~tbnb.loader.run`), the :class:`~tbnb.loader.experiment.Experiment` keeps
what they found (scalars in a columnar store, every other kind as rows) and hands
out frames; its :class:`~tbnb.loader.coordinator.ReloadCoordinator` serialises
reloads and tells subscribers what changed.
"""

from __future__ import annotations

from tbnb.loader.experiment import Experiment, load
from tbnb.loader.report import ReloadReport

__all__ = ["Experiment", "ReloadReport", "load"]
