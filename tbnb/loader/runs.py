"""Which run directories are runs: add_hparams sub-runs and the run filter's candidates.

A run filter keeps a run and its add_hparams sub-run: the children of a kept run that
the filter rejects are loaded as *candidates* and kept only if their content makes
them sub-runs (:func:`tbnb.kinds.hparams.add_hparams_subruns`, the one definition);
the rest are dropped and never read again. Each function reads and settles the
experiment's state (:class:`~tbnb.loader.experiment_state.ExperimentState`).

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

from typing import TYPE_CHECKING

from tbnb.kinds import KINDS
from tbnb.kinds.hparams import add_hparams_subruns, parent_run, plugin_runs

if TYPE_CHECKING:
    from tbnb.loader.experiment_state import ExperimentState

__all__ = ["all_runs", "excluded_runs", "kept_runs", "settle_candidates", "subruns"]

_HPARAMS = KINDS["hparams"].key


def settle_candidates(state: ExperimentState) -> None:
    """Keep the filtered-out children of kept runs that are add_hparams sub-runs."""
    pending = state.candidates - state.rejected
    if not pending:
        return
    found = subruns(state)
    for run in sorted(pending - set(found)):
        if not _has_data(state, run):
            continue  # nothing written yet: decide when something is
        state.rejected.add(run)
        _drop(state, run)
    state.cache.clear()


def _has_data(state: ExperimentState, run: str) -> bool:
    store = state.store
    return bool(
        (store is not None and store.run_tags.get(run))
        or any(state.records.get(run, {}).values())
        or any(r[0] == run for values in state.raw.values() for r in values)
    )


def _drop(state: ExperimentState, run: str) -> None:
    state.drop_values(run)
    state.files.pop(run, None)
    state.tag_meta.pop(run, None)


def subruns(state: ExperimentState) -> dict[str, str]:
    """The runs ``add_hparams`` wrote below a training run, each with its parent.

    They hold only the hparams and final metrics of their parent, so they are not in
    :func:`kept_runs`; :func:`all_runs` lists them too.
    """
    cached = state.cache.get("subruns")
    if cached is None:
        store = state.store
        tags = store.run_tags if store is not None else {}
        cached = state.cache["subruns"] = add_hparams_subruns(
            sorted(state.files), plugin_runs(state.raw.get(_HPARAMS, [])), tags
        )
    return dict(cached)


def all_runs(state: ExperimentState) -> list[str]:
    """Every run directory loaded, add_hparams sub-runs included, sorted."""
    found = subruns(state)
    return sorted(r for r in state.files if r not in state.candidates or r in found)


def kept_runs(state: ExperimentState) -> list[str]:
    """Run names (relative to the logdir, ``.`` for the logdir itself), sorted;
    add_hparams sub-runs belong to their parent run and are left out."""
    found = subruns(state)
    return [r for r in all_runs(state) if r not in found]


def excluded_runs(state: ExperimentState) -> list[str]:
    """Runs found in the logdir that the ``runs=`` filter left out, sorted.

    A left-out run's child directories (its add_hparams sub-runs, never read) are not
    listed; the sub-runs of kept runs are kept with them.
    """
    kept = set(all_runs(state))
    out = {r for r in state.discovered if r not in kept}
    return sorted(r for r in out if parent_run(r) not in out)
