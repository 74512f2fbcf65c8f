"""The native C kernels against their references: numpy's scan, protobuf's parser.

The scan is compared with the numpy scan (every start, length, problem); the event
decoder with protobuf, value by value (every scalar decoded as protobuf reads it, every
indexed value's message parsing to the value protobuf holds, every record it handles one
protobuf parses); the grouping kernels with numpy's stable sort. On random bytes, on
event streams built field by field (NaN, infinities, -0.0, huge varints, invalid UTF-8,
metadata, histograms, images, audio, tensors), on the same corrupted by truncation,
flipped bytes, bad CRCs and huge lengths, and on every event file of the real writers
(torch, tensorboardX, TF2, Keras, Lightning). The loader tests compare whole frames of
every backend (tests/loader/test_native_values.py, test_loader_writers.py).
"""

from __future__ import annotations

import struct

import crc32c as crc32c_pkg
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tbnb import native
from tbnb._proto import Event, SummaryMetadata
from tbnb.decode.scalars import decode_events, decode_scalars
from tbnb.io.crc32c import crc32c as tbnb_crc32c
from tbnb.io.crc32c import masked_crc32c
from tbnb.io.records import scan_records
from tbnb.native import kernels
from tests.fuzz_values import field, summary_event, varint

pytestmark = pytest.mark.skipif(
    not native.available(), reason=f"native kernels not available: {native.problem()}"
)


def same_arrays(a: tuple[object, ...], b: tuple[object, ...]) -> None:
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if isinstance(x, np.ndarray):
            assert isinstance(y, np.ndarray), i
            assert (x.dtype, x.shape) == (y.dtype, y.shape), i
            assert x.tobytes() == y.tobytes(), f"output {i} differs"
        else:
            assert x == y, i


def test_the_library_is_built_and_current() -> None:
    """The package was built with its native kernels (CI: a compiler is present)."""
    library = native.lib()
    assert library is not None, native.problem()
    from tbnb.native.build import source_hash

    assert library.tbnb_source_hash().decode() == source_hash()


# --- CRC32C -------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.integers(0, 2**32 - 1))
def test_crc32c_equals_google_crc32c_and_tbnb(data: bytes, start: int) -> None:
    expected = crc32c_pkg.crc32c(data)
    assert kernels.crc32c(data) == expected == tbnb_crc32c(data)
    assert kernels.crc32c(data, table=True) == expected
    # continuing a CRC over two pieces gives the CRC of the whole
    cut = start % (len(data) + 1)
    assert kernels.crc32c(data[cut:], kernels.crc32c(data[:cut])) == expected
    assert (
        kernels.crc32c(data[cut:], kernels.crc32c(data[:cut], table=True), table=True) == expected
    )


def test_crc32c_of_every_alignment_and_a_large_buffer() -> None:
    data = np.random.default_rng(1).integers(0, 256, 1 << 20, dtype=np.uint8).tobytes()
    for offset in range(9):
        piece = data[offset : offset + 1000 + offset]
        assert kernels.crc32c(piece) == crc32c_pkg.crc32c(piece)
    assert kernels.crc32c(data) == kernels.crc32c(data, table=True) == crc32c_pkg.crc32c(data)
    assert native.lib().tbnb_crc32c_impl().decode() in {"sse4.2", "armv8-crc", "table"}


# --- framing ------------------------------------------------------------------------


def frame(data: bytes) -> bytes:
    head = struct.pack("<Q", len(data))
    return (
        head
        + struct.pack("<I", masked_crc32c(head))
        + data
        + struct.pack("<I", masked_crc32c(data))
    )


def same_scans(buf: bytes) -> None:
    for verify in (True, False):
        a = scan_records(buf, verify_crc=verify, kernels="numpy")
        b = scan_records(buf, verify_crc=verify, kernels="native")
        same_arrays((a.starts, a.lengths), (b.starts, b.lengths))
        assert (a.end, a.problems) == (b.end, b.problems)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000))
