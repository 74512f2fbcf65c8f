"""Step statistics of a ``RunMetadata``: compute time, memory and device per node.

TF records them when a step runs with tracing (``RunOptions.FULL_TRACE``, or
``tf.summary.trace_on(profiler=True)``): for each device, one ``NodeExecStats``
per execution of a node. As TensorBoard does, a node's compute time is the sum of
its executions' ``all_end_rel_micros`` (nanoseconds when only those were written),
its memory the sum of the bytes its allocators report, and its device the first
that ran it.

Examples
--------
>>> from tbnb._proto import RunMetadata
>>> meta = RunMetadata()
>>> device = meta.step_stats.dev_stats.add(device="/device:CPU:0")
>>> stat = device.node_stats.add(node_name="MatMul", all_end_rel_micros=12)
>>> _ = stat.memory.add(allocator_name="cpu", total_bytes=4096)
>>> step_stats(meta)[["node", "compute_us", "memory_bytes"]].to_dict("records")
[{'node': 'MatMul', 'compute_us': 12.0, 'memory_bytes': 4096.0}]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

__all__ = ["STATS_COLUMNS", "step_stats"]

STATS_COLUMNS = (
    "node",
    "device",
    "compute_us",
    "memory_bytes",
    "output_bytes",
    "executions",
    "start_us",
)
"""Columns of :func:`step_stats`."""


def _compute_us(stat: Any) -> float:
    if stat.all_end_rel_micros:
        return float(stat.all_end_rel_micros)
    if stat.all_end_rel_nanos:
        return float(stat.all_end_rel_nanos) / 1000.0
    return float(stat.op_end_rel_micros - stat.op_start_rel_micros)


def _start_us(stat: Any) -> float:
    if stat.all_start_micros:
        return float(stat.all_start_micros)
    return float(stat.all_start_nanos) / 1000.0


def step_stats(run_metadata: Any) -> pd.DataFrame:
    """One row per node that ran: see :data:`STATS_COLUMNS` (times in microseconds).

    An empty frame (with the columns) when the metadata holds no node statistics,
    as torch's ``add_graph`` writes it.
    """
    totals: dict[str, dict[str, Any]] = {}
    for device in run_metadata.step_stats.dev_stats:
        for stat in device.node_stats:
            row = totals.get(stat.node_name)
            if row is None:
                row = totals[stat.node_name] = {
                    "node": stat.node_name,
                    "device": device.device,
                    "compute_us": 0.0,
                    "memory_bytes": 0.0,
                    "output_bytes": 0.0,
                    "executions": 0,
                    "start_us": _start_us(stat),
                }
            row["compute_us"] += _compute_us(stat)
            row["memory_bytes"] += float(sum(m.total_bytes for m in stat.memory))
            row["output_bytes"] += float(
                sum(
                    o.tensor_description.allocation_description.allocated_bytes for o in stat.output
                )
            )
            row["executions"] += 1
            row["start_us"] = min(row["start_us"], _start_us(stat))
    frame = pd.DataFrame(list(totals.values()), columns=list(STATS_COLUMNS))
    return frame.astype(
        {
            "compute_us": np.float64,
            "memory_bytes": np.float64,
            "output_bytes": np.float64,
            "executions": np.int64,
            "start_us": np.float64,
        }
    )
