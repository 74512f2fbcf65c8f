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

import fnmatch
import json
import posixpath
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import numpy as np
import pandas as pd
import yaml

from tbnb._proto import HParamsPluginData

if TYPE_CHECKING:
    import fsspec

__all__ = [
    "CONFIG_FILES",
    "REDUCTIONS",
    "HParamsSource",
    "flatten_config",
    "hparams_frame",
    "parse_run_name",
    "read_config_file",
]

REDUCTIONS = ("last", "min", "max", "mean")
"""Metric reductions :func:`hparams_frame` knows."""

CONFIG_FILES = (
    "hparams.yaml",
    "hparams.yml",
    "hparams.json",
    "config.yaml",
    "config.yml",
    "config.json",
    "args.json",
    "args.yaml",
    ".hydra/config.yaml",
)
"""Config files read beside a run's event files, in order of precedence."""

EXPERIMENT_TAG = "_hparams_/experiment"
SESSION_START_TAG = "_hparams_/session_start_info"
SESSION_END_TAG = "_hparams_/session_end_info"

_DATA_TYPES = {0: "unset", 1: "string", 2: "bool", 3: "float64"}
_STATUS = {0: "unknown", 1: "success", 2: "failure", 3: "running"}


@runtime_checkable
class HParamsSource(Protocol):
    """What :func:`hparams_frame` reads; :class:`tbnb.Experiment` implements it."""

    @property
    def runs(self) -> list[str]:
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


# --------------------------------------------------------------------------- plugin data


@dataclass
class _RunHParams:
    """What the hparams summaries of one run say."""

    hparams: dict[str, Any] = field(default_factory=dict)
    has_session: bool = False
    has_experiment: bool = False
    metric_tags: set[str] = field(default_factory=set)
    status: str | None = None
    group_name: str = ""


def _value_to_python(value: Any) -> Any:
    """A ``google.protobuf.Value`` as a Python scalar (lists and structs as JSON text)."""
    kind = value.WhichOneof("kind")
    if kind == "number_value":
        return float(value.number_value)
    if kind == "string_value":
        return str(value.string_value)
    if kind == "bool_value":
        return bool(value.bool_value)
    if kind == "list_value":
        items = value.list_value.values  # noqa: PD011 - a protobuf field, not pandas
        return json.dumps([_value_to_python(v) for v in items])
    if kind == "struct_value":
        return json.dumps({k: _value_to_python(v) for k, v in value.struct_value.fields.items()})
    return None


def _domain(info: Any) -> dict[str, Any]:
    """A declared ``HParamInfo`` as a small JSON-able dict."""
    out: dict[str, Any] = {"type": _DATA_TYPES.get(int(info.type), "unset")}
    which = info.WhichOneof("domain")
    if which == "domain_discrete":
        out["values"] = [_value_to_python(v) for v in info.domain_discrete.values]  # noqa: PD011
    elif which == "domain_interval":
        out["interval"] = [info.domain_interval.min_value, info.domain_interval.max_value]
    if info.display_name:
        out["display_name"] = info.display_name
    if info.description:
        out["description"] = info.description
    return out


def _read_plugin_data(
    values: Iterable[tuple[str, str, int, bytes]], notes: list[str]
) -> tuple[dict[str, _RunHParams], dict[str, dict[str, Any]], list[str]]:
    """Per-run hparams, declared domains (first declaration wins) and declared metrics."""
    per_run: dict[str, _RunHParams] = {}
    domains: dict[str, dict[str, Any]] = {}
    declared_metrics: list[str] = []
    bad_runs: set[str] = set()
    for run, _tag, _step, content in values:
        try:
            data = HParamsPluginData.FromString(bytes(content))
        except Exception:  # protobuf's DecodeError differs between runtimes
            bad_runs.add(run)
            continue
        entry = per_run.setdefault(run, _RunHParams())
        which = data.WhichOneof("data")
        if which == "session_start_info":
            info = data.session_start_info
            entry.has_session = True
            entry.group_name = info.group_name or entry.group_name
            for key in sorted(info.hparams):  # map order is not stable across runtimes
                entry.hparams[key] = _value_to_python(info.hparams[key])
        elif which == "experiment":
            entry.has_experiment = True
            for hinfo in data.experiment.hparam_infos:
                domains.setdefault(hinfo.name, _domain(hinfo))
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


# --------------------------------------------------------------------------- run structure


def _parent(run: str) -> str | None:
    """Parent run name of ``run`` (``"."`` for a top-level run; None for the root)."""
    if run == ".":
        return None
    head = posixpath.dirname(run)
    return head or "."


def _ancestors(run: str) -> Iterable[str]:
    parent = _parent(run)
    while parent is not None:
        yield parent
        parent = _parent(parent)