def test_scan_random_bytes(data: bytes) -> None:
    same_scans(data)


PIECES = st.one_of(
    st.binary(max_size=80).map(frame),  # good records
    st.binary(max_size=30),  # garbage
    st.binary(min_size=1, max_size=60).map(lambda d: frame(d)[:-3]),  # truncated
    st.binary(min_size=1, max_size=60).map(lambda d: frame(d)[:5] + b"\xff" + frame(d)[6:]),
    st.binary(min_size=1, max_size=60).map(lambda d: frame(d)[:-1] + b"\x00"),  # bad data CRC
    st.binary(max_size=20).map(  # a valid header claiming a huge length
        lambda d: (
            struct.pack("<Q", 2**47 + len(d))
            + struct.pack("<I", masked_crc32c(struct.pack("<Q", 2**47 + len(d))))
            + d
        )
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(PIECES, max_size=40),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=4),
)
def test_scan_corrupted_streams(pieces: list[bytes], flips: list[tuple[int, int]]) -> None:
    buf = bytearray(b"".join(pieces))
    for where, value in flips:
        if buf:
            buf[where % len(buf)] = value
    same_scans(bytes(buf))


def test_scan_with_many_problems_grows_its_problem_list() -> None:
    bad = frame(b"x" * 5)[:-1] + b"\x01"  # a bad data CRC
    buf = b"".join(bad + frame(b"y" * 7) for _ in range(500))
    same_scans(buf)
    assert kernels.scan_kernel(np.frombuffer(buf, np.uint8), True)[3].size == 500


# --- the scalar decoder -------------------------------------------------------------


FLOATS = st.sampled_from(
    [
        0.0,
        -0.0,
        1.5,
        float("nan"),
        float("inf"),
        -float("inf"),
        struct.unpack("<d", b"\x01\0\0\0\0\0\xf8\x7f")[0],
        1e-310,
        3e38,
    ]
)
TAGS = st.one_of(
    st.sampled_from(["loss", "acc", "a/b/c", "", "é", "x" * 40]),
    st.binary(max_size=12).map(lambda b: b.decode("latin-1")),
    st.just("\ud800").map(lambda _: "bad"),
)
BAD_UTF8 = st.sampled_from([b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"ok\xe2\x82"])


@st.composite
def tag_bytes(draw: st.DrawFn) -> bytes:
    if draw(st.integers(0, 9)) == 0:
        return draw(BAD_UTF8)
    return draw(TAGS).encode("utf-8")


@st.composite
def value_bytes(draw: st.DrawFn) -> bytes:
    tag = field(1, 2, draw(tag_bytes()))
    x = draw(FLOATS)
    choice = draw(st.integers(0, 6))
    if choice == 0:
        body = field(2, 5, struct.pack("<f", x))
    elif choice == 1:  # DT_FLOAT float_val, packed
        body = field(
            8, 2, field(1, 0, b"\x01") + field(2, 2, b"") + field(5, 2, struct.pack("<f", x))
        )
    elif choice == 2:  # DT_DOUBLE tensor_content
        body = field(8, 2, field(1, 0, b"\x02") + field(4, 2, struct.pack("<d", x)))
    elif choice == 3:  # DT_DOUBLE double_val, unpacked, with a version number
        body = field(
            8, 2, field(1, 0, b"\x02") + field(3, 0, b"\x05") + field(6, 1, struct.pack("<d", x))
        )
    elif choice == 4:  # a non-scalar tensor: falls back
        body = field(8, 2, field(1, 0, b"\x01") + field(2, 2, field(2, 2, field(1, 0, b"\x03"))))
    elif choice == 5:  # simple_value twice: the last wins
        body = field(2, 5, struct.pack("<f", 1.0)) + field(2, 5, struct.pack("<f", x))
    else:
        body = field(2, 5, struct.pack("<f", x)) + field(
            9, 2, field(1, 2, field(1, 2, b"scalars")) + field(2, 2, b"display")
        )
    parts = [tag, body]
    if draw(st.booleans()):
        parts.reverse()
    return b"".join(parts)


