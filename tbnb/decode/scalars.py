"""Compiled decoder for the common scalar event shapes (the loader's fast path).

:func:`decode_scalars` reads record payloads (``Event`` protobufs) straight from the
file buffer in one numba kernel and returns column arrays. It handles only records
whose meaning it can reproduce exactly; everything else is flagged ``fallback`` for
the protobuf path, so both paths together give the same result as protobuf alone.

Handled shapes
--------------
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
from numba import njit

from tbnb.decode.intern import intern_tags
from tbnb.decode.patterns import match_simple
from tbnb.decode.validate import (
    DTYPE_DOUBLE,
    DTYPE_FLOAT,
    DTYPE_SIMPLE,
    tensor_scalar,
    valid_metadata,
)
from tbnb.decode.wire import f32, f64, field_key, grow, length_delimited, varint
from tbnb.io.records import as_uint8

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


_FALLBACK = -1
_FULL = -2


@njit(cache=True, nogil=True)
def _decode_value(buf: np.ndarray, x: int, v1: int) -> tuple[bool, float, int, int, int, int, int]:
    """Parse one ``Summary.Value`` in ``buf[x:v1]``.

    Returns (ok, value, dtype code, tag start, tag length, metadata start, metadata length).
    """
    t_start = x
    t_len = 0
    n_tag = 0
    m_start = -1
    m_len = 0
    n_simple = 0
    n_tensor = 0
    val = 0.0
    code = 0
    while x < v1:
        k, x = field_key(buf, x, v1)
        if x < 0:
            return False, 0.0, 0, 0, 0, 0, 0
        if k == ((1 << 3) | 2):  # tag
            a, b = length_delimited(buf, x, v1)
            # protobuf keeps the last but checks the UTF-8 of every occurrence: a
            # repeated tag (no writer does that) goes to protobuf
            n_tag += 1
            if a < 0 or n_tag > 1:
                return False, 0.0, 0, 0, 0, 0, 0
            t_start = a
            t_len = b - a
            x = b
        elif k == ((2 << 3) | 5):  # simple_value
            if v1 - x < 4:
                return False, 0.0, 0, 0, 0, 0, 0
            val = f32(buf, x)
            code = DTYPE_SIMPLE
            n_simple += 1
            x += 4
        elif k == ((8 << 3) | 2):  # tensor
            a, b = length_delimited(buf, x, v1)
            if a < 0:
                return False, 0.0, 0, 0, 0, 0, 0
            good, val, code = tensor_scalar(buf, a, b)
            if not good:
                return False, 0.0, 0, 0, 0, 0, 0
            n_tensor += 1
            x = b
        elif k == ((9 << 3) | 2):  # metadata (twice would merge: fall back)
            a, b = length_delimited(buf, x, v1)
            if a < 0 or m_start >= 0 or not valid_metadata(buf, a, b):
                return False, 0.0, 0, 0, 0, 0, 0
            m_start = a
            m_len = b - a
            x = b
        else:
            return False, 0.0, 0, 0, 0, 0, 0
    if n_tensor > 1 or (n_simple > 0) == (n_tensor > 0):
        return False, 0.0, 0, 0, 0, 0, 0
    return True, val, code, t_start, t_len, m_start, m_len


@njit(cache=True, nogil=True)
def _decode_record(
    buf: np.ndarray, p: int, end: int, r: int, rec: np.ndarray, value: np.ndarray,
    dtype: np.ndarray, meta_start: np.ndarray, meta_len: np.ndarray, tag_start: np.ndarray,
    tag_len: np.ndarray, nv: int,
) -> tuple[int, float, int]:
    """Parse one ``Event``, appending its values at ``nv``.

    Returns (new value count, wall_time, step); the count is ``_FALLBACK`` when the
    record is not handled and ``_FULL`` when the value arrays have no room left.
    """
    w = 0.0
    st = np.int64(0)
    while p < end:
        key, p = field_key(buf, p, end)
        if p < 0:
            return _FALLBACK, 0.0, 0
        if key == ((1 << 3) | 1):  # wall_time
            if end - p < 8:
                return _FALLBACK, 0.0, 0
            w = f64(buf, p)
            p += 8
        elif key == (2 << 3):  # step
            st, p = varint(buf, p, end)
            if p < 0:
                return _FALLBACK, 0.0, 0
        elif key == ((5 << 3) | 2):  # summary (occurrences merge: values concatenate)
            s0, s1 = length_delimited(buf, p, end)
            if s0 < 0:
                return _FALLBACK, 0.0, 0
            p = s1
            q = s0
            while q < s1:
                k, q = field_key(buf, q, s1)
                if q < 0 or k != ((1 << 3) | 2):  # only Summary.value
                    return _FALLBACK, 0.0, 0
                v0, v1 = length_delimited(buf, q, s1)
                if v0 < 0:
                    return _FALLBACK, 0.0, 0
                q = v1
                ok, val, code, t_start, t_len, m_start, m_len = _decode_value(buf, v0, v1)
                if not ok:
                    return _FALLBACK, 0.0, 0
                if nv == rec.size:
                    return _FULL, 0.0, 0
                rec[nv] = r
                value[nv] = val
                dtype[nv] = code
                meta_start[nv] = m_start
                meta_len[nv] = m_len
                tag_start[nv] = t_start
                tag_len[nv] = t_len
                nv += 1
        else:
            return _FALLBACK, 0.0, 0
    return nv, w, st


@njit(cache=True, nogil=True)
def _decode_pass(
    buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, r0: int, fallback: np.ndarray,
    wall: np.ndarray, steps: np.ndarray, rec: np.ndarray, value: np.ndarray, dtype: np.ndarray,
    meta_start: np.ndarray, meta_len: np.ndarray, tag_start: np.ndarray, tag_len: np.ndarray,
    vstep: np.ndarray, vwall: np.ndarray, nv: int,
) -> tuple[int, int]:
    """Decode records from ``r0`` until done or the value arrays are full: (next record, nv)."""
    for r in range(r0, starts.size):
        p = starts[r]
        end = p + lengths[r]
        if p < 0 or lengths[r] < 0 or end > buf.size:
            fallback[r] = True
            continue
        matched, w, st, t_start, t_len, val, code, m_start, m_len = match_simple(buf, p, end)
        if matched:
            if nv == rec.size:
                return r, nv
            wall[r] = w
            steps[r] = st
            rec[nv] = r
            vstep[nv] = st
            vwall[nv] = w
            value[nv] = val
            dtype[nv] = code
            meta_start[nv] = m_start
            meta_len[nv] = m_len
            tag_start[nv] = t_start
            tag_len[nv] = t_len
            nv += 1
            continue
        n, w, st = _decode_record(buf, p, end, r, rec, value, dtype, meta_start, meta_len,
                                  tag_start, tag_len, nv)
        if n == _FULL:
            return r, nv
        if n == _FALLBACK:
            fallback[r] = True
        else:
            wall[r] = w
            steps[r] = st
            for i in range(nv, n):
                vstep[i] = st
                vwall[i] = w
            nv = n
    return starts.size, nv


@njit(cache=True, nogil=True)
def _decode_kernel(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
]:
    nrec = starts.size
    fallback = np.zeros(nrec, dtype=np.bool_)
    wall = np.zeros(nrec, dtype=np.float64)
    steps = np.zeros(nrec, dtype=np.int64)
    cap = nrec + 16  # most files hold one value per event
    rec = np.empty(cap, dtype=np.int64)
    value = np.empty(cap, dtype=np.float64)
    dtype = np.empty(cap, dtype=np.int8)
    meta_start = np.empty(cap, dtype=np.int64)
    meta_len = np.empty(cap, dtype=np.int64)
    tag_start = np.empty(cap, dtype=np.int64)
    tag_len = np.empty(cap, dtype=np.int64)
    vstep = np.empty(cap, dtype=np.int64)
    vwall = np.empty(cap, dtype=np.float64)
    r = 0
    nv = 0
    while True:
        # Growing arrays inside the record loop would slow every iteration down, so
        # the loop stops when full, the arrays grow here, and it resumes.
        r, nv = _decode_pass(buf, starts, lengths, r, fallback, wall, steps, rec, value, dtype,
                             meta_start, meta_len, tag_start, tag_len, vstep, vwall, nv)
        if r == nrec:
            break
        rec = grow(rec)
        value = grow(value)
        dtype = grow(dtype)
        meta_start = grow(meta_start)
        meta_len = grow(meta_len)
        tag_start = grow(tag_start)
        tag_len = grow(tag_len)
        vstep = grow(vstep)
        vwall = grow(vwall)
    tag_id, rep_start, rep_len = intern_tags(buf, tag_start, tag_len, nv)
    return (
        fallback, wall, steps, rec[:nv], tag_id, value[:nv], dtype[:nv], meta_start[:nv],
        meta_len[:nv], rep_start, rep_len, vstep[:nv], vwall[:nv],
    )


def decode_scalars(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> FastScalars:
    """Decode the scalar values of the records ``buf[starts[i]:starts[i] + lengths[i]]``.

    Parameters
    ----------
    buf
        The file buffer (``uint8`` array, or anything bytes-like).
    starts, lengths
        Payload positions, e.g. from :func:`tbnb.io.records.scan_records`.

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
    (fallback, wall, step, rec, tag_id, value, dtype, meta_start, meta_len, rep_start,
     rep_len, vstep, vwall) = _decode_kernel(
        arr, np.ascontiguousarray(starts, dtype=np.int64),
        np.ascontiguousarray(lengths, dtype=np.int64),
    )
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
        fallback=fallback, wall_time=wall, step=step, rec=rec, tag_id=tag_id, value=value,
        dtype=dtype, meta_start=meta_start, meta_len=meta_len, value_step=vstep,
        value_wall_time=vwall, tags=tags,
    )
