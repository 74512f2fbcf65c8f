"""``tensor_to_numpy`` against TensorBoard's ``tensor_util.make_ndarray`` (the reference
for what a ``TensorProto`` holds), on tensors of every dtype, shape and layout, well
formed or not (tests/fuzz_values.py).

Where TensorBoard reads a tensor, tbnb reads the same array (dtype, shape, every bit);
where TensorBoard refuses one, tbnb refuses it too, but for TensorFlow's own reader's
rule that pads a short typed field with its last value. ``bfloat16`` comes back widened
to ``float32`` (numpy has no bfloat16; TensorBoard's reader reads none), quantized
dtypes as plain integers.
"""

from __future__ import annotations

import numpy as np
import pytest
from google.protobuf.message import DecodeError
from hypothesis import HealthCheck, example, given, settings

from tbnb._proto import TensorProto
from tbnb.decode.tensors import DT_BFLOAT16, DT_STRING, TensorDecodeError, tensor_to_numpy
from tests.fuzz_values import field, tensor, varint

tensor_util = pytest.importorskip("tensorboard.util.tensor_util")


def _tensor(dtype: int, shape: list[int], values: bytes = b"") -> bytes:
    dims = b"".join(field(2, 2, field(1, 0, varint(d))) for d in shape)
    return field(1, 0, varint(dtype)) + field(2, 2, dims) + values


def _held(proto: TensorProto) -> int:
    if proto.dtype == DT_STRING:
        return len(proto.string_val)
    names = {1: "float_val", 2: "double_val", 9: "int64_val", 10: "bool_val", 19: "half_val",
             14: "half_val", 8: "scomplex_val"}  # fmt: skip
    field_name = names.get(proto.dtype, "int_val")
    held = len(getattr(proto, field_name))
    return held // 2 if proto.dtype == 8 else held


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tensor())
@example(_tensor(1, [2, 0]))  # a zero-size dimension, no values: an empty array
@example(_tensor(1, [0], field(4, 2, b"")))  # empty content: the same
@example(_tensor(2, []))  # rank 0, no values: refused by both
@example(_tensor(7, [0]))  # no strings, none claimed
@example(_tensor(3, [2, 0, 3], field(7, 2, b"")))
@example(_tensor(1, [-1], field(4, 2, b"")))  # an unknown dimension: inferred from the values
@example(_tensor(2, [2, -1], field(6, 2, bytes(32))))
@example(_tensor(2, [-1], field(6, 2, bytes(8))))  # one typed value fills no unknown shape
@example(_tensor(7, [0], field(8, 2, b"")))  # one string fills a shape of no elements
@example(_tensor(1, [2], field(4, 2, bytes(4))))  # raw bytes are never repeated
@example(_tensor(1, [], field(4, 2, bytes(9))))  # nor cut
@example(_tensor(7, [0], field(4, 2, b"\0")))  # strings as raw bytes: read by neither
@example(_tensor(11, [0]))  # qint8
def test_tensors_read_as_tensorboard_reads_them(raw: bytes) -> None:
    try:
        proto = TensorProto.FromString(raw)
    except DecodeError:
        return  # no reader gets this far: the loader reports the record
    try:
        ours: np.ndarray | None = tensor_to_numpy(proto)
    except TensorDecodeError:
        ours = None
    try:
        theirs: np.ndarray | None = tensor_util.make_ndarray(proto)
    except Exception:  # TensorBoard's reader refuses it (each in its own way)
        theirs = None
    if theirs is None:
        if ours is None or proto.dtype == DT_BFLOAT16:
            return  # (TensorBoard's reader has no bfloat16 dtype: it reads none)
            return
        held = _held(proto)
        size = int(np.prod(ours.shape))
        padded = proto.dtype != DT_STRING and not proto.tensor_content and 0 < held < size
        assert padded, f"tbnb reads {ours!r} where TensorBoard refuses the tensor"
        return
    assert ours is not None, f"tbnb refuses what TensorBoard reads as {theirs!r}"
    assert ours.shape == theirs.shape
    if proto.dtype == DT_BFLOAT16:
        widened = (theirs.view(np.uint16).astype(np.uint32) << 16).view(np.float32)
        assert ours.tobytes() == widened.tobytes()
    elif proto.dtype == DT_STRING:
        assert ours.dtype == object
        assert [bytes(x) for x in ours.reshape(-1)] == [bytes(x) for x in theirs.reshape(-1)]
    else:
        if theirs.dtype.names:  # TensorBoard's quantized dtypes: one named integer field
            theirs = theirs.view(theirs.dtype[0])
        assert ours.dtype == theirs.dtype
        assert ours.tobytes() == theirs.tobytes()
