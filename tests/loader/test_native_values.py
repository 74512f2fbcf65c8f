"""Every kind decoded natively equals the protobuf/numpy reference, frame for frame.

Event files of histograms (legacy and TF2), images, audio, text, PR curves and tensors,
well formed or not (tests/fuzz_values.py), and the same with flipped bytes, are loaded
with each backend: every frame is identical (values, dtypes, shapes, bits), and so are
the warnings. The real writers' files are compared the same way in
test_loader_writers.py; here, what no writer writes.
"""

from __future__ import annotations

import struct
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tbnb import native
from tbnb._proto import Event, HistogramProto
from tbnb.loader.experiment import Experiment
from tests import writers
from tests.fuzz_values import field, metadata, summary_event, summary_value, tensor, varint

pytestmark = pytest.mark.skipif(
    not native.available(), reason=f"native kernels not available: {native.problem()}"
)

KINDS = ("scalars", "histograms", "images", "audio", "text", "pr_curves", "tensors", "graphs")


def _write(directory: Path, payloads: list[bytes]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    head = Event(wall_time=1.0, file_version="brain.Event:2").SerializeToString()
    data = b"".join(writers.frame_record(p) for p in [head, *payloads])
    (directory / "events.out.tfevents.1.host").write_bytes(data)


def _loads(logdir: Path, **options: object) -> dict[str, Experiment]:
    out = {}
    for decoder in ("native", "numpy", "protobuf"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out[decoder] = Experiment(str(logdir), progress=False, decoder=decoder, **options)  # type: ignore[arg-type]
    return out


def assert_backends_agree(logdir: Path, **options: object) -> dict[str, Experiment]:
    loads = _loads(logdir, **options)
    reference = loads["protobuf"]
    for name in ("native", "numpy"):
        exp = loads[name]
        assert exp.last_report.decoders <= {name}
        assert exp.last_report.problems == reference.last_report.problems
        for kind in KINDS:
            writers.assert_frames_identical(exp.frame(kind), reference.frame(kind))
    return loads


def _event(*values: bytes, step: int = 0) -> bytes:
    """An event of ``values`` (``Summary.Value`` bodies)."""
    summary = b"".join(field(1, 2, v) for v in values)
    return field(1, 1, struct.pack("<d", 1.0)) + field(2, 0, varint(step)) + field(5, 2, summary)


def _tensor(dtype: int, shape: list[int], values: bytes = b"") -> bytes:
    dims = b"".join(field(2, 2, field(1, 0, varint(d))) for d in shape)
    return field(1, 0, varint(dtype)) + field(2, 2, dims) + values


# what the fuzzer found, always run
_JPEG_PREFIX = [_event(field(1, 2, b"i") + field(4, 2, field(4, 2, b"\xff\xd8x")))]
"""Two bytes of a JPEG signature are not a JPEG (the native format check said so)."""
_COMPLEX_SCALAR = [
    _event(
        field(1, 2, b"s")
        + field(9, 2, metadata("scalars"))
        + field(8, 2, _tensor(8, [], field(9, 2, struct.pack("<2f", 2.0, 1.0))))
    )
]
"""A complex scalar-plugin tensor is a tensor (it stopped the load)."""
_TENSOR_ORDER = [
    _event(
        field(1, 2, b"d") + field(8, 2, _tensor(1, [2, 0])),
        field(1, 2, b"r") + field(8, 2, _tensor(2, [], field(6, 1, struct.pack("<d", 3.0)))),
    ),
    _event(field(1, 2, b"d") + field(8, 2, _tensor(1, [2, 0])), step=1),
]
"""A rank-0 float tensor of no plugin after another tensor of its event: rows in the
event's order (the scalar decoder's tensors came first)."""
_BAD_PR_METADATA = [
    _event(
        field(1, 2, b"pr")
        + field(9, 2, metadata("pr_curves", b"\x08"))
        + field(8, 2, _tensor(1, [6, 1], field(4, 2, bytes(24))))
    )
]
"""PR-curve metadata that does not parse: a warning, not a failed load."""


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(summary_event(), min_size=1, max_size=12),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=2),
)
@example(_JPEG_PREFIX, [])
@example(_COMPLEX_SCALAR, [])
@example(_TENSOR_ORDER, [])
@example(_BAD_PR_METADATA, [])
def test_fuzzed_values_of_every_kind(
    tmp_path_factory: pytest.TempPathFactory, events: list[bytes], flips: list[tuple[int, int]]
) -> None:
    logdir = tmp_path_factory.mktemp("fuzz")
    if flips:
        flipped = []
        for payload in events:
            bad = bytearray(payload)
            for where, value in flips:
                bad[where % len(bad)] = value
            flipped.append(bytes(bad))
        events = flipped
    _write(logdir / "run", events)
    assert_backends_agree(logdir)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(summary_event(), min_size=1, max_size=8), st.booleans())
