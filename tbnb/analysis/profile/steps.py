"""Where each training step's time goes: the step breakdown of torch-tb-profiler's overview.

A step is a ``ProfilerStep#N`` span (torch) or a step annotation (TF/JAX
``StepTraceAnnotation``). Its window runs from its host start to the end of the later of
its host span and the device work it launched (kernels joined to their launches by
correlation id); a window starts no earlier than the previous one ends, so windows never
overlap. Inside a window every moment is given to one category, the first active in
this order: GPU kernel, memcpy, memset, runtime API (CUDA calls), data loading, CPU-only
work (operators and annotations on the host), idle (none of them).

Examples
--------
>>> import pandas as pd
>>> from tbnb.kinds.profile.trace import TraceBuilder
>>> b = TraceBuilder("t")
>>> host, gpu = b.lane(1, 1), b.lane(0, 7, "device", "GPU 0", "stream 7", 0, 7)
>>> b.add(["ProfilerStep#1", "aten::mm", "cudaLaunchKernel", "gemm"],
...       ["user_annotation", "cpu_op", "cuda_runtime", "kernel"],
...       [host, host, host, gpu], [0.0, 1.0, 2.0, 4.0], [10.0, 4.0, 1.0, 8.0],
...       correlation=[-1, -1, 5, 5])
>>> steps = step_table(b.finish().events)
>>> steps[["step", "duration", "kernel", "runtime", "cpu", "idle"]].to_dict("records")
[{'step': 1, 'duration': 12.0, 'kernel': 8.0, 'runtime': 1.0, 'cpu': 2.0, 'idle': 1.0}]
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tbnb.analysis.profile.intervals import priority_split

__all__ = ["CATEGORIES", "STEP_COLUMNS", "step_table", "step_windows"]

CATEGORIES = ("kernel", "memcpy", "memset", "runtime", "data_loading", "cpu", "idle")
"""The step breakdown's categories, in priority order (``idle``: nothing ran)."""

_CLASS_KINDS = {
    "kernel": ("kernel",),
    "memcpy": ("memcpy",),
    "memset": ("memset",),
    "runtime": ("runtime",),
    "data_loading": ("data_loading",),
    "cpu": ("cpu_op", "annotation"),
}

STEP_COLUMNS = ["step", "name", "start", "end", "duration", *CATEGORIES, "device_busy"]
"""Columns of :func:`step_table`: times in microseconds; ``device_busy`` is the time any
device event ran (kernels, copies, sets; the GPU utilisation is it over ``duration``)."""


def step_windows(events: pd.DataFrame) -> pd.DataFrame:
    """Each step's number, name and window ``[start, end)`` (see the module docstring)."""
    steps = events[events["kind"] == "step"].sort_values("start", kind="stable")
    if not len(steps):
        return pd.DataFrame({"step": [], "name": [], "start": [], "end": []})
    device = events[(events["device"] >= 0) & (events["step"] >= 0)]
    device_end = (device["start"] + device["dur"]).groupby(device["step"].to_numpy()).max()
    start = steps["start"].to_numpy(dtype=float).copy()
    end = start + steps["dur"].to_numpy(dtype=float)
    numbers = steps["step"].to_numpy()
    end = np.maximum(end, device_end.reindex(numbers).fillna(-np.inf).to_numpy())
    for i in range(1, len(start)):
        start[i] = max(start[i], end[i - 1])
        end[i] = max(end[i], start[i])
    return pd.DataFrame(
        {"step": numbers, "name": steps["name"].astype(str).to_numpy(), "start": start, "end": end}
    )


def step_table(events: pd.DataFrame) -> pd.DataFrame:
    """One row per step of one trace: its window and the time of each category."""
    windows = step_windows(events)
    kinds = events["kind"].to_numpy()
    device = events["device"].to_numpy() >= 0
    start = events["start"].to_numpy()
    end = start + events["dur"].to_numpy()
    classes = []
    for name, members in _CLASS_KINDS.items():
        keep = np.isin(kinds, members)
        keep &= device if name in ("kernel", "memcpy", "memset") else ~device
        classes.append((start[keep], end[keep]))
    split = priority_split(classes, windows["start"].to_numpy(), windows["end"].to_numpy())
    table = windows.assign(duration=windows["end"] - windows["start"])
    for index, name in enumerate(CATEGORIES):
        table[name] = split[:, index]
    on_device = device & np.isin(kinds, ("kernel", "memcpy", "memset"))
    busy = priority_split(
        [(start[on_device], end[on_device])],
        windows["start"].to_numpy(),
        windows["end"].to_numpy(),
    )
    table["device_busy"] = busy[:, 0]
    return table[STEP_COLUMNS].reset_index(drop=True)
