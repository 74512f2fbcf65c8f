"""Which run directories are runs: add_hparams sub-runs and the run filter's candidates.

A run filter keeps a run and its add_hparams sub-run: the children of a kept run that
the filter rejects are loaded as *candidates* and kept only if their content makes
them sub-runs (:func:`tbnb.kinds.hparams.add_hparams_subruns`, the one definition);
the rest are dropped and never read again.

Examples
--------
>>> import tbnb
>>> exp = tbnb.load(tbnb.samples.sample_logdir(), runs="seed=0$", progress=False)
>>> exp.runs
['lr=0.001,seed=0', 'lr=0.003,seed=0', 'lr=0.01,seed=0']
>>> len(exp.all_runs), sorted(set(exp.subruns.values())) == exp.runs
(6, True)
>>> exp.excluded_runs[:2]                      # seeds 1 and 2 of each learning rate
['lr=0.001,seed=1', 'lr=0.001,seed=2']
>>> len(exp.excluded_runs)
6
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tbnb.kinds.hparams import add_hparams_subruns, parent_run, plugin_runs

__all__ = ["RunSet"]

_HPARAMS = "hparams"


class RunSet:
    """The run bookkeeping of an :class:`~tbnb.Experiment` (a mixin of it)."""

    _files: dict[str, Any]
    _store: Any
    _records: Any
    _raw: Any
    _tag_meta: dict[str, Any]
    _candidates: set[str]
    _rejected: set[str]
    _cache: dict[str, Any]
    _discovered: list[str]

    def _settle_candidates(self) -> None:
        """Keep the filtered-out children of kept runs that are add_hparams sub-runs."""
        pending = self._candidates - self._rejected
        if not pending:
            return
        subruns = self.subruns
        for run in sorted(pending - set(subruns)):
            if not self._has_data(run):
                continue  # nothing written yet: decide when something is
            self._rejected.add(run)
            self._drop(run)
        self._cache.clear()

    def _has_data(self, run: str) -> bool:
        store = self._store
        return bool(
            (store is not None and store.run_tags.get(run))
            or any(self._records.get(run, {}).values())
            or any(r[0] == run for values in self._raw.values() for r in values)
        )

    def _drop(self, run: str) -> None:
        if self._store is not None:
            self._store.purge(run, np.iinfo(np.int64).min)
            self._store.run_tags.pop(run, None)
        self._records.pop(run, None)
        self._files.pop(run, None)
        self._tag_meta.pop(run, None)
        for key, values in self._raw.items():
            self._raw[key] = [v for v in values if v[0] != run]

    @property
    def subruns(self) -> dict[str, str]:
        """The runs ``add_hparams`` wrote below a training run, each with its parent.

        They hold only the hparams and final metrics of their parent, so they are
        not in :attr:`runs`; :attr:`all_runs` lists them too.
        """
        cached = self._cache.get("subruns")
        if cached is None:
            store = self._store
            tags = store.run_tags if store is not None else {}
            cached = self._cache["subruns"] = add_hparams_subruns(
                sorted(self._files), plugin_runs(self._raw.get(_HPARAMS, [])), tags
            )
        return dict(cached)

    @property
    def all_runs(self) -> list[str]:
        """Every run directory loaded, add_hparams sub-runs included, sorted."""
        subruns = self.subruns
        return sorted(r for r in self._files if r not in self._candidates or r in subruns)

    @property
    def runs(self) -> list[str]:
        """Run names (relative to the logdir, ``.`` for the logdir itself), sorted.

        add_hparams sub-runs belong to their parent run and are left out (see
        :attr:`subruns`).
        """
        subruns = self.subruns
        return [r for r in self.all_runs if r not in subruns]

    @property
    def excluded_runs(self) -> list[str]:
        """Runs found in the logdir that the ``runs=`` filter left out, sorted.

        A left-out run's child directories (its add_hparams sub-runs, never read) are
        not listed; the sub-runs of kept runs are kept with them.
        """
        kept = set(self.all_runs)
        out = {r for r in getattr(self, "_discovered", []) if r not in kept}
        return sorted(r for r in out if parent_run(r) not in out)
