"""tbnb's local filesystem answers as fsspec's ``LocalFileSystem`` does, and a local load
never imports fsspec."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from fsspec.implementations.local import LocalFileSystem

from tbnb.io.local import LocalFiles, is_local
from tests import writers

ROOT = Path(__file__).resolve().parents[2]
KEYS = ("name", "type", "size", "islink", "destination", "mode", "mtime", "ino", "created")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "events.out.tfevents.1.host").write_bytes(b"0123456789")
    (tmp_path / "empty").mkdir()
    (tmp_path / "note.txt").write_text("hi")
    (tmp_path / "link-run").symlink_to(tmp_path / "run")
    (tmp_path / "link-note").symlink_to(tmp_path / "note.txt")
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere")
    return tmp_path


def _described(listing: list[dict]) -> list[tuple]:
    return sorted(tuple(info.get(k) for k in KEYS) for info in listing)


def test_listings_and_facts_equal_fsspecs(tree: Path) -> None:
    ours, theirs = LocalFiles(), LocalFileSystem()
    for path in (tree, tree / "run", tree / "link-run", tree / "empty"):
        assert _described(ours.ls(str(path), detail=True)) == _described(
            theirs.ls(str(path), detail=True)
        )
        assert sorted(ours.ls(str(path), detail=False)) == sorted(
            theirs.ls(str(path), detail=False)
        )
    for name in ("run", "note.txt", "link-run", "link-note", "dangling", "missing", "."):
        path = str(tree / name)
        assert ours.exists(path) == theirs.exists(path), name
        assert ours.isdir(path) == theirs.isdir(path), name
        assert ours.isfile(path) == theirs.isfile(path), name
    for name in ("run", "note.txt", "link-run", "link-note"):
        path = str(tree / name)
        assert ours.info(path) == theirs.info(path), name
    for fs in (ours, theirs):
        with pytest.raises(FileNotFoundError):
            fs.info(str(tree / "dangling"))
    assert ours._strip_protocol(f"file://{tree}/run/") == theirs._strip_protocol(
        f"file://{tree}/run/"
    )
    assert ours._strip_protocol(str(tree)) == theirs._strip_protocol(str(tree))


def test_bytes_equal_fsspecs(tree: Path) -> None:
    ours, theirs = LocalFiles(), LocalFileSystem()
    path = str(tree / "run" / "events.out.tfevents.1.host")
    assert ours.size(path) == theirs.size(path) == 10
    for start, end in (
        (None, None),
        (3, None),
        (None, 4),
        (2, 6),
        (-3, None),
        (4, -2),
        (8, 20),
        (12, None),
    ):
        assert ours.cat_file(path, start, end) == theirs.cat_file(path, start, end), (start, end)
    with ours.open(path, "rb") as handle:
        handle.seek(7)
        assert handle.read() == b"789"
    with pytest.raises(FileNotFoundError):
        ours.cat_file(str(tree / "missing"))


def test_anything_else_is_fsspecs_and_it_travels_to_other_processes(tree: Path) -> None:
    fs = LocalFiles()
    assert sorted(fs.glob(f"{tree}/**/*.txt")) == [f"{tree}/note.txt"]
    fs.pipe_file(str(tree / "written.bin"), b"abc")
    assert (tree / "written.bin").read_bytes() == b"abc"
    copy = pickle.loads(pickle.dumps(fs))
    assert copy == fs
    assert copy.cat_file(str(tree / "written.bin")) == b"abc"
    assert is_local(fs)
    assert is_local(LocalFileSystem())


def test_a_local_load_does_not_import_fsspec() -> None:
    code = (
        "import json, sys, tbnb\n"
        "exp = tbnb.load(sys.argv[1], progress=False)\n"
        "print(json.dumps([len(exp.scalars), 'fsspec' in sys.modules]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(writers.cached("torch").logdir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    rows, imported = json.loads(out.stdout.strip().splitlines()[-1])
    assert rows > 0
    assert not imported
