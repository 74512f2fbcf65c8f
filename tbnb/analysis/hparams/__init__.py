"""The hparams table: one row per run, hparam columns then final-metric columns.

:func:`hparams_frame` (``exp.hparams``) reads the hparams plugin's summaries
(:mod:`tbnb.kinds.hparams`), config files beside the event files
(:mod:`~tbnb.analysis.hparams.config`), optionally run names
(:mod:`~tbnb.analysis.hparams.run_names`), lays runs out as rows
(:mod:`~tbnb.analysis.hparams.layout`) and reduces their scalars to metrics
(:mod:`~tbnb.analysis.hparams.metrics`).
"""

from __future__ import annotations

from tbnb.analysis.hparams.config import CONFIG_FILES, flatten_config, read_config_file
from tbnb.analysis.hparams.frame import hparams_frame
from tbnb.analysis.hparams.metrics import REDUCTIONS
from tbnb.analysis.hparams.run_names import parse_run_name
from tbnb.analysis.hparams.source import HParamsSource

__all__ = [
    "CONFIG_FILES",
    "REDUCTIONS",
    "HParamsSource",
    "flatten_config",
    "hparams_frame",
    "parse_run_name",
    "read_config_file",
]
