"""Hostile files never hang a load, never leave the logdir, never cost unbounded memory.

Each case of issue 25 (:mod:`tests.writers_hostile`) is loaded in a child process with a
time limit and an address-space cap (``resource.setrlimit``), through everything a
dashboard reads: frames, ``exp.hparams``, ``exp.info``, the embeddings' vectors and
sprites. On main before the fix the FIFO and device cases never returned.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import writers_hostile as hostile

ROOT = Path(__file__).resolve().parents[2]
TIME_LIMIT_S = 90
"""Seconds a child may take (a normal case takes a few; a hang is killed here)."""
CAP_GIB = 3
"""Address space of a child: enough for tbnb and its imports, far below what the
claimed sizes of the in-record cases would take."""


def _python(*args: str) -> str:
    """Run ``python *args`` from the repository with the time limit; its stdout (the
    test fails if it does not finish in time or fails)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        proc = subprocess.run(
            [sys.executable, *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIME_LIMIT_S,
            check=False,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"did not finish in {TIME_LIMIT_S} s: python {' '.join(args)[:200]}")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def child(logdir: str | Path) -> dict[str, Any]:
    """What :func:`tests.writers_hostile.load_report` returns for ``logdir``, in a child
    process capped at :data:`CAP_GIB` of address space."""
    out = _python("-m", "tests.writers_hostile", str(logdir), "--cap-gib", str(CAP_GIB))
    report: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return report


def _warned(report: dict[str, Any], *words: str) -> list[str]:
    return [m for _, m in report["warnings"] if all(w in m for w in words)]


def _good_data_kept(report: dict[str, Any]) -> None:
    assert report["scalars"] == {"good": hostile.STEPS, "bad": hostile.STEPS}
    assert "lr" in report["hparam_columns"]


@pytest.fixture
def case(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return hostile.make_case(request.param, tmp_path)


def test_the_base_logdir_loads_whole(tmp_path: Path) -> None:
    report = child(hostile.make_case("", tmp_path))
    _good_data_kept(report)
    assert report["notes"] == []
    assert report["warnings"] == []
    assert report["read"] == [{"points": 9, "sprite": True}]


@pytest.mark.parametrize(
    "case",
    ["event file: FIFO", "event file: link to /dev/zero", "event file: link to /dev/urandom"],
    indirect=True,
)
def test_an_event_file_that_is_not_a_regular_file_is_skipped(case: Path) -> None:
    report = child(case)
    _good_data_kept(report)
    (message,) = _warned(report, "not regular files", hostile.EVENT_NAME)
    assert "FIFO" in message or "character device" in message


@pytest.mark.parametrize(
    ("case", "what"),
    [
        ("hparams.yaml: FIFO", "a FIFO (named pipe)"),
        ("config.yaml: link to /dev/zero", "resolves outside"),  # refused before it is opened
    ],
    indirect=["case"],
)
def test_a_config_that_is_not_a_regular_file_is_a_note(case: Path, what: str) -> None:
    report = child(case)
    assert report["scalars"] == {"good": hostile.STEPS, "bad": hostile.STEPS}
    (note,) = [n for n in report["notes"] if n.startswith("run 'bad'")]
    assert what in note
    assert _warned(report, "run 'bad'", "not read", what)  # exp.info says so too


@pytest.mark.parametrize("target", ["/dev/zero", "/dev/urandom", "fifo"])
@pytest.mark.parametrize("reader", ["LocalFiles", "LocalFileSystem"])
def test_side_files_read_only_regular_files(tmp_path: Path, target: str, reader: str) -> None:
    """With no folder to stay in, a device or FIFO is still refused, never read."""
    path = tmp_path / "side"
    if target == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(target)
    out = _python(
        "-c",
        "from tbnb.io.files import read_side_file\n"
        "from tbnb.io.local import LocalFiles\n"
        "from fsspec.implementations.local import LocalFileSystem\n"
        f"try:\n    read_side_file({reader}(), {str(path)!r}, limit=1 << 30)\n"
        "except OSError as error:\n    print(type(error).__name__, error)\n",
    )
    assert out.startswith("NotRegularFileError")
    assert str(path) in out
    assert ("FIFO" if target == "fifo" else "character device") in out


@pytest.mark.parametrize("case", ["hparams.yaml: link outside the logdir"], indirect=True)
def test_a_config_linked_from_outside_the_logdir_is_not_read(case: Path) -> None:
    report = child(case)
    assert hostile.OUTSIDE_SECRET not in report["hparam_columns"]
    assert "lr" in report["hparam_columns"]  # the good run's own config
    (note,) = [n for n in report["notes"] if n.startswith("run 'bad'")]
    assert "hparams.yaml" in note
    assert "outside" in note
    assert not any(hostile.OUTSIDE_SECRET in m for _, m in report["warnings"])


@pytest.mark.parametrize("case", ["config.yaml: 5 MiB"], indirect=True)
def test_a_config_past_its_cap_is_not_read(case: Path) -> None:
    report = child(case)
    _good_data_kept(report)
    assert "pad" not in report["hparam_columns"]
    (note,) = [n for n in report["notes"] if "config.yaml" in n]
    assert "larger than the 4 MiB" in note


def test_a_run_directory_linked_from_outside_keeps_its_own_config(tmp_path: Path) -> None:
    """Run directories are followed as TensorBoard follows them; their own files count."""
    base = hostile.make_case("", tmp_path)
    outside = tmp_path / "elsewhere"
    (base / "bad").rename(outside)
    (base / "bad").symlink_to(outside, target_is_directory=True)
    report = child(base)
    _good_data_kept(report)
    assert report["notes"] == []
    assert report["read"] == [{"points": 9, "sprite": True}]


def test_a_fifo_behind_an_fsspec_local_url_is_skipped(tmp_path: Path) -> None:
    logdir = hostile.make_case("event file: FIFO", tmp_path)
    hostile.CASES["hparams.yaml: FIFO"][1](logdir)
    report = child(f"file://{logdir}")
    assert report["scalars"] == {"good": hostile.STEPS, "bad": hostile.STEPS}
    assert _warned(report, hostile.EVENT_NAME)
    assert any("hparams.yaml" in n and "FIFO" in n for n in report["notes"])


@pytest.mark.parametrize("case", ["projector tensors: FIFO"], indirect=True)
def test_a_projector_tensor_file_that_is_a_fifo_is_named(case: Path) -> None:
    report = child(case)
    _good_data_kept(report)
    (row,) = report["embeddings"]
    assert "tensors.tsv" in row["note"]
    assert "FIFO" in row["note"]
    (read,) = report["read"]
    assert "FIFO" in read["error"]


@pytest.mark.parametrize("case", ["projector sprite: FIFO"], indirect=True)
def test_a_sprite_that_is_a_fifo_leaves_dots(case: Path) -> None:
    report = child(case)
    assert report["read"] == [{"points": 9, "sprite": False}]
    assert _warned(report, "sprite.png", "sprite not read", "run 'bad', tag 'points'", "FIFO")


@pytest.mark.parametrize("case", ["projector_config.pbtxt: FIFO"], indirect=True)
def test_a_projector_config_that_is_a_fifo_is_named(case: Path) -> None:
    report = child(case)
    _good_data_kept(report)
    assert report["embeddings"] == []
    assert _warned(report, "projector_config.pbtxt", "FIFO")


@pytest.mark.parametrize(
    ("case", "tag"),
    [
        ("histogram of 10^7 buckets", "huge_histogram"),
        ("text tensor claiming 10^9 strings", "huge_text"),
    ],
    indirect=["case"],
)
def test_a_record_claiming_too_much_is_a_warning_in_bounded_memory(case: Path, tag: str) -> None:
    report = child(case)
    _good_data_kept(report)
    assert _warned(report, hostile.EVENT_NAME, tag)
