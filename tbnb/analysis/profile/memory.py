"""Memory over time: the allocator's totals per device, the peak and the operator at it.

torch.profiler (``profile_memory=True``) records every allocation and free with the
allocator's totals after it (``Total Allocated``, ``Total Reserved``); XPlane records
``MemoryAllocation`` / ``MemoryDeallocation`` with ``bytes_allocated``. The operator at
a sample is the innermost operator running on the sample's thread at its time.

Examples
--------
>>> import pandas as pd
>>> memory = pd.DataFrame({"time": [1.0, 2.0, 3.0], "device": [0, 0, 0],
...     "bytes": [10.0, 20.0, -10.0], "allocated": [10.0, 30.0, 20.0],
...     "reserved": [64.0, 64.0, 64.0], "lane": [0, 0, 0], "address": [1.0, 2.0, 1.0]})
>>> events = pd.DataFrame({"lane": [0], "device": [-1], "kind": ["cpu_op"], "name": ["aten::add"],
...     "start": [1.5], "dur": [1.0], "depth": [0]})
>>> memory_peaks(memory, events)[["device", "peak", "time", "operator"]].to_dict("records")
[{'device': 0, 'peak': 30.0, 'time': 2.0, 'operator': 'aten::add'}]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["PEAK_COLUMNS", "memory_peaks", "operator_at"]

PEAK_COLUMNS = ["device", "peak", "time", "reserved", "operator", "samples"]
"""Columns of :func:`memory_peaks`: ``device`` -1 is host memory; bytes; ``operator``
"" when no operator was running."""


def operator_at(events: pd.DataFrame, lane: int, time: float) -> str:
    """The innermost host operator (or annotation) running on ``lane`` at ``time``."""
    ops = events[
        (events["lane"] == lane)
        & events["kind"].isin(["cpu_op", "data_loading", "annotation", "step"])
        & (events["start"] <= time)
        & (events["start"] + events["dur"] >= time)
    ]
    if not len(ops):
        return ""
    return str(ops.sort_values(["depth", "start"], kind="stable").iloc[-1]["name"])


def memory_peaks(memory: pd.DataFrame, events: pd.DataFrame) -> pd.DataFrame:
    """One row per device: the highest allocated total, when, and the operator then."""
    rows = []
    for device, part in memory.dropna(subset=["allocated"]).groupby("device", sort=True):
        at = int(np.argmax(part["allocated"].to_numpy()))
        sample = part.iloc[at]
        rows.append(
            {
                "device": int(device),
                "peak": float(sample["allocated"]),
                "time": float(sample["time"]),
                "reserved": float(sample["reserved"]),
                "operator": operator_at(events, int(sample["lane"]), float(sample["time"])),
                "samples": len(part),
            }
        )
    return pd.DataFrame(rows, columns=PEAK_COLUMNS)
