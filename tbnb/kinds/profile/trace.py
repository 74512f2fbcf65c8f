"""One profiler trace as columns: the events, lanes and memory frames every reader builds.

Layer ``kinds``. Both readers (Chrome-trace JSON, :mod:`tbnb.kinds.profile.stream`, and
XPlane, :mod:`tbnb.kinds.profile.xplane`) hand batches of spans to a
:class:`TraceBuilder`, which interns strings as it goes (a gigabyte trace names a few
thousand operators over and over: memory stays bounded by the distinct names) and turns
them into a :class:`Trace` once: the ``events`` frame (one row per timed span: lane,
category, name, start and duration in microseconds, nesting depth, step, correlation and
the arguments that matter), its ``lanes`` (one per process and thread or GPU stream) and
``memory`` (allocator samples). Times stay as the file gives them (microseconds since the
profiler's origin).

Examples
--------
>>> b = TraceBuilder("t.json")
>>> lane = b.lane("1", "2", "host", "python3", "thread 2")
>>> b.add(["ProfilerStep#3", "aten::mm"], ["user_annotation", "cpu_op"], [lane, lane],
...       [0.0, 1.0], [10.0, 2.0])
>>> trace = b.finish()
>>> trace.events[["kind", "depth", "step"]].to_dict("list")
{'kind': ['step', 'cpu_op'], 'depth': [0, 1], 'step': [3, 3]}
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from tbnb.kinds.profile.events import (
    CATEGORY_KINDS,
    DEVICE_PROCESS,
    KINDS_OF_EVENT,
    check_timing,
    kinds_of,
    steps_of,
)
from tbnb.kinds.profile.nesting import depths

__all__ = [
    "ARG_COLUMNS",
    "EVENT_COLUMNS",
    "KINDS_OF_EVENT",
    "MEMORY_COLUMNS",
    "Trace",
    "TraceBuilder",
]

EVENT_COLUMNS = [
    "lane",
    "process",
    "thread",
    "device",
    "stream",
    "category",
    "kind",
    "name",
    "start",
    "dur",
    "depth",
    "step",
    "correlation",
    "external_id",
    "input_dims",
    "grid",
    "block",
    "registers",
    "shared_memory",
    "occupancy",
    "bytes",
]
"""Columns of a trace's ``events`` frame (``trace`` and ``run`` come first in
``exp.profile.events``): ``start``/``dur`` in microseconds, ``device`` and ``stream``
-1 on the host, ``step`` -1 outside any step, ``correlation`` the id joining a launch
to its kernel (-1 none), ``external_id`` torch's id joining an operator to its launches."""

MEMORY_COLUMNS = ["time", "device", "bytes", "allocated", "reserved", "lane", "address"]
"""Columns of a trace's ``memory`` frame: one row per allocation (bytes > 0) or free,
with the allocator's totals after it; ``device`` -1 is host memory."""

ARG_COLUMNS = {
    "correlation": -1,
    "external_id": -1,
    "input_dims": "",
    "grid": "",
    "block": "",
    "registers": np.nan,
    "shared_memory": np.nan,
    "occupancy": np.nan,
    "bytes": np.nan,
    "step_num": -1,
}
"""The arguments a reader may give per span, with the value of a span without it
(``step_num`` is read into ``step`` and not kept)."""


class _Growing:
    """A column grown batch by batch in place: capacity doubles when full (the untouched
    tail of a large array is never resident), so the frame's column is a view of it and
    no batch is copied twice."""

    def __init__(self, dtype: Any, fill: Any) -> None:
        self.data = np.empty(1 << 14, dtype=dtype)
        self.fill_value = fill
        self.n = 0

    def _room(self, more: int) -> None:
        if self.n + more > len(self.data):
            bigger = np.empty(max(2 * len(self.data), self.n + more), dtype=self.data.dtype)
            bigger[: self.n] = self.data[: self.n]
            self.data = bigger

    def extend(self, values: np.ndarray) -> None:
        self._room(len(values))
        self.data[self.n : self.n + len(values)] = values
        self.n += len(values)

    def fill(self, count: int) -> None:
        self._room(count)
        self.data[self.n : self.n + count] = self.fill_value
        self.n += count

    def view(self) -> np.ndarray:
        return self.data[: self.n]


