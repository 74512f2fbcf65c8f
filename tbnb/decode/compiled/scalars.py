"""The numba scalar decoder: the kernels behind ``decode_scalars(kernels="numba")``.

One pass over a window's records: the writers' exact layouts first
(:func:`~tbnb.decode.compiled.patterns.match_simple`), then a general parser of the
``Event`` -> ``Summary`` -> ``Value`` fields (the shapes listed in
:mod:`tbnb.decode.scalars`), following proto3's merge rules; anything else is flagged
for protobuf. Tags are interned in compiled code (:mod:`~tbnb.decode.compiled.intern`).

Examples
--------
>>> import numpy as np
>>> decode_kernel(np.frombuffer(b"", np.uint8), np.zeros(0, np.int64),
...               np.zeros(0, np.int64))[0].size
0
"""

from __future__ import annotations

import numpy as np

from tbnb.decode.compiled.intern import intern_tags
from tbnb.decode.compiled.patterns import match_simple
from tbnb.decode.compiled.validate import tensor_scalar, valid_metadata
from tbnb.decode.compiled.wire import f32, f64, field_key, grow, length_delimited, varint
from tbnb.decode.layouts import DTYPE_SIMPLE
from tbnb.jit import njit

__all__ = ["KERNELS", "decode_kernel"]

_FALLBACK = -1
_FULL = -2


@njit
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


@njit
def _decode_record(
    buf: np.ndarray,
    p: int,
    end: int,
    r: int,
    rec: np.ndarray,
    value: np.ndarray,
    dtype: np.ndarray,
    meta_start: np.ndarray,
    meta_len: np.ndarray,
    tag_start: np.ndarray,
    tag_len: np.ndarray,
    nv: int,
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


@njit
def _decode_pass(
    buf: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    r0: int,
    fallback: np.ndarray,
    wall: np.ndarray,
    steps: np.ndarray,
    rec: np.ndarray,
    value: np.ndarray,
    dtype: np.ndarray,
    meta_start: np.ndarray,
    meta_len: np.ndarray,
    tag_start: np.ndarray,
    tag_len: np.ndarray,
    vstep: np.ndarray,
    vwall: np.ndarray,
    nv: int,
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
        n, w, st = _decode_record(
            buf, p, end, r, rec, value, dtype, meta_start, meta_len, tag_start, tag_len, nv
        )
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


@njit
def _decode_kernel(
    buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray
) -> tuple[
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
    np.ndarray,
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
        r, nv = _decode_pass(
            buf,
            starts,
            lengths,
            r,
            fallback,
            wall,
            steps,
            rec,
            value,
            dtype,
            meta_start,
            meta_len,
            tag_start,
            tag_len,
            vstep,
            vwall,
            nv,
        )
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
        fallback,
        wall,
        steps,
        rec[:nv],
        tag_id,
        value[:nv],
        dtype[:nv],
        meta_start[:nv],
        meta_len[:nv],
        rep_start,
        rep_len,
        vstep[:nv],
        vwall[:nv],
    )


def decode_kernel(
    buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray
) -> tuple[np.ndarray, ...]:
    """Run the decoder on a read-only ``uint8`` view of ``buf`` and int64 positions (the
    argument types compiled); returns the columns of :class:`tbnb.decode.layouts.Matched`."""
    if buf.flags.writeable:
        buf = buf.view()
        buf.flags.writeable = False
    return _decode_kernel(
        buf,
        np.ascontiguousarray(starts, dtype=np.int64),
        np.ascontiguousarray(lengths, dtype=np.int64),
    )


_EMPTY = np.zeros(0, dtype=np.int64)
KERNELS = [(_decode_kernel, (np.frombuffer(b"", np.uint8), _EMPTY, _EMPTY))]
"""What :mod:`tbnb.jit` compiles and loads: the kernel called from Python, with
arguments of the types it is always called with."""
