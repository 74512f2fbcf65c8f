"""Device-side questions, as Holistic Trace Analysis asks them: kernels, launches, idle time.

- :func:`kernel_table`: per kernel name, calls and total/mean/max/min time, its grid,
  block, registers, shared memory and occupancy, share of all kernel time.
- :func:`launch_table`: per kernel, its launch (the runtime call with the same
  correlation id), the call's duration and the launch delay (kernel start minus the end
  of the call, at least 0), as HTA's ``get_cuda_kernel_launch_stats``.
- :func:`idle_split`: per stream, idle time between device events split into waiting
  for the host (the next event's launch came after the previous event ended), between
  kernels (a gap shorter than ``short_gap_us`` with the launch already queued) and other,
  as HTA's ``get_idle_time_breakdown``.
- :func:`device_time`: HTA's temporal breakdown: from the first device event's start to
  the last one's end, the time with no device event (idle), with a compute kernel
  running, and the rest (copies and sets only).

Examples
--------
>>> from tbnb.kinds.profile.trace import TraceBuilder
>>> b = TraceBuilder("t")
>>> host, gpu = b.lane(1, 1), b.lane(0, 7, "device", "GPU 0", "stream 7", 0, 7)
>>> b.add(["cudaLaunchKernel", "cudaLaunchKernel", "k", "k"],
...       ["cuda_runtime", "cuda_runtime", "kernel", "kernel"], [host, host, gpu, gpu],
...       [0.0, 20.0, 5.0, 22.0], [1.0, 1.0, 10.0, 4.0], correlation=[1, 2, 1, 2])
>>> events = b.finish().events
>>> kernel_table(events)[["name", "calls", "total", "max"]].to_dict("records")
[{'name': 'k', 'calls': 2, 'total': 14.0, 'max': 10.0}]
>>> launch_table(events)["launch_delay"].tolist()
[4.0, 1.0]
>>> idle_split(events)[["stream", "host_wait", "between_kernels", "other"]].to_dict("records")
[{'stream': 7, 'host_wait': 7.0, 'between_kernels': 0.0, 'other': 0.0}]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tbnb.analysis.profile.intervals import merge

__all__ = ["device_time", "idle_split", "kernel_table", "launch_table", "longest_kernels"]

_DEVICE_KINDS = ("kernel", "memcpy", "memset")

KERNEL_COLUMNS = [
    "name",
    "kind",
    "calls",
    "total",
    "mean",
    "max",
    "min",
    "share",
    "grid",
    "block",
    "registers",
    "shared_memory",
    "occupancy",
]


def _device(events: pd.DataFrame) -> pd.DataFrame:
    return events[(events["device"] >= 0) & events["kind"].isin(_DEVICE_KINDS)]


def _modes(names: pd.Series, values: pd.Series) -> pd.Series:
    """The most common value per name (first seen on ties), in one grouping."""
    pairs = pd.DataFrame({"name": names.to_numpy(), "value": values.astype(str).to_numpy()})
    counts = pairs.groupby(["name", "value"], sort=False).size().reset_index(name="n")
    best = counts.sort_values("n", ascending=False, kind="stable").drop_duplicates("name")
    return best.set_index("name")["value"]


def kernel_table(events: pd.DataFrame) -> pd.DataFrame:
    """One row per device event name (kernels, copies, sets), longest total first."""
    device = _device(events)
    if not len(device):
        return pd.DataFrame(columns=KERNEL_COLUMNS)
    names = device["name"].astype(str)
    grouped = device.groupby(names, sort=False)
    table = grouped["dur"].agg(calls="count", total="sum", mean="mean", max="max", min="min")
    table["kind"] = grouped["kind"].first().astype(str)
    table["share"] = table["total"] / table["total"].sum()
    table["grid"] = _modes(names, device["grid"]).reindex(table.index)
    table["block"] = _modes(names, device["block"]).reindex(table.index)
    for column in ("registers", "shared_memory", "occupancy"):
        table[column] = grouped[column].mean()
    table = table.rename_axis("name").reset_index()
    return table.sort_values("total", ascending=False, kind="stable", ignore_index=True)[
        KERNEL_COLUMNS
    ]


def longest_kernels(events: pd.DataFrame, n: int = 10) -> pd.DataFrame:
    """The ``n`` longest single device events, with when they ran and their step."""
    device = _device(events)
    columns = ["name", "kind", "start", "dur", "stream", "step", "correlation"]
    return device.nlargest(n, "dur")[columns].reset_index()


def _launches(events: pd.DataFrame) -> pd.DataFrame:
    """Host events carrying a correlation id: the first per id."""
    host = events[(events["device"] < 0) & (events["correlation"] >= 0)]
    return host.drop_duplicates("correlation")


def launch_table(events: pd.DataFrame) -> pd.DataFrame:
    """Each device event joined to its launch: ``cpu_duration``, ``gpu_duration``,
    ``launch_delay`` (device start minus the end of the launch call, clipped at 0)."""
    device = _device(events)
    device = device[device["correlation"] >= 0]
    launches = _launches(events)[["correlation", "name", "start", "dur"]]
    joined = device[["correlation", "name", "start", "dur", "stream", "step"]].merge(
        launches, on="correlation", suffixes=("", "_launch")
    )
    joined["cpu_duration"] = joined["dur_launch"]
    joined["gpu_duration"] = joined["dur"]
    joined["launch_delay"] = (joined["start"] - joined["start_launch"] - joined["dur_launch"]).clip(
        lower=0
    )
    return joined.rename(columns={"name_launch": "launch"})[
        [
            "correlation",
            "name",
            "launch",
            "stream",
            "step",
            "start",
            "cpu_duration",
            "gpu_duration",
            "launch_delay",
        ]
    ]


def idle_split(events: pd.DataFrame, short_gap_us: float = 0.03) -> pd.DataFrame:
    """Per stream: idle time between device events by cause (see the module docstring)."""
    device = _device(events).sort_values(["stream", "start"], kind="stable")
    launch_start = (
        _launches(events)
        .set_index("correlation")["start"]
        .reindex(device["correlation"])
        .to_numpy()
    )
    rows = []
    for stream, part in device.assign(_launch=launch_start).groupby("stream", sort=True):
        start = part["start"].to_numpy()
        end = start + part["dur"].to_numpy()
        prev_end = np.maximum.accumulate(end)[:-1]
        gap = np.maximum(start[1:] - prev_end, 0.0)
        launched = part["_launch"].to_numpy()[1:]
        host = launched > prev_end
        short = ~host & (gap < short_gap_us)
        rows.append(
            {
                "stream": int(stream),
                "idle": float(gap.sum()),
                "host_wait": float(gap[host].sum()),
                "between_kernels": float(gap[short].sum()),
                "other": float(gap[~host & ~short].sum()),
            }
        )
    return pd.DataFrame(rows, columns=["stream", "idle", "host_wait", "between_kernels", "other"])


def device_time(events: pd.DataFrame) -> dict[str, float]:
    """HTA's temporal breakdown of one trace (microseconds): ``total`` (first device
    start to last device end), ``idle``, ``compute`` (kernels), ``non_compute``."""
    device = _device(events)
    if not len(device):
        return {"total": 0.0, "idle": 0.0, "compute": 0.0, "non_compute": 0.0}
    start = device["start"].to_numpy()
    end = start + device["dur"].to_numpy()
    s, e = merge(start, end)
    total = float(e[-1] - s[0])
    busy = float((e - s).sum())
    kernels = (device["kind"] == "kernel").to_numpy()
    ks, ke = merge(start[kernels], end[kernels])
    compute = float((ke - ks).sum())
    return {
        "total": total,
        "idle": total - busy,
        "compute": compute,
        "non_compute": busy - compute,
    }
