"""TFRecord framing: real writers' files, truncation and resume, corruption and resync."""

from __future__ import annotations

import os
import struct
import threading
from pathlib import Path

import crc32c as crc32c_pkg
import fsspec
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tbnb._proto import Event
from tbnb.io.local import NotRegularFileError
from tbnb.io.records import RecordProblem, read_from, scan_records


def _masked(data: bytes) -> int:
    crc = crc32c_pkg.crc32c(data)
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def frame(data: bytes) -> bytes:
    """One TFRecord, framed with an independent CRC32C implementation."""
    head = struct.pack("<Q", len(data))
    return head + struct.pack("<I", _masked(head)) + data + struct.pack("<I", _masked(data))


def reference_records(buf: bytes) -> list[tuple[int, int]]:
    """(record start, payload length) of each record in a clean, complete file."""
    out, pos = [], 0
    while pos < len(buf):
        (length,) = struct.unpack_from("<Q", buf, pos)
        assert struct.unpack_from("<I", buf, pos + 8)[0] == _masked(buf[pos : pos + 8])
        data = buf[pos + 12 : pos + 12 + length]
        assert struct.unpack_from("<I", buf, pos + 12 + length)[0] == _masked(data)
        out.append((pos, length))
        pos += 16 + length
    return out


BOTH = pytest.mark.parametrize("kernels", ["numpy", "native"])
"""Every scan test runs the numpy and the native implementations."""


def assert_same_scans(buf: bytes, verify: bool) -> None:
    """The numpy and native scans of ``buf`` are identical."""
    a = scan_records(buf, verify_crc=verify, base_offset=7)
    for kernels in ("native",):
        b = scan_records(buf, verify_crc=verify, base_offset=7, kernels=kernels)
        assert a.starts.tolist() == b.starts.tolist()
        assert a.lengths.tolist() == b.lengths.tolist()
        assert (a.end, a.problems) == (b.end, b.problems)


def payloads(buf: bytes, scan_starts: np.ndarray, scan_lengths: np.ndarray) -> list[bytes]:
    return [buf[s : s + n] for s, n in zip(scan_starts, scan_lengths, strict=True)]


@pytest.fixture(scope="module")
def rec_small() -> tuple[bytes, list[bytes]]:
    datas = [
        Event(wall_time=1.5 + i, step=i, file_version=f"v{i}" * i).SerializeToString()
        for i in range(6)
    ]
    return b"".join(frame(d) for d in datas), datas


@pytest.mark.parametrize("fixture", ["rec_tbx_file", "rec_torch_file"])
@BOTH
def test_real_writers(kernels: str, fixture: str, request: pytest.FixtureRequest) -> None:
    path = request.getfixturevalue(fixture)
    buf = Path(path).read_bytes()
    scan = scan_records(buf, kernels=kernels)
    ref = reference_records(buf)
    assert scan.problems == []
    assert scan.end == len(buf)
    assert scan.starts.dtype == np.int64
    assert scan.lengths.dtype == np.int64
    assert [int(s) for s in scan.starts] == [p + 12 for p, _ in ref]
    assert [int(n) for n in scan.lengths] == [n for _, n in ref]
    events = [Event.FromString(p) for p in payloads(buf, scan.starts, scan.lengths)]
    assert events[0].file_version == "brain.Event:2"
    assert sum(len(e.summary.value) for e in events) > 20
    # The same through read_from with an offset (the resume path).
    second = int(scan.starts[1]) - 12
    rest = read_from(path, second)
    assert rest == buf[second:]
    assert len(scan_records(rest, base_offset=second, kernels=kernels).starts) == len(ref) - 1


@BOTH
def test_empty_and_header_only(kernels: str) -> None:
    empty = scan_records(b"", kernels=kernels)
    assert (len(empty.starts), empty.end, empty.problems) == (0, 0, [])
    header = frame(b"x" * 10)[:12]
    scan = scan_records(header, kernels=kernels)
    assert (len(scan.starts), scan.end, scan.problems) == (0, 0, [])


