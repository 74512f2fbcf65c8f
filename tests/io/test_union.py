"""Several logdirs' filesystems as one: each path read from the logdir holding it, a side
file's checks (inside its logdir, no link leading out) as exact as on its own filesystem."""

from __future__ import annotations

import os
import pickle
import uuid
from pathlib import Path

import fsspec
import pytest

from tbnb.io.files import RefusedFileError, read_side_file, read_window
from tbnb.io.local import LocalFiles
from tbnb.io.union import LogdirUnion, check_roots, narrow


@pytest.fixture
def bucket() -> str:
    memory = fsspec.filesystem("memory")
    root = f"/union-{uuid.uuid4().hex}"
    memory.pipe(f"{root}/run/notes.txt", b"from memory")
    yield root
    memory.rm(root, recursive=True)


def test_each_path_is_read_from_the_logdir_holding_it(tmp_path: Path, bucket: str) -> None:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "notes.txt").write_bytes(b"from disk")
    memory = fsspec.filesystem("memory")
    union = LogdirUnion([(LocalFiles(), str(tmp_path)), (memory, bucket)])
    assert union.cat_file(f"{tmp_path}/run/notes.txt") == b"from disk"
    assert union.cat_file(f"{bucket}/run/notes.txt") == b"from memory"
    assert read_window(union, f"{bucket}/run/notes.txt", 5, 100) == b"memory"
    assert set(union.ls(union.root)) == {str(tmp_path), bucket}
    assert union.isdir(union.root)
    assert union.isdir(f"{tmp_path}/run")
    assert not union.exists("/elsewhere/notes.txt")
    with pytest.raises(FileNotFoundError, match=r"/elsewhere/notes.txt: lies in none of"):
        union.cat_file("/elsewhere/notes.txt")
    clone = pickle.loads(pickle.dumps(union))  # tasks and views may travel to a process
    assert clone.cat_file(f"{tmp_path}/run/notes.txt") == b"from disk"


def test_nested_roots_on_one_filesystem_route_to_the_deepest(tmp_path: Path) -> None:
    inner = tmp_path / "a"
    inner.mkdir()
    union = LogdirUnion([(LocalFiles(), str(tmp_path)), (LocalFiles(), str(inner))])
    fs, root = union.member(f"{inner}/x")
    assert root == str(inner)
    assert union.member(f"{tmp_path}/b/x")[1] == str(tmp_path)
    assert narrow(union, f"{inner}/x", (union.root, "/other")) == (fs, (str(inner), "/other"))


def test_roots_nesting_on_different_filesystems_are_refused(tmp_path: Path) -> None:
    memory = fsspec.filesystem("memory")
    with pytest.raises(ValueError, match=r"nest on different filesystems \(file and memory\)"):
        check_roots([(LocalFiles(), str(tmp_path)), (memory, f"{tmp_path}/runs")])
    check_roots([(LocalFiles(), str(tmp_path / "a")), (memory, str(tmp_path / "b"))])


def test_a_side_file_linked_out_of_its_logdir_is_refused_through_the_union(
    tmp_path: Path, bucket: str
) -> None:
    logdir = tmp_path / "logs"
    (logdir / "run").mkdir(parents=True)
    secret = tmp_path / "secret.yaml"
    secret.write_text("token: 1\n")
    os.symlink(secret, logdir / "run" / "hparams.yaml")
    (logdir / "run" / "config.yaml").write_text("lr: 0.1\n")
    union = LogdirUnion([(LocalFiles(), str(logdir)), (fsspec.filesystem("memory"), bucket)])
    run = f"{logdir}/run"
    # the union's root stands for the logdir holding the file: the check stays exact
    assert read_side_file(union, f"{run}/config.yaml", limit=100, within=(union.root, run)) == (
        b"lr: 0.1\n"
    )
    with pytest.raises(RefusedFileError, match=r"resolves outside the folders .*a link leading"):
        read_side_file(union, f"{run}/hparams.yaml", limit=100, within=(union.root, run))
    with pytest.raises(RefusedFileError, match=r"lies outside the folders"):
        read_side_file(union, f"{bucket}/run/notes.txt", limit=100, within=(run,))
    data = read_side_file(union, f"{bucket}/run/notes.txt", limit=100, within=(union.root,))
    assert data == b"from memory"


def test_only_path_methods_are_routed(tmp_path: Path) -> None:
    union = LogdirUnion([(LocalFiles(), str(tmp_path))])
    assert not hasattr(union, "storage_options")  # a filesystem's own state is not pretended
    assert not hasattr(union, "_fsspec")
    assert union.isfile(str(tmp_path)) is False
