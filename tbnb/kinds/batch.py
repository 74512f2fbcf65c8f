"""A window's values of one kind, as the native decoder indexed them, turned into rows.

The native event decoder (:func:`tbnb.decode.scalars.decode_events`) gives every
tensor, histogram, image and audio value of a window as the span of its message. A kind
with a ``batch`` decoder (:attr:`tbnb.kinds.base.Kind.batch`) turns a :class:`Batch` of
its values into a :class:`BatchRows`: column sets of rows, equal to what its
``normalize`` and ``rows`` give for the same values through protobuf, and the values it
leaves to protobuf (anything it cannot reproduce exactly; protobuf's path also owns
every warning). This module holds what those decoders share: the batch, the result,
and each value's tensor as the numpy array :func:`tbnb.decode.tensors.tensor_to_numpy`
gives.

Examples
--------
>>> import numpy as np
>>> from tbnb._proto import TensorProto
>>> from tbnb.native import available
>>> raw = TensorProto(dtype=7, string_val=[b"hi"],
...                   tensor_shape={"dim": [{"size": 1}]}).SerializeToString()
>>> batch = Batch.of(np.frombuffer(raw, np.uint8), [0], [len(raw)])
>>> tensor_arrays(batch)[0] if available() else np.array([b"hi"], dtype=object)
array([b'hi'], dtype=object)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tbnb.decode.tensors import _DTYPES, DT_DOUBLE, DT_FLOAT, DT_STRING, content_array
from tbnb.kinds.base import TagMetadata, Where

__all__ = [
    "Batch",
    "BatchRows",
    "TensorGroup",
    "TensorIndex",
    "object_array",
    "tensor_arrays",
    "tensor_groups",
    "utf8_strings",
]

# TI_* columns of tbnb_tensors (tbnb/native/src/tbnb_native.h)
_DTYPE, _RANK, _DIMS, _ELEMENTS, _SOURCE, _START, _BYTES, _STRINGS, _NSTRINGS = range(9)
_NONE, _CONTENT, _PACKED, _STRING_VALUES = 0, 1, 2, 3


@dataclass
class Batch:
    """Values of one kind from one window of an event file.

    Attributes
    ----------
    buf
        The window's bytes.
    code
        ``int8`` per value: 4 tensor, 5 legacy histogram, 6 legacy image, 7 legacy audio
        (:mod:`tbnb.decode.scalars`).
    start, length
        ``int64`` per value: its message in ``buf``.
    tag
        The value's tag (``str``) per value.
    meta
        Each tag's metadata (the first a writer declared, or None).
    value_index
        ``int64`` per value: its position in its event's ``Summary``.
    record_offset, record_length
        ``int64`` per value: its record's payload in the file (for lazy blobs).
    fs, path
        The file.
    raw_buckets
        Keep histograms' own buckets (:class:`tbnb.loader.state.LoadOptions`).
    """

    buf: np.ndarray
    code: np.ndarray
    start: np.ndarray
    length: np.ndarray
    tag: np.ndarray
    meta: dict[str, TagMetadata | None] = field(default_factory=dict)
    value_index: np.ndarray | None = None
    record_offset: np.ndarray | None = None
    record_length: np.ndarray | None = None
    fs: Any = None
    path: str = ""
    raw_buckets: bool = False
    _tensors: TensorIndex | None = None

    @classmethod
    def of(cls, buf: np.ndarray, start: Sequence[int], length: Sequence[int]) -> Batch:
        """A batch of tensors at ``start``/``length`` (tag ``""``: for tests and examples)."""
        n = len(start)
        return cls(
            buf,
            np.full(n, 4, dtype=np.int8),
            np.asarray(start, dtype=np.int64),
            np.asarray(length, dtype=np.int64),
            np.full(n, "", dtype=object),
            value_index=np.zeros(n, dtype=np.int64),
            record_offset=np.zeros(n, dtype=np.int64),
            record_length=np.asarray(length, dtype=np.int64),
        )

    def __len__(self) -> int:
        return int(self.code.shape[0])

    def subset(self, index: np.ndarray) -> Batch:
        """The values at ``index`` (positions or a mask)."""

        def pick(column: np.ndarray | None) -> np.ndarray | None:
            return None if column is None else column[index]

        tensors = self._tensors
        return replace(
            self,
            code=self.code[index],
            start=self.start[index],
            length=self.length[index],
            tag=self.tag[index],
            value_index=pick(self.value_index),
            record_offset=pick(self.record_offset),
            record_length=pick(self.record_length),
            _tensors=None if tensors is None else replace(tensors, info=tensors.info[index]),
        )

    def where(self, i: int) -> Where:
        """Where value ``i`` lives (for a lazy :class:`~tbnb.kinds.blob.Blob`)."""
        assert self.record_offset is not None
        assert self.record_length is not None
        assert self.value_index is not None
        return Where(
            self.fs,
            self.path,
            int(self.record_offset[i]),
            int(self.record_length[i]),
            int(self.value_index[i]),
        )

    def legacy_media(self, code: int) -> list[tuple[int, list[int]]]:
        """``(value, tbnb_media's info row)`` of each value of ``code`` (6 legacy image,
        7 legacy audio)."""
        from tbnb.native.kernels import media_kernel

        which = np.flatnonzero(self.code == code)
        if which.size == 0:
            return []
        info = media_kernel(self.buf, self.start[which], self.length[which], self.code[which])
        return list(zip(which.tolist(), info.tolist(), strict=True))

    def tensors(self) -> TensorIndex:
        """Every value's ``TensorProto`` indexed (once)."""
        if self._tensors is None:
            from tbnb.native.kernels import tensors_kernel

            self._tensors = TensorIndex(*tensors_kernel(self.buf, self.start, self.length))
        return self._tensors


