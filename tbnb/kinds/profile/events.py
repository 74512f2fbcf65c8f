"""What a profiler event is: its kind, its step, and what its timing says is wrong.

Layer ``kinds`` (used by :class:`~tbnb.kinds.profile.trace.TraceBuilder`). Writers name
categories their own way (Kineto's ``cpu_op``, ``kernel``, ``cuda_runtime``; XPlane has
none, TF's Chrome export none either): every event gets one ``kind`` of
:data:`KINDS_OF_EVENT` from its category, name and lane; steps come from
``ProfilerStep#N`` annotations or a ``step_num`` argument; a trace with no device
activity or with device events starting before their launch is reported.

Examples
--------
>>> import pandas as pd
>>> cats = pd.Categorical(["cpu_op", "kernel"])
>>> names = pd.Categorical(["aten::mm", "gemm"])
>>> lanes = pd.DataFrame({"where": ["host", "device"]})
>>> kinds_of(cats, names, lanes, np.array([0, 1]), np.array([-1, -1])).tolist()
['cpu_op', 'kernel']
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

__all__ = [
    "CATEGORY_KINDS",
    "DEVICE_PROCESS",
    "KINDS_OF_EVENT",
    "SKEW_US",
    "check_timing",
    "kinds_of",
    "steps_of",
]

KINDS_OF_EVENT = (
    "kernel",
    "memcpy",
    "memset",
    "runtime",
    "data_loading",
    "cpu_op",
    "annotation",
    "step",
    "python",
    "other",
)
"""The ``kind`` of an event, whatever its writer called its category."""

CATEGORY_KINDS = {
    "kernel": "kernel",
    "gpu_memcpy": "memcpy",
    "gpu_memset": "memset",
    "cuda_runtime": "runtime",
    "cuda_driver": "runtime",
    "hip_runtime": "runtime",
    "cpu_op": "cpu_op",
    "operator": "cpu_op",
    "user_annotation": "annotation",
    "gpu_user_annotation": "annotation",
    "python_function": "python",
    "trace": "other",
    "overhead": "other",
    "cpu_instant_event": "other",
    "ac2g": "other",
    "fwdbwd": "other",
    "mtia_runtime": "runtime",
    "privateuse1_runtime": "runtime",
    "privateuse1_driver": "runtime",
    "xplane_host": "cpu_op",
    "xplane_device": "other",
    "": "other",
}
DEVICE_PROCESS = re.compile(r"^/device:(?:GPU|TPU|XPU):(\d+)")
_STEP = re.compile(r"^ProfilerStep#(\d+)$")
_DATA = re.compile(r"DataLoader|dataloader|data_loader|IteratorGetNext|Iterator::")


SKEW_US = 1.0
"""A device event starting this much before its launch means the clocks disagree."""


def check_timing(path: str, events: pd.DataFrame) -> list[str]:
    """What a trace's timing says is wrong: no device activity, clock skew."""
    problems = []
    device = events["device"].to_numpy() >= 0
    if len(events) and not device.any():
        problems.append(
            f"{path}: no device activity (a CPU-only trace, or the profiler could not see "
            "the GPU): the step breakdown has CPU and idle time only"
        )
    corr = events["correlation"].to_numpy()
    launches = ~device & (corr >= 0)
    if device.any() and launches.any():
        first = pd.Series(events["start"].to_numpy()[launches], index=corr[launches])
        first = first[~first.index.duplicated(keep="first")]
        on_device = device & (corr >= 0)
        launched = first.reindex(corr[on_device]).to_numpy()
        early = launched - events["start"].to_numpy()[on_device]
        skewed = early > SKEW_US
        if skewed.any():
            problems.append(
                f"{path}: {int(skewed.sum()):,} device events start before their launch "
                f"(by up to {float(np.nanmax(early)):,.1f} us): the host and device clocks "
                "disagree; launch delays and the idle split are unreliable"
            )
    return problems


