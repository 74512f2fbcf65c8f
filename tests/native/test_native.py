"""The native C kernels return exactly what the numba kernels return, bit for bit.

Every output array (dtype, shape, bytes), problem list and interned tag order of the
scan, the scalar decoder and the grouping kernels is compared on random bytes, on
event streams built field by field (NaN, infinities, -0.0, huge varints, invalid
UTF-8, metadata), and on the same corrupted by truncation, flipped bytes, bad CRCs
and huge lengths, and on every event file of the real writers (torch, tensorboardX,
TF2, Keras, Lightning). The decoder tests against protobuf (tests/decode) and the loader
tests against TensorBoard's reader (tests/loader) run the native kernels too.
"""

from __future__ import annotations

import struct

import crc32c as crc32c_pkg
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tbnb import native
from tbnb.decode.compiled.group import count_tags as numba_count_tags
from tbnb.decode.compiled.group import scatter_points as numba_scatter_points
from tbnb.decode.compiled.scalars import decode_kernel as numba_decode
from tbnb.io.compiled.records import scan_kernel as numba_scan
from tbnb.io.crc32c import crc32c as tbnb_crc32c
from tbnb.io.crc32c import masked_crc32c
from tbnb.native import kernels

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
    arr = np.frombuffer(buf, np.uint8)
    for verify in (True, False):
        same_arrays(kernels.scan_kernel(arr, verify), numba_scan(arr, verify))


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


def varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def field(number: int, wire: int, body: bytes) -> bytes:
    key = varint(number << 3 | wire)
    return key + (varint(len(body)) + body if wire == 2 else body)


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


def same_decodes(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> None:
    same_arrays(kernels.decode_kernel(buf, starts, lengths), numba_decode(buf, starts, lengths))


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
def test_count_and_scatter_equal_numba(ids: list[int], code_dtype: type) -> None:
    tag_id = np.array(ids, np.int32)
    n = tag_id.size
    step, wall, value = np.arange(n, dtype=np.int64), np.arange(n) * 0.5, -np.arange(n) * 1.0
    codes = np.array([3, 1, 4, 1, 5, 9, 2], np.int64)
    results = []
    for count, scatter in (
        (kernels.count_tags, kernels.scatter_points),
        (numba_count_tags, numba_scatter_points),
    ):
        counts = np.zeros(7, np.int64)
        count(tag_id, counts)
        cursor = 2 + np.cumsum(counts) - counts
        out = (
            np.zeros(n + 2, code_dtype),
            np.zeros(n + 2, np.int64),
            np.zeros(n + 2),
            np.zeros(n + 2),
        )
        scatter(tag_id, step, wall, value, codes, cursor, *out)
        results.append((counts, cursor, *out))
    same_arrays(tuple(results[0]), tuple(results[1]))


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
    a Lightning run): native and numba give the same scans and decoder columns, and the
    native decoder handles their scalar records (none falls back to protobuf that numba
    handles)."""
    from tests import writers

    files = writers.event_files(_real_logdir(name))
    assert files
    handled = 0
    for path in files:
        buf = np.fromfile(path, np.uint8)
        same_scans(buf.tobytes())
        starts, lengths = kernels.scan_kernel(buf, True)[:2]
        same_decodes(buf, starts, lengths)
        handled += int((~kernels.decode_kernel(buf, starts, lengths)[0]).sum())
    assert handled > 0