@dataclass
class BatchRows:
    """What a kind's batch decoder made of a :class:`Batch`.

    Attributes
    ----------
    ok
        ``bool`` per value: decoded here (the others go to protobuf, whole record).
    source
        ``int64`` per row: the value it comes from (rows of one value are consecutive).
    columns
        The kind's columns (after ``tag``, ``step``, ``wall_time``), one entry per row:
        arrays, or :class:`tbnb.loader.rowsets.Ragged`-like ``(flat, lo, hi)`` columns.
    """

    ok: np.ndarray
    source: np.ndarray
    columns: dict[str, Any]

    @classmethod
    def one_per_value(cls, ok: np.ndarray, columns: dict[str, Any]) -> BatchRows:
        """One row per decoded value."""
        return cls(ok, np.flatnonzero(ok), columns)


@dataclass(frozen=True)
class TensorIndex:
    """``tbnb_tensors``' output: ``info`` (one row per value), ``dims``, string ``spans``."""

    info: np.ndarray
    dims: np.ndarray
    spans: np.ndarray

    def shape(self, i: int) -> tuple[int, ...]:
        """Value ``i``'s shape."""
        row = self.info[i]
        return tuple(self.dims[row[_DIMS] : row[_DIMS] + row[_RANK]].tolist())

    def dtype(self, i: int) -> int:
        """Value ``i``'s ``DataType``."""
        return int(self.info[i, _DTYPE])

    def strings(self, i: int) -> np.ndarray:
        """The ``(start, length)`` spans of value ``i``'s ``string_val``."""
        row = self.info[i]
        return self.spans[row[_STRINGS] : row[_STRINGS] + row[_NSTRINGS]]


def object_array(values: list[Any]) -> np.ndarray:
    """A 1-D object array holding ``values`` (arrays stay one cell each)."""
    return np.fromiter(values, dtype=object, count=len(values))


_GROUP_RANK = 4
"""Tensors of up to this rank are decoded in groups of one dtype, layout and shape."""


@dataclass(frozen=True)
class TensorGroup:
    """Values of a batch whose tensors share dtype, layout and shape, decoded at once.

    Attributes
    ----------
    which
        The values (positions in the batch), in batch order.
    array
        Their tensors stacked: shape ``(len(which), *shape)``, read-only.
    """

    which: np.ndarray
    array: np.ndarray


