"""Operators: where the host's time goes, and which device work each one launched.

An operator is a host span of kind ``cpu_op`` or ``data_loading`` (torch's ``aten::``
ops, autograd functions, TF/JAX host ops). Nested as calls are on their thread, each has
a total time (its span) and a self time (minus its child operators). A device event
belongs to the operator that launched it: the host event with its correlation id, or,
when that is a runtime call (``cudaLaunchKernel``), the innermost operator around the
call; its time counts as that operator's self device time and as device time of every
operator above it.

Examples
--------
>>> from tbnb.kinds.profile.trace import TraceBuilder
>>> b = TraceBuilder("t")
>>> host, gpu = b.lane(1, 1), b.lane(0, 7, "device", "GPU 0", "stream 7", 0, 7)
>>> b.add(["aten::linear", "aten::mm", "cudaLaunchKernel", "gemm"],
...       ["cpu_op", "cpu_op", "cuda_runtime", "kernel"], [host, host, host, gpu],
...       [0.0, 1.0, 2.0, 4.0], [10.0, 4.0, 1.0, 8.0], correlation=[-1, -1, 5, 5])
>>> ops = operator_table(b.finish().events)
>>> ops[["name", "total_cpu", "self_cpu", "device_total", "device_self"]].to_dict("records")
[{'name': 'aten::linear', 'total_cpu': 10.0, 'self_cpu': 6.0, 'device_total': 8.0, \
'device_self': 0.0}, {'name': 'aten::mm', 'total_cpu': 4.0, 'self_cpu': 4.0, \
'device_total': 8.0, 'device_self': 8.0}]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tbnb.kinds.profile.nesting import nesting

__all__ = ["OPERATOR_COLUMNS", "launched_by", "operator_spans", "operator_table"]

_OPS = ("cpu_op", "data_loading")
_DEVICE = ("kernel", "memcpy", "memset")

OPERATOR_COLUMNS = [
    "name",
    "input_dims",
    "calls",
    "total_cpu",
    "self_cpu",
    "device_total",
    "device_self",
    "kernels",
    "top_kernel",
]
"""Columns of :func:`operator_table` (microseconds; ``kernels``: device events launched
by its calls themselves; ``top_kernel``: the longest of them in total)."""


def operator_spans(events: pd.DataFrame) -> pd.DataFrame:
    """Each operator call (rows of ``events``) with ``parent`` (a row label, -1 at the
    top), ``self_cpu``, ``device_self`` and ``device_total``."""
    host = events[(events["device"] < 0) & events["kind"].isin([*_OPS, "runtime"])]
    lane = host["lane"].to_numpy()
    start = host["start"].to_numpy()
    end = start + host["dur"].to_numpy()
    _depth, parent_pos = nesting(lane, start, end)
    labels = host.index.to_numpy()
    is_op = host["kind"].isin(_OPS).to_numpy()
    parent = np.where(parent_pos >= 0, labels[np.maximum(parent_pos, 0)], -1)
    ops = host[is_op].copy()
    ops["parent"] = parent[is_op]
    child_time = (
        pd.Series(host["dur"].to_numpy()[is_op], index=parent[is_op]).groupby(level=0).sum()
    )
    ops["self_cpu"] = ops["dur"] - child_time.reindex(ops.index).fillna(0.0).to_numpy()
    owner = launched_by(events, host, parent)
    device_self = owner.groupby(owner.to_numpy()).size() * 0.0
    ops["device_self"] = 0.0
    ops["device_total"] = 0.0
    ops["kernels"] = 0
    if len(owner):
        durations = events.loc[owner.index, "dur"]
        device_self = durations.groupby(owner.to_numpy()).sum()
        counts = durations.groupby(owner.to_numpy()).size()
        ops["device_self"] = device_self.reindex(ops.index).fillna(0.0).to_numpy()
        ops["kernels"] = counts.reindex(ops.index).fillna(0).astype(int).to_numpy()
        up = pd.Series(ops["parent"].to_numpy(), index=ops.index)
        total = pd.Series(0.0, index=ops.index)
        current = pd.Series(owner.to_numpy(), index=owner.index)
        weight = durations.to_numpy()
        while len(current):  # add each device event's time to every ancestor
            keep = current.isin(total.index).to_numpy()
            np.add.at(total.to_numpy(), total.index.get_indexer(current[keep]), weight[keep])
            current = up.reindex(current[keep]).fillna(-1).astype(np.int64)
            weight = weight[keep]
            alive = (current >= 0).to_numpy()
            current, weight = current[alive], weight[alive]
        ops["device_total"] = total.to_numpy()
    return ops


def launched_by(events: pd.DataFrame, host: pd.DataFrame, parent: np.ndarray) -> pd.Series:
    """For each device event with a launch (index: its row), the operator that launched it."""
    device = events[
        (events["device"] >= 0) & events["kind"].isin(_DEVICE) & (events["correlation"] >= 0)
    ]
    with_corr = host[host["correlation"] >= 0]
    if not len(device) or not len(with_corr):
        return pd.Series([], dtype=np.int64)
    parents = pd.Series(parent, index=host.index)
    is_runtime = (with_corr["kind"] == "runtime").to_numpy()
    op = np.where(
        is_runtime, parents.reindex(with_corr.index).to_numpy(), with_corr.index.to_numpy()
    )
    by_corr = pd.Series(op, index=with_corr["correlation"].to_numpy())
    by_corr = by_corr[~by_corr.index.duplicated(keep="first")]
    owner = by_corr.reindex(device["correlation"].to_numpy())
    owner.index = device.index
    return owner[owner.notna() & (owner >= 0)].astype(np.int64)


def operator_table(events: pd.DataFrame, *, by_shape: bool = False) -> pd.DataFrame:
    """One row per operator name (and input shapes when ``by_shape``), most device
    time first, then most CPU time."""
    ops = operator_spans(events)
    keys = ["name", "input_dims"] if by_shape else ["name"]
    if not len(ops):
        return pd.DataFrame(columns=OPERATOR_COLUMNS)
    frame = ops.assign(name=ops["name"].astype(str), input_dims=ops["input_dims"].astype(str))
    grouped = frame.groupby(keys, sort=False)
    table = grouped.agg(
        calls=("dur", "size"),
        total_cpu=("dur", "sum"),
        self_cpu=("self_cpu", "sum"),
        device_total=("device_total", "sum"),
        device_self=("device_self", "sum"),
        kernels=("kernels", "sum"),
    ).reset_index()
    if not by_shape:
        table["input_dims"] = ""
    table["top_kernel"] = _top_kernels(events, ops, keys, table)
    return table.sort_values(
        ["device_total", "total_cpu"], ascending=False, kind="stable", ignore_index=True
    )[OPERATOR_COLUMNS]


def _top_kernels(
    events: pd.DataFrame, ops: pd.DataFrame, keys: list[str], table: pd.DataFrame
) -> list[str]:
    host = events[(events["device"] < 0) & events["kind"].isin([*_OPS, "runtime"])]
    _depth, parent_pos = nesting(
        host["lane"].to_numpy(), host["start"].to_numpy(), (host["start"] + host["dur"]).to_numpy()
    )
    labels = host.index.to_numpy()
    parent = np.where(parent_pos >= 0, labels[np.maximum(parent_pos, 0)], -1)
    owner = launched_by(events, host, parent)
    if not len(owner):
        return [""] * len(table)
    launched = pd.DataFrame(
        {
            "kernel": events.loc[owner.index, "name"].astype(str).to_numpy(),
            "dur": events.loc[owner.index, "dur"].to_numpy(),
            "name": ops["name"].astype(str).reindex(owner.to_numpy()).to_numpy(),
            "input_dims": ops["input_dims"].astype(str).reindex(owner.to_numpy()).to_numpy(),
        }
    ).dropna(subset=["name"])
    sums = launched.groupby([*keys, "kernel"], sort=False)["dur"].sum().reset_index()
    best = sums.sort_values("dur", ascending=False, kind="stable").drop_duplicates(keys)
    found = table[keys].merge(best, on=keys, how="left")["kernel"]
    return [str(k) for k in found.fillna("")]
