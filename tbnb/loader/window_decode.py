"""One window of an event file's records decoded into a run's values (layer 3).

:func:`decode_window` takes the records a scan found in a window of bytes: the fast
decoder's events (decoded here, or ahead on a helper thread by
:mod:`tbnb.loader.windows`), protobuf for what it leaves, each kind's batch decoder for
the values it indexed, and adds them to the run's accumulator in stream order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from google.protobuf.message import DecodeError

from tbnb._proto import Event, SummaryMetadata
from tbnb.decode.scalars import decode_events
from tbnb.kinds import KINDS, TagMetadata
from tbnb.kinds import tensors as tensor_kind
from tbnb.loader.accumulate import RunAccumulator, Window
from tbnb.loader.events import EventPosition, add_event
from tbnb.loader.rowsets import RowSet
from tbnb.loader.state import FileState
from tbnb.loader.values import Indexed, index_values

__all__ = ["SEQ_FILE_SHIFT", "decode_window"]

_SCALARS = KINDS["scalars"].key

SEQ_FILE_SHIFT = 40
"""A point's stream position is ``file_rank << 40 | byte offset`` (files up to 1 TiB)."""


def decode_window(
    buf: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    state: FileState,
    acc: RunAccumulator,
    undecodable: list[str],
    base: int | None = None,
    fast: Any = None,
) -> None:
    """Decode the records at ``starts``/``lengths`` of ``buf`` (the file's bytes from
    ``base``, default ``state.offset``) into the run's values; ``fast``: their events,
    decoded already (:mod:`tbnb.loader.windows`)."""
    base = state.offset if base is None else base
    seq_base = (state.rank << SEQ_FILE_SHIFT) + base
    if fast is None and acc.backend.fast:
        fast = decode_events(buf, starts, lengths, kernels=acc.backend.kernels)
    slow = fast.fallback if fast is not None else np.ones(len(starts), dtype=bool)
    events = _parse(buf, starts, lengths, np.flatnonzero(slow), base)
    _learn_metadata(buf, fast, events, acc)
    rows = {}
    window = Window()
    if fast is not None:
        indexed = index_values(buf, fast, starts, lengths, (acc.task.fs, state.path, base,
                                                            seq_base), acc)  # fmt: skip
        more = np.flatnonzero(indexed.protobuf & ~fast.fallback)
        if more.size:  # values no batch decoder reproduces: their records from protobuf
            events.update(_parse(buf, starts, lengths, more, base))
            slow = indexed.protobuf
        if fast.value.size:
            _add_fast_points(fast, indexed, starts, seq_base, acc, window)
        rows = indexed.kept()
        handled = ~slow
        if handled.any():
            state.saw_wall_times(
                float(fast.wall_time[handled].min()), float(fast.wall_time[handled].max())
            )
    acc.protobuf_records += int(slow.sum())

    for key, kind_rows in rows.items():
        acc.records[key].extend(kind_rows)
    for index in sorted(events):  # problems reported in record order, whatever the window
        if isinstance(events[index], _Unparsed):
            undecodable.append(events[index])
            continue
        start = int(starts[index])
        add_event(
            events[index],
            EventPosition(index, seq_base + start, base + start, int(lengths[index])),
            state,
            acc,
            window,
            undecodable,
        )
    acc.add_window(window)


def _parse(
    buf: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    which: np.ndarray,
    base: int,
) -> dict[int, Any]:
    """The records ``which`` parsed by protobuf; one it cannot parse is an
    :class:`_Unparsed` (reported in its place among the record's values)."""
    events: dict[int, Any] = {}
    for index in which.tolist():
        start, length = int(starts[index]), int(lengths[index])
        try:
            events[index] = Event.FromString(buf[start : start + length].tobytes())
        except DecodeError as error:
            events[index] = _Unparsed(f"unparseable event at offset {base + start - 12}: {error}")
    return events


class _Unparsed(str):
    """What protobuf said of a record it cannot parse."""