def tensor_groups(batch: Batch) -> tuple[list[TensorGroup], np.ndarray]:
    """The batch's numeric tensors of rank 1 to 4 held whole (``tensor_content``, or one
    packed ``float_val``/``double_val``), decoded in groups of one dtype, layout and
    shape with one conversion each, bit for bit as :func:`tensor_arrays` decodes each;
    and the positions of the other values.

    Examples
    --------
    >>> from tbnb._proto import TensorProto
    >>> from tbnb.native import available
    >>> raw = [TensorProto(dtype=1, float_val=[i, 2.0], tensor_shape={"dim": [{"size": 2}]}
    ...                    ).SerializeToString() for i in range(3)]
    >>> buf = np.frombuffer(b"".join(raw), np.uint8)
    >>> at = np.cumsum([0] + [len(r) for r in raw])
    >>> groups, rest = tensor_groups(Batch.of(buf, at[:-1], np.diff(at))) if available() \\
    ...     else ([TensorGroup(np.arange(3), np.array([[0, 2], [1, 2], [2, 2]], np.float32))], [])
    >>> groups[0].array.tolist(), list(rest)
    ([[0.0, 2.0], [1.0, 2.0], [2.0, 2.0]], [])
    """
    from tbnb.native.kernels import gather

    index = batch.tensors()
    info = index.info
    n = len(batch)
    if n == 0:
        return [], np.zeros(0, dtype=np.int64)
    dtype, rank, source = info[:, _DTYPE], info[:, _RANK], info[:, _SOURCE]
    elements, size = info[:, _ELEMENTS], info[:, _BYTES]
    width = np.zeros(n, dtype=np.int64)
    for code, (np_dtype, _) in _DTYPES.items():
        if code != DT_STRING:
            width[dtype == code] = np.dtype(np_dtype).itemsize
    packed = (source == _PACKED) & ((dtype == DT_FLOAT) | (dtype == DT_DOUBLE))
    whole = ((source == _CONTENT) | packed) & (width > 0) & (elements > 0)
    fits = whole & (rank >= 1) & (rank <= _GROUP_RANK) & (size == elements * width)
    candidates = np.flatnonzero(fits)
    if candidates.size == 0:
        return [], np.arange(n)
    keys = np.zeros((candidates.size, 3 + _GROUP_RANK), dtype=np.int64)
    keys[:, 0], keys[:, 1], keys[:, 2] = dtype[candidates], source[candidates], rank[candidates]
    first = info[candidates, _DIMS]
    for d in range(_GROUP_RANK):
        has = rank[candidates] > d
        keys[has, 3 + d] = index.dims[first[has] + d]
    if bool((keys == keys[0]).all()):
        inverse, distinct = np.zeros(candidates.size, dtype=np.int64), keys[:1]
    else:
        distinct, inverse = np.unique(keys, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1)
    groups = []
    for g, key in enumerate(distinct.tolist()):
        which = candidates[inverse == g]
        code, how, k = key[0], key[1], key[2]
        shape = tuple(key[3 : 3 + k])
        raw = gather(batch.buf, info[which, _START], size[which])
        if how == _CONTENT:
            array = content_array(raw, code)
        else:  # as protobuf hands float_val over: each a double, narrowed back
            wide = np.frombuffer(raw, dtype="<f4" if code == DT_FLOAT else "<f8").astype(np.float64)
            array = wide.astype(np.float32) if code == DT_FLOAT else wide
        array = array.reshape((which.size, *shape))
        array.flags.writeable = False
        groups.append(TensorGroup(which, array))
    return groups, np.flatnonzero(~fits)