@st.composite
def event_bytes(draw: st.DrawFn) -> bytes:
    out = b""
    if draw(st.booleans()):
        out += field(1, 1, struct.pack("<d", draw(FLOATS)))
    if draw(st.booleans()):
        out += field(2, 0, varint(draw(st.sampled_from([0, 1, 300, 2**62, -1, -(2**63)]))))
    for _ in range(draw(st.integers(0, 2))):
        values = draw(st.lists(value_bytes(), max_size=3))
        out += field(5, 2, b"".join(field(1, 2, v) for v in values))
    if draw(st.integers(0, 8)) == 0:
        out += field(3, 2, b"brain.Event:2")  # file_version: falls back
    return out


def pack(payloads: list[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    starts, pos = [], 0
    for p in payloads:
        starts.append(pos)
        pos += len(p)
    buf = np.frombuffer(b"".join(payloads), np.uint8)
    return buf, np.array(starts, np.int64), np.array([len(p) for p in payloads], np.int64)


_ONEOF = {
    1: "simple_value",
    2: "tensor",
    3: "tensor",
    4: "tensor",
    5: "histo",
    6: "image",
    7: "audio",
}


def same_decodes(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> None:
    """The native decoder (scalars only, and with every value indexed) reads each record
    it handles as protobuf does; the scalar columns of both modes agree."""
    scalars = decode_scalars(buf, starts, lengths, kernels="native")
    events = decode_events(buf, starts, lengths, kernels="native")
    # a record the scalar mode handles is handled by the indexing mode, with the same values
    assert not (events.fallback & ~scalars.fallback).any()
    for out in (scalars, events):
        check_against_protobuf(buf, starts, lengths, out)


def check_against_protobuf(
    buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, out: object
) -> None:
    by_rec = np.searchsorted(out.rec, np.arange(len(starts) + 1))  # type: ignore[attr-defined]
    for r in np.flatnonzero(~out.fallback).tolist():  # type: ignore[attr-defined]
        event = Event.FromString(buf[starts[r] : starts[r] + lengths[r]].tobytes())
        assert event.WhichOneof("what") in (None, "summary")
        assert out.step[r] == event.step  # type: ignore[attr-defined]
        assert out.wall_time[r].tobytes() == np.float64(event.wall_time).tobytes()  # type: ignore[attr-defined]
        values = list(range(by_rec[r], by_rec[r + 1]))
        assert len(values) == len(event.summary.value)
        for i, (v, pv) in enumerate(zip(values, event.summary.value, strict=True)):
            code = int(out.dtype[v])  # type: ignore[attr-defined]
            assert out.tags[out.tag_id[v]] == pv.tag  # type: ignore[attr-defined]
            assert out.value_index[v] == i  # type: ignore[attr-defined]
            assert pv.WhichOneof("value") == _ONEOF[code]
            if pv.HasField("metadata"):
                s, n = out.meta_start[v], out.meta_len[v]  # type: ignore[attr-defined]
                assert SummaryMetadata.FromString(buf[s : s + n].tobytes()) == pv.metadata
            if code == 1:
                assert np.float64(out.value[v]).tobytes() == np.float64(pv.simple_value).tobytes()  # type: ignore[attr-defined]
            elif code >= 4:
                s, n = out.data_start[v], out.data_len[v]  # type: ignore[attr-defined]
                message = getattr(pv, _ONEOF[code])
                assert type(message).FromString(buf[s : s + n].tobytes()) == message


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(event_bytes(), max_size=20),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=3),
    st.integers(0, 10**6),
)
def test_decode_events_and_their_corruptions(
    events: list[bytes], flips: list[tuple[int, int]], cut: int
) -> None:
    buf, starts, lengths = pack(events)
    same_decodes(buf, starts, lengths)
    if buf.size:
        bad = buf.copy()
        for where, value in flips:
            bad[where % bad.size] = value
        same_decodes(bad, starts, lengths)
        # every record cut short by the same number of bytes
        same_decodes(buf, starts, np.maximum(lengths - (cut % 7), 0))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(summary_event(), max_size=8),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=2),
)
def test_decode_values_of_every_kind_and_their_corruptions(
    events: list[bytes], flips: list[tuple[int, int]]
) -> None:
    """Histograms, images, audio and tensors, well formed or not: every value the decoder
    indexes parses, from its span, to the message protobuf holds."""
    buf, starts, lengths = pack(events)
    same_decodes(buf, starts, lengths)
    if buf.size and flips:
        bad = buf.copy()
        for where, value in flips:
            bad[where % bad.size] = value
        same_decodes(bad, starts, lengths)


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=400),
    st.lists(st.tuples(st.integers(-5, 500), st.integers(-5, 500)), max_size=30),
)
def test_decode_random_bytes_and_positions(data: bytes, spans: list[tuple[int, int]]) -> None:
    """Any positions, even outside the buffer: those records fall back, nothing is read."""
    buf = np.frombuffer(data, np.uint8)
    starts = np.array([s for s, _ in spans], np.int64)
    lengths = np.array([n for _, n in spans], np.int64)
    same_decodes(buf, starts, lengths)