def _is_add_hparams_run(info: _RunHParams, tags: set[str]) -> bool:
    """Whether a run looks like torch / tensorboardX ``add_hparams``' sub-run."""
    return info.has_session and info.has_experiment and tags <= info.metric_tags


@dataclass
class _Layout:
    """Rows and which runs feed each row (with the tag prefix of their metric group)."""

    rows: list[str]
    members: dict[str, list[tuple[str, str]]]  # row -> [(run, tag prefix)]
    hparams: dict[str, dict[str, Any]]  # row -> hparams from events
    status: dict[str, str]


def _layout(
    runs: Sequence[str],
    per_run: Mapping[str, _RunHParams],
    tags_by_run: Mapping[str, set[str]],
    notes: list[str],
) -> _Layout:
    run_set = set(runs)
    merged_into: dict[str, str] = {}  # add_hparams sub-run -> parent
    candidates: dict[str, list[str]] = {}
    for run in runs:
        info = per_run.get(run)
        parent = _parent(run)
        if info is None or parent is None or parent not in run_set:
            continue
        parent_info = per_run.get(parent)
        if parent_info is not None and parent_info.has_session:
            continue
        if _is_add_hparams_run(info, tags_by_run.get(run, set())):
            candidates.setdefault(parent, []).append(run)
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
    return _Layout(rows=rows, members=members, hparams=session_hparams, status=status)


# --------------------------------------------------------------------------- config files


class _TolerantLoader(yaml.SafeLoader):  # type: ignore[misc]
    """Safe YAML loader that reads unknown tags (``!!python/object:...``) as plain data."""


