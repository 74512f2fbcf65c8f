"""The meshes view in Python: what each mesh sends, problems, sampling, saved meshes, the
dashboard tab (no browser; tests/ui/test_mesh_ui.py draws them)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.warnings import DataWarning
from tbnb.widgets.mesh.prepare import decode_positions, mesh_payload, payload_size
from tbnb.widgets.serializers import pack
from tests import writers_meshes


@pytest.fixture(scope="module")
def exp(tmp_path_factory: pytest.TempPathFactory) -> Any:
    logdir = tmp_path_factory.mktemp("mesh_widget")
    writers_meshes.write_torch(str(logdir / "torch"))
    writers_meshes.write_tensorboard(str(logdir / "tb"))
    return tbnb.load(str(logdir), progress=False)


def _frame(vertices: Any, faces: Any = None, colors: Any = None, **extra: Any) -> pd.DataFrame:
    row = {
        "run": "a",
        "tag": "m",
        "step": 0,
        "wall_time": 0.0,
        "sample": 0,
        "vertices": np.asarray(vertices, np.float32),
        "faces": faces,
        "colors": colors,
        "num_vertices": len(vertices),
        "num_faces": 0 if faces is None else len(faces),
        "config": None,
        **extra,
    }
    return pd.DataFrame([row])


def _parts(item: dict[str, Any]) -> dict[str, np.ndarray]:
    """The arrays of one item's block, as the browser reads them (js geometry.js)."""
    data = np.asarray(item["data"], np.uint8)
    types = {
        "positions": "<u2",
        "colors": "u1",
        "faces": f"<u{2 if item['index_type'] == 'uint16' else 4}",
    }
    out = {}
    for name, (offset, count) in item["layout"].items():
        assert offset % 4 == 0
        dtype = np.dtype(types[name])
        out[name] = data[offset : offset + count * dtype.itemsize].view(dtype)
    return out


def test_every_mesh_sent_is_the_logged_one_within_a_step_of_its_box(exp: Any) -> None:
    widget = tbnb.meshes(exp)
    cards, frame = widget._cards, widget._frame
    checked = 0
    for card in range(len(cards)):
        for step, count in zip(cards.card_steps(card), cards.card_counts(card), strict=True):
            for sample in range(int(count)):  # a batch, then a tag logged again at the step
                row = frame.iloc[cards.row(card, int(step), sample)]
                item = widget._item(card, int(step), sample)
                vertices = np.asarray(row["vertices"], np.float64)
                bound = np.asarray(item["scale"]) / 65535 / 2 + 1e-6 * np.abs(vertices).max()
                assert (np.abs(decode_positions(item) - vertices) <= bound).all()
                parts = _parts(item)
                assert item["num_vertices"] == row["num_vertices"]
                for name in ("colors", "faces"):
                    if row[name] is None:
                        assert name not in parts
                    else:
                        np.testing.assert_array_equal(parts[name].reshape(-1, 3), row[name])
                assert len(item["data"]) <= payload_size(row) <= len(item["data"]) + 4
                checked += 1
    assert checked == len(exp.meshes)


def test_positions_are_half_the_bytes_of_float32_and_arrive_as_one_binary_buffer() -> None:
    rng = np.random.default_rng(0)
    vertices = rng.normal(size=(1000, 3)) * 50
    colors = rng.integers(0, 256, (1000, 3)).astype(np.uint8)
    item = mesh_payload(_frame(vertices, colors=colors).iloc[0])
    assert item["data"].nbytes == 1000 * 3 * 2 + 1000 * 3
    content, buffers = pack({"items": [item]})
    assert len(buffers) == 1
    assert content["items"][0]["data"] == {"buffer": 0, "dtype": "uint8", "shape": [9000]}
    assert "positions" not in json.dumps(content["items"][0]["data"])


def test_bad_faces_and_colours_draw_points_and_say_so() -> None:
    vertices = np.eye(3)
    frame = _frame(vertices, faces=np.array([[0, 1, 7]]), colors=np.zeros((2, 3), np.uint8))
    with pytest.warns(DataWarning) as caught:
        widget = tbnb.meshes(frame)
    messages = sorted(str(w.message) for w in caught)
    assert messages == [
        "run 'a', tag 'm', step 0: 2 colours for 3 vertices: drawn in the run's colour",
        "run 'a', tag 'm', step 0: faces name vertex 7 of 3: drawn as points",
    ]
    item = widget.item("a", "m", 0)
    assert set(item["layout"]) == {"positions"}
    assert "drawn as points" in item["note"]
    assert len(widget.problems) == 2


