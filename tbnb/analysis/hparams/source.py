"""What the hparams table is built from: the :class:`HParamsSource` protocol.

:class:`tbnb.Experiment` implements it; tests implement it with plain data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

import pandas as pd

if TYPE_CHECKING:
    import fsspec

__all__ = ["HParamsSource"]


@runtime_checkable
class HParamsSource(Protocol):
    """What :func:`hparams_frame` reads; :class:`tbnb.Experiment` implements it."""

    @property
    def all_runs(self) -> list[str]:
        """Run names relative to the logdir (``"."`` is the root run), sub-runs included."""
        ...

    @property
    def scalars(self) -> pd.DataFrame:
        """Columns ``run, tag, step, wall_time, value`` for every run."""
        ...

    @property
    def hparams_values(self) -> list[tuple[str, str, int, bytes]]:
        """``(run, tag, step, content)`` of every hparams-plugin value, in stream order.

        ``content`` is the serialized ``HParamsPluginData`` (``plugin_data.content``).
        """
        ...

    @property
    def fs(self) -> fsspec.AbstractFileSystem:
        """File system holding the logdir (to read config files beside the events)."""
        ...

    def run_path(self, run: str) -> str:
        """Directory of ``run`` as a local path or fsspec URL."""
        ...
