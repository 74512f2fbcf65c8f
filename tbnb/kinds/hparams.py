"""HParams: what the hparams plugin's summaries say about each run (layer: kinds).

TF2 ``hp.hparams``, the Keras callback, torch / tensorboardX ``add_hparams`` and
Lightning write ``HParamsPluginData`` in the metadata of three summaries: the
*experiment* (declared hparams with types and domains, declared metrics), a
*session start* (one run's hparam values) and a *session end* (its status). The
values carry no data: everything is in the plugin content, kept per run as
``(tag, step, content)`` (``exp.hparams_values``). :func:`read_plugin_data` parses
them; ``tbnb.analysis.hparams`` builds the one-row-per-run table.

This module also holds the one definition of an **add_hparams sub-run**
(:func:`add_hparams_subruns`): torch and tensorboardX ``add_hparams`` write the
experiment, the session and the metric dict into a new run below the training run
(``<run>/<time.time()>``, or tensorboardX's ``name=``). Such a run belongs to its
parent: it is not listed in ``exp.runs`` and its one-point metric curves are left
to the hparams table.

Examples
--------
>>> info = RunHParams(has_session=True, has_experiment=True, metric_tags={"hparam/acc"})
>>> add_hparams_subruns(["a", "a/1700000000.5"], {"a/1700000000.5": info},
...                     {"a/1700000000.5": {"hparam/acc"}})
{'a/1700000000.5': 'a'}
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tbnb._proto import HParamsPluginData
from tbnb.kinds.base import Analysis, RawKind, Tab, TagMetadata

KEY = "hparams"

SESSION_START_TAG = "_hparams_/session_start_info"


_DATA_TYPES = {0: "unset", 1: "string", 2: "bool", 3: "float64"}


_STATUS = {0: "unknown", 1: "success", 2: "failure", 3: "running"}


@dataclass
class RunHParams:
    """What the hparams summaries of one run say."""

    hparams: dict[str, Any] = field(default_factory=dict)
    has_session: bool = False
    has_experiment: bool = False
    metric_tags: set[str] = field(default_factory=set)
    status: str | None = None
    group_name: str = ""


def value_to_python(value: Any) -> Any:
    """A ``google.protobuf.Value`` as a Python scalar (lists and structs as JSON text)."""
    kind = value.WhichOneof("kind")
    if kind == "number_value":
        return float(value.number_value)
    if kind == "string_value":
        return str(value.string_value)
    if kind == "bool_value":
        return bool(value.bool_value)
    if kind == "list_value":
        items = value.list_value.values
        return json.dumps([value_to_python(v) for v in items])
    if kind == "struct_value":
        return json.dumps({k: value_to_python(v) for k, v in value.struct_value.fields.items()})
    return None


def domain(info: Any) -> dict[str, Any]:
    """A declared ``HParamInfo`` as a small JSON-able dict."""
    out: dict[str, Any] = {"type": _DATA_TYPES.get(int(info.type), "unset")}
    which = info.WhichOneof("domain")
    if which == "domain_discrete":
        out["values"] = [value_to_python(v) for v in info.domain_discrete.values]
    elif which == "domain_interval":
        out["interval"] = [info.domain_interval.min_value, info.domain_interval.max_value]
    if info.display_name:
        out["display_name"] = info.display_name
    if info.description:
        out["description"] = info.description
    return out


def read_plugin_data(
    values: Iterable[tuple[str, str, int, bytes]], notes: list[str]
) -> tuple[dict[str, RunHParams], dict[str, dict[str, Any]], list[str]]:
    """Per-run hparams, declared domains (first declaration wins) and declared metrics."""
    per_run: dict[str, RunHParams] = {}
    domains: dict[str, dict[str, Any]] = {}
    declared_metrics: list[str] = []
    bad_runs: set[str] = set()
    for run, _tag, _step, content in values:
        try:
            data = HParamsPluginData.FromString(bytes(content))
        except Exception:  # protobuf's DecodeError differs between runtimes
            bad_runs.add(run)
            continue
        entry = per_run.setdefault(run, RunHParams())
        which = data.WhichOneof("data")
        if which == "session_start_info":
            info = data.session_start_info
            entry.has_session = True
            entry.group_name = info.group_name or entry.group_name
            for key in sorted(info.hparams):  # map order is not stable across runtimes
                entry.hparams[key] = value_to_python(info.hparams[key])
        elif which == "experiment":
            entry.has_experiment = True
            for hinfo in data.experiment.hparam_infos:
                domains.setdefault(hinfo.name, domain(hinfo))
            for minfo in data.experiment.metric_infos:
                name = minfo.name.tag
                if minfo.name.group:
                    name = f"{minfo.name.group}/{name}"
                entry.metric_tags.add(minfo.name.tag)
                if name not in declared_metrics:
                    declared_metrics.append(name)
        elif which == "session_end_info":
            entry.status = _STATUS.get(int(data.session_end_info.status), "unknown")
    notes.extend(
        f"run {run!r}: undecodable hparams plugin data skipped" for run in sorted(bad_runs)
    )
    return per_run, domains, declared_metrics


_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w.]")


def clean_tag(tag: str) -> str:
    """A tag as torch and tensorboardX write a scalar's (they clean it; the metric
    names they declare in the hparams experiment stay as given).

    Examples
    --------
    >>> clean_tag("hp/acc (val)")
    'hp/acc__val_'
    """
    return _INVALID_TAG_CHARACTERS.sub("_", tag).lstrip("/")


def is_add_hparams_run(info: RunHParams, tags: set[str]) -> bool:
    """Whether a run looks like torch / tensorboardX ``add_hparams``' sub-run."""
    if not (info.has_session and info.has_experiment):
        return False
    return tags <= info.metric_tags | {clean_tag(tag) for tag in info.metric_tags}


