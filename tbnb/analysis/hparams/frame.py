"""Hyperparameter discovery: one row per run, hparam columns then final-metric columns.

Where hyperparameters come from, in order of precedence (a key found by an earlier
source wins):

1. **The hparams plugin's summaries** in the event files (``_hparams_/experiment``,
   ``_hparams_/session_start_info``, ``_hparams_/session_end_info``): TF2 ``hp.hparams``
   and the Keras callback, torch / tensorboardX ``add_hparams`` and Lightning. The
   experiment message's declared types and domains go to ``df.attrs["domains"]``.
2. **Config files beside the event files**: ``hparams.yaml`` (Lightning),
   ``hparams.json``, ``config.yaml``/``.yml``/``.json``, ``args.json``/``.yaml`` and
   Hydra's ``.hydra/config.yaml``; nested mappings are flattened with dotted keys
   (``model.lr``). A key the event files already hold (``model/lr`` from Lightning's
   flattening) is not repeated.
3. **Run names**, opt-in (``parse_run_names=True``): ``key=value`` pairs in each path
   component, see :func:`parse_run_name`.

Which runs become rows follows TensorBoard's hparams plugin:

- A run holding a ``session_start_info`` is a *session*. Every run below a session
  that is not a session itself is a *metric group* of its nearest session (Keras
  writes ``train/`` and ``validation/``): its scalars go to the session's row, the
  column named by the group path and tag (``validation/epoch_loss.last``).
- torch / tensorboardX ``add_hparams`` write the hparams, the experiment and the
  metric dict into a new sub-run (``<run>/<timestamp>`` or tensorboardX's ``name=``).
  Such a sub-run (experiment and session in the same run, scalars only from the
  metric dict) is merged into its parent run when the parent exists and has no
  session of its own, so the hparams and the training curves share one row. Several
  such sub-runs under one parent merge when their hparams agree; when they differ,
  each stays a row of its own (the parent's curves cannot be attributed) and a note
  says so.
- A run holding only the experiment config (``hp.hparams_config`` at the top of a
  sweep) and no scalars is not a row.

Metrics are reductions (``last``, ``min``, ``max``, ``mean``) of every scalar tag of
the row's runs: ``last`` is the value at the largest step (the latest written on
ties), NaN included; ``min``/``max``/``mean`` ignore NaN.

Values of one column keep one dtype: ``boolean``, ``Int64``, ``float64`` or
``string``. A column mixing kinds (say numbers and strings) falls back to strings and
``df.attrs["notes"]`` says so; a run without a value shows ``<NA>``/``NaN``.

Examples
--------
>>> parse_run_name("lr=0.001,bs=32")
({'lr': 0.001, 'bs': 32}, [])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tbnb.analysis.hparams.config import config_hparams
from tbnb.analysis.hparams.layout import layout as run_layout
from tbnb.analysis.hparams.metrics import (
    REDUCTIONS,
    combine,
    default_metrics,
    reduce_scalars,
    tag_selected,
)
from tbnb.analysis.hparams.run_names import parse_run_name
from tbnb.analysis.hparams.source import HParamsSource
from tbnb.kinds.hparams import read_plugin_data

__all__ = ["hparams_frame"]


def _kind(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**53:
            return "int"
        return "float"
    return "str"


def _column(values: list[Any], index: pd.Index) -> tuple[pd.Series, list[str]]:
    """One hparam column with a single dtype, and the value kinds it mixed (if any)."""
    kinds = {k for k in map(_kind, values) if k is not None}
    if not kinds:
        return pd.Series(pd.array([pd.NA] * len(values), dtype="string"), index=index), []
    if kinds == {"bool"}:
        return pd.Series(pd.array(values, dtype="boolean"), index=index), []
    if kinds == {"int"}:
        ints = [None if v is None else int(v) for v in values]
        return pd.Series(pd.array(ints, dtype="Int64"), index=index), []
    if kinds <= {"int", "float"}:
        floats = [np.nan if v is None else float(v) for v in values]
        return pd.Series(np.asarray(floats, dtype=np.float64), index=index), []
    if kinds == {"str"}:
        return pd.Series(pd.array(values, dtype="string"), index=index), []
    text = [None if v is None else _as_text(v) for v in values]
    return pd.Series(pd.array(text, dtype="string"), index=index), sorted(kinds)


def _as_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return str(int(value))
    return str(value)


def _normal_key(key: str) -> str:
    return key.replace("/", ".")


def hparams_frame(
    source: HParamsSource,
    *,
    metrics: str | Sequence[str] = ("last",),
    metric_tags: Sequence[str] | None = None,
    parse_run_names: bool = False,
) -> pd.DataFrame:
    """One row per run: hparam columns, then metric columns ``<tag>.<reduction>``.

    Parameters
    ----------
    source
        Anything implementing :class:`HParamsSource` (a loaded ``tbnb.Experiment``).
    metrics
        Reductions of each scalar tag: any of ``"last"``, ``"min"``, ``"max"``,
        ``"mean"``.
    metric_tags
        Scalar tags to reduce (exact names, with or without the metric-group prefix,
        or ``fnmatch`` patterns such as ``"val/*"``); default every tag.
    parse_run_names
        Also read ``key=value`` pairs from run names (:func:`parse_run_name`).

    Returns
    -------
    pandas.DataFrame
        Index ``run``; ``attrs`` carries ``hparam_columns``, ``metric_columns``,
        ``default_metrics`` (the metric columns a view shows by default: declared
        metrics first, then tags that look like metrics, duplicates dropped),
        ``domains`` (declared types and domains), ``declared_metrics``, ``sources``
        (per row, where its hparams came from), ``members`` (per row, the runs whose
        scalars it holds: itself, merged ``add_hparams`` sub-runs, metric groups),
        ``status`` (per session) and ``notes``.

    Examples
    --------
    >>> import tbnb
    >>> exp = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
    >>> table = hparams_frame(exp, metrics=["last", "min"])
    >>> table[["lr", "seed", "val/loss.min"]].shape
    (9, 3)
    """
    reductions = [metrics] if isinstance(metrics, str) else list(metrics)
    unknown = [r for r in reductions if r not in REDUCTIONS]
    if unknown:
        raise ValueError(f"unknown metric reductions {unknown}; choose from {list(REDUCTIONS)}")
    if not reductions:
        raise ValueError("metrics must name at least one reduction")
    if isinstance(metric_tags, str):
        metric_tags = [metric_tags]

    notes: list[str] = []
    runs = list(dict.fromkeys(source.all_runs))
    per_run, domains, declared_metrics = read_plugin_data(source.hparams_values, notes)
    scalars = source.scalars
    reduced = reduce_scalars(scalars, reductions)
    tags_by_run: dict[str, set[str]] = {}
    for run, tag in zip(reduced["run"], reduced["tag"], strict=True):
        tags_by_run.setdefault(run, set()).add(tag)
    layout = run_layout(runs, per_run, tags_by_run, notes)

    # Hparams per row, in precedence order.
    values: dict[str, dict[str, Any]] = {}
    sources: dict[str, list[str]] = {}
    order: dict[str, None] = dict.fromkeys(domains)
    for row in layout.rows:
        merged: dict[str, Any] = {}
        used: list[str] = []
        events = layout.hparams.get(row, {})
        if events:
            merged.update(events)
            used.append("events")
        known = {_normal_key(k) for k in merged}
        config = config_hparams(source, row, notes)
        if config:
            fresh = {k: v for k, v in config.items() if _normal_key(k) not in known}
            merged.update(fresh)
            known.update(_normal_key(k) for k in fresh)
            used.append("config")
        if parse_run_names:
            parsed, run_notes = parse_run_name(row)
            notes.extend(f"run {row!r}: {n}" for n in run_notes)
            fresh = {k: v for k, v in parsed.items() if _normal_key(k) not in known}
            if fresh:
                merged.update(fresh)
                used.append("run name")
        values[row] = merged
        sources[row] = used
        order.update(dict.fromkeys(merged))

    index = pd.Index(layout.rows, name="run", dtype=object)
    columns: dict[str, pd.Series] = {}
    for name in order:
        column, mixed = _column([values[row].get(name) for row in layout.rows], index)
        if mixed:
            notes.append(f"hparam {name!r} mixes {', '.join(mixed)} values: shown as strings")
        columns[name] = column
    hparam_columns = list(columns)

    # Metrics per row.
    member_runs = {run for group in layout.members.values() for run, _ in group}
    reduced = reduced[reduced["run"].isin(member_runs)].copy()
    metric_columns: list[str] = []
    if not reduced.empty:
        where = {
            run: (row, prefix) for row, group in layout.members.items() for run, prefix in group
        }
        cells = [where[run] for run in reduced["run"]]
        reduced["row"] = [row for row, _ in cells]
        reduced["name"] = [
            prefix + tag for (_, prefix), tag in zip(cells, reduced["tag"], strict=True)
        ]
        keep = [
            tag_selected(name, tag, metric_tags)
            for name, tag in zip(reduced["name"], reduced["tag"], strict=True)
        ]
        reduced = combine(reduced[keep], reductions)
        names = sorted(set(reduced["name"]))
        wide = {  # one table per reduction, not one scan of the frame per tag
            reduction: reduced.pivot_table(
                index="row", columns="name", values=reduction, aggfunc="first", dropna=False
            )
            .reindex(index=index, columns=names)
            .to_numpy(dtype=np.float64)
            for reduction in reductions
        }
        for at, name in enumerate(names):
            for reduction in reductions:
                column_name = f"{name}.{reduction}"
                if column_name in columns:
                    notes.append(f"metric column {column_name!r} clashes with an hparam; renamed")
                    column_name = f"metric:{column_name}"
                series = pd.Series(wide[reduction][:, at], index=index, copy=False)
                columns[column_name] = series
                metric_columns.append(column_name)

    df = pd.DataFrame(columns, index=index) if columns else pd.DataFrame(index=index)
    df.attrs.update(
        {
            "hparam_columns": hparam_columns,
            "metric_columns": metric_columns,
            "default_metrics": default_metrics(
                {c: columns[c] for c in metric_columns}, declared_metrics
            ),
            "domains": domains,
            "declared_metrics": declared_metrics,
            "sources": sources,
            "status": {row: layout.status[row] for row in layout.rows if row in layout.status},
            "members": {row: [run for run, _ in layout.members[row]] for row in layout.rows},
            "notes": notes,
        }
    )
    return df
