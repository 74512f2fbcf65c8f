"""numpy-facing wrappers of the native kernels.

:func:`scan_kernel` (TFRecord framing), :func:`decode_kernel` (events: scalars decoded,
other values indexed), :func:`tensors_kernel`, :func:`histograms_kernel`,
:func:`media_kernel` and :func:`gather` (the indexed values), :func:`count_tags` and
:func:`scatter_points` (grouping a run's points by tag). Outputs go into arrays
allocated here; when the C code runs out of room it says so and the arrays grow.

Examples
--------
>>> import numpy as np
>>> from tbnb.native import available
>>> scan = scan_kernel(np.frombuffer(b"", np.uint8), True) if available() else None
>>> scan is None or scan[2] == 0
True
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

from tbnb.native.loading import Columns, lib

__all__ = [
    "MEDIA_INFO",
    "TENSOR_INFO",
    "count_tags",
    "crc32c",
    "decode_kernel",
    "gather",
    "histograms_kernel",
    "image_formats",
    "media_kernel",
    "scan_kernel",
    "scatter_points",
    "sync_kernel",
    "tensors_kernel",
]

_HEADER_AND_FOOTER = 16


def _library() -> ctypes.CDLL:
    library = lib()
    if library is None:
        from tbnb.native.loading import problem

        raise RuntimeError(f"tbnb: the native kernels are not available: {problem()}")
    return library


def _ptr(a: np.ndarray) -> int:
    return int(a.__array_interface__["data"][0])


def _bytes(buf: np.ndarray) -> np.ndarray:
    """``buf`` as a contiguous 1-D ``uint8`` array (a copy only if it is strided)."""
    if buf.dtype != np.uint8 or buf.ndim != 1:
        raise TypeError(f"expected a 1-D uint8 array, got {buf.dtype} of shape {buf.shape}")
    return np.ascontiguousarray(buf)


def crc32c(data: bytes | np.ndarray, crc: int = 0, *, table: bool = False) -> int:
    """CRC32C of ``data`` continuing from ``crc`` (the hardware instruction where the
    CPU has it; ``table=True``: the table implementation).

    Examples
    --------
    >>> from tbnb.native import available
    >>> hex(crc32c(b"123456789")) if available() else '0xe3069283'
    '0xe3069283'
    """
    arr = _bytes(np.frombuffer(data, np.uint8) if isinstance(data, bytes) else data)
    fn = _library().tbnb_crc32c_table if table else _library().tbnb_crc32c
    return int(fn(crc, _ptr(arr), arr.size))


def scan_kernel(
    buf: np.ndarray, verify_crc: bool
) -> tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray, np.ndarray]:
    """Scan ``buf`` (``uint8``): (starts, lengths, end, problem offsets, kinds, skipped)."""
    library = _library()
    buf = _bytes(buf)
    cap = buf.size // _HEADER_AND_FOOTER + 1  # records are 16 bytes at least
    starts = np.empty(cap, dtype=np.int64)
    lengths = np.empty(cap, dtype=np.int64)
    count, end = ctypes.c_int64(), ctypes.c_int64()
    room = 4
    while True:
        p_off = np.empty(room, dtype=np.int64)
        p_kind = np.empty(room, dtype=np.int8)
        p_skip = np.empty(room, dtype=np.int64)
        found = library.tbnb_scan_records(
            _ptr(buf),
            buf.size,
            int(bool(verify_crc)),
            _ptr(starts),
            _ptr(lengths),
            ctypes.byref(count),
            ctypes.byref(end),
            _ptr(p_off),
            _ptr(p_kind),
            _ptr(p_skip),
            room,
        )
        if found <= room:
            break
        room = int(found)  # a corrupt buffer: scan again with room for every problem
    n = count.value
    return starts[:n], lengths[:n], int(end.value), p_off[:found], p_kind[:found], p_skip[:found]


def sync_kernel(buf: np.ndarray) -> int:
    """The first offset of ``buf`` where a whole record with valid CRCs starts, or -1."""
    buf = _bytes(buf)
    return int(_library().tbnb_sync_record(_ptr(buf), buf.size))


_VALUE_COLUMNS = (
    ("rec", np.int64),
    ("value", np.float64),
    ("dtype", np.int8),
    ("meta_start", np.int64),
    ("meta_len", np.int64),
    ("tag_start", np.int64),
    ("tag_len", np.int64),
    ("vstep", np.int64),
    ("vwall", np.float64),
    ("data_start", np.int64),
    ("data_len", np.int64),
    ("vindex", np.int64),
)


def decode_kernel(
    buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, index: bool = False
) -> tuple[np.ndarray, ...]:
    """Decode the scalar values of the records at ``starts``/``lengths`` of ``buf``
    (``index``: and index every tensor, histogram, image and audio value); returns the
    columns of :class:`tbnb.decode.layouts.Matched`."""
    library = _library()
    buf = _bytes(buf)
    starts = np.ascontiguousarray(starts, dtype=np.int64)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    if starts.shape != lengths.shape or starts.ndim != 1:
        raise ValueError(
            f"starts and lengths must be 1-D of one length, got {starts.shape} and {lengths.shape}"
        )
    nrec = starts.size
    fallback = np.zeros(nrec, dtype=np.bool_)
    wall = np.zeros(nrec, dtype=np.float64)
    steps = np.zeros(nrec, dtype=np.int64)
    cap = nrec + 16  # most files hold one value per event
    cols = {name: np.empty(cap, dtype=dtype) for name, dtype in _VALUE_COLUMNS}
    nv = ctypes.c_int64(0)
    r = 0
    while True:
        out = Columns(
            _ptr(fallback),
            _ptr(wall),
            _ptr(steps),
            *(_ptr(cols[name]) for name, _ in _VALUE_COLUMNS),
            cap,
        )
        r = library.tbnb_decode_events(
            _ptr(buf),
            buf.size,
            _ptr(starts),
            _ptr(lengths),
            nrec,
            r,
            ctypes.byref(out),
            ctypes.byref(nv),
            int(bool(index)),
        )
        if r == nrec:
            break
        cap = 2 * cap + 16  # out of room: grow, and resume
        for name, array in cols.items():
            grown = np.empty(cap, dtype=array.dtype)
            grown[: nv.value] = array[: nv.value]
            cols[name] = grown
    n = nv.value
    tag_id = np.empty(n, dtype=np.int32)
    ntags = library.tbnb_intern_tags(
        _ptr(buf), _ptr(cols["tag_start"]), _ptr(cols["tag_len"]), n, _ptr(tag_id)
    )
    if ntags < 0:
        raise MemoryError("tbnb: out of memory interning tags")
    return (
        fallback,
        wall,
        steps,
        cols["rec"][:n],
        tag_id,
        cols["value"][:n],
        cols["dtype"][:n],
        cols["meta_start"][:n],
        cols["meta_len"][:n],
        cols["tag_start"][:ntags].copy(),
        cols["tag_len"][:ntags].copy(),
        cols["vstep"][:n],
        cols["vwall"][:n],
        cols["data_start"][:n],
        cols["data_len"][:n],
        cols["vindex"][:n],
    )


def _check(array: np.ndarray, dtype: type, name: str) -> None:
    if array.dtype != dtype or not array.flags.c_contiguous:
        raise TypeError(f"{name} must be a contiguous {np.dtype(dtype)} array, got {array.dtype}")


def count_tags(tag_id: np.ndarray, counts: np.ndarray) -> None:
    """Add each tag's number of points to ``counts`` (``int64``; ``tag_id``: ``int32``
    ids below ``counts.size``)."""
    _check(tag_id, np.int32, "tag_id")
    _check(counts, np.int64, "counts")
    _library().tbnb_count_tags(_ptr(tag_id), tag_id.size, _ptr(counts))


def scatter_points(
    tag_id: np.ndarray,
    step: np.ndarray,
    wall_time: np.ndarray,
    value: np.ndarray,
    codes: np.ndarray,
    cursor: np.ndarray,
    out_tag: np.ndarray,
    out_step: np.ndarray,
    out_wall_time: np.ndarray,
    out_value: np.ndarray,
) -> None:
    """Copy point ``i`` to row ``cursor[tag_id[i]]`` (then advance it), its tag as
    ``codes[tag_id[i]]`` (rows are the caller's: counted with :func:`count_tags`)."""
    for array, dtype, name in (
        (tag_id, np.int32, "tag_id"),
        (step, np.int64, "step"),
        (wall_time, np.float64, "wall_time"),
        (value, np.float64, "value"),
        (codes, np.int64, "codes"),
        (cursor, np.int64, "cursor"),
        (out_step, np.int64, "out_step"),
        (out_wall_time, np.float64, "out_wall_time"),
        (out_value, np.float64, "out_value"),
    ):
        _check(array, dtype, name)
    if out_tag.dtype.kind != "i" or not out_tag.flags.c_contiguous:
        raise TypeError(f"out_tag must be a contiguous signed integer array, got {out_tag.dtype}")
    n = tag_id.size
    if not step.size == wall_time.size == value.size == n:
        raise ValueError("tag_id, step, wall_time and value must have one length")
    _library().tbnb_scatter_points(
        _ptr(tag_id),
        n,
        _ptr(step),
        _ptr(wall_time),
        _ptr(value),
        _ptr(codes),
        _ptr(cursor),
        _ptr(out_tag),
        out_tag.itemsize,
        _ptr(out_step),
        _ptr(out_wall_time),
        _ptr(out_value),
    )


TENSOR_INFO = 9
"""Columns of :func:`tensors_kernel`'s ``info`` (``TI_*`` in ``tbnb_native.h``): dtype,
rank, first dim, elements, source, start, bytes, first string, strings."""

MEDIA_INFO = 8
"""Columns of :func:`media_kernel`'s ``info`` (``MI_*`` in ``tbnb_native.h``)."""


def _spans(start: np.ndarray, length: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    start = np.ascontiguousarray(start, dtype=np.int64)
    length = np.ascontiguousarray(length, dtype=np.int64)
    if start.shape != length.shape or start.ndim != 1:
        raise ValueError("start and length must be 1-D of one length")
    return start, length


def tensors_kernel(
    buf: np.ndarray, start: np.ndarray, length: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Index the ``TensorProto`` messages at ``start``/``length``: ``(info, dims, spans)``
    with ``info`` of shape ``(n, TENSOR_INFO)`` and ``spans`` the ``(start, length)`` of
    every ``string_val``."""
    buf = _bytes(buf)
    start, length = _spans(start, length)
    n = start.size
    room = int(length.sum()) // 2 + 1  # a dim or a string takes two bytes at least
    info = np.zeros((n, TENSOR_INFO), dtype=np.int64)
    dims = np.empty(room, dtype=np.int64)
    spans = np.empty((room, 2), dtype=np.int64)
    done = _library().tbnb_tensors(
        _ptr(buf), buf.size, _ptr(start), _ptr(length), n, _ptr(info), _ptr(dims), room,
        _ptr(spans), room,
    )  # fmt: skip
    if done != 0:  # pragma: no cover - the room above always suffices
        raise MemoryError("tbnb: tensor index out of room")
    used_dims = int((info[:, 2] + info[:, 1]).max()) if n else 0
    used_spans = int((info[:, 7] + info[:, 8]).max()) if n else 0
    return info, dims[:used_dims], spans[:used_spans]


def histograms_kernel(
    buf: np.ndarray,
    start: np.ndarray,
    length: np.ndarray,
    code: np.ndarray,
    max_buckets: int,
    raw: bool = False,
) -> tuple[Any, ...]:
    """Decode histograms (legacy ``HistogramProto``, ``code`` 5, or TF2 ``[k, 3]``
    tensors, ``code`` 4): ``(stats, status, edge_at, count_at, edges, counts, raw_at,
    raw_limits, raw_bucket)`` (the raw ones ``None`` unless ``raw``); see
    ``tbnb_histograms`` in ``tbnb_native.h``."""
    buf = _bytes(buf)
    start, length = _spans(start, length)
    code = np.ascontiguousarray(code, dtype=np.int8)
    n = start.size
    cap = int(length.sum()) // 8 + n + 1  # a bucket's count takes 8 bytes at least
    stats = np.zeros((n, 5), dtype=np.float64)
    status = np.ones(n, dtype=np.int8)
    edge_at = np.zeros(n + 1, dtype=np.int64)
    count_at = np.zeros(n + 1, dtype=np.int64)
    edges = np.empty(cap, dtype=np.float64)
    counts = np.empty(cap, dtype=np.float64)
    raw_at = np.zeros(n + 1, dtype=np.int64) if raw else None
    raw_limits = np.empty(cap, dtype=np.float64) if raw else None
    raw_bucket = np.empty(cap, dtype=np.float64) if raw else None
    done = _library().tbnb_histograms(
        _ptr(buf), buf.size, _ptr(start), _ptr(length), _ptr(code), n, int(max_buckets),
        _ptr(stats), _ptr(status), _ptr(edge_at), _ptr(count_at), _ptr(edges), _ptr(counts),
        cap,
        None if raw_at is None else _ptr(raw_at),
        None if raw_limits is None else _ptr(raw_limits),
        None if raw_bucket is None else _ptr(raw_bucket),
    )  # fmt: skip
    if done != 0:  # pragma: no cover - the room above always suffices
        raise MemoryError("tbnb: histogram decoder out of room")
    return (
        stats,
        status,
        edge_at,
        count_at,
        edges[: edge_at[-1]],
        counts[: count_at[-1]],
        raw_at,
        None if raw_limits is None or raw_at is None else raw_limits[: raw_at[-1]],
        None if raw_bucket is None or raw_at is None else raw_bucket[: raw_at[-1]],
    )


def media_kernel(
    buf: np.ndarray, start: np.ndarray, length: np.ndarray, code: np.ndarray
) -> np.ndarray:
    """Index legacy ``Summary.Image`` (``code`` 6) and ``Summary.Audio`` (7) messages:
    ``(n, MEDIA_INFO)`` (see ``tbnb_media`` in ``tbnb_native.h``)."""
    buf = _bytes(buf)
    start, length = _spans(start, length)
    code = np.ascontiguousarray(code, dtype=np.int8)
    info = np.zeros((start.size, MEDIA_INFO), dtype=np.int64)
    _library().tbnb_media(
        _ptr(buf), buf.size, _ptr(start), _ptr(length), _ptr(code), start.size, _ptr(info)
    )
    return info


def gather(buf: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The spans ``buf[start[i]:start[i] + length[i]]`` one after another (``uint8``)."""
    buf = _bytes(buf)
    start, length = _spans(start, length)
    if start.size and (
        int(start.min()) < 0 or int(length.min()) < 0 or int((start + length).max()) > buf.size
    ):
        raise ValueError("a span reaches outside the buffer")
    out = np.empty(int(length.sum()), dtype=np.uint8)
    _library().tbnb_gather(_ptr(buf), _ptr(start), _ptr(length), start.size, _ptr(out))
    return out


def image_formats(buf: np.ndarray, start: np.ndarray, length: np.ndarray) -> np.ndarray:
    """The format code (``tbnb_image_format``) of each span of ``buf`` (``int8``)."""
    buf = _bytes(buf)
    start, length = _spans(start, length)
    function, at = _library().tbnb_image_format, _ptr(buf)
    out = np.zeros(start.size, dtype=np.int8)
    for i, (s, n) in enumerate(zip(start.tolist(), length.tolist(), strict=True)):
        if s < 0 or n < 0 or s + n > buf.size:
            raise ValueError("a span reaches outside the buffer")
        out[i] = function(at, s, n)
    return out
