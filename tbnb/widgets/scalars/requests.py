"""The scalars widget's replies to the browser's requests (layer 6).

``"series"``: the series of the charts in view at screen resolution; ``"range"``: full
resolution of a zoomed x range. Both read the widget's :class:`~tbnb.transforms.series.
SeriesStore` and reply with columns as binary buffers.

Examples
--------
>>> import pandas as pd
>>> from tbnb.transforms.series import SeriesStore
>>> frame = pd.DataFrame({"run": ["a"] * 5, "tag": ["loss"] * 5, "step": range(5),
...                       "wall_time": range(5), "value": [5.0, 4, 3, 2, 1]})
>>> store = SeriesStore.from_frame(frame)
>>> reply = series_reply(store, {"keys": [["a", "loss"]], "buckets": 2}, max_points=4000)
>>> reply["buckets"], reply["series"][0]["total"]
(2, 5)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tbnb.transforms.downsample import minmax_indices
from tbnb.transforms.series import SeriesStore
from tbnb.widgets.series import WIRE, range_slice, wire

__all__ = ["downsampled", "range_reply", "series_reply"]

MAX_KEYS = 512
"""Most series one ``"series"`` request may ask for."""


def downsampled(store: SeriesStore, i: int, buckets: int) -> dict[str, np.ndarray[Any, Any]]:
    """Series ``i`` of ``store``, its min and max kept in each of ``buckets`` buckets."""
    cols = store.series(i)
    idx = minmax_indices(cols["step"], cols["value"], buckets)
    return {name: arr[idx] for name, arr in cols.items()}


def series_reply(
    store: SeriesStore | None, content: dict[str, Any], max_points: int
) -> dict[str, Any]:
    """Reply to ``{keys: [[run, tag], ...], buckets}``: min and max per bucket, at most
    ``max_points`` points a series; a key gone since the browser asked is left out."""
    if store is None:
        return {"buckets": 0, "series": []}
    keys = list(content.get("keys") or [])[:MAX_KEYS]
    buckets = int(min(max(int(content.get("buckets", 2)), 2), max(max_points // 2, 2)))
    series = []
    for run, tag in keys:
        i = store.index.get((str(run), str(tag)))
        if i is None:  # gone since the browser asked (a restart): it has the new index
            continue
        cols = downsampled(store, i, buckets)
        series.append(
            {
                "run": str(run),
                "tag": str(tag),
                "total": int(store.bounds[i + 1] - store.bounds[i]),
                "columns": {WIRE.get(k, k): wire(k, v) for k, v in cols.items()},
            }
        )
    return {"buckets": buckets, "series": series}


def range_reply(
    store: SeriesStore | None,
    charts: Sequence[dict[str, Any]],
    legend: Sequence[str],
    content: dict[str, Any],
) -> dict[str, Any]:
    """Reply to ``{chart, field, lo, hi, buckets, runs}``: the chart's series in the x
    range at full resolution (at most ``buckets`` buckets); runs default to ``legend``."""
    if store is None:
        return {"series": []}
    chart = next((c for c in charts if c["key"] == content.get("chart")), None)
    if chart is None:
        raise ValueError(f"unknown chart {content.get('chart')!r}")
    field = str(content.get("field", "step"))
    lo, hi = float(content["lo"]), float(content["hi"])
    buckets = int(min(max(int(content.get("buckets", 500)), 2), 20000))
    runs = set(content.get("runs") or legend)
    series = range_slice(store, chart["tags"], runs, field=field, lo=lo, hi=hi, buckets=buckets)
    return {"chart": chart["key"], "field": field, "lo": lo, "hi": hi, "series": series}