def test_fuzzed_values_with_filters_and_raw_buckets(
    tmp_path_factory: pytest.TempPathFactory, events: list[bytes], histograms_only: bool
) -> None:
    logdir = tmp_path_factory.mktemp("filters")
    _write(logdir / "run", events)
    options: dict[str, object] = {"tags": "^(a|b/)"}
    if histograms_only:
        options["event_types"] = ["histograms", "scalars"]
    assert_backends_agree(logdir, **options)


def test_one_tag_of_every_kind_in_one_record_and_across_windows(tmp_path: Path) -> None:
    """Values of several kinds in one event, repeated past a 4 MiB window, every row in
    stream order; a tag's metadata learnt from its first event only."""
    rng = np.random.default_rng(0)
    payloads = []
    for step in range(1200):
        values = [
            field(1, 2, b"loss") + field(2, 5, struct.pack("<f", float(rng.random()))),
            field(1, 2, b"w")
            + field(
                5,
                2,
                HistogramProto(
                    min=-1.0,
                    max=1.0,
                    num=10.0,
                    bucket_limit=[-0.5, 0.0, 0.5, 1.0],
                    bucket=[0.0, float(step), 3.0, 0.0],
                ).SerializeToString(),
            ),
            field(1, 2, b"big")
            + field(
                8,
                2,
                field(1, 0, b"\x02")
                + field(2, 2, field(2, 2, field(1, 0, b"\x80\x04")))
                + field(4, 2, rng.random(512).tobytes()),
            ),
        ]
        payload = field(1, 1, struct.pack("<d", 1.0 + step)) + field(2, 0, bytes([step % 100]))
        payload += field(5, 2, b"".join(field(1, 2, v) for v in values))
        payloads.append(payload)
    _write(tmp_path / "run", payloads)
    loads = assert_backends_agree(tmp_path)
    native_exp = loads["native"]
    assert len(native_exp.histograms) == len(native_exp.tensors) == 1200
    assert native_exp.last_report.protobuf_records == 1  # the file_version record
    assert native_exp.tensors["shape"].iloc[0] == (512,)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(["histograms", "pr_curves", "text", "images"]),
                          st.data()), min_size=1, max_size=6))  # fmt: skip
def test_plugin_tensors_first_declared_later(
    tmp_path_factory: pytest.TempPathFactory, plan: list[tuple[str, st.DataObject]]
) -> None:
    """A tag's values before and after the event declaring its plugin: its kind is the
    tag's (as TensorBoard decides), whichever backend reads it."""
    logdir = tmp_path_factory.mktemp("late")
    payloads = []
    for step, (plugin, data) in enumerate(plan):
        body = field(1, 2, b"t") + field(8, 2, data.draw(tensor(plugin)))
        if step == len(plan) // 2:
            body += field(9, 2, field(1, 2, field(1, 2, plugin.encode())))
        payloads.append(field(2, 0, bytes([step])) + field(5, 2, field(1, 2, body)))
    _write(logdir / "run", payloads)
    assert_backends_agree(logdir)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(summary_value(), min_size=1, max_size=5))
def test_many_values_in_one_event(
    tmp_path_factory: pytest.TempPathFactory, values: list[bytes]
) -> None:
    logdir = tmp_path_factory.mktemp("many")
    payload = field(2, 0, b"\x07") + field(5, 2, b"".join(field(1, 2, v) for v in values))
    _write(logdir / "run", [payload, payload])
    assert_backends_agree(logdir)
