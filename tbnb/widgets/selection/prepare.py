"""The selection rule shared by Python and the browser (``js/src/widgets/selection/rule.js``).

An hparams selection decides the runs it knows of (its rows and their members) and
leaves the others as the run selector has them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = ["apply_hparams"]


def apply_hparams(
    runs: Sequence[str],
    selected: Iterable[str],
    universe: Iterable[str],
    chosen: Iterable[str],
) -> list[str]:
    """The selection after the hparams view chose ``chosen`` among ``universe``.

    Parameters
    ----------
    runs
        Every run, in the experiment's order.
    selected
        The runs selected before.
    universe
        The runs the hparams view knows (every member of every row).
    chosen
        The runs of the rows it selects now.

    Returns
    -------
    list of str
        Runs known to the hparams view are selected exactly when chosen; the others
        keep their state. In ``runs`` order, then chosen runs ``runs`` does not list.

    Examples
    --------
    >>> apply_hparams(["a", "b", "c"], selected=["a", "c"], universe=["a", "b"], chosen=["b"])
    ['b', 'c']
    """
    before = set(selected)
    known = set(universe)
    picked = list(dict.fromkeys(chosen))
    picked_set = set(picked)
    listed = set(runs)
    out = [r for r in runs if r in picked_set or (r not in known and r in before)]
    return out + [r for r in picked if r not in listed]
