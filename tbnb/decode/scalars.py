"""Decoding events without protobuf (the loader's fast path).

:func:`decode_scalars` reads record payloads (``Event`` protobufs) straight from the
file buffer and returns column arrays. It handles only records whose meaning it can
reproduce exactly; everything else is flagged ``fallback`` for the protobuf path, so
both paths together give the same result as protobuf alone. :func:`decode_events` does
the same and also indexes every tensor, histogram, image and audio value (the span of
its message, checked to parse as protobuf parses it) for the kinds' decoders
(:mod:`tbnb.decode.values`).

Two decoders (``kernels=``): ``numpy`` (the default, :mod:`tbnb.decode.layouts`: the
writers' exact one-scalar layouts, every record of a window at once; the reference
that needs no compiler) and ``native`` (C, :mod:`tbnb.native`, compiled when the package
is built: what every load uses when the library is there), which also parses the
general shapes below.

Shapes the native decoder handles
---------------------------------
- ``Event`` with only ``wall_time`` (1), ``step`` (2) and ``summary`` (5);
- ``Summary`` with only repeated ``value`` (1);
- each ``Summary.Value`` with only ``tag`` (1), ``metadata`` (9, at most once) and
  exactly one of ``simple_value`` (2) or ``tensor`` (8, at most once) (with
  :func:`decode_events`: or ``image`` (4), ``histo`` (5), ``audio`` (6), at most once);
- that ``TensorProto`` with ``dtype`` DT_FLOAT (1) or DT_DOUBLE (2), a rank-0
  ``tensor_shape`` (absent, or without ``dim`` entries and ``unknown_rank`` false),
  an optional ``version_number``, and exactly one element: one ``float_val`` (DT_FLOAT)
  or ``double_val`` (DT_DOUBLE), packed or not, or else a ``tensor_content`` of 4 or
  8 bytes (never both).

Proto3 merge rules are followed (a scalar field present twice: the last wins; a
message field present twice merges, so ``Summary`` occurrences concatenate their
values); where merging would need more than that, the record falls back. Malformed
varints or lengths running past their message also fall back (the protobuf parser
then raises and the caller reports corruption), as do tags that are not valid UTF-8.

Examples
--------
>>> import numpy as np
>>> from tbnb._proto import Event, Summary
>>> payload = Event(wall_time=1.5, step=7, summary=Summary(value=[
...     Summary.Value(tag="loss", simple_value=0.25)])).SerializeToString()
>>> buf = np.frombuffer(payload, np.uint8)
>>> out = decode_scalars(buf, np.array([0]), np.array([len(payload)]))
>>> out.fallback, out.step, out.tags, out.value
(array([False]), array([7]), ['loss'], array([0.25]))
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tbnb.decode.layouts import DTYPE_DOUBLE, DTYPE_FLOAT, DTYPE_SIMPLE, match_layouts
from tbnb.io.records import KERNELS, as_uint8

__all__ = [
    "DTYPE_DOUBLE",
    "DTYPE_FLOAT",
    "DTYPE_SIMPLE",
    "KERNELS",
    "VALUE_AUDIO",
    "VALUE_HISTO",
    "VALUE_IMAGE",
    "VALUE_TENSOR",
    "FastScalars",
    "decode_events",
    "decode_scalars",
]

VALUE_TENSOR, VALUE_HISTO, VALUE_IMAGE, VALUE_AUDIO = 4, 5, 6, 7
"""``dtype`` codes of indexed values (:func:`decode_events`): the value's message is at
``data_start``/``data_len``."""


@dataclass(frozen=True)
class FastScalars:
    """Columns decoded by :func:`decode_scalars`.

    Attributes
    ----------
    fallback
        ``bool`` per record: True means not handled here (decode it with protobuf);
        such records contribute no values.
    wall_time
        ``float64`` per record (meaningful where not ``fallback``).
    step
        ``int64`` per record (meaningful where not ``fallback``).
    rec
        ``int64`` per value: index of its record.
    tag_id
        ``int32`` per value: index into :attr:`tags`.
    value
        ``float64`` per value.
    dtype
        ``int8`` per value: 1 ``simple_value``, 2 tensor ``DT_FLOAT``, 3 tensor ``DT_DOUBLE``
        (rank-0 scalars); indexed values (:func:`decode_events`): 4 any other tensor,
        5 legacy histogram, 6 legacy image, 7 legacy audio.
    meta_start
        ``int64`` per value: start in the buffer of the value's ``SummaryMetadata``
        bytes, or -1 when the value has none.
    meta_len
        ``int64`` per value: length of those bytes (0 when none).
    value_step, value_wall_time
        ``int64`` / ``float64`` per value: its record's step and wall time.
    data_start, data_len
        ``int64`` per value: the span of its message (``TensorProto``, ``HistogramProto``,
        ``Summary.Image``, ``Summary.Audio``; -1 and 0 for a ``simple_value``).
    value_index
        ``int64`` per value: its position in its event's ``Summary``.
    tags
        Distinct tags in order of first appearance, decoded as protobuf decodes them.
    """

    fallback: np.ndarray
    wall_time: np.ndarray
    step: np.ndarray
    rec: np.ndarray
    tag_id: np.ndarray
    value: np.ndarray
    dtype: np.ndarray
    meta_start: np.ndarray
    meta_len: np.ndarray
    value_step: np.ndarray
    value_wall_time: np.ndarray
    data_start: np.ndarray
    data_len: np.ndarray
    value_index: np.ndarray
    tags: list[str]


def decode_events(
    buf: np.ndarray | bytes, starts: np.ndarray, lengths: np.ndarray, *, kernels: str = "numpy"
) -> FastScalars:
    """:func:`decode_scalars`, with every tensor, histogram, image and audio value indexed.

    The ``numpy`` decoder indexes nothing (its records with such values fall back).

    Examples
    --------
    >>> from tbnb._proto import Event, HistogramProto
    >>> event = Event(step=2)
    >>> event.summary.value.add(tag="w", histo=HistogramProto(min=0.0, max=1.0)).tag
    'w'
    >>> payload = event.SerializeToString()
    >>> from tbnb.native import available
    >>> kernels = "native" if available() else "numpy"
    >>> out = decode_events(payload, np.array([0]), np.array([len(payload)]), kernels=kernels)
    >>> out.dtype.tolist() == ([VALUE_HISTO] if kernels == "native" else [])
    True
    """
    return _decode(buf, starts, lengths, kernels, True)


def decode_scalars(
    buf: np.ndarray | bytes, starts: np.ndarray, lengths: np.ndarray, *, kernels: str = "numpy"
) -> FastScalars:
    """Decode the scalar values of the records ``buf[starts[i]:starts[i] + lengths[i]]``.

    Parameters
    ----------
    buf
        The file buffer (``uint8`` array, or anything bytes-like).
    starts, lengths
        Payload positions, e.g. from :func:`tbnb.io.records.scan_records`.
    kernels
        ``"numpy"`` (default) or ``"native"`` (the C decoder of :mod:`tbnb.native`; raises
        if it is not available), which also handles records of several values and other
        field orders, which the numpy one leaves to protobuf.

    Returns
    -------
    FastScalars
        Per-record ``fallback``/``wall_time``/``step`` and per-value columns. Records
        with ``fallback`` set must be decoded with protobuf; they contribute no values.

    Examples
    --------
    >>> from tbnb._proto import Event
    >>> payload = Event(step=1, file_version="brain.Event:2").SerializeToString()
    >>> decode_scalars(payload, np.array([0]), np.array([len(payload)])).fallback
    array([ True])
    """
    return _decode(buf, starts, lengths, kernels, False)


def _decode(
    buf: np.ndarray | bytes, starts: np.ndarray, lengths: np.ndarray, kernels: str, index: bool
) -> FastScalars:
    arr = as_uint8(buf)
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    if kernels not in KERNELS:
        raise ValueError(f"kernels must be one of {KERNELS}, got {kernels!r}")
    if kernels == "native":
        from tbnb.native.kernels import decode_kernel

        columns = decode_kernel(arr, starts, lengths, index)
    else:
        columns = match_layouts(arr, starts, lengths)
    (
        fallback,
        wall,
        step,
        rec,
        tag_id,
        value,
        dtype,
        meta_start,
        meta_len,
        rep_start,
        rep_len,
        vstep,
        vwall,
        data_start,
        data_len,
        vindex,
    ) = columns
    tags: list[str] = []
    valid = np.ones(len(rep_start), dtype=bool)
    for i, (s, n) in enumerate(zip(rep_start.tolist(), rep_len.tolist(), strict=True)):
        try:
            tags.append(arr[s : s + n].tobytes().decode("utf-8"))
        except UnicodeDecodeError:
            tags.append("")
            valid[i] = False
    if not valid.all():
        # A tag protobuf would reject: its whole record goes to the protobuf path.
        fallback[rec[~valid[tag_id]]] = True
        keep = ~fallback[rec]
        rec, tag_id, value, dtype, meta_start, meta_len, vstep, vwall = (
            a[keep] for a in (rec, tag_id, value, dtype, meta_start, meta_len, vstep, vwall)
        )
        data_start, data_len, vindex = (a[keep] for a in (data_start, data_len, vindex))
        used = np.zeros(len(tags), dtype=bool)
        used[tag_id] = True
        new_id = np.cumsum(used, dtype=np.int64) - 1
        tag_id = new_id[tag_id].astype(np.int32)
        tags = [t for t, u in zip(tags, used.tolist(), strict=True) if u]
    return FastScalars(
        fallback=fallback,
        wall_time=wall,
        step=step,
        rec=rec,
        tag_id=tag_id,
        value=value,
        dtype=dtype,
        meta_start=meta_start,
        meta_len=meta_len,
        value_step=vstep,
        value_wall_time=vwall,
        data_start=data_start,
        data_len=data_len,
        value_index=vindex,
        tags=tags,
    )