@BOTH
def test_every_truncation_point_then_resume(
    kernels: str,
    rec_small: tuple[bytes, list[bytes]],
) -> None:
    buf, datas = rec_small
    bounds = np.cumsum([0] + [16 + len(d) for d in datas])
    for cut in range(len(buf) + 1):
        complete = int(np.searchsorted(bounds, cut, side="right")) - 1
        scan = scan_records(buf[:cut], kernels=kernels)
        assert scan.problems == []
        assert scan.end == bounds[complete]
        assert payloads(buf, scan.starts, scan.lengths) == datas[:complete]
        # The writer appends the rest; the reader resumes at `end`.
        rest = scan_records(buf[scan.end :], base_offset=scan.end, kernels=kernels)
        assert rest.problems == []
        assert rest.end == len(buf) - scan.end
        assert payloads(buf[scan.end :], rest.starts, rest.lengths) == datas[complete:]


@BOTH
def test_bad_data_crc_skips_only_that_record(
    kernels: str,
    rec_small: tuple[bytes, list[bytes]],
) -> None:
    buf, datas = rec_small
    start = 16 + len(datas[0])  # record 1
    crc_at = start + 12 + len(datas[1])
    bad = bytearray(buf)
    bad[crc_at] ^= 0x01
    scan = scan_records(bad, base_offset=1000, kernels=kernels)
    assert scan.problems == [RecordProblem(1000 + start, "data_crc", 16 + len(datas[1]))]
    assert payloads(buf, scan.starts, scan.lengths) == [datas[0], *datas[2:]]
    assert scan.end == len(buf)


@BOTH
def test_flipped_payload_bit(kernels: str, rec_small: tuple[bytes, list[bytes]]) -> None:
    buf, datas = rec_small
    start = 16 + len(datas[0]) + 16 + len(datas[1])  # record 2
    bad = bytearray(buf)
    bad[start + 12 + 3] ^= 0x40
    scan = scan_records(bad, kernels=kernels)
    assert [(p.offset, p.kind) for p in scan.problems] == [(start, "data_crc")]
    assert payloads(buf, scan.starts, scan.lengths) == [*datas[:2], *datas[3:]]
    # Without data CRCs the flipped record is returned as is.
    loose = scan_records(bad, verify_crc=False, kernels=kernels)
    assert loose.problems == []
    assert len(loose.starts) == len(datas)
    assert bytes(bad[loose.starts[2] : loose.starts[2] + loose.lengths[2]]) != datas[2]


@pytest.mark.parametrize("byte", [0, 3, 7, 8, 11])
@BOTH
def test_bad_length_crc_resynchronises(
    kernels: str,
    rec_small: tuple[bytes, list[bytes]],
    byte: int,
) -> None:
    buf, datas = rec_small
    start = 16 + len(datas[0]) + 16 + len(datas[1])  # record 2
    bad = bytearray(buf)
    bad[start + byte] ^= 0x10
    for verify in (True, False):
        scan = scan_records(bad, verify_crc=verify, kernels=kernels)
        assert scan.problems == [RecordProblem(start, "length_crc", 16 + len(datas[2]))]
        assert payloads(buf, scan.starts, scan.lengths) == [*datas[:2], *datas[3:]]
        assert scan.end == len(buf)


@BOTH
def test_garbage_between_records(kernels: str, rec_small: tuple[bytes, list[bytes]]) -> None:
    buf, datas = rec_small
    start = 16 + len(datas[0])
    garbage = np.random.default_rng(3).integers(0, 256, 777, dtype=np.uint8).tobytes()
    bad = buf[:start] + garbage + buf[start:]
    scan = scan_records(bad, kernels=kernels)
    assert scan.problems == [RecordProblem(start, "length_crc", len(garbage))]
    assert payloads(bad, scan.starts, scan.lengths) == datas


@BOTH
def test_garbage_at_end_keeps_a_late_record_possible(
    kernels: str,
    rec_small: tuple[bytes, list[bytes]],
) -> None:
    buf, datas = rec_small
    bad = buf + b"\x01" * 40
    scan = scan_records(bad, kernels=kernels)
    assert scan.problems == [RecordProblem(len(buf), "length_crc", 40 - 11)]
    assert scan.end == len(bad) - 11
    assert payloads(bad, scan.starts, scan.lengths) == datas