def tensor_arrays(batch: Batch) -> list[np.ndarray | None]:
    """Each value's tensor as :func:`tbnb.decode.tensors.tensor_to_numpy` returns it, or
    None where only protobuf's path reproduces it (a filled typed field, an unusual
    dtype or layout, a shape the values do not fill: it also warns about those).
    Tensors of one dtype, layout and shape are decoded together (:func:`tensor_groups`:
    each a read-only view of its group's array)."""
    groups, rest = tensor_groups(batch)
    out: list[np.ndarray | None] = [None] * len(batch)
    for group in groups:
        for i, array in zip(group.which.tolist(), group.array, strict=True):
            out[i] = array
    for i in rest.tolist():
        out[i] = _tensor_array(batch, i)
    return out


def _tensor_array(batch: Batch, i: int) -> np.ndarray | None:
    """Value ``i``'s tensor (:func:`tensor_arrays`), decoded alone."""
    index = batch.tensors()
    info, buf = index.info, batch.buf
    dtype, elements, source = (int(x) for x in info[i, [_DTYPE, _ELEMENTS, _SOURCE]])
    if dtype not in _DTYPES or elements < 0:
        return None
    shape = index.shape(i)
    if source == _STRING_VALUES and dtype == DT_STRING:
        spans = index.strings(i)
        if len(spans) != elements:
            return None
        values = np.empty(len(spans), dtype=object)
        values[:] = [buf[s : s + n].tobytes() for s, n in spans.tolist()]
        return values.reshape(shape)
    start, size = int(info[i, _START]), int(info[i, _BYTES])
    if source == _CONTENT:
        itemsize = np.dtype(_DTYPES[dtype][0]).itemsize
        if size != elements * itemsize:
            return None
        return content_array(buf[start : start + size], dtype).reshape(shape)
    if source == _PACKED and dtype in (DT_FLOAT, DT_DOUBLE):
        width = 4 if dtype == DT_FLOAT else 8
        if size != elements * width:
            return None
        values = np.frombuffer(buf[start : start + size], dtype="<f4" if width == 4 else "<f8")
        # protobuf hands each float_val over as a Python float (a double), which
        # numpy narrows back: the same conversions, bit for bit (NaN payloads too)
        array = values.astype(np.float64)
        return (array.astype(np.float32) if width == 4 else array).reshape(shape)
    if source == _NONE and elements == 0 and dtype != DT_STRING:
        return np.zeros(0, dtype=_DTYPES[dtype][0]).reshape(shape)
    return None


def utf8_strings(buf: np.ndarray, start: np.ndarray, length: np.ndarray) -> list[str]:
    """The spans of ``buf`` decoded as UTF-8 (invalid bytes replaced), each exactly as
    ``bytes(span).decode("utf-8", "replace")``, with one decode for all of them.

    The spans are gathered (C) and decoded at once; each string is then a slice of the
    whole, cut at the spans' code point offsets. That is each span's own decode when the
    whole is valid UTF-8 and every span starts on a lead byte (then no sequence runs
    across two spans); otherwise each span is decoded alone.

    Examples
    --------
    >>> from tbnb.native import available
    >>> raw = np.frombuffer("aé€b".encode() + b"\\xe2\\x82", np.uint8)
    >>> spans = (np.array([0, 1, 3, 6, 7]), np.array([1, 2, 3, 1, 2]))
    >>> utf8_strings(raw, *spans) if available() else ['a', 'é', '€', 'b', '\\ufffd']
    ['a', 'é', '€', 'b', '\\ufffd']
    """
    from tbnb.native.kernels import gather

    data = gather(buf, start, length)
    ends = np.cumsum(length)
    firsts = ends - length
    try:
        text = data.tobytes().decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None and len(text) != data.size:  # not all ASCII: code point offsets
        lead = (data & 0xC0) != 0x80
        if not lead[firsts[length > 0]].all():
            text = None
        else:
            at = np.zeros(data.size + 1, dtype=np.int64)
            np.cumsum(lead, out=at[1:])
            firsts, ends = at[firsts], at[ends]
    if text is None:
        raw = data.data
        return [
            bytes(raw[a:b]).decode("utf-8", "replace")
            for a, b in zip(firsts.tolist(), ends.tolist(), strict=True)
        ]
    return [text[a:b] for a, b in zip(firsts.tolist(), ends.tolist(), strict=True)]