def test_non_finite_vertices_are_drawn_at_the_corner_and_said() -> None:
    vertices = np.array([[0, 0, 0], [np.nan, 1, 1], [2, 2, 2]])
    item = mesh_payload(_frame(vertices).iloc[0])
    assert item["origin"] == [0.0, 0.0, 0.0]
    assert item["scale"] == [2.0, 2.0, 2.0]
    assert "1 vertices are not finite" in item["note"]
    assert decode_positions(item)[1].tolist() == [0.0, 0.0, 0.0]


def test_a_flat_mesh_keeps_its_plane() -> None:
    vertices = np.array([[0, 0, 5], [1, 0, 5], [0, 1, 5]])
    item = mesh_payload(_frame(vertices, faces=np.array([[0, 1, 2]])).iloc[0])
    np.testing.assert_allclose(decode_positions(item), vertices)


def test_a_large_cloud_is_a_uniform_sample_said_and_the_same_each_time() -> None:
    rng = np.random.default_rng(1)
    vertices = rng.uniform(-1, 1, (5000, 3))
    widget = tbnb.meshes(_frame(vertices), max_points=1000)
    item = widget.item("a", "m", 0)
    assert item["drawn_vertices"] == 1000
    assert "a uniform sample of 1,000 of the 5,000 points" in item["note"]
    shown = decode_positions(item)
    # every point sent is a logged one, and the sample covers the cloud
    nearest = np.abs(shown[:, None, :] - vertices[None, :, :]).max(axis=2).min(axis=1)
    assert nearest.max() < 2 / 65535
    assert np.abs(shown.mean(axis=0)).max() < 0.1
    widget.max_points = 2000
    assert widget.item("a", "m", 0)["drawn_vertices"] == 2000
    assert mesh_payload(_frame(vertices).iloc[0], 1000)["data"].tobytes() == item["data"].tobytes()


def test_large_index_type(exp: Any) -> None:
    n = 70_000
    vertices = np.random.default_rng(2).normal(size=(n, 3))
    faces = np.array([[0, 1, n - 1]])
    item = mesh_payload(_frame(vertices, faces=faces).iloc[0])
    assert item["index_type"] == "uint32"
    assert _parts(item)["faces"].tolist() == [0, 1, n - 1]


def test_saved_meshes_fit_the_budget_and_say_what_is_left_out(exp: Any) -> None:
    widget = tbnb.meshes(exp)
    shown = widget.data
    assert len(widget._held) == len(shown) == widget.embedded["items"]
    small = tbnb.meshes(exp, max_embed_bytes=2000)
    assert small.embedded["bytes"] <= 2000
    assert small.embedded["left_out"] > 0
    every = tbnb.meshes(exp, embed="all")
    assert every.embedded["items"] == len(every.full_data)


def test_request_channel_answers_items_with_one_buffer_each(exp: Any) -> None:
    widget = tbnb.meshes(exp, tags="tetra")
    keys = [["torch/a", "tetra", 2, 0], ["torch/a", "tetra", 2, 1], ["torch/a", "tetra", 99, 0]]
    reply = widget.answer({"type": "items", "id": "1", "keys": keys})
    assert reply is not None
    ok, missing = reply["items"][:2], reply["items"][2]
    assert [i["sample"] for i in ok] == [0, 1]
    assert "has no step 99" in missing["error"]
    meta = widget.answer({"type": "items", "id": "2", "keys": keys[:1], "meta_only": True})
    assert meta is not None
    assert "data" not in meta["items"][0]


def test_traits_are_checked(exp: Any) -> None:
    with pytest.raises(Exception, match="mode must be one of"):
        tbnb.meshes(exp, mode="shaded")
    with pytest.raises(TypeError, match="did you mean 'max_points'"):
        tbnb.meshes(exp, max_point=5)  # type: ignore[call-arg]
    with pytest.raises(Exception, match="point_size must be between 1 and 20"):
        tbnb.meshes(exp, point_size=0)


def test_the_dashboard_has_a_meshes_tab_built_from_the_registry(exp: Any, tmp_path: Path) -> None:
    dash = tbnb.Dashboard(exp)
    assert "meshes" in list(dash.views)
    view = dash.views["meshes"]
    assert type(view).__name__ == "MeshWidget"
    empty = tbnb.load(str(writers_meshes.write_tbx(str(tmp_path))), progress=False)
    assert len(empty.tensors) == 0  # meshes are not raw tensors
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert tbnb.meshes(empty).data["tag"].tolist()


def test_to_plotly_draws_each_card(exp: Any) -> None:
    pytest.importorskip("plotly")
    widget = tbnb.meshes(exp, tags="tetra|points")
    figure = widget.to_plotly()
    kinds = sorted({trace.type for trace in figure.data})
    assert kinds == ["mesh3d", "scatter3d"]
    assert len(figure.data) == len(widget.data)
