"""Pure numpy/pandas transforms of scalar series: smoothing, downsampling, aggregation."""

from __future__ import annotations

from tbnb.transforms.aggregate import aggregate, group_runs
from tbnb.transforms.downsample import minmax_indices
from tbnb.transforms.smoothing import MAX_WEIGHT, ema, smooth, time_weighted_ema

__all__ = [
    "MAX_WEIGHT",
    "aggregate",
    "ema",
    "group_runs",
    "minmax_indices",
    "smooth",
    "time_weighted_ema",
]