@BOTH
def test_resync_onto_a_record_still_being_written(
    kernels: str,
    rec_small: tuple[bytes, list[bytes]],
) -> None:
    buf, datas = rec_small
    bad = b"junk" + buf[:-5]  # the last record's data is incomplete
    scan = scan_records(bad, kernels=kernels)
    assert scan.problems == [RecordProblem(0, "length_crc", 4)]
    assert payloads(bad, scan.starts, scan.lengths) == datas[:-1]
    assert scan.end == len(bad) - (16 + len(datas[-1]) - 5)


@BOTH
def test_text_file_named_like_an_event_file(kernels: str, tmp_path: Path) -> None:
    path = tmp_path / "events.out.tfevents.123.host"
    path.write_text("This is not an event file.\n" * 200)
    buf = read_from(str(path), 0)
    scan = scan_records(buf, kernels=kernels)
    assert len(scan.problems) == 1
    assert scan.problems[0].kind == "length_crc"
    assert len(scan.starts) == 0
    assert scan.end == len(buf) - 11
    again = scan_records(read_from(str(path), scan.end), base_offset=scan.end)
    assert (len(again.starts), again.end, again.problems) == (0, 0, [])


@BOTH
def test_three_megabyte_record(kernels: str, rec_big_image_file: str) -> None:
    buf = read_from(rec_big_image_file, 0)
    scan = scan_records(buf, kernels=kernels)
    assert scan.problems == []
    assert int(scan.lengths.max()) > 3_000_000
    big = int(np.argmax(scan.lengths))
    event = Event.FromString(buf[scan.starts[big] : scan.starts[big] + scan.lengths[big]])
    assert len(event.summary.value[0].image.encoded_image_string) > 3_000_000
    # Truncated anywhere inside the big record: stop before it, resume later.
    cut = int(scan.starts[big]) + 1_500_000
    head = scan_records(buf[:cut], kernels=kernels)
    assert head.end == int(scan.starts[big]) - 12
    assert len(head.starts) == big


@BOTH
def test_input_types(kernels: str, rec_small: tuple[bytes, list[bytes]]) -> None:
    buf, datas = rec_small
    for form in (buf, bytearray(buf), memoryview(buf), np.frombuffer(buf, np.uint8)):
        scan = scan_records(form, kernels=kernels)
        assert payloads(buf, scan.starts, scan.lengths) == datas


def test_read_from_fsspec_memory(rec_small: tuple[bytes, list[bytes]]) -> None:
    buf, _ = rec_small
    url = "memory://tbnb-records-test/run/events.out.tfevents.1.host"
    with fsspec.open(url, "wb") as f:
        f.write(buf)
    assert read_from(url, 0) == buf
    assert read_from(url, 30) == buf[30:]
    assert read_from(url, len(buf)) == b""
    fs = fsspec.filesystem("memory")
    assert read_from("/tbnb-records-test/run/events.out.tfevents.1.host", 5, fs=fs) == buf[5:]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_read_from_refuses_a_fifo_swapped_in(
    tmp_path: Path, rec_small: tuple[bytes, list[bytes]]
) -> None:
    """An event file replaced by a FIFO (or a device) between listing and reading is
    refused at once, naming it, never waited on (a reload would hang on it)."""
    buf, _ = rec_small
    path = tmp_path / "events.out.tfevents.1.host"
    path.write_bytes(buf)
    assert read_from(str(path), 0) == buf
    path.unlink()
    os.mkfifo(path)
    outcome: list[BaseException | bytes] = []

    def read(fs: object) -> None:
        try:
            outcome.append(read_from(str(path), 0, fs=fs))
        except BaseException as error:
            outcome.append(error)

    for fs in (None, fsspec.filesystem("file")):
        reader = threading.Thread(target=read, args=(fs,), daemon=True)
        reader.start()
        reader.join(timeout=10)
        assert not reader.is_alive(), "read_from waited on a FIFO"
        error = outcome.pop()
        assert isinstance(error, NotRegularFileError), error
        assert str(path) in str(error)
        assert "FIFO" in str(error)
    for device in ("/dev/zero", "/dev/urandom"):
        if os.path.exists(device):
            with pytest.raises(NotRegularFileError, match="device"):
                read_from(device, 0)


