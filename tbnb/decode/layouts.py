"""The byte layouts writers use for one scalar per event, matched by numpy: all at once.

torch and tensorboardX write ``simple_value`` events and TF2 rank-0 tensor events with
one-byte lengths in a fixed order (``match_simple`` in ``tbnb/native/src/decode.c``
describes them byte by byte). Here every record of a window is checked against those
layouts together, with array operations, so that decoding needs no compiler; records
that do not match exactly (another layout, or anything protobuf might read
differently) are flagged for protobuf. Tags and metadata are grouped by a hash of
their bytes, and every record is then compared byte for byte with its group's first
one (a record that differs, a hash collision, goes to protobuf too).

Examples
--------
>>> import numpy as np
>>> from tbnb._proto import Event
>>> event = Event(wall_time=1.0, step=300)
>>> event.summary.value.add(tag="acc", simple_value=0.5).tag
'acc'
>>> raw = event.SerializeToString()
>>> out = match_layouts(np.frombuffer(raw, np.uint8), np.array([0]), np.array([len(raw)]))
>>> out.fallback.tolist(), out.step.tolist(), out.value.tolist()
([False], [300], [0.5])
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from tbnb._proto import SummaryMetadata

__all__ = ["Matched", "match_layouts"]

DTYPE_SIMPLE, DTYPE_FLOAT, DTYPE_DOUBLE = 1, 2, 3
_VALUE_FORMS = (
    # (bytes, each one of the values listed), dtype code, value offset, bytes in all
    (((0x15,),), DTYPE_SIMPLE, 1, 5),  # simple_value
    # rank-0 DT_FLOAT tensors: shape present (TF2's scalar_pb) or absent (torch's
    # new_style), one float_val (2a 04) or a 4-byte tensor_content (22 04)
    (
        ((0x42,), (0x0A,), (0x08,), (0x01,), (0x12,), (0x00,), (0x2A, 0x22), (0x04,)),
        DTYPE_FLOAT,
        8,
        12,
    ),
    (((0x42,), (0x08,), (0x08,), (0x01,), (0x2A, 0x22), (0x04,)), DTYPE_FLOAT, 6, 10),
    # the same for DT_DOUBLE: double_val (32 08) or an 8-byte tensor_content (22 08)
    (
        ((0x42,), (0x0E,), (0x08,), (0x02,), (0x12,), (0x00,), (0x32, 0x22), (0x08,)),
        DTYPE_DOUBLE,
        8,
        16,
    ),
    (((0x42,), (0x0C,), (0x08,), (0x02,), (0x32, 0x22), (0x08,)), DTYPE_DOUBLE, 6, 14),
)
"""The value of the ``Summary.Value``, after its tag, in the layouts writers use."""


class Matched(NamedTuple):
    """Columns of the matched records (one value each), as the compiled decoder gives."""

    fallback: np.ndarray
    wall_time: np.ndarray
    step: np.ndarray
    rec: np.ndarray
    tag_id: np.ndarray
    value: np.ndarray
    dtype: np.ndarray
    meta_start: np.ndarray
    meta_len: np.ndarray
    rep_start: np.ndarray
    rep_len: np.ndarray
    value_step: np.ndarray
    value_wall_time: np.ndarray
    data_start: np.ndarray
    data_len: np.ndarray
    value_index: np.ndarray


def _bytes_at(buf: np.ndarray, at: np.ndarray, k: int) -> np.ndarray:
    """``(len(at), k)`` bytes from each offset (past the end of ``buf`` reads as 0)."""
    idx = at[:, None] + np.arange(k)
    return np.where(idx < buf.size, buf[np.minimum(idx, buf.size - 1)], 0).astype(np.uint8)


def _varints(buf: np.ndarray, at: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Varints at ``at`` (before ``end``): (int64 values, byte counts; 0 if malformed).

    As protobuf reads them: at most 10 bytes, the 10th carrying only the 64th bit.
    """
    raw = _bytes_at(buf, at, 10)
    inside = at[:, None] + np.arange(10) < end[:, None]
    last = (raw < 0x80) & inside
    size = np.where(last.any(axis=1), np.argmax(last, axis=1) + 1, 0)
    size[(size == 10) & (raw[:, 9] > 1)] = 0
    used = np.arange(10) < size[:, None]
    shifts = np.arange(0, 70, 7, dtype=np.uint64)
    parts = (raw.astype(np.uint64) & np.uint64(0x7F)) << shifts
    value = np.bitwise_or.reduce(np.where(used, parts, np.uint64(0)), axis=1)
    return value.view(np.int64), size


def _f32(buf: np.ndarray, at: np.ndarray) -> np.ndarray:
    return _bytes_at(buf, at, 4).view("<f4").ravel().astype(np.float64)


def _f64(buf: np.ndarray, at: np.ndarray) -> np.ndarray:
    return _bytes_at(buf, at, 8).view("<f8").ravel()


