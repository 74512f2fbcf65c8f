"""Chrome-trace events (torch.profiler / Kineto, TF's trace.json.gz) to trace columns.

Layer ``kinds``. Each batch of event dicts from :class:`~tbnb.kinds.profile_json.TraceJson`
becomes columns at once (one list comprehension per field, strings interned by the
:class:`~tbnb.kinds.profile_trace.TraceBuilder`), so a batch's dicts are dropped before
the next is read. Complete events (``ph: X``) are spans; ``B``/``E`` pairs are matched
per thread into spans; torch's ``[memory]`` instant events are allocator samples;
``M`` events name processes and threads. Everything else (flows, counters, other
instants) is counted in ``metadata["skipped"]``.

Examples
--------
>>> import io
>>> data = (b'{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7,'
...         b' "ts": 5, "dur": 2, "args": {"stream": 7, "device": 0, "correlation": 9}}]}')
>>> trace = read_chrome(io.BytesIO(data), "t.pt.trace.json")
>>> trace.events[["thread", "kind", "stream", "correlation"]].to_dict("records")
[{'thread': 'stream 7', 'kind': 'kernel', 'stream': 7, 'correlation': 9}]
"""

from __future__ import annotations

from collections import Counter
from typing import Any, BinaryIO

import numpy as np
import pandas as pd

from tbnb.kinds.profile_json import BLOCK, TraceJson
from tbnb.kinds.profile_trace import Trace, TraceBuilder

__all__ = ["read_chrome"]

_EMPTY: dict[str, Any] = {}
_FLOAT_ARGS = ("registers", "shared_memory", "occupancy", "bytes")
_NUMERIC_ARGS = {
    "correlation": ("correlation", "correlation_id"),
    "external_id": ("External id",),
    "registers": ("registers per thread",),
    "shared_memory": ("shared memory",),
    "occupancy": ("est. achieved occupancy %",),
    "bytes": ("bytes",),
    "step_num": ("step_num",),
}


def _number(value: Any, default: float) -> float:
    if value is None or isinstance(value, bool):
        return default
    if isinstance(value, (int, float)):
        return value
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _numbers(values: list[Any], default: float) -> np.ndarray:
    """A float column; None is ``default``, text that is no number too."""
    try:
        out = np.array(values, dtype=np.float64)
    except (TypeError, ValueError):
        return np.array([_number(v, default) for v in values], dtype=np.float64)
    if not np.isnan(default):  # missing values take the default
        out[np.isnan(out)] = default
    return out


def _text(value: Any) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, list) and all(not isinstance(v, list) for v in value):
        return ",".join(str(v) for v in value)
    return str(value)


class _Lanes:
    """Lane ids of ``(pid, tid)`` pairs, GPU lanes told by their stream argument."""

    def __init__(self, builder: TraceBuilder) -> None:
        self.builder = builder
        self.ids: dict[tuple[Any, Any], int] = {}

    def of(self, pid: Any, tid: Any, args: dict[str, Any]) -> int:
        key = (pid, tid)
        lane = self.ids.get(key)
        if lane is None:
            stream = args.get("stream")
            device = args.get("device")
            if isinstance(stream, int) and not isinstance(stream, bool):
                lane = self.builder.lane(
                    pid,
                    tid,
                    "device",
                    f"GPU {device if device is not None else pid}",
                    f"stream {stream}",
                    int(device) if isinstance(device, int) else 0,
                    stream,
                )
            else:
                lane = self.builder.lane(pid, tid)
            self.ids[key] = lane
        return lane

    def column(self, events: list[dict[str, Any]], args: list[dict[str, Any]]) -> np.ndarray:
        """The lane of each event: pairs factorised at C speed, new lanes made once."""
        pairs = pd.Series(
            list(zip([e.get("pid") for e in events], [e.get("tid") for e in events], strict=True)),
            dtype=object,
        )
        codes, uniques = pd.factorize(pairs)
        first = np.zeros(len(uniques), dtype=np.int64)
        first[codes[::-1]] = np.arange(len(codes))[::-1]
        table = np.array(
            [self.of(pid, tid, args[int(i)]) for (pid, tid), i in zip(uniques, first, strict=True)],
            dtype=np.int32,
        )
        out: np.ndarray = table[codes]
        return out


def _metadata(builder: TraceBuilder, events: list[dict[str, Any]]) -> None:
    for e in events:
        args = e.get("args") or _EMPTY
        name, pid, tid = e.get("name"), e.get("pid"), e.get("tid")
        label = args.get("name") if name in ("process_name", "thread_name") else args.get("labels")
        if not isinstance(label, str):
            continue
        if name == "thread_name":
            builder.label(pid, tid, thread=label.strip())
        elif name in ("process_name", "process_labels"):
            key = "process_name" if name == "process_name" else "labels"
            builder.label(pid, None, **{key: label.strip()})


