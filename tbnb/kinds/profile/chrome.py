"""Chrome-trace events (torch.profiler / Kineto, TF's trace.json.gz) to trace columns.

Layer ``kinds``. Events are decoded straight into :class:`Event` records (msgspec: only
the fields read here, unknown ones skipped, no dict per event) by
:class:`~tbnb.kinds.profile.stream.TraceJson`, and each batch becomes columns at once (one
list comprehension per field, strings interned by the
:class:`~tbnb.kinds.profile.trace.TraceBuilder`), so a batch is dropped before the next
is read. Complete events (``ph: X``) are spans; ``B``/``E`` pairs are matched per thread
into spans; torch's ``[memory]`` instant events are allocator samples; ``M`` events name
processes and threads. Everything else (flows, counters, other instants) is counted in
``metadata["skipped"]``.

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

import operator
from collections import Counter
from typing import Any, BinaryIO

import msgspec
import numpy as np
import pandas as pd

from tbnb.io.memory import release_free_memory
from tbnb.kinds.profile.stream import BLOCK, TraceJson
from tbnb.kinds.profile.trace import Trace, TraceBuilder

__all__ = ["Args", "Event", "read_chrome"]

_RAW = msgspec.Raw


def _field(name: str) -> Any:
    return msgspec.field(default=None, name=name)


class Args(msgspec.Struct):
    """The arguments of an event that tbnb reads (any type: checked when read)."""

    correlation: Any = None
    correlation_id: Any = None
    external_id: Any = _field("External id")
    input_dims: _RAW = msgspec.field(default_factory=_RAW, name="Input Dims")
    grid: _RAW = msgspec.field(default_factory=_RAW)
    block: _RAW = msgspec.field(default_factory=_RAW)
    registers: Any = _field("registers per thread")
    shared_memory: Any = _field("shared memory")
    occupancy: Any = _field("est. achieved occupancy %")
    bytes: Any = None
    stream: Any = None
    device: Any = None
    step_num: Any = None
    name: Any = None
    labels: Any = None
    total_allocated: Any = _field("Total Allocated")
    total_reserved: Any = _field("Total Reserved")
    alloc_bytes: Any = _field("Bytes")
    device_id: Any = _field("Device Id")
    device_type: Any = _field("Device Type")
    address: Any = _field("Addr")


class Event(msgspec.Struct):
    """One trace event, the fields tbnb reads."""

    ph: Any = None
    cat: Any = ""
    name: Any = ""
    pid: Any = None
    tid: Any = None
    ts: Any = None
    dur: Any = None
    args: Args | None = None


_DECODER = msgspec.json.Decoder(list[Event])
_NO_ARGS = Args()
_FLOAT_ARGS = ("registers", "shared_memory", "occupancy", "bytes")
_NUMERIC_ARGS = (
    "correlation",
    "external_id",
    "registers",
    "shared_memory",
    "occupancy",
    "bytes",
    "step_num",
)


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


def _raw_text(raw: msgspec.Raw) -> str:
    """``[227, 1, 1]`` as ``227,1,1``; other JSON values as their text."""
    text = bytes(raw).decode("utf-8", "replace")
    if text.startswith("[") and "[" not in text[1:] and '"' not in text:
        return text[1:-1].replace(" ", "")
    return text.strip('"') if text.startswith('"') and text.count('"') == 2 else text


class _Lanes:
    """Lane ids of ``(pid, tid)`` pairs, GPU lanes told by their stream argument."""

    def __init__(self, builder: TraceBuilder) -> None:
        self.builder = builder
        self.ids: dict[tuple[Any, Any], int] = {}

    def of(self, pid: Any, tid: Any, args: Args) -> int:
        key = (pid, tid)
        lane = self.ids.get(key)
        if lane is None:
            stream, device = args.stream, args.device
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

    def column(self, events: list[Event], args: list[Args]) -> np.ndarray:
        """The lane of each event: pairs factorised at C speed, new lanes made once."""
        pairs = pd.Series(list(zip([e.pid for e in events], [e.tid for e in events], strict=True)))
        codes, uniques = pd.factorize(pairs)
        first = np.zeros(len(uniques), dtype=np.int64)
        first[codes[::-1]] = np.arange(len(codes))[::-1]
        table = np.array(
            [self.of(pid, tid, args[int(i)]) for (pid, tid), i in zip(uniques, first, strict=True)],
            dtype=np.int32,
        )
        out: np.ndarray = table[codes]
        return out


def _metadata(builder: TraceBuilder, events: list[Event]) -> None:
    for e in events:
        args = e.args or _NO_ARGS
        name = e.name
        label = args.name if name in ("process_name", "thread_name") else args.labels
        if not isinstance(label, str):
            continue
        if name == "thread_name":
            builder.label(e.pid, e.tid, thread=label.strip())
        elif name in ("process_name", "process_labels"):
            key = "process_name" if name == "process_name" else "labels"
            builder.label(e.pid, None, **{key: label.strip()})


_ARGS_READ = (*_NUMERIC_ARGS, "correlation_id")
_NUMBERS_OF = operator.attrgetter(*_ARGS_READ)
_RAWS_OF = operator.attrgetter("input_dims", "grid", "block")


def _numeric_args(args: list[Args]) -> dict[str, np.ndarray]:
    """The numeric arguments of a batch as columns (those no event has left out): one
    array of every event's numbers at once, per column where a value is no number."""
    try:
        block = np.array(list(map(_NUMBERS_OF, args)), dtype=np.float64).reshape(
            -1, len(_ARGS_READ)
        )
    except (TypeError, ValueError):  # text that is no number: column by column
        block = None
    columns: dict[str, np.ndarray] = {}
    for j, column in enumerate(_NUMERIC_ARGS):
        default = np.nan if column in _FLOAT_ARGS else -1
        if block is None:
            given = [getattr(a, column) for a in args]
            if column == "correlation":
                given = [
                    v if v is not None else a.correlation_id
                    for v, a in zip(given, args, strict=True)
                ]
            if any(v is not None for v in given):
                columns[column] = _numbers(given, default)
            continue
        values = block[:, j]
        if column == "correlation":
            values = np.where(np.isnan(values), block[:, -1], values)
        missing = np.isnan(values)
        if missing.all():
            continue
        if not np.isnan(default) and missing.any():
            values = np.where(missing, default, values)
        columns[column] = values
    return columns