class _Interner:
    def __init__(self) -> None:
        self.ids: dict[Any, int] = {}

    def codes(self, values: list[Any]) -> np.ndarray:
        """Global codes of ``values``: factorised at C speed, then the few distinct ones
        looked up (non-strings become their text)."""
        local, uniques = pd.factorize(pd.Series(values, dtype=object))
        ids = self.ids
        table = np.array(
            [ids.setdefault(v if isinstance(v, str) else str(v), len(ids)) for v in uniques],
            dtype=np.int32,
        )
        if (local < 0).any():  # None
            missing = ids.setdefault("", len(ids))
            return np.where(
                local < 0, missing, table[np.maximum(local, 0)] if len(table) else missing
            ).astype(np.int32)
        return table[local] if len(table) else np.zeros(len(values), np.int32)

    def categorical(self, codes: np.ndarray) -> pd.Categorical:
        return pd.Categorical.from_codes(codes, categories=list(self.ids))


def _labels(labels: pd.Series, lane: np.ndarray) -> pd.Categorical:
    """Each event's lane label (process or thread name) as a categorical: in lane order
    when every lane has its own label, else the labels of the lanes used, sorted (codes
    looked up per lane, then taken per event at their final width: no wide temporary)."""
    if labels.is_unique:
        codes = np.arange(len(labels))
        categories = labels.tolist()
    else:
        used = np.bincount(lane, minlength=len(labels)) > 0
        codes = np.full(len(labels), -1)
        codes[used], categories = pd.factorize(labels[used], sort=True)
    width = np.int8 if len(categories) < 127 else np.int16 if len(categories) < 32767 else np.int32
    return pd.Categorical.from_codes(codes.astype(width)[lane], categories, validate=False)


@dataclass
class Trace:
    """One trace file, read: its frames, what it says about itself, what was wrong."""

    path: str
    format: str
    events: pd.DataFrame
    lanes: pd.DataFrame
    memory: pd.DataFrame
    metadata: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


