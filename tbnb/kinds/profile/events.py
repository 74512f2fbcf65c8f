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
from collections.abc import Mapping
from typing import Any

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
_API = re.compile(r"^cu[A-Z]|^cuda[A-Z]|^hip[A-Z]")


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
    corr = np.asarray(events["correlation"])
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
    """Each event's kind from its category, name and lane (a vectorised lookup by code,
    one byte per event: a million events take a few boolean masks, no string per event)."""
    code = {kind: np.int8(i) for i, kind in enumerate(KINDS_OF_EVENT)}
    cat_kind = np.array(
        [code[CATEGORY_KINDS.get(str(c).lower(), "other")] for c in cats.categories],
        dtype=np.int8,
    )
    out = cat_kind[cats.codes] if len(cat_kind) else np.full(len(lane), code["other"], np.int8)
    name_list = [str(n) for n in names.categories]
    if name_list:
        is_step = np.array([bool(_STEP.match(n)) for n in name_list], dtype=bool)
        is_data = np.array([bool(_DATA.search(n)) for n in name_list], dtype=bool)
        is_copy = np.array([n.startswith(("Memcpy", "memcpy")) for n in name_list], dtype=bool)
        is_set = np.array([n.startswith(("Memset", "memset")) for n in name_list], dtype=bool)
        is_api = np.array([bool(_API.match(n)) for n in name_list], dtype=bool)
        is_py = np.array([n.startswith("$") for n in name_list], dtype=bool)
        codes = names.codes
        host = ~(lanes["where"].to_numpy() == "device")[lane] if len(lanes) else np.ones(0, bool)
        out[is_step[codes] & (out == code["annotation"]) & host] = code["step"]
        out[(step_num >= 0) & host] = code["step"]
        loading = is_data[codes] & ((out == code["cpu_op"]) | (out == code["annotation"])) & host
        out[loading] = code["data_loading"]
        generic = out == code["other"]
        out[generic & ~host & is_copy[codes]] = code["memcpy"]
        out[generic & ~host & is_set[codes]] = code["memset"]
        out[(out == code["other"]) & ~host] = code["kernel"]
        unnamed = np.array([str(c) == "" for c in cats.categories], dtype=bool)
        if unnamed.any():  # TF/JAX Chrome exports give host events no category
            out[generic & host & unnamed[cats.codes]] = code["cpu_op"]
        host_op = (out == code["cpu_op"]) & host
        out[(generic | host_op) & host & is_api[codes]] = code["runtime"]
        out[(out == code["cpu_op"]) & host & is_py[codes]] = code["python"]
    return pd.Categorical.from_codes(out, categories=list(KINDS_OF_EVENT))


def steps_of(events: Mapping[str, Any], step_num: np.ndarray) -> np.ndarray:
    """The step each event belongs to: host events by time within a step span, device
    events by the step of the launch their correlation id names. ``events``: the events
    frame, or its columns (``kind``, ``name``, ``start``, ``dur``, ``device``,
    ``correlation``) before it is one."""
    start = np.asarray(events["start"])
    out = np.full(len(start), -1, dtype=np.int32)
    is_step = np.asarray(events["kind"] == "step")
    if not is_step.any():
        return out
    names = pd.Series(events["name"])[is_step]
    named = names.astype(str).str.extract(_STEP)[0].astype(float).to_numpy()
    numbers = np.where(step_num[is_step] >= 0, step_num[is_step], named).astype(np.int64)
    order = np.argsort(start[is_step], kind="stable")
    s_start = start[is_step][order]
    s_end = s_start + np.asarray(events["dur"])[is_step][order]
    s_num = numbers[order]
    host = np.asarray(events["device"]) < 0
    at = np.searchsorted(s_start, start, side="right") - 1
    inside = (at >= 0) & (start < s_end[np.maximum(at, 0)])
    out[host & inside] = s_num[at[host & inside]]
    corr = np.asarray(events["correlation"])
    launches = host & (corr >= 0)
    table = pd.Series(out[launches], index=corr[launches])
    table = table[~table.index.duplicated(keep="first")]
    device = ~host & (corr >= 0)
    if device.any() and len(table):
        found = table.reindex(corr[device]).to_numpy()
        out[device] = np.where(np.isnan(found.astype(float)), -1, found).astype(np.int32)
    return out