def test_decode_grows_its_value_columns_and_tag_table() -> None:
    """Many values per event (columns grow mid-record) and thousands of tags."""
    values = [
        field(1, 2, field(1, 2, f"tag{i % 3000}".encode()) + field(2, 5, struct.pack("<f", i)))
        for i in range(9000)
    ]
    events = [
        field(2, 0, varint(i)) + field(5, 2, b"".join(values[i * 300 : (i + 1) * 300]))
        for i in range(30)
    ]
    buf, starts, lengths = pack(events)
    same_decodes(buf, starts, lengths)
    out = kernels.decode_kernel(buf, starts, lengths)
    assert out[3].size == 9000
    assert out[9].size == 3000


# --- grouping -----------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.integers(0, 6), max_size=200),
    st.sampled_from([np.int8, np.int16, np.int32, np.int64]),
)
def test_count_and_scatter_equal_a_stable_sort(ids: list[int], code_dtype: type) -> None:
    tag_id = np.array(ids, np.int32)
    n = tag_id.size
    step, wall, value = np.arange(n, dtype=np.int64), np.arange(n) * 0.5, -np.arange(n) * 1.0
    codes = np.array([3, 1, 4, 1, 5, 9, 2], np.int64)
    counts = np.zeros(7, np.int64)
    kernels.count_tags(tag_id, counts)
    assert counts.tolist() == np.bincount(tag_id, minlength=7).tolist()
    cursor = 2 + np.cumsum(counts) - counts
    out = (np.zeros(n + 2, code_dtype), np.zeros(n + 2, np.int64), np.zeros(n + 2), np.zeros(n + 2))
    kernels.scatter_points(tag_id, step, wall, value, codes, cursor, *out)
    order = np.argsort(tag_id, kind="stable")  # the reference: numpy's stable sort
    expected = (codes[tag_id[order]].astype(code_dtype), step[order], wall[order], value[order])
    same_arrays(tuple(o[2:] for o in out), expected)
    assert cursor.tolist() == (2 + np.cumsum(counts)).tolist()


