"""Which runs become rows of the hparams table, and which runs feed each row.

Follows TensorBoard's hparams plugin: a run holding a ``session_start_info`` is a
*session*; every run below a session that is not a session itself is a *metric
group* of its nearest session (Keras writes ``train/`` and ``validation/``), its
scalars going to the session's row with the group path as a prefix. add_hparams
sub-runs (:func:`tbnb.kinds.hparams.add_hparams_subruns`) merge into their parent
row when the parent's sub-runs agree on their hparams; when they differ each stays
a row of its own and a note says so. A run holding only the experiment config and
no scalars is not a row.

Examples
--------
>>> from tbnb.kinds.hparams import RunHParams
>>> session = RunHParams(hparams={"lr": 0.1}, has_session=True)
>>> table = layout(["a", "a/train"], {"a": session}, {"a/train": {"loss"}}, [])
>>> table.rows, table.members["a"]
(['a'], [('a', ''), ('a/train', 'train/')])
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tbnb.kinds.hparams import RunHParams, add_hparams_subruns, parent_run

__all__ = ["Layout", "layout"]


def _ancestors(run: str) -> Iterable[str]:
    parent = parent_run(run)
    while parent is not None:
        yield parent
        parent = parent_run(parent)


@dataclass
class Layout:
    """Rows and which runs feed each row (with the tag prefix of their metric group)."""

    rows: list[str]
    members: dict[str, list[tuple[str, str]]]  # row -> [(run, tag prefix)]
    hparams: dict[str, dict[str, Any]]  # row -> hparams from events
    status: dict[str, str]


def layout(
    runs: Sequence[str],
    per_run: Mapping[str, RunHParams],
    tags_by_run: Mapping[str, set[str]],
    notes: list[str],
) -> Layout:
    """The rows of the table and the runs feeding each (notes gets what needs saying)."""
    candidates: dict[str, list[str]] = {}
    for run, parent in add_hparams_subruns(runs, per_run, tags_by_run).items():
        candidates.setdefault(parent, []).append(run)
    merged_into: dict[str, str] = {}  # add_hparams sub-run -> parent
    for parent, subs in candidates.items():
        first = per_run[subs[0]].hparams
        if all(per_run[s].hparams == first for s in subs[1:]):
            merged_into.update(dict.fromkeys(subs, parent))
        else:
            notes.append(
                f"run {parent!r} has {len(subs)} add_hparams sub-runs with different hparams;"
                " each is its own row"
            )

    session_hparams: dict[str, dict[str, Any]] = {}
    status: dict[str, str] = {}
    for run in runs:
        info = per_run.get(run)
        if info is None or not info.has_session:
            continue
        target = merged_into.get(run, run)
        session_hparams.setdefault(target, {}).update(info.hparams)
        if info.status is not None:
            status[target] = info.status

    rows: list[str] = []
    members: dict[str, list[tuple[str, str]]] = {}
    for run in runs:
        if run in merged_into:
            members.setdefault(merged_into[run], []).append((run, ""))
            continue
        if run not in session_hparams:
            owner = next((a for a in _ancestors(run) if a in session_hparams), None)
            if owner is not None:
                prefix = run if owner == "." else run[len(owner) + 1 :]
                members.setdefault(owner, []).append((run, prefix + "/"))
                continue
            info = per_run.get(run)
            if info is not None and not info.has_session and not tags_by_run.get(run):
                continue  # only the experiment config (``hp.hparams_config``)
        rows.append(run)
        members.setdefault(run, []).insert(0, (run, ""))
    return Layout(rows=rows, members=members, hparams=session_hparams, status=status)