def _spans(builder: TraceBuilder, lanes: _Lanes, xs: list[Event]) -> None:
    args = [e.args or _NO_ARGS for e in xs]
    columns: dict[str, Any] = _numeric_args(args)
    raws = list(zip(*map(_RAWS_OF, args), strict=True)) if args else [(), (), ()]
    texts: dict[bytes, str] = {}  # a batch repeats a few shapes over and over
    for key, column in zip(("input_dims", "grid", "block"), raws, strict=True):
        if any(column):
            columns[key] = [_text_of(raw, texts) if raw else "" for raw in column]
    builder.add(
        [e.name for e in xs],
        [e.cat for e in xs],
        lanes.column(xs, args),
        _numbers([e.ts for e in xs], np.nan),
        _numbers([e.dur for e in xs], 0.0),
        **columns,
    )


def _text_of(raw: msgspec.Raw, seen: dict[bytes, str]) -> str:
    key = bytes(raw)
    text = seen.get(key)
    if text is None:
        text = seen[key] = _raw_text(raw)
    return text


def _memory(builder: TraceBuilder, lanes: _Lanes, samples: list[Event]) -> None:
    args = [e.args or _NO_ARGS for e in samples]
    kind = _numbers([a.device_type for a in args], 0)
    device = np.where(kind != 0, _numbers([a.device_id for a in args], -1), -1)
    builder.add_memory(
        time=_numbers([e.ts for e in samples], np.nan),
        device=device,
        bytes=_numbers([a.alloc_bytes for a in args], 0),
        allocated=_numbers([a.total_allocated for a in args], np.nan),
        reserved=_numbers([a.total_reserved for a in args], np.nan),
        lane=lanes.column(samples, [_NO_ARGS] * len(samples)),
        address=_numbers([a.address for a in args], -1),
    )


def _begin_end(
    builder: TraceBuilder, lanes: _Lanes, events: list[Event], open_: dict[Any, list[Event]]
) -> None:
    done: list[Event] = []
    for e in events:
        key = (e.pid, e.tid)
        if e.ph == "B":
            open_.setdefault(key, []).append(e)
        elif open_.get(key):
            begin = open_[key].pop()
            dur = _number(e.ts, np.nan) - _number(begin.ts, np.nan)
            done.append(msgspec.structs.replace(begin, dur=dur, args=begin.args or e.args))
    if done:
        _spans(builder, lanes, done)


def read_chrome(stream: BinaryIO, path: str, *, block: int = BLOCK) -> Trace:
    """Read one Chrome-trace JSON stream (decompressed) into a :class:`Trace`."""
    builder = TraceBuilder(path, "chrome")
    lanes = _Lanes(builder)
    reader = TraceJson(stream, path, block=block, decode=_DECODER.decode)
    skipped: Counter[str] = Counter()
    open_: dict[Any, list[Event]] = {}
    for batch in reader.batches():
        xs = [e for e in batch if e.ph == "X"]
        if xs:
            _spans(builder, lanes, xs)
        if len(xs) < len(batch):
            meta = [e for e in batch if e.ph == "M"]
            if meta:
                _metadata(builder, meta)
            samples = [e for e in batch if e.ph == "i" and e.name == "[memory]"]
            if samples:
                _memory(builder, lanes, samples)
            pairs = [e for e in batch if e.ph in ("B", "E")]
            if pairs:
                _begin_end(builder, lanes, pairs, open_)
            skipped.update(str(e.ph) for e in batch if e.ph not in ("X", "M", "B", "E", "i"))
        del batch, xs
    release_free_memory()  # the batches' decoded records, freed but kept by the allocator
    unclosed = sum(len(v) for v in open_.values())
    if unclosed:
        builder.problems.append(f"{path}: {unclosed:,} begin events never end; left out")
    builder.metadata.update(reader.metadata)
    builder.metadata["skipped"] = dict(skipped)
    builder.problems[:0] = reader.problems
    return builder.finish()
