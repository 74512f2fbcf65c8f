"""Run information: what the loader learnt about each run's files (layer: kinds).

One row per run (``exp.metadata``): its event files, the library that wrote them
(``writer``, inferred from what the files tell: :mod:`tbnb.loader.writers`; ``unknown``
otherwise), the ``source_metadata`` writer the files name (``source_writer``) and file
version, the host from the file names, first and last wall time, duration,
last step, records read and corrupt, bytes read and seen, the logdir it lies in (as
given: one of several in an experiment over several logdirs), and the number of values
of every counted kind. ``exp.info`` adds what the rest of the logs tell (hparams,
config files, environment dumps, run metadata; :mod:`tbnb.analysis.runinfo`), and the
``Runs`` tab (``tbnb.runs``) shows both.

Examples
--------
>>> from tbnb.kinds import KINDS
>>> KINDS["metadata"].storage, KINDS["metadata"].tab.title
('runs', 'Runs')
"""

from __future__ import annotations

from typing import Any

from tbnb.kinds.base import Analysis, RunsKind, Tab

KEY = "metadata"

COLUMNS = (
    "files",
    "writer",
    "source_writer",
    "file_version",
    "host",
    "first_wall_time",
    "last_wall_time",
    "duration",
    "last_step",
    "records",
    "corrupt_records",
    "bytes_read",
    "file_bytes",
    "logdir",
)
"""Columns before the per-kind counts."""


def _has_runs(frame: Any) -> bool:
    """Whether some run logged a value (runs holding nothing yet have no ``Runs`` tab)."""
    return bool(len(frame)) and bool((frame["last_step"] >= 0).any())


def _logged_values(experiment: Any) -> bool:
    """Whether some run logged a value, without building the table (it counts every
    scalar: seconds on a big logdir)."""
    from tbnb.kinds import KINDS

    return any(experiment.count(key) > 0 for key in KINDS)  # -1: not counted


RUN_INFO = Analysis(
    "info",
    "tbnb.analysis.runinfo:run_info",
    "Everything the logs tell about each run: one row per run, ``(section, key)`` columns.",
)
"""The run information (``exp.info``)."""

KIND = RunsKind(
    key=KEY,
    doc="One row per run: files, writer, host, wall times, duration, last step, logdir, counts.",
    columns=COLUMNS,
    tab=Tab("Runs", "tbnb.widgets.metadata:runs", shown=_has_runs, present=_logged_values),
)
