"""Run information: everything the logs tell about each run (``exp.info``), and diffs.

:func:`run_info` builds ``exp.info`` (one row per run, ``(section, key)`` columns:
writer, host, wall times, counts, hparams, config files, environment dumps, run
metadata); :func:`diff_runs` puts two or more runs side by side with differences
marked. ``exp.metadata`` remains the loader's flat per-run table the ``run``
section comes from.
"""

from __future__ import annotations

from tbnb.analysis.runinfo.diff import diff_runs, same_value
from tbnb.analysis.runinfo.environment import looks_like_environment, text_pairs
from tbnb.analysis.runinfo.facts import SECTIONS, run_info

__all__ = [
    "SECTIONS",
    "diff_runs",
    "looks_like_environment",
    "run_info",
    "same_value",
    "text_pairs",
]
