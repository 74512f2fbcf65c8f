"""Decoding the common scalar event shapes without protobuf (the loader's fast path).

:func:`decode_scalars` reads record payloads (``Event`` protobufs) straight from the
file buffer and returns column arrays. It handles only records whose meaning it can
reproduce exactly; everything else is flagged ``fallback`` for the protobuf path, so
both paths together give the same result as protobuf alone.

Three decoders (``kernels=``): ``numpy`` (the default, :mod:`tbnb.decode.layouts`: the
writers' exact one-scalar layouts, every record of a window at once), ``native`` (C,
:mod:`tbnb.native`, compiled when the package is built: what every load uses when the
library is there) and ``numba`` (:mod:`tbnb.decode.compiled`, used for large loads once
:mod:`tbnb.jit` has it in the cache, when the native library is absent). The native and
numba decoders give identical columns, bit for bit, and also parse the general shapes
below.

Shapes the native and numba decoders handle
-----------------------------------
- ``Event`` with only ``wall_time`` (1), ``step`` (2) and ``summary`` (5);
- ``Summary`` with only repeated ``value`` (1);
- each ``Summary.Value`` with only ``tag`` (1), ``metadata`` (9, at most once) and
  exactly one of ``simple_value`` (2) or ``tensor`` (8, at most once);
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

__all__ = ["DTYPE_DOUBLE", "DTYPE_FLOAT", "DTYPE_SIMPLE", "FastScalars", "decode_scalars"]


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
        ``int8`` per value: 1 ``simple_value``, 2 tensor ``DT_FLOAT``, 3 tensor ``DT_DOUBLE``.
    meta_start
        ``int64`` per value: start in the buffer of the value's ``SummaryMetadata``
        bytes, or -1 when the value has none.
    meta_len
        ``int64`` per value: length of those bytes (0 when none).
    value_step, value_wall_time
        ``int64`` / ``float64`` per value: its record's step and wall time.
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
    tags: list[str]


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
        ``"numpy"`` (default), ``"native"`` (the C decoder of :mod:`tbnb.native`; raises
        if it is not available) or ``"numba"`` (compiled first if not in the cache).
        The native and numba decoders give identical columns; they also handle records
        of several values and other field orders, which the numpy one leaves to protobuf.

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
    arr = as_uint8(buf)
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    if kernels not in KERNELS:
        raise ValueError(f"kernels must be one of {KERNELS}, got {kernels!r}")
    if kernels != "numpy":
        if kernels == "native":
            from tbnb.native.kernels import decode_kernel
        else:
            from tbnb.decode.compiled.scalars import decode_kernel

        columns = decode_kernel(arr, starts, lengths)
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
        tags=tags,
    )
