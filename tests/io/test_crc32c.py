"""CRC32C against published vectors and two independent implementations.

Two of tbnb's own: one range by ``google-crc32c`` (or the table fallback without it) and
many ranges at once by numpy (:func:`crc32c_ranges`); the native kernels' CRC32C is tested
in tests/native.
"""

from __future__ import annotations

import struct

import crc32c as crc32c_pkg
import google_crc32c
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tbnb.io import crc32c as crc_module
from tbnb.io.crc32c import crc32c, crc32c_ranges, mask, masked_crc32c


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"", 0x00000000),
        (b"a", 0xC1D04330),
        (b"123456789", 0xE3069283),
        # RFC 3720 (iSCSI) appendix B.4
        (bytes(32), 0x8A9136AA),
        (b"\xff" * 32, 0x62A8AB43),
        (bytes(range(32)), 0x46DD794E),
        (bytes(range(31, -1, -1)), 0x113FDB5C),
    ],
)
def test_known_vectors(data: bytes, expected: int) -> None:
    assert crc32c(data) == expected
    assert crc_module._table_crc(data) == expected  # without google-crc32c
    arr = np.frombuffer(data, np.uint8)
    assert crc32c_ranges(arr, np.array([0]), np.array([len(data)])).tolist() == [expected]


def _reference_mask(crc: int) -> int:
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def test_masked_matches_tfrecord_definition() -> None:
    for data in (b"", b"x", struct.pack("<Q", 123456), bytes(range(200))):
        assert masked_crc32c(data) == _reference_mask(crc32c_pkg.crc32c(data))


def test_masked_header_of_real_tfrecord() -> None:
    # The first record of every event file: length 24 ("brain.Event:2" event).
    header = bytes.fromhex("1800000000000000a37f4b22")
    assert masked_crc32c(header[:8]) == struct.unpack("<I", header[8:])[0]


def test_random_data_all_lengths_and_alignments() -> None:
    rng = np.random.default_rng(1)
    data = rng.integers(0, 256, 4096 + 64, dtype=np.uint8)
    raw = data.tobytes()
    for start in range(9):
        for length in [*range(70), 255, 256, 257, 1000, 4095, 4096]:
            chunk = raw[start : start + length]
            expected = crc32c_pkg.crc32c(chunk)
            assert crc32c(chunk) == expected
            assert crc32c_ranges(data, np.array([start]), np.array([length]))[0] == expected
            assert google_crc32c.value(chunk) == expected


def test_many_ranges_at_once_short_and_long() -> None:
    rng = np.random.default_rng(3)
    data = rng.integers(0, 256, 20_000, dtype=np.uint8)
    raw = data.tobytes()
    starts = rng.integers(0, 10_000, 3000)
    lengths = np.concatenate([rng.integers(0, 80, 2000), rng.integers(0, 9000, 1000)])
    got = crc32c_ranges(data, starts, lengths)
    assert got.dtype == np.uint32
    assert got.tolist() == [
        crc32c_pkg.crc32c(raw[s : s + n])
        for s, n in zip(starts.tolist(), lengths.tolist(), strict=True)
    ]
    assert crc32c_ranges(data, starts, lengths, raw).tolist() == got.tolist()
    assert mask(got).tolist() == [_reference_mask(int(c)) for c in got]
    assert crc32c_ranges(data, starts[:0], lengths[:0]).size == 0


def test_large_buffer_and_input_types() -> None:
    rng = np.random.default_rng(2)
    data = rng.integers(0, 256, 3_000_001, dtype=np.uint8)
    expected = crc32c_pkg.crc32c(data.tobytes())
    assert crc32c(data) == expected
    assert crc32c(data.tobytes()) == expected
    assert crc32c(bytearray(data.tobytes())) == expected
    assert crc32c(memoryview(data.tobytes())) == expected
    # Non-uint8 arrays are checksummed over their raw bytes.
    assert crc32c(data[:3_000_000].view(np.float64)) == crc32c_pkg.crc32c(
        data[:3_000_000].tobytes()
    )


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000), st.integers(0, 2000))
def test_matches_reference_and_chains(data: bytes, cut: int) -> None:
    arr = np.frombuffer(data, dtype=np.uint8)
    cut = min(cut, len(data))
    assert crc32c(data) == crc32c_pkg.crc32c(data) == google_crc32c.value(data)
    assert crc32c_ranges(
        arr, np.array([0, cut]), np.array([len(data), len(data) - cut])
    ).tolist() == [crc32c(data), crc32c(data[cut:])]
    assert masked_crc32c(data) == _reference_mask(crc32c(data))
