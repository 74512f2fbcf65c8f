"""Everything the logs tell about each run, as one frame (``exp.info``).

One row per run, columns ``(section, key)``:

- ``run``: the loader's bookkeeping (``exp.metadata``): writer (inferred), ``source_metadata``,
  file version, host (from the event file names), files, first and last wall time,
  duration, last step, records, corrupt records, bytes read and on disk;
- ``counts``: values of each kind;
- ``hparams``: the run's hparams (``exp.hparams``, config files included);
- ``config``: every key of the config files beside its event files
  (``hparams.yaml: lr``);
- ``environment``: key/value pairs of text summaries that look like environment dumps
  (:mod:`tbnb.analysis.runinfo.environment`), else the text itself;
- ``run_metadata``: per ``RunMetadata`` with step statistics: nodes timed, compute
  time, memory, devices;
- ``graphs``: the graphs the run holds;
- ``profile``: the profiler traces beside the run (``exp.profile.traces``; a run holding
  traces and no event files gets a row too).

A file or summary that cannot be read is skipped with a ``DataWarning`` naming the
run and what was wrong; everything else is kept.

Examples
--------
>>> import tbnb
>>> exp = tbnb.load(tbnb.samples.sample_logdir(), progress=False)
>>> info = run_info(exp)
>>> info.loc["lr=0.001,seed=0", ("hparams", "optimizer")]
'adam'
>>> int(info.loc["lr=0.001,seed=0", ("run", "last_step")])
1999
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from tbnb.analysis.graph.parse import PROFILES, GraphParseError, run_metadata_of
from tbnb.analysis.graph.stats import step_stats
from tbnb.analysis.hparams.config import read_run_configs
from tbnb.analysis.runinfo.environment import looks_like_environment, text_pairs
from tbnb.kinds.metadata import COLUMNS as RUN_COLUMNS
from tbnb.warnings import DataWarning

__all__ = ["SECTIONS", "run_info"]

SECTIONS = (
    "run",
    "counts",
    "hparams",
    "config",
    "environment",
    "run_metadata",
    "graphs",
    "profile",
)
"""Column sections of :func:`run_info`, in order."""

Put = Callable[[str, str, str, Any], None]


def _bookkeeping(exp: Any, put: Put) -> None:
    meta = exp.metadata
    for run, row in meta.iterrows():
        for key in RUN_COLUMNS:
            put("run", key, str(run), row[key].item() if hasattr(row[key], "item") else row[key])
        for key in meta.columns[len(RUN_COLUMNS) :]:
            put("counts", str(key), str(run), int(row[key]))


def _hparams(exp: Any, put: Put) -> None:
    table = exp.hparams
    columns = table.attrs.get("hparam_columns") or []
    for run, row in table.iterrows():
        for key in columns:
            value = row.get(key)
            if value is not None and not (isinstance(value, float) and np.isnan(value)):
                put(
                    "hparams", str(key), str(run), value.item() if hasattr(value, "item") else value
                )


def _configs(exp: Any, run: str, put: Put) -> None:
    for name, values in read_run_configs(exp.fs, exp.run_path(run), exp.run_path(".")):
        if isinstance(values, str):
            warnings.warn(
                f"tbnb: run {run!r}: config file {name} not read ({values}); "
                "the rest of the run's information is kept",
                DataWarning,
                stacklevel=4,
            )
            continue
        put("config", f"{name}", run, ", ".join(sorted(values)) or "(empty)")
        for key, value in values.items():
            put("config", f"{name}: {key}", run, value)


def _environment(exp: Any, put: Put) -> None:
    text = exp.text
    if not len(text):
        return
    last = text.assign(run=text["run"].astype(str), tag=text["tag"].astype(str)).drop_duplicates(
        ["run", "tag"], keep="last"
    )
    for run, tag, value in zip(last["run"], last["tag"], last["text"], strict=True):
        body = (
            value
            if isinstance(value, str)
            else "\n".join(
                " | ".join(map(str, row)) if isinstance(row, (list, np.ndarray)) else str(row)
                for row in np.atleast_1d(value).tolist()
            )
        )
        if not looks_like_environment(tag, body):
            continue
        pairs = text_pairs(body)
        if not pairs:
            put("environment", tag, run, body)
        for key, item in pairs.items():
            put("environment", key, run, item)


def _run_metadata(exp: Any, put: Put) -> None:
    graphs = exp.graphs
    if not len(graphs):
        return
    for run, rows in graphs.assign(run=graphs["run"].astype(str)).groupby("run", sort=False):
        names = sorted(
            {
                f"{t} ({k})"
                for t, k in zip(rows["tag"], rows["kind"], strict=True)
                if k not in PROFILES or k == "graph_run_metadata"
            }
        )
        if names:
            put("graphs", "graphs", str(run), ", ".join(names))
        profiles = rows[rows["kind"].isin(list(PROFILES))].drop_duplicates("tag", keep="last")
        for tag, step, blob in zip(
            profiles["tag"], profiles["step"], profiles["blob"], strict=True
        ):
            try:
                stats = step_stats(run_metadata_of(blob.read()))
            except (GraphParseError, OSError) as error:
                warnings.warn(
                    f"tbnb: run {run!r} run metadata {tag!r}: {error}; skipped",
                    DataWarning,
                    stacklevel=4,
                )
                continue
            if not len(stats):
                continue
            put("run_metadata", f"{tag}: step", str(run), int(step))
            put("run_metadata", f"{tag}: nodes timed", str(run), len(stats))
            put(
                "run_metadata",
                f"{tag}: compute (ms)",
                str(run),
                float(stats["compute_us"].sum()) / 1000.0,
            )
            put(
                "run_metadata",
                f"{tag}: memory (bytes)",
                str(run),
                float(stats["memory_bytes"].sum()),
            )
            put(
                "run_metadata", f"{tag}: devices", str(run), ", ".join(sorted(set(stats["device"])))
            )


def _profile(exp: Any, put: Put) -> list[str]:
    """The traces of each run, listed (not parsed); returns the runs holding traces."""
    traces = exp.frame("profile").traces if hasattr(exp, "frame") else None
    if traces is None or not len(traces):
        return []
    for run, rows in traces.groupby("run", sort=False):
        put("profile", "traces", str(run), len(rows))
        put("profile", "files", str(run), ", ".join(rows["trace"].astype(str)))
        put("profile", "formats", str(run), ", ".join(sorted(set(rows["format"]))))
        put("profile", "bytes", str(run), int(rows["bytes"].sum()))
    return [str(r) for r in dict.fromkeys(traces["run"])]


def run_info(exp: Any) -> pd.DataFrame:
    """One row per run of ``exp``, columns ``(section, key)`` (see the module docstring)."""
    cells: dict[tuple[str, str], dict[str, Any]] = {}

    def put(section: str, key: str, run: str, value: Any) -> None:
        cells.setdefault((section, key), {})[run] = value

    runs = [str(r) for r in exp.runs]
    _bookkeeping(exp, put)
    _hparams(exp, put)
    for run in runs:
        _configs(exp, run, put)
    _environment(exp, put)
    _run_metadata(exp, put)
    runs += [r for r in _profile(exp, put) if r not in runs]
    order = {section: i for i, section in enumerate(SECTIONS)}
    keys = sorted(cells, key=lambda k: order[k[0]])  # stable: keys keep their order
    if not keys:
        empty = pd.DataFrame(index=pd.Index(runs, name="run"), dtype=object)
        empty.columns = pd.MultiIndex.from_arrays([[], []], names=["section", "key"])
        return empty
    frame = pd.DataFrame(
        {key: pd.Series(cells[key], dtype=object) for key in keys},
        index=pd.Index(runs, name="run"),
        dtype=object,
    )
    frame.columns = pd.MultiIndex.from_tuples(keys, names=["section", "key"])
    return frame.reindex(runs)