def kinds_of(
    cats: pd.Categorical,
    names: pd.Categorical,
    lanes: pd.DataFrame,
    lane: np.ndarray,
    step_num: np.ndarray,
) -> pd.Categorical:
    """Each event's kind from its category, name and lane (a vectorised lookup by code)."""
    cat_kind = np.array(
        [CATEGORY_KINDS.get(str(c).lower(), "other") for c in cats.categories], dtype=object
    )
    out = cat_kind[cats.codes] if len(cat_kind) else np.empty(len(lane), dtype=object)
    name_list = [str(n) for n in names.categories]
    is_step = np.array([bool(_STEP.match(n)) for n in name_list], dtype=bool)
    is_data = np.array([bool(_DATA.search(n)) for n in name_list], dtype=bool)
    is_copy = np.array([n.startswith(("Memcpy", "memcpy")) for n in name_list], dtype=bool)
    is_set = np.array([n.startswith(("Memset", "memset")) for n in name_list], dtype=bool)
    is_api = np.array([bool(re.match(r"^cu[A-Z]|^cuda[A-Z]|^hip[A-Z]", n)) for n in name_list])
    is_py = np.array([n.startswith("$") for n in name_list], dtype=bool)
    codes = names.codes
    on_device = (lanes["where"].to_numpy() == "device")[lane] if len(lanes) else np.zeros(0, bool)
    if name_list:
        out = np.where(is_step[codes] & (out == "annotation") & ~on_device, "step", out)
        out = np.where((step_num >= 0) & ~on_device, "step", out)
        loading = is_data[codes] & ((out == "cpu_op") | (out == "annotation")) & ~on_device
        out = np.where(loading, "data_loading", out)
        generic = out == "other"
        out = np.where(generic & on_device & is_copy[codes], "memcpy", out)
        out = np.where(generic & on_device & is_set[codes], "memset", out)
        out = np.where((out == "other") & on_device, "kernel", out)
        unnamed = np.array([str(c) == "" for c in cats.categories], dtype=bool)
        if unnamed.any():  # TF/JAX Chrome exports give host events no category
            out = np.where(generic & ~on_device & unnamed[cats.codes], "cpu_op", out)
        host_op = (out == "cpu_op") & ~on_device
        out = np.where((generic | host_op) & ~on_device & is_api[codes], "runtime", out)
        host_op = (out == "cpu_op") & ~on_device
        out = np.where(host_op & is_py[codes], "python", out)
    return pd.Categorical(out, categories=list(KINDS_OF_EVENT))


def steps_of(events: pd.DataFrame, step_num: np.ndarray) -> np.ndarray:
    """The step each event belongs to: host events by time within a step span, device
    events by the step of the launch their correlation id names."""
    out = np.full(len(events), -1, dtype=np.int32)
    is_step = (events["kind"] == "step").to_numpy()
    steps = events[is_step]
    if not len(steps):
        return out
    named = steps["name"].astype(str).str.extract(_STEP)[0].astype(float).to_numpy()
    numbers = np.where(step_num[is_step] >= 0, step_num[is_step], named).astype(np.int64)
    order = np.argsort(steps["start"].to_numpy(), kind="stable")
    s_start = steps["start"].to_numpy()[order]
    s_end = s_start + steps["dur"].to_numpy()[order]
    s_num = numbers[order]
    host = events["device"].to_numpy() < 0
    start = events["start"].to_numpy()
    at = np.searchsorted(s_start, start, side="right") - 1
    inside = (at >= 0) & (start < s_end[np.maximum(at, 0)])
    out[host & inside] = s_num[at[host & inside]]
    corr = events["correlation"].to_numpy()
    launches = host & (corr >= 0)
    table = pd.Series(out[launches], index=corr[launches])
    table = table[~table.index.duplicated(keep="first")]
    device = ~host & (corr >= 0)
    if device.any() and len(table):
        found = table.reindex(corr[device]).to_numpy()
        out[device] = np.where(np.isnan(found.astype(float)), -1, found).astype(np.int32)
    return out
