"""``exp.meshes`` equals TensorBoard's mesh plugin on files of every mesh writer."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.kinds.meshes import as_served
from tests import writers_meshes
from tests.writers import event_files, reference_values

WRITERS: dict[str, Callable[[str], str]] = {
    "torch": writers_meshes.write_torch,
    "tensorboardX": writers_meshes.write_tbx,
    "tensorboard": writers_meshes.write_tensorboard,
}


@pytest.fixture(scope="module", params=sorted(WRITERS))
def written(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    logdir = tmp_path_factory.mktemp(f"meshes-{request.param}")
    return WRITERS[request.param](str(logdir))


def _load(logdir: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a clean file gives no warning
        return tbnb.load(logdir, progress=False)


def _concat(parts: list[Any]) -> np.ndarray | None:
    present = [p for p in parts if p is not None]
    return np.concatenate(present) if present else None


def test_meshes_equal_tensorboards_mesh_plugin(written: str) -> None:
    exp = _load(written)
    frame = exp.meshes
    oracle = writers_meshes.tensorboard_meshes(written)
    assert len(oracle) > 0
    # TensorBoard serves every mesh of a (run, tag, step, sample) as one array: a tag
    # logged twice at one step comes back concatenated. tbnb keeps them apart.
    ours = frame.groupby(["run", "tag", "step", "sample"], observed=True, sort=True)
    assert len(ours) == len(oracle)
    for mesh in oracle:
        rows = ours.get_group((mesh["run"], mesh["tag"], mesh["step"], mesh["sample"]))
        for column in ("vertices", "faces", "colors"):
            got = _concat(list(rows[column]))
            if mesh[column] is None:
                assert got is None, (mesh["run"], mesh["tag"], column)
                continue
            assert got is not None, column
            assert got.dtype == mesh[column].dtype, column
            np.testing.assert_array_equal(got, mesh[column])
        assert rows["wall_time"].iloc[0] == pytest.approx(mesh["wall_time"], abs=1e-6)
        expected = None if mesh["config"] == "null" else __import__("json").loads(mesh["config"])
        assert rows["config"].iloc[0] == expected


def test_mesh_tensors_are_no_longer_listed_as_tensors(written: str) -> None:
    exp = _load(written)
    assert len(exp.meshes) > 0
    assert len(exp.tensors) == 0
    plugins = {row[3] for path in event_files(written) for row in reference_values(path)}
    assert plugins <= {"mesh", ""}


def test_frame_columns_types_and_counts(written: str) -> None:
    frame = _load(written).meshes
    assert list(frame.columns) == [
        "run",
        "tag",
        "step",
        "wall_time",
        "sample",
        "vertices",
        "faces",
        "colors",
        "num_vertices",
        "num_faces",
        "config",
    ]
    for row in frame.itertuples():
        assert row.vertices.dtype == np.float32
        assert row.vertices.shape == (row.num_vertices, 3)
        assert not row.vertices.flags.writeable  # shared by every frame handed out
        if row.faces is not None:
            assert row.faces.dtype == np.int32
            assert row.faces.shape == (row.num_faces, 3)
        if row.colors is not None:
            assert row.colors.dtype == np.uint8
            assert row.colors.shape == row.vertices.shape


def test_torch_meshes_as_written(tmp_path: Path) -> None:
    logdir = writers_meshes.write_torch(str(tmp_path))
    frame = _load(logdir).meshes
    tetra = frame[(frame["run"] == "b") & (frame["tag"] == "tetra")]
    assert tetra["step"].tolist() == [0, 0, 2, 2, 5, 5]
    assert tetra["sample"].tolist() == [0, 1] * 3
    vertices, colors, faces = writers_meshes.tetrahedron(2)
    row = tetra.iloc[3]
    np.testing.assert_array_equal(row["vertices"], vertices[1] + np.float32(0.5) + 2 / 10)
    np.testing.assert_array_equal(row["colors"], colors[1])
    np.testing.assert_array_equal(row["faces"], faces[1])
    assert row["config"] == writers_meshes.CONFIG
    twice = frame[(frame["run"] == "a") & (frame["tag"] == "twice")]
    assert len(twice) == 4  # two meshes of two samples at step 3, in the order written
    np.testing.assert_array_equal(
        twice["vertices"].iloc[2], writers_meshes.tetrahedron(9)[0][0] * 2
    )
    cloud = frame[frame["tag"] == "scan/points"]
    assert cloud["faces"].isna().all()
    assert cloud["num_faces"].tolist() == [0, 0]


def test_a_bad_mesh_tensor_is_reported_and_the_rest_kept(tmp_path: Path) -> None:
    from tests.writers import _TF2Writer

    w = _TF2Writer(str(tmp_path), ".v2")
    good = writers_meshes.mesh_summaries("ok", np.zeros((1, 3, 3), np.float32))
    bad = writers_meshes.mesh_summaries("flat", np.zeros((1, 3, 3), np.float32))[0]
    from tensorboard.util import tensor_util

    bad.value[0].tensor.CopyFrom(tensor_util.make_tensor_proto(np.zeros((3, 2), np.float32)))
    w.write(good[0], 0)
    w.write(bad, 0)
    w.close()
    with pytest.warns(Warning, match=r"tag 'flat_VERTEX' step 0: mesh vertices tensor has shape"):
        exp = tbnb.load(str(tmp_path), progress=False)
    assert exp.meshes["tag"].tolist() == ["ok"]


def test_parts_without_vertices_are_left_out_with_a_warning(tmp_path: Path) -> None:
    from tests.writers import _TF2Writer

    w = _TF2Writer(str(tmp_path), ".v2")
    parts = writers_meshes.mesh_summaries(
        "m", np.zeros((1, 3, 3), np.float32), faces=np.array([[[0, 1, 2]]])
    )
    w.write(parts[1], 0)  # the faces, their vertices lost
    w.close()
    exp = tbnb.load(str(tmp_path), progress=False)
    with pytest.warns(Warning, match=r"mesh run '\.' tag 'm': faces or colours without vertices"):
        assert len(exp.meshes) == 0


def test_as_served_truncates_and_clips_like_tensorboard() -> None:
    floats = np.array([[0.0, 2.7, 255.0]], np.float32)
    assert as_served("colors", floats).tolist() == np.array(floats.tolist(), np.uint8).tolist()
    assert as_served("colors", np.array([[300.0, -4.0, np.nan]])).tolist() == [[255, 0, 0]]
    assert as_served("faces", np.array([[1.0, 2.0, 3.0]], np.float32)).dtype == np.int32


def test_empty_experiment_gives_the_columns() -> None:
    from tbnb.kinds.meshes import meshes_frame

    empty = pd.DataFrame(
        {c: [] for c in ("run", "tag", "step", "wall_time", "component", "value", "config")}
    )
    assert "vertices" in meshes_frame(empty).columns
