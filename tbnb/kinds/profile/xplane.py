"""XPlane traces (TF 2.x and JAX ``<host>.xplane.pb``) to trace columns, without TensorFlow.

Layer ``kinds``. The file is an ``XSpace`` protobuf (schema in ``protos/tbnb/xplane.proto``):
planes for the host (``/host:CPU``: one line per thread) and each device
(``/device:GPU:0``: one line per stream), each event a metadata id (its name), an offset
in picoseconds from its line's timestamp (nanoseconds) and a duration, and stats keyed
by the plane's stat metadata. They map to the same columns as Chrome traces: device
events are kernels unless their name or stats say memcpy or memset
(``memcpy_details``, ``Memset_details``); ``kernel_details`` gives registers, shared
memory, grid and block; ``correlation_id`` joins a launch to its kernel; host events
with a ``step_num`` stat (``StepTraceAnnotation``) are steps. Planes without timed
events (metadata, call stacks, the task environment) are read for their stats only.

Examples
--------
>>> from tbnb._proto import message_class
>>> XSpace = message_class("tensorflow.profiler.XSpace")
>>> space = XSpace()
>>> plane = space.planes.add(name="/device:GPU:0")
>>> plane.event_metadata[1].name = "fusion"
>>> line = plane.lines.add(id=7, name="Stream #7(Compute)", timestamp_ns=1000)
>>> _ = line.events.add(metadata_id=1, offset_ps=2_000_000, duration_ps=3_000_000)
>>> trace = read_xplane(space.SerializeToString(), "h.xplane.pb")
>>> trace.events[["thread", "kind", "start", "dur", "stream"]].to_dict("records")
[{'thread': 'Stream #7(Compute)', 'kind': 'kernel', 'start': 3.0, 'dur': 3.0, 'stream': 7}]
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from tbnb._proto import message_class
from tbnb.kinds.profile.trace import ARG_COLUMNS, Trace, TraceBuilder

__all__ = ["read_xplane"]

XSpace: Any = message_class("tensorflow.profiler.XSpace")

_DEVICE = re.compile(r"^/device:(?:GPU|TPU|XPU):(\d+)")
_DETAIL = re.compile(r"(\w+):([^\s]+)")
_ALLOCATOR = re.compile(r"(?:GPU|gpu|cuda|CUDA)[_:]?(\d+)")
_MEMORY_EVENTS = ("MemoryAllocation", "MemoryDeallocation")


def _value(stat: Any, names: dict[int, str]) -> Any:
    which = stat.WhichOneof("value")
    if which is None:
        return None
    if which == "ref_value":
        return names.get(stat.ref_value, "")
    value = getattr(stat, which)
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else value


def _details(text: str) -> dict[str, str]:
    return dict(_DETAIL.findall(text)) if isinstance(text, str) else {}


def read_xplane(data: bytes, path: str) -> Trace:
    """Read one serialized ``XSpace`` into a :class:`Trace`.

    A file that is not an XSpace gives an empty trace with one problem naming it.
    """
    builder = TraceBuilder(path, "xplane")
    space = XSpace()
    try:
        space.ParseFromString(data)
    except Exception as error:  # protobuf's DecodeError and friends
        builder.problems.append(f"{path}: not a readable XSpace protobuf ({error}); skipped")
        return builder.finish()
    builder.metadata["hostnames"] = list(space.hostnames)
    for text in list(space.errors) + list(space.warnings):
        builder.problems.append(f"{path}: the profiler reported: {text}")
    for plane in space.planes:
        _plane(builder, plane)
    return builder.finish()


def _plane(builder: TraceBuilder, plane: Any) -> None:
    names = {key: meta.name for key, meta in plane.stat_metadata.items()}
    plane_stats = {names.get(s.metadata_id, ""): _value(s, names) for s in plane.stats}
    if plane_stats:
        builder.metadata.setdefault("planes", {})[plane.name] = plane_stats
    device_match = _DEVICE.match(plane.name)
    device = int(device_match.group(1)) if device_match else -1
    event_names = {
        key: meta.display_name or meta.name for key, meta in plane.event_metadata.items()
    }
    for line in plane.lines:
        if not len(line.events):
            continue
        thread = line.display_name or line.name or f"line {line.id}"
        if device >= 0:
            lane = builder.lane(
                plane.name, line.id, "device", plane.name, thread, device, int(line.id)
            )
        else:
            lane = builder.lane(plane.name, line.id, "host", plane.name, thread)
        _line(builder, lane, line, names, event_names, device)


def _line(
    builder: TraceBuilder,
    lane: int,
    line: Any,
    names: dict[int, str],
    event_names: dict[int, str],
    device: int,
) -> None:
    base_ps = line.timestamp_ns * 1000
    columns = [key for key in ARG_COLUMNS if key not in ("external_id", "input_dims")]
    rows: dict[str, list[Any]] = {key: [] for key in ("name", "start", "dur", *columns)}
    memory: dict[str, list[Any]] = {
        "time": [],
        "device": [],
        "bytes": [],
        "allocated": [],
        "reserved": [],
    }
    for event in line.events:
        name = event_names.get(event.metadata_id, "")
        stats = {names.get(s.metadata_id, ""): s for s in event.stats}
        start_us = (base_ps + event.offset_ps) / 1e6
        if name in _MEMORY_EVENTS:
            size = _value(stats["allocation_bytes"], names) if "allocation_bytes" in stats else 0
            memory["time"].append(start_us)
            memory["device"].append(_allocator_device(stats, names, device))
            memory["bytes"].append(float(size or 0) * (1 if name == "MemoryAllocation" else -1))
            memory["allocated"].append(_stat_number(stats, "bytes_allocated", names))
            memory["reserved"].append(_stat_number(stats, "bytes_reserved", names))
            continue
        kernel = (
            _details(_value(stats["kernel_details"], names)) if "kernel_details" in stats else {}
        )
        copy = stats.get("memcpy_details") or stats.get("Memset_details")
        copy_details = _details(_value(copy, names)) if copy is not None else {}
        rows["name"].append(name)
        rows["start"].append(start_us)
        rows["dur"].append(event.duration_ps / 1e6)
        rows["correlation"].append(_stat_number(stats, "correlation_id", names, -1))
        rows["step_num"].append(_stat_number(stats, "step_num", names, -1) if device < 0 else -1)
        rows["grid"].append(kernel.get("grid", ""))
        rows["block"].append(kernel.get("block", ""))
        rows["registers"].append(_float(kernel.get("regs")))
        shared = _float(kernel.get("static_shared"), 0.0) + _float(
            kernel.get("dynamic_shared"), 0.0
        )
        rows["shared_memory"].append(shared if kernel else np.nan)
        rows["occupancy"].append(_float(kernel.get("occ_pct")))
        rows["bytes"].append(_float(copy_details.get("size") or copy_details.get("num_bytes")))
    if rows["name"]:
        category = ["xplane_device" if device >= 0 else "xplane_host"] * len(rows["name"])
        builder.add(
            rows.pop("name"),
            category,
            np.full(len(category), lane, dtype=np.int32),
            rows.pop("start"),
            rows.pop("dur"),
            **rows,
        )
    if memory["time"]:
        n = len(memory["time"])
        builder.add_memory(
            **memory,
            lane=np.full(n, lane, dtype=np.float64),
            address=np.full(n, -1.0),
        )


def _allocator_device(stats: dict[str, Any], names: dict[int, str], device: int) -> int:
    """The device an allocator serves (``GPU_0_bfc``), else the plane's."""
    stat = stats.get("allocator_name")
    found = _ALLOCATOR.search(str(_value(stat, names))) if stat is not None else None
    return int(found.group(1)) if found else device


def _float(text: Any, default: float = np.nan) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


def _stat_number(
    stats: dict[str, Any], key: str, names: dict[int, str], default: float = np.nan
) -> float:
    stat = stats.get(key)
    return _float(_value(stat, names), default) if stat is not None else default
