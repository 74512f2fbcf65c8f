"""Pure payloads of the profiler view: frames in, binary columns out.

Every payload is a dict of numpy arrays (sent as binary buffers), numbers and short
lists of distinct strings (``labels``, indexed by ``int32`` codes): trace strings reach
the browser as data, and the front end puts them into the DOM as text only.

Examples
--------
>>> import pandas as pd
>>> table = table_payload(pd.DataFrame({"name": ["a", "b", "a"], "calls": [1, 2, 3]}))
>>> table["columns"], table["labels"], table["data"]["name"].tolist()
(['name', 'calls'], ['a', 'b'], [0, 1, 0])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from tbnb.analysis.profile import device, operators, steps, trace_findings
from tbnb.analysis.profile.memory import memory_peaks
from tbnb.kinds.profile.trace import ARG_COLUMNS, KINDS_OF_EVENT

__all__ = [
    "CATEGORY_STYLE",
    "DEVICE_COLORS",
    "compare_payload",
    "lanes_payload",
    "memory_payload",
    "overview_payload",
    "span_details",
    "table_payload",
]

TOP = 10
"""Rows of the overview's top operators and kernels."""

CATEGORY_STYLE = {
    "kernel": ("GPU kernel", "#4477aa"),
    "memcpy": ("memcpy", "#ee7733"),
    "memset": ("memset", "#aa3377"),
    "runtime": ("runtime API", "#cc3311"),
    "data_loading": ("data loading", "#228833"),
    "cpu": ("CPU only", "#99aabb"),
    "idle": ("idle", "#dddddd"),
}
"""Label and colour of each step category (:data:`tbnb.analysis.profile.steps.CATEGORIES`),
for the browser's chart and the view spec alike."""

DEVICE_COLORS = ("#4477aa", "#ee6677", "#228833", "#ccbb44")
"""Colours of the memory curves, one per device in order (host first)."""


def table_payload(frame: pd.DataFrame) -> dict[str, Any]:
    """A frame as columns: numbers as float64, text as codes into one ``labels`` list."""
    labels: list[str] = []
    index: dict[str, int] = {}
    data: dict[str, np.ndarray] = {}
    for column in frame.columns:
        values = frame[column]
        if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
            data[str(column)] = values.to_numpy(dtype=np.float64, na_value=np.nan)
            continue
        codes = np.empty(len(values), dtype=np.int32)
        for i, text in enumerate(values.astype(str).tolist()):
            code = index.get(text)
            if code is None:
                code = index[text] = len(labels)
                labels.append(text)
            codes[i] = code
        data[str(column)] = codes
    return {"columns": [str(c) for c in frame.columns], "labels": labels, "data": data}


def overview_payload(profile: Any, name: str) -> dict[str, Any]:
    """The overview of one trace: steps by category, findings, top operators and kernels."""
    trace = profile.trace(name)
    events = trace.events
    table = steps.step_table(events)
    ops = operators.operator_table(events)
    kernels = device.kernel_table(events)
    return {
        "trace": name,
        "categories": list(steps.CATEGORIES),
        "category_labels": [CATEGORY_STYLE[c][0] for c in steps.CATEGORIES],
        "category_colors": [CATEGORY_STYLE[c][1] for c in steps.CATEGORIES],
        "steps": table_payload(table[["step", "duration", *steps.CATEGORIES, "device_busy"]]),
        "findings": trace_findings(
            events, trace.memory, step_table=table, ops=ops, kernels=kernels
        ),
        "operators": table_payload(
            ops.head(TOP)[["name", "calls", "device_total", "device_self", "total_cpu", "self_cpu"]]
        ),
        "kernels": table_payload(
            kernels.head(TOP)[["name", "kind", "calls", "total", "mean", "max"]]
        ),
        "events": len(events),
        "has_device": bool((events["device"] >= 0).any()),
        "problems": list(trace.problems),
    }


def lanes_payload(trace: Any) -> dict[str, Any]:
    """The timeline's lanes (one per process and thread, or device and stream), in
    drawing order (host before device, then as the trace sorts them), and the name table."""
    lanes = trace.lanes
    events = trace.events
    depth = events.groupby("lane")["depth"].max() if len(events) else pd.Series(dtype=int)
    used = lanes[lanes["lane"].isin(depth.index)]
    order = used.assign(
        _where=(used["where"] == "device").astype(int),
        _stream=used["stream"],
    ).sort_values(["_where", "process", "_stream", "lane"], kind="stable")
    return {
        "lane": order["lane"].to_numpy(np.int32),
        "depth": depth.reindex(order["lane"]).fillna(0).to_numpy(np.int32) + 1,
        "process": order["process"].astype(str).tolist(),
        "thread": order["thread"].astype(str).tolist(),
        "device": order["where"].eq("device").to_numpy(np.uint8),
        "names": [str(n) for n in events["name"].cat.categories],
        "kinds": list(KINDS_OF_EVENT),
    }