def _spans(builder: TraceBuilder, lanes: _Lanes, xs: list[dict[str, Any]]) -> None:
    args = [e.get("args") or _EMPTY for e in xs]
    columns: dict[str, Any] = {}
    for column, keys in _NUMERIC_ARGS.items():
        default = np.nan if column in _FLOAT_ARGS else -1
        values = [a.get(keys[0]) for a in args]
        for other in keys[1:]:
            if any(v is None for v in values):
                values = [
                    v if v is not None else a.get(other) for v, a in zip(values, args, strict=True)
                ]
        if any(v is not None for v in values):
            columns[column] = _numbers(values, default)
    dims = [a.get("Input Dims") for a in args]
    if any(d is not None for d in dims):
        columns["input_dims"] = [str(d) if d is not None else "" for d in dims]
    for key in ("grid", "block"):
        values = [a.get(key) for a in args]
        if any(v is not None for v in values):
            columns[key] = [_text(v) for v in values]
    builder.add(
        [e.get("name", "") for e in xs],
        [e.get("cat", "") for e in xs],
        lanes.column(xs, args),
        _numbers([e.get("ts") for e in xs], np.nan),
        _numbers([e.get("dur") for e in xs], 0.0),
        **columns,
    )


def _memory(builder: TraceBuilder, lanes: _Lanes, samples: list[dict[str, Any]]) -> None:
    args = [e.get("args") or _EMPTY for e in samples]
    device_type = [_number(a.get("Device Type"), 0) for a in args]
    device = [
        _number(a.get("Device Id"), -1) if t != 0 else -1
        for a, t in zip(args, device_type, strict=True)
    ]
    builder.add_memory(
        time=[_number(e.get("ts"), np.nan) for e in samples],
        device=device,
        bytes=[_number(a.get("Bytes"), 0) for a in args],
        allocated=[_number(a.get("Total Allocated"), np.nan) for a in args],
        reserved=[_number(a.get("Total Reserved"), np.nan) for a in args],
        lane=[lanes.of(e.get("pid"), e.get("tid"), _EMPTY) for e in samples],
        address=[_number(a.get("Addr"), -1) for a in args],
    )


def _begin_end(
    builder: TraceBuilder,
    lanes: _Lanes,
    events: list[dict[str, Any]],
    open_: dict[Any, list[dict[str, Any]]],
) -> None:
    done: list[dict[str, Any]] = []
    for e in events:
        key = (e.get("pid"), e.get("tid"))
        if e.get("ph") == "B":
            open_.setdefault(key, []).append(e)
        elif open_.get(key):
            b = open_[key].pop()
            span = dict(b)
            span["dur"] = _number(e.get("ts"), np.nan) - _number(b.get("ts"), np.nan)
            span["args"] = {**(b.get("args") or {}), **(e.get("args") or {})}
            done.append(span)
    if done:
        _spans(builder, lanes, done)


def read_chrome(stream: BinaryIO, path: str, *, block: int = BLOCK) -> Trace:
    """Read one Chrome-trace JSON stream (decompressed) into a :class:`Trace`."""
    builder = TraceBuilder(path, "chrome")
    lanes = _Lanes(builder)
    reader = TraceJson(stream, path, block=block)
    skipped: Counter[str] = Counter()
    open_: dict[Any, list[dict[str, Any]]] = {}
    for batch in reader.batches():
        phase = [e.get("ph") for e in batch]
        xs = [e for e, p in zip(batch, phase, strict=True) if p == "X"]
        if xs:
            _spans(builder, lanes, xs)
        meta = [e for e, p in zip(batch, phase, strict=True) if p == "M"]
        if meta:
            _metadata(builder, meta)
        samples = [
            e for e, p in zip(batch, phase, strict=True) if p == "i" and e.get("name") == "[memory]"
        ]
        if samples:
            _memory(builder, lanes, samples)
        pairs = [e for e, p in zip(batch, phase, strict=True) if p in ("B", "E")]
        if pairs:
            _begin_end(builder, lanes, pairs, open_)
        skipped.update(str(p) for p in phase if p not in ("X", "M", "B", "E") and p != "i")
        del batch, phase, xs, meta, samples
    unclosed = sum(len(v) for v in open_.values())
    if unclosed:
        builder.problems.append(f"{path}: {unclosed:,} begin events never end; left out")
    builder.metadata.update(reader.metadata)
    builder.metadata["skipped"] = dict(skipped)
    builder.problems[:0] = reader.problems
    return builder.finish()