class TraceBuilder:
    """Collect spans batch by batch; :meth:`finish` makes the :class:`Trace`."""

    def __init__(self, path: str, fmt: str = "chrome") -> None:
        self.path = path
        self.format = fmt
        self._names = _Interner()
        self._cats = _Interner()
        self._args = {key: _Interner() for key, v in ARG_COLUMNS.items() if v == ""}
        self._lanes: dict[tuple[str, str], dict[str, Any]] = {}
        self._columns: dict[str, _Growing] = {}
        self._n = 0
        self._memory: list[dict[str, np.ndarray]] = []
        self.metadata: dict[str, Any] = {}
        self.problems: list[str] = []

    def lane(
        self,
        pid: Any,
        tid: Any,
        where: str = "host",
        process: str = "",
        thread: str = "",
        device: int = -1,
        stream: int = -1,
    ) -> int:
        """The id of lane ``(pid, tid)``, created with these labels on first use."""
        key = (str(pid), str(tid))
        entry = self._lanes.get(key)
        if entry is None:
            entry = self._lanes[key] = {
                "lane": len(self._lanes),
                "pid": key[0],
                "tid": key[1],
                "where": where,
                "process": process or f"process {pid}",
                "thread": thread or (f"stream {stream}" if stream >= 0 else f"thread {tid}"),
                "device": device,
                "stream": stream,
            }
        return int(entry["lane"])

    def label(self, pid: Any, tid: Any | None, **labels: Any) -> None:
        """Set labels of a lane (``tid`` None: of every lane of the process, now and later)."""
        if tid is None:
            self.metadata.setdefault("process_labels", {}).setdefault(str(pid), {}).update(labels)
            return
        self.lane(pid, tid)
        self._lanes[(str(pid), str(tid))].update(labels)

    def add(
        self,
        names: list[str],
        categories: list[str],
        lanes: list[int] | np.ndarray,
        start: list[float] | np.ndarray,
        dur: list[float] | np.ndarray,
        **args: list[Any] | np.ndarray,
    ) -> None:
        """Add a batch of spans; ``args`` are columns of :data:`ARG_COLUMNS` (or absent)."""
        n = len(names)
        given: dict[str, np.ndarray] = {
            "name": self._names.codes(names),
            "category": self._cats.codes(categories),
            "lane": np.asarray(lanes, dtype=np.int32),
            "start": np.asarray(start, dtype=np.float64),
            "dur": np.asarray(dur, dtype=np.float64),
        }
        for key in ARG_COLUMNS:
            values = args.get(key)
            if values is None:
                continue
            given[key] = (
                self._args[key].codes(list(values)) if key in self._args else np.asarray(values)
            )
        for key, values in given.items():
            column = self._columns.get(key)
            if column is None:
                column = self._columns[key] = _Growing(*self._kind_of(key))
                column.fill(self._n)
            column.extend(values)
        for key, column in self._columns.items():
            if key not in given:
                column.fill(n)
        self._n += n

    def _kind_of(self, key: str) -> tuple[Any, Any]:
        """dtype and fill value of a column."""
        if key in ("name", "category", "lane"):
            return np.int32, -1
        if key in self._args:
            return np.int32, self._args[key].ids.setdefault("", len(self._args[key].ids))
        default = ARG_COLUMNS.get(key, np.nan)
        return (np.int64, default) if isinstance(default, int) else (np.float64, default)

    def add_memory(self, **columns: list[Any] | np.ndarray) -> None:
        """Add allocator samples: the columns of :data:`MEMORY_COLUMNS`."""
        self._memory.append({k: np.asarray(columns[k], dtype=np.float64) for k in MEMORY_COLUMNS})

    # ------------------------------------------------------------------ finishing
    def _check(self, events: pd.DataFrame) -> None:
        self.problems.extend(check_timing(self.path, events))

    def _take(self, key: str) -> np.ndarray:
        """Column ``key`` (its fill value throughout if no batch gave it), handed over:
        the builder keeps no reference to it."""
        column = self._columns.pop(key, None)
        if column is None:
            dtype, fill = self._kind_of(key)
            return np.full(self._n, fill, dtype=dtype)
        return column.view()

    def _label_processes(self) -> None:
        """Process names given by metadata events, onto their lanes (a TF/JAX device
        process becomes device lanes, one per stream)."""
        for pid, labels in self.metadata.pop("process_labels", {}).items():
            name = labels.get("process_name", "")
            device = DEVICE_PROCESS.match(name)
            for entry in self._lanes.values():
                if entry["pid"] != pid or entry["where"] != "host" or not name:
                    continue
                if device:  # TF/JAX Chrome exports: a device process, one thread per stream
                    stream = int(entry["tid"]) if entry["tid"].isdigit() else -1
                    entry.update(where="device", process=name, device=int(device.group(1)))
                    entry["stream"] = stream
                else:
                    entry["process"] = f"{name} ({pid})"

    def finish(self) -> Trace:
        """The trace's frames (see :data:`EVENT_COLUMNS`), problems checked.

        The frame's columns are the grown columns themselves (no copy), and each one the
        frame does not keep is dropped as soon as it is used: at the peak the process
        holds the frame and a few of its columns' worth besides.
        """
        self._label_processes()
        lanes = pd.DataFrame(
            list(self._lanes.values()),
            columns=["lane", "pid", "tid", "where", "process", "thread", "device", "stream"],
        )
        take = self._take
        lane = take("lane").astype(np.int32, copy=False)
        start = take("start")
        dur = take("dur")
        np.maximum(dur, 0.0, out=dur)  # NaN stays NaN, as np.maximum gives it
        names = self._names.categorical(take("name").astype(np.int32, copy=False))
        cats = self._cats.categorical(take("category").astype(np.int32, copy=False))
        step_num = take("step_num")
        columns: dict[str, Any] = {
            "lane": lane,
            "process": _labels(lanes["process"], lane),
            "thread": _labels(lanes["thread"], lane),
            "device": lanes["device"].to_numpy(dtype=np.int16)[lane],
            "stream": lanes["stream"].to_numpy(dtype=np.int32)[lane],
            "category": cats,
            "kind": kinds_of(cats, names, lanes, lane, step_num),
            "name": names,
            "start": start,
            "dur": dur,
            "depth": depths(lane, start, start + dur).astype(np.int16),
        }
        for key in ARG_COLUMNS:
            if key == "step_num":
                continue
            values = take(key)
            columns[key] = (
                self._args[key].categorical(values.astype(np.int32, copy=False))
                if key in self._args
                else values
            )
        columns["step"] = steps_of(columns, step_num)
        del step_num
        events = pd.DataFrame({key: columns.pop(key) for key in EVENT_COLUMNS}, copy=False)
        unknown = Counter(str(c) for c in cats.categories if str(c).lower() not in CATEGORY_KINDS)
        if unknown and self.format == "chrome":
            counts = events["category"].value_counts()
            listed = ", ".join(f"{c!r} ({counts.get(c, 0):,})" for c in sorted(unknown))
            self.problems.append(
                f"{self.path}: event categories tbnb does not know: {listed}; "
                "kept with kind 'other'"
            )
        self._check(events)
        memory = (
            pd.DataFrame({k: np.concatenate([m[k] for m in self._memory]) for k in MEMORY_COLUMNS})
            if self._memory
            else pd.DataFrame({k: np.empty(0) for k in MEMORY_COLUMNS})
        )
        memory = memory.astype({"device": np.int16, "lane": np.int32}).sort_values(
            "time", kind="stable", ignore_index=True
        )
        return Trace(self.path, self.format, events, lanes, memory, self.metadata, self.problems)