def parent_run(run: str) -> str | None:
    """The run directory above ``run`` (``"."`` for a top-level run; None for the root).

    Examples
    --------
    >>> parent_run("a/b"), parent_run("a"), parent_run(".")
    ('a', '.', None)
    """
    if run == ".":
        return None
    return posixpath.dirname(run) or "."


def add_hparams_subruns(
    runs: Sequence[str], per_run: Mapping[str, RunHParams], tags_by_run: Mapping[str, set[str]]
) -> dict[str, str]:
    """Sub-run -> parent run, for every run ``add_hparams`` wrote below a training run.

    A run is such a sub-run when its hparams summaries hold both an experiment and a
    session, its scalar tags are all metrics that experiment declares, and its parent
    directory is a run without a session of its own. Named by content, not by name, so
    tensorboardX's ``name=`` sub-runs count as well as timestamped ones.
    """
    run_set = set(runs)
    out: dict[str, str] = {}
    for run in runs:
        info = per_run.get(run)
        parent = parent_run(run)
        if info is None or parent is None or parent not in run_set:
            continue
        parent_info = per_run.get(parent)
        if parent_info is not None and parent_info.has_session:
            continue
        if is_add_hparams_run(info, tags_by_run.get(run, set())):
            out[run] = parent
    return out


def normalize(value: Any, meta: TagMetadata | None) -> bytes:
    """The serialized ``HParamsPluginData`` (the value's own metadata content)."""
    return meta.content if meta is not None else b""


def plugin_runs(values: Iterable[tuple[str, str, int, bytes]]) -> dict[str, RunHParams]:
    """Per-run hparams summaries (undecodable ones skipped), for :func:`add_hparams_subruns`."""
    per_run, _, _ = read_plugin_data(values, [])
    return per_run


def has_hparams(frame: Any) -> bool:
    """Whether some run logged hyperparameters (final metrics alone do not count)."""
    return not frame.empty and bool(frame.attrs.get("hparam_columns", list(frame.columns)))


def logged_hparams(experiment: Any) -> bool:
    """Whether some run logged hyperparameters, from the plugin's summaries alone (the
    table's final metrics reduce every scalar: seconds on a big logdir).

    Examples
    --------
    >>> class Exp:
    ...     hparams_values = []
    >>> logged_hparams(Exp())
    False
    """
    per_run, domains, _ = read_plugin_data(experiment.hparams_values, [])
    return bool(domains) or any(info.hparams for info in per_run.values())


TABLE = Analysis(
    "hparams",
    "tbnb.analysis.hparams:hparams_frame",
    "One row per run: hparam columns, then final-metric columns.",
)
"""The hparams table (``exp.hparams``), built from the raw plugin values and the scalars."""

KIND = RawKind(
    key=KEY,
    doc="One row per run: hparam columns, then final-metric columns.",
    plugins=("hparams",),
    normalize=normalize,
    analysis=TABLE,
    own_metadata=True,
    always=True,
    in_metadata=True,
    tbparse=("hparams",),
    tab=Tab(
        "HParams",
        "tbnb.widgets.hparams:hparams",
        live=False,
        shown=has_hparams,
        present=logged_hparams,
    ),
)