def test_wrong_arrays_are_refused_not_written_through() -> None:
    with pytest.raises(TypeError, match="tag_id must be a contiguous int32"):
        kernels.count_tags(np.zeros(3, np.int64), np.zeros(3, np.int64))
    with pytest.raises(TypeError, match="1-D uint8"):
        kernels.scan_kernel(np.zeros(3, np.int16), True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one length"):
        kernels.decode_kernel(np.zeros(3, np.uint8), np.zeros(2, np.int64), np.zeros(1, np.int64))


# --- real writers ---------------------------------------------------------------------


def _real_logdir(name: str) -> str:
    from tests import writers

    if name == "lightning":
        from tests.writers_lightning import cached_lightning

        return cached_lightning().logdir
    return writers.cached(name).logdir


@pytest.mark.parametrize("name", ["torch", "tensorboardX", "tf2", "keras", "lightning"])
def test_real_writer_files_scan_and_decode_identically(name: str) -> None:
    """Every event file of the real writers (torch, tensorboardX, TF2's wire format, Keras,
    a Lightning run): native and numpy give the same scans, the native decoder reads each
    record it handles as protobuf does and handles every summary record but hparams."""
    from tests import writers

    files = writers.event_files(_real_logdir(name))
    assert files
    handled = 0
    for path in files:
        buf = np.fromfile(path, np.uint8)
        same_scans(buf.tobytes())
        starts, lengths = kernels.scan_kernel(buf, True)[:2]
        same_decodes(buf, starts, lengths)
        handled += int((~kernels.decode_kernel(buf, starts, lengths, True)[0]).sum())
    assert handled > 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(summary_event(), min_size=1, max_size=6))
def test_value_decoders_on_every_indexed_message(events: list[bytes]) -> None:
    """The tensor, histogram and media decoders on every message the event decoder
    indexed, whatever its kind (the sanitizer run reads nothing outside them): each
    decoded histogram's edges and counts have the lengths its offsets say, a tensor's
    dims and strings lie inside its message."""
    buf, starts, lengths = pack(events)
    out = decode_events(buf, starts, lengths, kernels="native")
    spans = np.flatnonzero(out.dtype >= 4)
    start, length = out.data_start[spans], out.data_len[spans]
    code = out.dtype[spans]
    info, dims, strings = kernels.tensors_kernel(buf, start, length)
    if spans.size:
        assert dims.size == int((info[:, 2] + info[:, 1]).max())
        assert ((strings[:, 0] >= 0) & (strings.sum(axis=1) <= buf.size)).all()
    for raw in (False, True):
        _, status, edge_at, count_at, edges, counts, raw_at, limits, bucket = (
            kernels.histograms_kernel(buf, start, length, code, 8, raw)
        )
        ok = status == 0
        k = np.diff(count_at)
        assert (np.diff(edge_at)[ok] == np.where(k[ok] > 0, k[ok] + 1, 0)).all()
        assert (k[~ok] == 0).all()
        assert edges.size == edge_at[-1]
        assert counts.size == count_at[-1]
        if raw:
            assert limits.size == bucket.size == raw_at[-1]
    info = kernels.media_kernel(buf, start, length, code)
    for row, s, n in zip(info.tolist(), start.tolist(), length.tolist(), strict=True):
        assert row[4] == 0 or (s <= row[3] and row[3] + row[4] <= s + n)
    if spans.size:
        gathered = kernels.gather(buf, start, length)
        assert gathered.size == int(length.sum())


_SIGNATURES = [b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0", b"GIF87a", b"GIF89a", b"RIFF\0\0\0\0WEBP",
               b"RIFF\0\0\0\0WAVE", b"BM" + bytes(12), b" \t<svg", b"<?xml", b"ID3", b"OggS",
               b"\xff\xfb\x90", b"fLaC"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_SIGNATURES), st.integers(0, 16), st.binary(max_size=20))
def test_image_format_equals_python_on_every_prefix(
    signature: bytes, cut: int, tail: bytes
) -> None:
    """``tbnb_image_format`` names what :func:`tbnb.kinds.images.image_format` names:
    signatures, their prefixes (a JPEG's first two bytes alone are not a JPEG) and what
    follows them."""
    from tbnb.kinds.images import _FORMATS, image_format

    data = signature[:cut] + tail
    buf = np.frombuffer(b"x" + data + b"y", dtype=np.uint8)
    code = kernels.image_formats(buf, np.array([1]), np.array([len(data)]))[0]
    assert _FORMATS[code] == image_format(data), data