def _group(
    buf: np.ndarray, start: np.ndarray, size: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ids of equal byte strings (in order of first appearance) and each id's first row.

    Returns (ids, first row of each id, rows that are byte-for-byte their id's first).
    """
    width = max(8, -(-int(size.max(initial=0)) // 8) * 8)
    cells = _bytes_at(buf, start, width)
    cells[np.arange(width) >= size[:, None]] = 0
    words = cells.view(np.uint64)
    primes = np.uint64(0x9E3779B97F4A7C15) ** np.arange(1, words.shape[1] + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        key = (words * primes).sum(axis=1, dtype=np.uint64) ^ size.astype(np.uint64)
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(order.size, dtype=np.int32)
    rank[order] = np.arange(order.size, dtype=np.int32)
    ids = rank[inverse.ravel()]
    firsts = first[order]
    same = (cells == cells[firsts[ids]]).all(axis=1) & (size == size[firsts[ids]])
    return ids, firsts, same


def _valid_metadata(buf: np.ndarray, start: np.ndarray, size: np.ndarray) -> np.ndarray:
    """Whether protobuf parses each ``SummaryMetadata`` (checked once per distinct bytes)."""
    ok = np.zeros(start.size, dtype=bool)
    if start.size == 0:
        return ok
    ids, firsts, same = _group(buf, start, size)
    parses = np.zeros(firsts.size, dtype=bool)
    for i, row in enumerate(firsts.tolist()):
        try:
            SummaryMetadata.FromString(buf[start[row] : start[row] + size[row]].tobytes())
        except Exception:  # DecodeError and friends: protobuf decides, record by record
            continue
        parses[i] = True
    return np.asarray(parses[ids] & same)


def match_layouts(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> Matched:
    """Match records ``buf[starts[i]:starts[i] + lengths[i]]`` against the common layouts.

    Returns the compiled decoder's columns (:class:`Matched`): per record ``fallback``
    (not matched: decode with protobuf), ``wall_time``, ``step``; per value (one per
    matched record) its record, tag id, value, dtype code, metadata span, step and wall
    time; and the first occurrence of each tag.
    """
    nrec = starts.size
    fallback = np.ones(nrec, dtype=bool)
    wall = np.zeros(nrec, dtype=np.float64)
    steps = np.zeros(nrec, dtype=np.int64)
    end_all = starts + lengths
    rec = np.flatnonzero((lengths >= 17) & (starts >= 0) & (end_all <= buf.size))
    rec = rec[buf[starts[rec]] == 0x09]
    p, end = starts[rec], end_all[rec]
    q = p + 9
    st = np.zeros(rec.size, dtype=np.int64)
    keep = np.ones(rec.size, dtype=bool)
    with_step = np.flatnonzero(buf[q] == 0x10)
    if with_step.size:
        value, size = _varints(buf, q[with_step] + 1, end[with_step])
        st[with_step] = value
        q[with_step] += 1 + size
        keep[with_step] = (size > 0) & (end[with_step] - q[with_step] >= 8)
    rec, p, end, q, st = rec[keep], p[keep], end[keep], q[keep], st[keep]
    head = _bytes_at(buf, q, 6).astype(np.int64)
    n1, n2, t = head[:, 1], head[:, 3], head[:, 5]
    keep = (
        (head[:, 0] == 0x2A)
        & (head[:, 2] == 0x0A)
        & (head[:, 4] == 0x0A)
        & (n1 < 0x80)
        & (n1 == end - q - 2)
        & (n2 == n1 - 2)
        & (t < 0x80)
    )
    ve = q + 4 + n2
    r = q + 6 + t
    keep &= r + 5 <= ve
    rec, p, ve, r, q, t, st = (a[keep] for a in (rec, p, ve, r, q, t, st))
    form = _bytes_at(buf, r, 8)
    code = np.zeros(rec.size, dtype=np.int64)
    size = np.zeros(rec.size, dtype=np.int64)
    val = np.zeros(rec.size, dtype=np.float64)
    for pattern, kind, at, width in _VALUE_FORMS:
        match = (code == 0) & (r + width <= ve)
        for i, allowed in enumerate(pattern):
            match &= np.isin(form[:, i], allowed)
        hit = np.flatnonzero(match)
        code[hit] = kind
        size[hit] = width
        val[hit] = (_f64 if kind == DTYPE_DOUBLE else _f32)(buf, r[hit] + at)
    r = r + size
    keep = code > 0
    m_start = np.full(rec.size, -1, dtype=np.int64)
    m_len = np.zeros(rec.size, dtype=np.int64)
    meta = np.flatnonzero(keep & (r != ve))
    if meta.size:
        mh = _bytes_at(buf, r[meta], 2).astype(np.int64)
        m = mh[:, 1]
        ok = (
            (mh[:, 0] == 0x4A)
            & (r[meta] + 2 <= ve[meta])
            & (m < 0x80)
            & (r[meta] + 2 + m == ve[meta])
        )
        m_start[meta] = r[meta] + 2
        m_len[meta] = m
        ok[ok] = _valid_metadata(buf, m_start[meta[ok]], m_len[meta[ok]])
        keep[meta] = ok
    rec, p, q, t, st, val, code, m_start, m_len = (
        a[keep] for a in (rec, p, q, t, st, val, code, m_start, m_len)
    )
    tag_start = q + 6
    tag_id, firsts, same = (
        _group(buf, tag_start, t)
        if rec.size
        else (np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0, bool))
    )
    if not same.all():  # a hash collision: protobuf takes those records
        rec, p, st, val, code, m_start, m_len, tag_start, t = (
            a[same] for a in (rec, p, st, val, code, m_start, m_len, tag_start, t)
        )
        tag_id, firsts, _ = _group(buf, tag_start, t)
    w = _f64(buf, p + 1)
    fallback[rec] = False
    wall[rec] = w
    steps[rec] = st
    return Matched(
        fallback=fallback,
        wall_time=wall,
        step=steps,
        rec=rec.astype(np.int64),
        tag_id=tag_id.astype(np.int32),
        value=val,
        dtype=code.astype(np.int8),
        meta_start=m_start,
        meta_len=m_len,
        rep_start=tag_start[firsts],
        rep_len=t[firsts].astype(np.int64),
        value_step=st,
        value_wall_time=w,
        data_start=np.full(rec.size, -1, dtype=np.int64),
        data_len=np.zeros(rec.size, dtype=np.int64),
        value_index=np.zeros(rec.size, dtype=np.int64),
    )