def _construct_any(loader: yaml.SafeLoader, tag: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        items = loader.construct_sequence(node, deep=True)
        if "pathlib." in tag and all(isinstance(item, str) for item in items):
            return posixpath.join(*items) if items else "."  # a Path pickles as its parts
        return items
    if "python/name:" in tag:  # a class or function: its qualified name
        return tag.split("python/name:", 1)[1]
    return loader.construct_scalar(node)


_TolerantLoader.add_multi_constructor("", _construct_any)


def _scalar(value: Any) -> Any:
    """A config leaf as bool/int/float/str/None (sequences as JSON text)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (np.bool_, np.integer, np.floating)):
        return value.item()
    if isinstance(value, (list, tuple)):
        try:
            return json.dumps(list(value))
        except (TypeError, ValueError):
            return str(list(value))
    return str(value)


def flatten_config(config: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """Flatten nested mappings into dotted keys; lists become JSON text.

    Examples
    --------
    >>> flatten_config({"model": {"lr": 0.1, "layers": [64, 64]}, "seed": 1})
    {'model.lr': 0.1, 'model.layers': '[64, 64]', 'seed': 1}
    """
    out: dict[str, Any] = {}
    for key, value in config.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            if value:
                out.update(flatten_config(value, prefix=name + "."))
            else:
                out[name] = None
        else:
            out[name] = _scalar(value)
    return out


def read_config_file(text: str, name: str) -> dict[str, Any]:
    """Parse a config file's text (YAML or JSON by ``name``) into a flat dict.

    Raises ``ValueError`` if the text does not parse or is not a mapping.

    Examples
    --------
    >>> read_config_file("optimizer:\\n  name: adam\\n  lr: 0.001\\n", "hparams.yaml")
    {'optimizer.name': 'adam', 'optimizer.lr': 0.001}
    """
    try:
        if name.endswith(".json"):
            data = json.loads(text)
        else:
            data = yaml.load(text, Loader=_TolerantLoader)  # a SafeLoader subclass
    except (json.JSONDecodeError, yaml.YAMLError) as exc:
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise ValueError(f"{name}: {first_line}") from exc
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise ValueError(f"{name}: top level is {type(data).__name__}, not a mapping")
    return flatten_config(data)


def _config_hparams(source: HParamsSource, run: str, notes: list[str]) -> dict[str, Any]:
    """Hparams from the config files beside ``run``'s event files."""
    fs = source.fs
    directory = source.run_path(run)
    try:
        listing = fs.ls(directory, detail=False)
    except (OSError, ValueError):
        return {}
    present = {posixpath.basename(str(p).rstrip("/")) for p in listing}
    out: dict[str, Any] = {}
    for name in CONFIG_FILES:
        if name.split("/")[0] not in present:
            continue
        path = posixpath.join(str(directory).rstrip("/"), name)
        try:
            with fs.open(path, "rb") as handle:
                text = handle.read().decode("utf-8")
            values = read_config_file(text, name)
        except FileNotFoundError:
            continue
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            notes.append(f"run {run!r}: {name} not read ({exc})")
            continue
        for key, value in values.items():
            out.setdefault(key, value)
    return out


# --------------------------------------------------------------------------- run names

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_INT = re.compile(r"[+-]?\d+")
_HARD_SEPARATORS = ",;& "
_SOFT_SEPARATORS = "_-"


def _typed(text: str) -> Any:
    """A run-name value as bool, int, float or str."""
    lower = text.lower()
    if lower in ("true", "false"):
        return lower == "true"
    if _INT.fullmatch(text):
        return int(text)
    if _NUMBER.fullmatch(text):
        return float(text)
    return text


def _is_typed(text: str) -> bool:
    return text.lower() in ("true", "false") or bool(_NUMBER.fullmatch(text))


def _split_value_key(mid: str) -> tuple[str, str] | None:
    """Split ``"<value><sep><next key>"``; None when ambiguous."""
    hard = [i for i, ch in enumerate(mid) if ch in _HARD_SEPARATORS]
    if hard:  # value up to the first hard separator, key after the last one
        return mid[: hard[0]], mid[hard[-1] + 1 :]
    soft = [
        j
        for j, ch in enumerate(mid)
        if ch in _SOFT_SEPARATORS and 0 < j < len(mid) - 1 and mid[j + 1].isalpha()
    ]
    typed = [j for j in soft if _is_typed(mid[:j])]
    if typed:
        j = typed[-1]
        return mid[:j], mid[j + 1 :]
    if len(soft) == 1:
        j = soft[0]
        return mid[:j], mid[j + 1 :]
    return None


def parse_run_name(name: str) -> tuple[dict[str, Any], list[str]]:
    """``key=value`` pairs in a run name, and notes about what could not be split.

    Pairs are separated by ``,``, ``;``, ``&`` or a space, or by ``_`` / ``-`` where that
    is unambiguous (the value before it is a number or boolean, or there is only one
    such separator before the next ``=``). Each path component is parsed; a later
    component wins. Values become bool, int, float or str.

    Examples
    --------
    >>> parse_run_name("lr=0.001,bs=32")
    ({'lr': 0.001, 'bs': 32}, [])
    >>> parse_run_name("sweep/lr=1e-3_batch_size=64-opt=adam")[0]
    {'lr': 0.001, 'batch_size': 64, 'opt': 'adam'}
    >>> parse_run_name("opt=adam_w_lr=0.1")
    ({}, ["run name component 'opt=adam_w_lr=0.1': cannot split 'adam_w_lr'"])
    """
    out: dict[str, Any] = {}
    notes: list[str] = []
    for component in name.split("/"):
        if "=" not in component:
            continue
        parts = component.split("=")
        key = parts[0]
        cut = max((key.rfind(sep) for sep in _HARD_SEPARATORS), default=-1)
        key = key[cut + 1 :]
        found: dict[str, Any] = {}
        for i, mid in enumerate(parts[1:], start=1):
            if not key:
                notes.append(f"run name component {component!r}: empty key")
                break
            if i == len(parts) - 1:
                hard = [j for j, ch in enumerate(mid) if ch in _HARD_SEPARATORS]
                found[key] = _typed(mid[: hard[0]] if hard else mid)
                break
            split = _split_value_key(mid)
            if split is None:
                notes.append(f"run name component {component!r}: cannot split {mid!r}")
                break
            found[key] = _typed(split[0])
            key = split[1]
        out.update(found)
    return out, notes


# --------------------------------------------------------------------------- metrics


def _codes(column: pd.Series) -> tuple[np.ndarray[Any, Any], list[str]]:
    """Integer codes (-1 = missing) and names of a run or tag column."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy(dtype=np.int64), [str(c) for c in column.cat.categories]
    codes, uniques = pd.factorize(column, sort=False)
    return codes.astype(np.int64), [str(u) for u in uniques]


def _reduce_scalars(scalars: pd.DataFrame, reductions: Sequence[str]) -> pd.DataFrame:
    """Per (run, tag): ``last_step``, ``last_wall_time``, ``last`` and the reductions.

    One vectorised pass over the categorical codes (no sort, no string keys): about
    20M points a second.
    """
    columns = ["run", "tag", "last_step", "last_wall_time", *REDUCTIONS]
    if scalars.empty:
        return pd.DataFrame(columns=columns)
    run_codes, run_names = _codes(scalars["run"])
    tag_codes, tag_names = _codes(scalars["tag"])
    keep = (run_codes >= 0) & (tag_codes >= 0)
    step = scalars["step"].to_numpy(dtype=np.int64)
    wall = scalars["wall_time"].to_numpy(dtype=np.float64)
    value = scalars["value"].to_numpy(dtype=np.float64)
    if not keep.all():
        run_codes, tag_codes = run_codes[keep], tag_codes[keep]
        step, wall, value = step[keep], wall[keep], value[keep]
    if not len(step):
        return pd.DataFrame(columns=columns)
    n_tags = max(len(tag_names), 1)
    key = run_codes * n_tags + tag_codes
    size = len(run_names) * n_tags
    top = np.full(size, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(top, key, step)
    at_top = np.flatnonzero(step == top[key])
    last = np.full(size, -1, dtype=np.int64)
    np.maximum.at(last, key[at_top], at_top)  # the latest written among the top steps
    cells = np.flatnonzero(last >= 0)
    rows = last[cells]
    out = pd.DataFrame(
        {
            "run": [run_names[i] for i in cells // n_tags],
            "tag": [tag_names[i] for i in cells % n_tags],
            "last_step": step[rows],
            "last_wall_time": wall[rows],
            "last": value[rows],
        }
    )
    if any(r in reductions for r in ("min", "max", "mean")):
        finite = ~np.isnan(value)
        count = np.bincount(key[finite], minlength=size)[cells]
        with np.errstate(invalid="ignore", divide="ignore"):
            if "min" in reductions:
                low = np.full(size, np.inf)
                np.fmin.at(low, key, value)
                out["min"] = np.where(count > 0, low[cells], np.nan)
            if "max" in reductions:
                high = np.full(size, -np.inf)
                np.fmax.at(high, key, value)
                out["max"] = np.where(count > 0, high[cells], np.nan)
            if "mean" in reductions:
                total = np.bincount(key[finite], weights=value[finite], minlength=size)[cells]
                out["mean"] = np.where(count > 0, total / np.maximum(count, 1), np.nan)
    return out


def _combine(rows: pd.DataFrame, reductions: Sequence[str]) -> pd.DataFrame:
    """Combine the per-run reductions that land in the same (row, column) cell."""
    if not rows.duplicated(["row", "name"]).any():
        return rows
    rows = rows.sort_values(["last_step", "last_wall_time"], kind="stable")
    groups = rows.groupby(["row", "name"], sort=False)
    out = groups.tail(1).set_index(["row", "name"])[["last"]]  # tail keeps a final NaN
    for reduction in ("min", "max"):
        if reduction in reductions:
            out[reduction] = groups[reduction].agg(reduction)
    if "mean" in reductions:  # a plain mean of the per-run means
        out["mean"] = groups["mean"].mean()
    return out.reset_index()


def _tag_selected(name: str, tag: str, patterns: Sequence[str] | None) -> bool:
    if patterns is None:
        return True
    return any(pattern in (name, tag) or fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


# --------------------------------------------------------------------------- columns


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


# --------------------------------------------------------------------------- public


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
        ``domains`` (declared types and domains), ``declared_metrics``, ``sources``
        (per row, where its hparams came from), ``members`` (per row, the runs whose
        scalars it holds: itself, merged ``add_hparams`` sub-runs, metric groups),
        ``status`` (per session) and ``notes``.

    Examples
    --------
    >>> import tbnb
    >>> exp = tbnb.load("runs/")                                # doctest: +SKIP
    >>> hparams_frame(exp, metrics=["last", "min"]).head()      # doctest: +SKIP
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
    runs = list(dict.fromkeys(source.runs))
    per_run, domains, declared_metrics = _read_plugin_data(source.hparams_values, notes)
    scalars = source.scalars
    reduced = _reduce_scalars(scalars, reductions)
    tags_by_run: dict[str, set[str]] = {}
    for run, tag in zip(reduced["run"], reduced["tag"], strict=True):
        tags_by_run.setdefault(run, set()).add(tag)
    layout = _layout(runs, per_run, tags_by_run, notes)

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
        config = _config_hparams(source, row, notes)
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
            _tag_selected(name, tag, metric_tags)
            for name, tag in zip(reduced["name"], reduced["tag"], strict=True)
        ]
        reduced = _combine(reduced[keep], reductions)
        for name in sorted(set(reduced["name"])):
            part = reduced[reduced["name"] == name].set_index("row")
            for reduction in reductions:
                column_name = f"{name}.{reduction}"
                if column_name in columns:
                    notes.append(f"metric column {column_name!r} clashes with an hparam; renamed")
                    column_name = f"metric:{column_name}"
                series = part[reduction].astype(np.float64).reindex(index)
                columns[column_name] = series
                metric_columns.append(column_name)

    df = pd.DataFrame(columns, index=index) if columns else pd.DataFrame(index=index)
    df.attrs.update(
        {
            "hparam_columns": hparam_columns,
            "metric_columns": metric_columns,
            "domains": domains,
            "declared_metrics": declared_metrics,
            "sources": sources,
            "status": {row: layout.status[row] for row in layout.rows if row in layout.status},
            "members": {row: [run for run, _ in layout.members[row]] for row in layout.rows},
            "notes": notes,
        }
    )
    return df
