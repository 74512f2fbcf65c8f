"""The scalar decoders (numpy and native) agree exactly with protobuf, or fall back.

Every test runs every decoder. The native one (C) parses the general field shapes; the
numpy one only the writers' exact one-scalar layouts (everything else goes to protobuf),
so their coverage differs where noted.
"""

from __future__ import annotations

import glob
import math
import os
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tbnb._proto import Event, Summary, SummaryMetadata, TensorProto
from tbnb.decode.scalars import FastScalars, decode_scalars
from tbnb.io.records import scan_records

DT_FLOAT, DT_DOUBLE = 1, 2

pytestmark = pytest.mark.parametrize("kernels", ["numpy", "native"])


# --- helpers ----------------------------------------------------------------------


def event_files(directory: str | Path) -> list[str]:
    return sorted(glob.glob(os.path.join(str(directory), "**", "*tfevents*"), recursive=True))


def load(path: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    buf = np.fromfile(path, dtype=np.uint8)
    scan = scan_records(buf)
    assert scan.problems == []
    return buf, scan.starts, scan.lengths


def pack(payloads: list[bytes]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Payloads laid out back to back (with a gap, so no record touches the next)."""
    lengths = np.array([len(p) for p in payloads], dtype=np.int64)
    starts = np.cumsum(np.concatenate([[3], lengths[:-1] + 5])) if payloads else lengths
    buf = np.zeros(int(starts[-1] + lengths[-1] + 3) if payloads else 0, dtype=np.uint8)
    for s, p in zip(starts, payloads, strict=True):
        buf[s : s + len(p)] = np.frombuffer(p, np.uint8)
    return buf, starts.astype(np.int64), lengths


def expected_value(value: object) -> tuple[float, int] | None:
    """(value, dtype code) as the fast path must report it, or None if not a plain scalar."""
    kind = value.WhichOneof("value")  # type: ignore[attr-defined]
    if kind == "simple_value":
        return float(value.simple_value), 1  # type: ignore[attr-defined]
    if kind != "tensor":
        return None
    t = value.tensor  # type: ignore[attr-defined]
    if t.tensor_shape.dim or t.tensor_shape.unknown_rank:
        return None
    if t.dtype == DT_FLOAT and not t.double_val:
        if t.tensor_content and not t.float_val and len(t.tensor_content) == 4:
            return float(np.frombuffer(t.tensor_content, "<f4")[0]), 2
        if not t.tensor_content and len(t.float_val) == 1:
            return float(t.float_val[0]), 2
    if t.dtype == DT_DOUBLE and not t.float_val:
        if t.tensor_content and not t.double_val and len(t.tensor_content) == 8:
            return float(np.frombuffer(t.tensor_content, "<f8")[0]), 3
        if not t.tensor_content and len(t.double_val) == 1:
            return float(t.double_val[0]), 3
    return None


def same_float(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b and math.copysign(1, a) == math.copysign(1, b)


def check_against_protobuf(
    buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray, out: FastScalars
) -> int:
    """Every record the fast path handled decodes identically with protobuf.

    Returns the number of handled records.
    """
    n = len(starts)
    assert out.fallback.shape == out.wall_time.shape == out.step.shape == (n,)
    assert out.rec.dtype == np.int64
    assert out.tag_id.dtype == np.int32
    assert out.value.dtype == np.float64
    assert out.dtype.dtype == np.int8
    assert out.wall_time.dtype == np.float64
    assert out.step.dtype == np.int64
    assert np.all(np.diff(out.rec) >= 0)
    assert not out.fallback[out.rec].any()
    assert len(set(out.tags)) == len(out.tags)
    assert set(out.tag_id.tolist()) == set(range(len(out.tags)))
    by_rec = np.searchsorted(out.rec, np.arange(n + 1))
    for r in np.flatnonzero(~out.fallback):
        payload = buf[starts[r] : starts[r] + lengths[r]].tobytes()
        event = Event.FromString(payload)  # must not raise
        assert event.WhichOneof("what") in (None, "summary")
        assert not event.HasField("source_metadata")
        assert same_float(out.wall_time[r], event.wall_time)
        assert out.step[r] == event.step
        vals = range(by_rec[r], by_rec[r + 1])
        assert len(vals) == len(event.summary.value)
        for v, pv in zip(vals, event.summary.value, strict=True):
            assert not pv.node_name
            exp = expected_value(pv)
            assert exp is not None
            assert same_float(out.value[v], exp[0])
            assert out.dtype[v] == exp[1]
            assert out.tags[out.tag_id[v]] == pv.tag
            if pv.HasField("metadata"):
                m = buf[out.meta_start[v] : out.meta_start[v] + out.meta_len[v]].tobytes()
                assert SummaryMetadata.FromString(m) == pv.metadata
            else:
                assert out.meta_start[v] == -1
    return int((~out.fallback).sum())


def count_scalar_values(buf: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> int:
    total = 0
    for s, n in zip(starts, lengths, strict=True):
        event = Event.FromString(buf[s : s + n].tobytes())
        if event.WhichOneof("what") == "summary":
            total += sum(expected_value(v) is not None for v in event.summary.value)
    return total


def decode_file(path: str, kernels: str) -> tuple[FastScalars, np.ndarray, np.ndarray, np.ndarray]:
    buf, starts, lengths = load(path)
    out = decode_scalars(buf, starts, lengths, kernels=kernels)
    check_against_protobuf(buf, starts, lengths, out)
    return out, buf, starts, lengths


# --- real writers ------------------------------------------------------------------


def test_tensorboardx_file(rec_tbx_file: str, kernels: str) -> None:
    out, buf, starts, lengths = decode_file(rec_tbx_file, kernels)
    assert count_scalar_values(buf, starts, lengths) == 64
    assert out.fallback[0]  # file_version
    events = [
        Event.FromString(buf[s : s + n].tobytes()) for s, n in zip(starts, lengths, strict=True)
    ]
    for event, fb in zip(events, out.fallback, strict=True):
        kinds = [v.WhichOneof("value") for v in event.summary.value]
        simple = event.WhichOneof("what") == "summary" and set(kinds) == {"simple_value"}
        assert fb == (not simple if kernels != "numpy" else kinds != ["simple_value"])
    if kernels == "numpy":  # the one event of four values goes to protobuf
        assert len(out.value) == 60
        return
    assert len(out.value) == 64
    counts = np.bincount(out.rec, minlength=len(starts))
    (multi,) = np.flatnonzero(counts > 1)
    assert out.step[multi] == 6
    assert [out.tags[t] for t in out.tag_id[out.rec == multi]] == [f"multi/{i}" for i in range(4)]
    assert set(out.tags) == {"train/loss", "lr", *(f"multi/{i}" for i in range(4))}


def test_torch_file(rec_torch_file: str, kernels: str) -> None:
    out, _buf, starts, _lengths = decode_file(rec_torch_file, kernels)
    assert len(out.value) == 25
    assert out.tags == ["loss"]
    assert np.array_equal(out.value, np.float32(2.0 - np.arange(25) / 10).astype(np.float64))
    assert out.fallback.sum() == len(starts) - 25


def test_tensorboardx_add_scalars(tmp_path: Path, kernels: str) -> None:
    from tensorboardX import SummaryWriter

    writer = SummaryWriter(str(tmp_path))
    for step in range(10):
        writer.add_scalars("grp", {"a": step, "b": -step, "c d": 0.5}, step)
    writer.close()
    files = event_files(tmp_path)
    assert len(files) == 4  # the main file plus one per key
    total = 0
    for path in files:
        out, buf, starts, lengths = decode_file(path, kernels)
        total += len(out.value)
        assert len(out.value) == count_scalar_values(buf, starts, lengths)
    assert total == 30


def test_torch_new_style_and_special_values(tmp_path: Path, kernels: str) -> None:
    from torch.utils.tensorboard import SummaryWriter

    writer = SummaryWriter(str(tmp_path))
    specials = [math.nan, math.inf, -math.inf, 1e300, -0.0, 1e-310, 3.3]
    steps = [-5, 0, 2**40, -(2**40), 2**62, 7, 8]
    tags = ["ünï cødé/λ", "with space", "new\nline", "", "tab\tx", "😀", "a/b/c"]
    for i, (value, step, tag) in enumerate(zip(specials, steps, tags, strict=True)):
        writer.add_scalar(tag, value, step)
        writer.add_scalar(tag + "/f", value, step, new_style=True)
        writer.add_scalar(tag + "/d", value, step, new_style=True, double_precision=True)
        writer.add_scalar(tag, value, step, walltime=1e9 + i / 7)
    writer.close()
    (path,) = event_files(tmp_path)
    out, _buf, _starts, _lengths = decode_file(path, kernels)
    assert set(out.dtype.tolist()) == {1, 2, 3}
    if kernels == "numpy":  # protobuf leaves an empty tag out: not a layout the numpy one reads
        assert len(out.value) == 4 * len(specials) - 2
        assert set(out.tags) == {t + s for t in tags for s in ("", "/f", "/d")} - {""}
        return
    assert len(out.value) == 4 * len(specials)
    assert set(out.tags) == {t + s for t in tags for s in ("", "/f", "/d")}
    doubles = out.value[out.dtype == 3]
    assert 1e300 in doubles
    assert 1e-310 in doubles
    assert np.isnan(doubles).sum() == 1
    assert set(out.step[out.rec].tolist()) == set(steps)


def test_tensorboard_tf2_scalar_pb(tmp_path: Path, kernels: str) -> None:
    from tensorboard.compat.proto.event_pb2 import Event as TbEvent
    from tensorboard.compat.proto.summary_pb2 import Summary as TbSummary
    from tensorboard.plugins.scalar.summary_v2 import scalar_pb
    from tensorboard.summary.writer.event_file_writer import EventFileWriter
    from tensorboard.util import tensor_util

    writer = EventFileWriter(str(tmp_path))
    for step in range(40):
        summary = scalar_pb("epoch_loss", 1.0 / (step + 1))
        writer.add_event(TbEvent(wall_time=1.6e9 + step, step=step, summary=summary))
    double = TbSummary(
        value=[TbSummary.Value(tag="d", tensor=tensor_util.make_tensor_proto(np.float64(1e300)))]
    )
    writer.add_event(TbEvent(wall_time=1.0, step=2**40, summary=double))
    several = TbSummary(value=[*scalar_pb("x", 1.0).value, *scalar_pb("y", 2.0).value])
    writer.add_event(TbEvent(step=-3, summary=several))
    writer.close()
    (path,) = event_files(tmp_path)
    out, buf, _starts, _lengths = decode_file(path, kernels)
    if kernels != "numpy":
        assert out.fallback.tolist() == [True] + [False] * 42
        assert len(out.value) == 43
        assert out.tags == ["epoch_loss", "d", "x", "y"]
    else:  # the event of two values goes to protobuf
        assert out.fallback.tolist() == [True] + [False] * 41 + [True]
        assert out.tags == ["epoch_loss", "d"]
    assert (out.meta_start[out.tag_id == 0] >= 0).all()
    meta = SummaryMetadata.FromString(
        buf[out.meta_start[0] : out.meta_start[0] + out.meta_len[0]].tobytes()
    )
    assert meta.plugin_data.plugin_name == "scalars"


def test_non_scalar_records_fall_back(tmp_path: Path, kernels: str) -> None:
    from tensorboardX import SummaryWriter

    writer = SummaryWriter(str(tmp_path))
    writer.add_histogram("h", np.arange(10.0), 0)
    writer.add_image("i", np.zeros((3, 4, 4), dtype=np.uint8), 0)
    writer.add_text("t", "hello", 0)
    writer.add_pr_curve("pr", np.array([0, 1, 1]), np.array([0.1, 0.6, 0.9]), 0)
    writer.add_embedding(np.zeros((3, 2)), global_step=0)
    writer.close()
    writer = SummaryWriter(str(tmp_path), purge_step=5)  # writes a SessionLog.START
    writer.close()
    from torch.utils.tensorboard import SummaryWriter as TorchWriter

    torch_writer = TorchWriter(str(tmp_path / "torch"))
    torch_writer.add_audio("a", np.zeros(100), 0)
    torch_writer.add_histogram("h", np.arange(10.0), 0)
    torch_writer.close()
    for path in event_files(tmp_path):
        out, _buf, _starts, _lengths = decode_file(path, kernels)
        assert out.fallback.all()
        assert len(out.value) == 0
        assert out.tags == []


# --- hand-built wire shapes -----------------------------------------------------------


def varint(n: int) -> bytes:
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def key(field: int, wire: int) -> bytes:
    return varint(field << 3 | wire)


def ld(field: int, data: bytes) -> bytes:
    return key(field, 2) + varint(len(data)) + data


def f32(field: int, x: float) -> bytes:
    return key(field, 5) + struct.pack("<f", x)


def f64(field: int, x: float) -> bytes:
    return key(field, 1) + struct.pack("<d", x)


def event(*summary_values: bytes, head: bytes = f64(1, 12.5) + key(2, 0) + varint(3)) -> bytes:
    return head + ld(5, b"".join(ld(1, v) for v in summary_values))


def tensor(*fields: bytes) -> bytes:
    return ld(8, b"".join(fields))


SCALAR_SHAPE = ld(2, b"")
HANDLED = {
    "simple": event(ld(1, b"a") + f32(2, 1.5)),
    "simple twice, last wins": event(ld(1, b"a") + f32(2, 1.5) + f32(2, -2.0)),
    "no tag": event(f32(2, 1.5)),
    "metadata": event(ld(1, b"a") + ld(9, ld(1, ld(1, b"scalars"))) + f32(2, 1.5)),
    "empty metadata": event(ld(1, b"a") + ld(9, b"") + f32(2, 1.5)),
    "float_val packed": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", SCALAR_SHAPE, ld(5, struct.pack("<f", 0.1)))
    ),
    "float_val unpacked": event(ld(1, b"a") + tensor(key(1, 0) + b"\x01", f32(5, 0.1))),
    "double_val unpacked": event(ld(1, b"a") + tensor(key(1, 0) + b"\x02", f64(6, 0.1))),
    "double_val packed, version": event(
        ld(1, b"a")
        + tensor(key(3, 0) + b"\x07", key(1, 0) + b"\x02", ld(6, struct.pack("<d", 1e300)))
    ),
    "tensor_content f4": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", ld(4, struct.pack("<f", 2.5)))
    ),
    "tensor_content f8": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x02", ld(4, struct.pack("<d", -2.5)))
    ),
    "shape unknown_rank false": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", ld(2, key(3, 0) + b"\x00"), f32(5, 1.0))
    ),
    "shape twice": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", SCALAR_SHAPE, SCALAR_SHAPE, f32(5, 1.0))
    ),
    "empty content then float_val": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", ld(4, b""), f32(5, 1.0))
    ),
    "two packed chunks, one empty": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", ld(5, b""), ld(5, struct.pack("<f", 4.0)))
    ),
    "several values": event(
        ld(1, b"a") + f32(2, 1), ld(1, b"b") + f32(2, 2), ld(1, b"a") + f32(2, 3)
    ),
    "summary twice merges": f64(1, 1.0)
    + ld(5, ld(1, ld(1, b"a") + f32(2, 1)))
    + key(2, 0)
    + varint(9)
    + ld(5, ld(1, ld(1, b"b") + f32(2, 2))),
    "wall_time and step twice": f64(1, 1.0)
    + key(2, 0)
    + varint(1)
    + ld(5, b"")
    + f64(1, 2.0)
    + key(2, 0)
    + varint(2),
    "empty summary": event(),
    "empty event": b"",
    "negative step": event(ld(1, b"a") + f32(2, 1), head=key(2, 0) + varint(-(2**40))),
    "huge step": event(ld(1, b"a") + f32(2, 1), head=key(2, 0) + varint(2**63 - 1)),
    "wall_time only": f64(1, 3.0),
    "unicode tag": event(ld(1, "é\n 😀".encode()) + f32(2, 1)),
}
FALLBACK = {
    # protobuf keeps the last tag but checks the UTF-8 of each: repeated tags go to it
    "tag twice": event(ld(1, b"a") + ld(1, b"bb") + f32(2, 1.5)),
    "tag twice, first not UTF-8": event(ld(1, b"\x80") + ld(1, b"bb") + f32(2, 1.5)),
    "file_version": key(2, 0) + b"\x01" + ld(3, b"brain.Event:2"),
    "summary then file_version": event(ld(1, b"a") + f32(2, 1)) + ld(3, b"x"),
    "source_metadata": event(ld(1, b"a") + f32(2, 1)) + ld(10, ld(1, b"w")),
    "unknown event field": event(ld(1, b"a") + f32(2, 1)) + key(20, 0) + b"\x01",
    "wall_time wrong wire type": key(1, 0) + b"\x01",
    "node_name": event(ld(1, b"a") + ld(7, b"n") + f32(2, 1)),
    "no value": event(ld(1, b"a")),
    "simple and tensor": event(ld(1, b"a") + f32(2, 1) + tensor(key(1, 0) + b"\x01", f32(5, 1))),
    "tensor twice": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", f32(5, 1)) + tensor(key(1, 0) + b"\x01")
    ),
    "metadata twice": event(ld(1, b"a") + ld(9, b"") + ld(9, b"") + f32(2, 1)),
    "histogram": event(ld(1, b"a") + ld(5, f64(1, 0.0))),
    "int tensor": event(ld(1, b"a") + tensor(key(1, 0) + b"\x03", key(7, 0) + b"\x01")),
    "two float_vals": event(ld(1, b"a") + tensor(key(1, 0) + b"\x01", f32(5, 1), f32(5, 2))),
    "no element": event(ld(1, b"a") + tensor(key(1, 0) + b"\x01")),
    "content and float_val": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", ld(4, struct.pack("<f", 2.5)), f32(5, 1.0))
    ),
    "content wrong size": event(ld(1, b"a") + tensor(key(1, 0) + b"\x01", ld(4, b"\0" * 8))),
    "double_val in float tensor": event(ld(1, b"a") + tensor(key(1, 0) + b"\x01", f64(6, 1))),
    "rank 1": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", ld(2, ld(2, key(1, 0) + b"\x01")), f32(5, 1))
    ),
    "unknown rank": event(
        ld(1, b"a") + tensor(key(1, 0) + b"\x01", ld(2, key(3, 0) + b"\x01"), f32(5, 1))
    ),
    "invalid utf-8 tag": event(ld(1, b"\xff\xfe") + f32(2, 1)),
    "surrogate tag": event(ld(1, b"\xed\xa0\x80") + f32(2, 1)),
    "overlong tag": event(ld(1, b"\xc0\xaf") + f32(2, 1)),
    "truncated varint": key(2, 0) + b"\x80",
    "length past end": key(5, 2) + b"\x05\x0a",
    "value length past summary": key(5, 2) + b"\x02\x0a\x05",
    "truncated float": event(ld(1, b"a") + key(2, 5) + b"\0\0"),
    "eleven-byte varint": key(2, 0) + b"\xff" * 10 + b"\x01",
    "packed float_val bad length": event(ld(1, b"a") + tensor(key(1, 0) + b"\x01", ld(5, b"abc"))),
}


NUMPY_HANDLED = {
    "simple",
    "float_val packed",
    "tensor_content f4",
    "tensor_content f8",
    "unicode tag",
}
"""The hand-built shapes in the writers' exact layouts (the numpy decoder's share)."""


def test_hand_built_shapes(kernels: str) -> None:
    names = list(HANDLED) + list(FALLBACK)
    buf, starts, lengths = pack(list(HANDLED.values()) + list(FALLBACK.values()))
    out = decode_scalars(buf, starts, lengths, kernels=kernels)
    handled = dict(zip(names, (~out.fallback).tolist(), strict=True))
    check_against_protobuf(buf, starts, lengths, out)
    if kernels == "numpy":
        assert {n for n, h in handled.items() if h} == NUMPY_HANDLED
        return
    assert [n for n in HANDLED if not handled[n]] == []
    assert [n for n in FALLBACK if handled[n]] == []
    # A handful of spot checks on top of the protobuf comparison.
    assert out.tags[:3] == ["a", "", "b"]  # first appearances, in record order
    assert "é\n 😀" in out.tags
    first = {names[r]: out.value[np.flatnonzero(out.rec == r)].tolist() for r in set(out.rec)}
    assert first["simple twice, last wins"] == [-2.0]
    assert first["several values"] == [1, 2, 3]
    assert first["summary twice merges"] == [1, 2]
    assert out.step[names.index("negative step")] == -(2**40)
    assert out.wall_time[names.index("wall_time and step twice")] == 2.0


def test_invalid_utf8_tag_does_not_leave_an_unused_tag(kernels: str) -> None:
    payloads = [
        event(ld(1, b"ok") + f32(2, 1)),
        event(ld(1, b"only-here") + f32(2, 2), ld(1, b"\xff") + f32(2, 3))
        if kernels != "numpy"
        else event(ld(1, b"\xff") + f32(2, 3)),
        event(ld(1, b"ok") + f32(2, 4)),
    ]
    buf, starts, lengths = pack(payloads)
    out = decode_scalars(buf, starts, lengths, kernels=kernels)
    assert out.fallback.tolist() == [False, True, False]
    assert out.tags == ["ok"]
    assert out.value.tolist() == [1, 4]
    assert out.tag_id.tolist() == [0, 0]
    with pytest.raises(Exception, match=r"(?i)utf|decod|pars"):
        Event.FromString(payloads[1])


def test_many_tags_and_hash_table_growth(kernels: str) -> None:
    rng = np.random.default_rng(5)
    tags = [f"tag/{i}/{'x' * int(rng.integers(0, 30))}" for i in range(3000)]
    order = rng.integers(0, len(tags), 20000)
    payloads = [event(ld(1, tags[i].encode()) + f32(2, float(j))) for j, i in enumerate(order)]
    buf, starts, lengths = pack(payloads)
    out = decode_scalars(buf, starts, lengths, kernels=kernels)
    assert not out.fallback.any()
    assert [out.tags[t] for t in out.tag_id] == [tags[i] for i in order]
    assert len(out.tags) == len(set(order.tolist()))


def test_empty_input(kernels: str) -> None:
    out = decode_scalars(
        np.zeros(0, np.uint8), np.zeros(0, np.int64), np.zeros(0, np.int64), kernels=kernels
    )
    assert len(out.fallback) == len(out.value) == 0
    assert out.tags == []


def test_out_of_range_record_falls_back(kernels: str) -> None:
    payload = event(ld(1, b"a") + f32(2, 1))
    buf = np.frombuffer(payload, np.uint8)
    out = decode_scalars(
        buf, np.array([0, 5, -1]), np.array([len(payload), len(payload), 3]), kernels=kernels
    )
    assert out.fallback.tolist() == [False, True, True]


# --- fuzz -------------------------------------------------------------------------------


def _corpus() -> list[bytes]:
    scalars = Summary(
        value=[
            Summary.Value(tag="s", simple_value=1.5),
            Summary.Value(
                tag="t",
                tensor=TensorProto(dtype=DT_DOUBLE, double_val=[2.5]),
                metadata=SummaryMetadata(display_name="d"),
            ),
            Summary.Value(tag="u", tensor=TensorProto(dtype=DT_FLOAT, tensor_content=b"\0\0\x80?")),
        ]
    )
    return [
        *HANDLED.values(),
        *FALLBACK.values(),
        Event(wall_time=3.0, step=-1, summary=scalars).SerializeToString(),
    ]


CORPUS = _corpus()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(range(len(CORPUS))),
            st.lists(st.tuples(st.integers(0, 200), st.integers(0, 255)), max_size=3),
            st.integers(0, 200),
            st.binary(max_size=6),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_fuzz_mutations_agree_with_protobuf(
    kernels: str,
    cases: list[tuple[int, list[tuple[int, int]], int, bytes]],
) -> None:
    payloads = []
    for index, edits, cut, insert in cases:
        data = bytearray(CORPUS[index])
        for where, value in edits:
            if data:
                data[where % len(data)] = value
        at = cut % (len(data) + 1)
        data[at:at] = insert
        payloads.append(bytes(data[: len(data) - cut % 3]))
    buf, starts, lengths = pack(payloads)
    out = decode_scalars(buf, starts, lengths, kernels=kernels)
    check_against_protobuf(buf, starts, lengths, out)


@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.data())
def test_fuzz_real_file(rec_tbx_file: str, kernels: str, data: st.DataObject) -> None:
    buf, starts, lengths = load(rec_tbx_file)
    buf = buf.copy()
    for _ in range(data.draw(st.integers(1, 30))):
        buf[data.draw(st.integers(0, len(buf) - 1))] = data.draw(st.integers(0, 255))
    out = decode_scalars(buf, starts, lengths, kernels=kernels)
    check_against_protobuf(buf, starts, lengths, out)