def _learn_metadata(
    buf: np.ndarray, fast: Any, events: dict[int, Any], acc: RunAccumulator
) -> None:
    """Remember the metadata of tags first described in this window: the first one in
    record order wins, whichever decoder read its record."""
    found: list[tuple[int, str, Any]] = []
    for index, event in events.items():
        if isinstance(event, _Unparsed):
            continue
        for value in event.summary.value:
            tag = value.tag or value.node_name
            if value.HasField("metadata") and tag not in acc.tag_meta:
                found.append((index, tag, value.metadata))
    if fast is not None:
        for index, tag, start, length in _fast_metadata(fast, acc):
            found.append((index, tag, (start, length)))
    found.sort(key=lambda item: item[0])  # stable: values of one record keep their order
    for _, tag, where in found:
        if tag in acc.tag_meta:
            continue
        meta = where
        if isinstance(where, tuple):
            start, length = where
            meta = SummaryMetadata.FromString(buf[start : start + length].tobytes())
        acc.tag_meta[tag] = TagMetadata.from_proto(meta)


def _fast_metadata(fast: Any, acc: RunAccumulator) -> list[tuple[int, str, int, int]]:
    """``(record, tag, start, length)`` of the first metadata the fast decoder found for
    each tag not described yet."""
    unknown = [tid for tid, tag in enumerate(fast.tags) if tag not in acc.tag_meta]
    if not unknown:
        return []  # writers repeating metadata on every event cost nothing after the first
    candidates = fast.meta_start >= 0
    if len(unknown) < len(fast.tags):
        candidates &= np.isin(fast.tag_id, np.asarray(unknown, dtype=fast.tag_id.dtype))
    with_meta = np.flatnonzero(candidates)
    if with_meta.size == 0:
        return []
    tag_ids, first = np.unique(fast.tag_id[with_meta], return_index=True)
    found = []
    for tid, position in zip(tag_ids.tolist(), first.tolist(), strict=True):
        i = int(with_meta[position])
        found.append(
            (int(fast.rec[i]), fast.tags[tid], int(fast.meta_start[i]), int(fast.meta_len[i]))
        )
    return found


def _add_fast_points(
    fast: Any,
    indexed: Indexed,
    starts: np.ndarray,
    seq_base: int,
    acc: RunAccumulator,
    window: Window,
) -> None:
    """The fast decoder's scalar points of the records it decoded (not
    ``indexed.protobuf``) into ``window``; its rank-0 tensors of no plugin into
    ``indexed``'s tensor rows (in their place among the record's values)."""
    slow = indexed.protobuf
    local_to_run = np.array([acc.tag_id(t) for t in fast.tags], dtype=np.int32)
    is_scalar = fast.dtype == 1
    # Tensor-valued scalars are scalars only if their tag says so (TF2 `tf.summary.scalar`);
    # otherwise they are rank-0 tensors, as TensorBoard treats them.
    is_float = fast.dtype <= 3
    tensor_tags = np.flatnonzero(
        np.bincount(fast.tag_id[~is_scalar & is_float], minlength=len(fast.tags))
    )
    scalar_plugin = np.zeros(len(fast.tags), dtype=bool)
    for tid in tensor_tags.tolist():
        meta = acc.tag_meta.get(fast.tags[tid])
        scalar_plugin[tid] = meta is not None and meta.plugin_name == _SCALARS
    rec = fast.rec
    sel = is_scalar | scalar_plugin[fast.tag_id] & is_float if scalar_plugin.any() else is_scalar
    live = ~slow[rec]
    sel &= live
    if sel.all():
        window.fast = (
            rec,
            local_to_run[fast.tag_id],
            fast.value_step,
            fast.value_wall_time,
            fast.value,
        )
        return
    window.fast = (
        rec[sel],
        local_to_run[fast.tag_id[sel]],
        fast.value_step[sel],
        fast.value_wall_time[sel],
        fast.value[sel],
    )
    if tensor_kind.KEY not in acc.options.kinds:
        return
    which = np.flatnonzero(~sel & live & is_float)
    kept_tag = np.array([acc.options.keep_tag(t) for t in fast.tags], dtype=bool)
    which = which[kept_tag[fast.tag_id[which]]]
    if which.size:
        tags = np.array(fast.tags, dtype=object)[fast.tag_id[which]]
        rows = tensor_kind.scalar_rows(fast.value[which], fast.dtype[which] == 2, tags,
                                       acc.tag_meta)  # fmt: skip
        rows.update(tag=tags, step=fast.value_step[which], wall_time=fast.value_wall_time[which],
                    seq=seq_base + starts[rec[which]])  # fmt: skip
        indexed.add(tensor_kind.KEY, RowSet(rows), rec[which], fast.value_index[which])
