"""Events decoded by protobuf into the run's accumulator, kind by kind.

The fast decoders handle the common scalar layouts; every other record is an
``Event`` parsed by protobuf and handed here: file version, writer, restarts, graphs
and every summary value, which the kind registry normalises and turns into rows.

Examples
--------
>>> import fsspec
>>> from tbnb._proto import Event
>>> from tbnb.loader.state import FileState, RunTask
>>> task = RunTask("run", fsspec.filesystem("memory"), [FileState("f", 0)], {})
>>> acc = RunAccumulator(task)
>>> window = Window()
>>> event = Event(step=3, wall_time=1.0, file_version="brain.Event:2")
>>> add_event(event, EventPosition(0, 0, 0, 10), task.files[0], acc, window, [])
>>> task.files[0].version
'brain.Event:2'
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tbnb.decode.tensors import TensorDecodeError
from tbnb.kinds import KINDS, RowContext, TagMetadata, Where, kind_of, normalize_value
from tbnb.kinds.graphs import EVENT_FIELDS, event_rows
from tbnb.loader.accumulate import RunAccumulator, Window
from tbnb.loader.state import FileState

__all__ = ["EventPosition", "add_event"]

SESSION_START = 1
"""``SessionLog.START``: a writer (re)started at this step."""

_SCALARS = KINDS["scalars"].key
_GRAPHS = KINDS["graphs"].key


class EventPosition(NamedTuple):
    """Where an event is: its record's number in the window, stream position, file span."""

    record: int
    seq: int
    offset: int
    length: int


def add_event(
    event: Any,
    at: EventPosition,
    state: FileState,
    acc: RunAccumulator,
    window: Window,
    undecodable: list[str],
) -> None:
    """Add one protobuf ``Event`` to the run's values."""
    step, wall_time = int(event.step), float(event.wall_time)
    state.saw_wall_times(wall_time, wall_time)
    if event.HasField("source_metadata") and event.source_metadata.writer:
        state.writer = event.source_metadata.writer
    what = event.WhichOneof("what")
    if what == "summary":
        _add_summary(event, at, state, acc, window, undecodable)
    elif what == "file_version":
        state.version = event.file_version
    elif what == "session_log":
        if event.session_log.status == SESSION_START:
            window.starts.append((at.record, step, at.seq))
    elif what in EVENT_FIELDS and _GRAPHS in acc.options.kinds:
        where = Where(acc.task.fs, state.path, at.offset, at.length, -1, field=what)
        context = RowContext("", step, wall_time, at.seq, None, where)
        acc.records[_GRAPHS].extend(event_rows(getattr(event, what), context))


def _add_summary(
    event: Any,
    at: EventPosition,
    state: FileState,
    acc: RunAccumulator,
    window: Window,
    undecodable: list[str],
) -> None:
    step, wall_time = int(event.step), float(event.wall_time)
    wanted = acc.options.kinds
    for value_index, value in enumerate(event.summary.value):
        tag = value.tag or value.node_name
        acc.seen_tags.add(tag)
        meta = acc.tag_meta.get(tag)
        key = kind_of(value, meta)
        if key is None:
            continue
        kind = KINDS[key]
        if not kind.always and (key not in wanted or not acc.options.keep_tag(tag)):
            continue
        if kind.own_metadata and value.HasField("metadata"):
            meta = TagMetadata.from_proto(value.metadata)  # each value carries its own content
        try:
            normalized = normalize_value(value, meta)
        except (TensorDecodeError, ValueError) as error:
            undecodable.append(f"tag {tag!r} step {step}: {error}")
            continue
        if normalized is None:
            continue
        key, data = normalized
        kind = KINDS[key]
        if key == _SCALARS:
            window.slow.append((at.record, acc.tag_id(tag), step, wall_time, data))
        elif kind.raw:
            acc.raw[key].append((tag, step, data))
        elif key in wanted and kind.rows is not None:
            where = Where(acc.task.fs, state.path, at.offset, at.length, value_index)
            acc.records[key].extend(
                kind.rows(data, RowContext(tag, step, wall_time, at.seq, meta, where))
            )
