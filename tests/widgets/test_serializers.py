"""Binary serialisation of arrays (tbnb.widgets.serializers)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from ipywidgets.widgets.widget import _remove_buffers

from tbnb.widgets.serializers import (
    array_from_json,
    array_to_json,
    pack,
    tree_from_json,
    tree_to_json,
    unpack,
)


@pytest.mark.parametrize(
    "dtype", ["int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64"]
)
def test_round_trip_every_wire_dtype(dtype: str) -> None:
    arr = (np.arange(12) % 7).astype(dtype).reshape(3, 4)
    enc = array_to_json(arr)
    assert isinstance(enc["view"], memoryview)
    assert enc["dtype"] == dtype
    assert enc["shape"] == [3, 4]
    back = array_from_json(enc)
    assert back.dtype == arr.dtype
    np.testing.assert_array_equal(back, arr)
    # the browser may hand back bytes rather than a memoryview
    np.testing.assert_array_equal(array_from_json({**enc, "view": bytes(enc["view"])}), arr)


def test_narrowing_and_widening() -> None:
    small = array_to_json(np.array([1, -2, 3], dtype=np.int64))
    assert small["dtype"] == "int32"
    big = array_to_json(np.array([1, 2**40], dtype=np.int64))
    assert big["dtype"] == "float64"
    assert array_from_json(big).tolist() == [1.0, 2.0**40]
    assert array_to_json(np.array([True, False]))["dtype"] == "uint8"
    assert array_to_json(np.array([1.5], dtype=np.float16))["dtype"] == "float64"
    swapped = np.array([1.0, 2.0], dtype=">f8")
    assert array_from_json(array_to_json(swapped)).tolist() == [1.0, 2.0]
    with pytest.raises(TypeError, match="dtype"):
        array_to_json(np.array(["a"]))
    with pytest.raises(TypeError, match="dtype"):
        array_from_json({"view": b"", "dtype": "int64", "shape": [0]})


def test_non_contiguous_input() -> None:
    arr = np.arange(10.0)[::3]
    np.testing.assert_array_equal(array_from_json(array_to_json(arr)), arr)


def test_tree_state_goes_out_as_buffers_not_json() -> None:
    tree = {
        "columns": {"value": np.linspace(0, 1, 1000), "step": np.arange(1000)},
        "runs": ["a", "b"],
        "n": np.int64(3),
    }
    state = tree_to_json(tree)
    # What ipywidgets does with a synced trait: every memoryview becomes a buffer.
    stripped, paths, buffers = _remove_buffers({"_data": state})
    assert len(buffers) == 2
    assert sorted(map(tuple, paths)) == [
        ("_data", "columns", "step", "view"),
        ("_data", "columns", "value", "view"),
    ]
    text = json.dumps(stripped)  # the JSON part holds no numbers of the series
    assert len(text) < 300
    back = tree_from_json(state)
    np.testing.assert_array_equal(back["columns"]["value"], tree["columns"]["value"])
    assert back["runs"] == ["a", "b"]
    assert back["n"] == 3


def test_pack_unpack_messages() -> None:
    msg = {
        "type": "range",
        "series": [
            {"run": "a", "y": np.array([1.0, 2.0])},
            {"run": "b", "y": np.array([3], dtype=np.int32)},
        ],
    }
    content, buffers = pack(msg)
    assert [c["y"]["buffer"] for c in content["series"]] == [0, 1]
    json.dumps(content)
    back = unpack(content, [bytes(b) for b in buffers])
    assert back["series"][0]["y"].tolist() == [1.0, 2.0]
    assert back["series"][1]["y"].dtype == np.int32
    assert back["type"] == "range"