def _check_invariants(buf: bytes, verify: bool, kernels: str) -> None:
    scan = scan_records(buf, verify_crc=verify, kernels=kernels)
    assert 0 <= scan.end <= len(buf)
    prev_end = 0
    for start, length in zip(scan.starts, scan.lengths, strict=True):
        s, n = int(start), int(length)
        assert s - 12 >= prev_end
        assert s + n + 4 <= scan.end
        assert struct.unpack_from("<I", buf, s - 4)[0] == _masked(buf[s - 12 : s - 4])
        if verify:
            assert struct.unpack_from("<I", buf, s + n)[0] == _masked(buf[s : s + n])
        prev_end = s + n + 4
    offsets = [p.offset for p in scan.problems]
    assert offsets == sorted(offsets)
    assert all(p.skipped > 0 for p in scan.problems)
    # Whatever is left unconsumed rescans without repeating records already returned.
    rest = scan_records(buf[scan.end :], kernels=kernels)
    assert rest.end <= len(buf) - scan.end


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000), st.booleans())
@BOTH
def test_fuzz_random_bytes(kernels: str, data: bytes, verify: bool) -> None:
    _check_invariants(data, verify, kernels)


_FIXTURE_OK = [HealthCheck.function_scoped_fixture]


@settings(max_examples=300, deadline=None, suppress_health_check=_FIXTURE_OK)
@given(
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), min_size=1, max_size=4),
    st.binary(max_size=40),
    st.integers(0, 10**6),
)
@BOTH
def test_fuzz_mutated_file(
    kernels: str,
    rec_small: tuple[bytes, list[bytes]],
    edits: list[tuple[int, int]],
    insert: bytes,
    insert_at: int,
) -> None:
    buf, _ = rec_small
    bad = bytearray(buf)
    for where, value in edits:
        bad[where % len(bad)] = value
    at = insert_at % (len(bad) + 1)
    bad[at:at] = insert
    for verify in (True, False):
        _check_invariants(bytes(bad), verify, kernels)
        assert_same_scans(bytes(bad), verify)


@settings(max_examples=200, deadline=None, suppress_health_check=_FIXTURE_OK)
@given(st.integers(0, 10**6), st.integers(1, 255))
@BOTH
def test_one_corrupt_byte_loses_at_most_its_record(
    kernels: str, rec_small: tuple[bytes, list[bytes]], where: int, xor: int
) -> None:
    buf, datas = rec_small
    where %= len(buf)
    bad = bytearray(buf)
    bad[where] ^= xor
    scan = scan_records(bad, kernels=kernels)
    got = payloads(bytes(bad), scan.starts, scan.lengths)
    bounds = np.cumsum([0] + [16 + len(d) for d in datas])
    hit = int(np.searchsorted(bounds, where, side="right")) - 1
    assert got == datas[:hit] + datas[hit + 1 :]
    assert len(scan.problems) == 1
    assert scan.problems[0].offset == bounds[hit]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=60).map(frame),
            st.binary(max_size=30),
            st.binary(min_size=1, max_size=60).map(lambda d: frame(d)[:-3]),
            st.binary(min_size=1, max_size=60).map(lambda d: frame(d)[:5] + b"\xff" + frame(d)[6:]),
        ),
        max_size=12,
    ),
    st.booleans(),
)
def test_numpy_and_native_scans_agree(pieces: list[bytes], verify: bool) -> None:
    """Records, garbage, cut records and bad headers in any order: the same scans."""
    assert_same_scans(b"".join(pieces), verify)


def test_numpy_scan_of_a_large_corrupt_region() -> None:
    """Resynchronising over megabytes of garbage, chunk by chunk, finds the next record."""
    garbage = np.random.default_rng(4).integers(0, 256, 3_000_000, dtype=np.uint8).tobytes()
    buf = frame(b"a" * 10) + garbage + frame(b"b" * 20) + frame(b"c")[:9]
    assert_same_scans(buf, True)
    scan = scan_records(buf)
    assert [p.kind for p in scan.problems] == ["length_crc"]
    assert scan.lengths.tolist() == [10, 20]