def memory_payload(trace: Any, pixels: int = 1600) -> dict[str, Any]:
    """Allocated and reserved bytes per device over time (at most ``pixels`` points per
    device, each pixel's highest), with each device's peak and the operator at it."""
    memory = trace.memory.dropna(subset=["allocated"])
    curves = []
    for n, (dev, part) in enumerate(memory.groupby("device", sort=True)):
        time = part["time"].to_numpy()
        allocated = part["allocated"].to_numpy()
        reserved = part["reserved"].to_numpy()
        if len(time) > pixels:
            bucket = np.floor((time - time[0]) / ((time[-1] - time[0]) or 1.0) * (pixels - 1))
            heads = np.flatnonzero(np.r_[True, np.diff(bucket) != 0])
            time = time[heads]
            allocated = np.maximum.reduceat(allocated, heads)
            reserved = np.maximum.reduceat(np.nan_to_num(reserved), heads)
        curves.append(
            {
                "device": int(dev),
                "color": DEVICE_COLORS[n % len(DEVICE_COLORS)],
                "time": time,
                "allocated": allocated,
                "reserved": reserved,
            }
        )
    peaks = memory_peaks(trace.memory, trace.events)
    origin = float(trace.events["start"].min()) if len(trace.events) else 0.0
    peaks = peaks.assign(time=peaks["time"] - origin).rename(columns={"time": "time_from_start"})
    return {"curves": curves, "peaks": table_payload(peaks)}


def compare_payload(profile: Any, a: str, b: str) -> dict[str, Any]:
    """Two traces side by side: mean step time by category, kernels and operators."""
    from tbnb.analysis.profile import compare

    frames = compare(profile, a, b)
    return {
        "a": a,
        "b": b,
        "steps": table_payload(frames["steps"]),
        "kernels": table_payload(frames["kernels"].head(50)),
        "operators": table_payload(frames["operators"].head(50)),
    }


_ARGS = tuple(key for key in ARG_COLUMNS if key != "step_num")


def span_details(trace: Any, row: int, limit: int = 200) -> dict[str, Any]:
    """One span's details: its fields, arguments, and the device events it launched
    (through correlation ids of launches on its thread within it), or its launch."""
    events = trace.events
    if not 0 <= row < len(events):
        raise IndexError(f"no span {row} in {trace.path} ({len(events)} spans)")
    span = events.iloc[row]
    lane = trace.lanes.set_index("lane").loc[int(span["lane"])]
    fields = [
        ["name", str(span["name"])],
        ["kind", str(span["kind"])],
        ["category", str(span["category"])],
        ["process", str(lane["process"])],
        ["thread", str(lane["thread"])],
        ["start (us)", f"{float(span['start']):.3f}"],
        ["duration (us)", f"{float(span['dur']):.3f}"],
        ["step", str(int(span["step"]))],
    ]
    for key in _ARGS:
        value = span[key]
        if isinstance(value, float) and np.isnan(value):
            continue
        if key in ("correlation", "external_id") and int(value) < 0:
            continue
        if str(value) not in ("", "nan"):
            fields.append([key, str(value)])
    related = _related(events, span, row)
    shown = related.head(limit)
    return {
        "row": row,
        "fields": fields,
        "related_label": "launched" if int(span["device"]) < 0 else "launched by",
        "related": {
            "row": shown.index.to_numpy(np.int32),
            "start": shown["start"].to_numpy(np.float64),
            "dur": shown["dur"].to_numpy(np.float64),
            "lane": shown["lane"].to_numpy(np.int32),
            "name": np.asarray(shown["name"].cat.codes, dtype=np.int32),
        },
        "related_total": len(related),
    }


def _related(events: pd.DataFrame, span: pd.Series, row: int) -> pd.DataFrame:
    corr = events["correlation"].to_numpy()
    on_device = events["device"].to_numpy() >= 0
    if int(span["device"]) >= 0:
        if int(span["correlation"]) < 0:
            return events.iloc[:0]
        return events[~on_device & (corr == int(span["correlation"]))]
    start, end = float(span["start"]), float(span["start"] + span["dur"])
    launches = events[
        ~on_device
        & (corr >= 0)
        & (events["lane"].to_numpy() == int(span["lane"]))
        & (events["start"].to_numpy() >= start)
        & (events["start"].to_numpy() <= end)
    ]
    wanted = set(launches["correlation"].tolist())
    if not wanted:
        return events.iloc[:0]
    found = events[on_device & np.isin(corr, list(wanted))]
    return found.sort_values("start", kind="stable")


def search_rows(
    trace: Any, query: str, *, exact: bool = False, limit: int = 2000
) -> dict[str, Any]:
    """Spans whose name matches ``query`` (a case-insensitive regular expression, or the
    text itself when it is not one; ``exact``: the whole name), first ones first."""
    import re

    events = trace.events
    names = [str(n) for n in events["name"].cat.categories]
    if exact:
        hits = [i for i, n in enumerate(names) if n == query]
    else:
        try:
            pattern = re.compile(query, re.IGNORECASE)
        except re.error:
            pattern = re.compile(re.escape(query), re.IGNORECASE)
        hits = [i for i, n in enumerate(names) if pattern.search(n)]
    mask = (
        np.isin(np.asarray(events["name"].cat.codes), hits) if hits else np.zeros(len(events), bool)
    )
    rows = np.flatnonzero(mask)
    rows = rows[np.argsort(events["start"].to_numpy()[rows], kind="stable")]
    shown = rows[:limit]
    return {
        "query": query,
        "total": len(rows),
        "row": shown.astype(np.int32),
        "start": events["start"].to_numpy()[shown],
        "dur": events["dur"].to_numpy()[shown],
        "lane": events["lane"].to_numpy()[shown].astype(np.int32),
        "depth": events["depth"].to_numpy()[shown].astype(np.int16),
    }
