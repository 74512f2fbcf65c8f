"""Finding runs: symbolic links followed (loops guarded), remote failures explained."""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

import fsspec
import pytest
from fsspec.implementations.memory import MemoryFileSystem

import tbnb
from tbnb.io.logdir import find_runs, open_logdir
from tbnb.io.remote import LogdirError
from tests import writers


def _tbx_run(path: Path, tag: str = "loss") -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(path)) as writer:
        for step in range(3):
            writer.add_scalar(tag, step / 10, step)


def test_a_logdir_of_symlinked_runs_loads_every_run(tmp_path: Path) -> None:
    store, chosen = tmp_path / "all_runs", tmp_path / "chosen"
    for name in ("lr=0.1", "lr=0.01", "lr=0.001"):
        _tbx_run(store / name)
    chosen.mkdir()
    os.symlink(store / "lr=0.1", chosen / "best")
    os.symlink(store / "lr=0.001", chosen / "smallest")
    (chosen / "nested").mkdir()
    os.symlink(store / "lr=0.01", chosen / "nested" / "middle")
    os.symlink(chosen, chosen / "nested" / "back_up")  # a loop
    os.symlink(tmp_path / "gone", chosen / "dangling")
    exp = tbnb.load(chosen, progress=False)
    assert exp.runs == ["best", "nested/middle", "smallest"]
    assert exp.scalars.groupby("run", observed=True).size().to_dict() == {
        "best": 3,
        "nested/middle": 3,
        "smallest": 3,
    }


def test_a_symlinked_event_file_is_read(tmp_path: Path) -> None:
    _tbx_run(tmp_path / "source")
    (event_file,) = writers.event_files(str(tmp_path / "source"))
    (tmp_path / "logdir" / "run").mkdir(parents=True)
    os.symlink(event_file, tmp_path / "logdir" / "run" / Path(event_file).name)
    assert tbnb.load(tmp_path / "logdir", progress=False).runs == ["run"]


def test_a_missing_filesystem_package_names_the_extra_to_install() -> None:
    with pytest.raises(LogdirError, match=r"'oci://bucket/runs' needs a filesystem package"):
        tbnb.load("oci://bucket/runs")
    try:
        import s3fs  # noqa: F401
    except ImportError:
        with pytest.raises(LogdirError, match=r"needs s3fs.*pip install 'tbnb\[s3\]'"):
            tbnb.load("s3://bucket/runs")


class NoCredentialsError(Exception):
    """Shaped like botocore's (same name and module): not an OSError."""

    __module__ = "botocore.exceptions"

    def __str__(self) -> str:
        return "Unable to locate credentials\n  (and 60 lines of traceback in real life)"


class _FailingFS(MemoryFileSystem):
    protocol = "tbnbfail"
    root_marker = "/"
    fail_on: str = "info"
    error: Exception = NoCredentialsError()

    @classmethod
    def _strip_protocol(cls, path: str) -> str:
        return "/" + str(path).removeprefix("tbnbfail://").strip("/")

    def info(self, path: str, **kwargs: Any) -> dict[str, Any]:
        if self.fail_on == "info":
            raise self.error
        return super().info(path, **kwargs)

    def exists(self, path: str, **kwargs: Any) -> bool:
        if self.fail_on == "info":
            raise self.error
        return bool(super().exists(path, **kwargs))

    def ls(self, path: str, detail: bool = True, **kwargs: Any) -> Any:
        if self.fail_on == "ls" and path.rstrip("/").endswith("private"):
            raise PermissionError("Access Denied")
        return super().ls(path, detail=detail, **kwargs)


@pytest.fixture
def failing_fs() -> Any:
    fsspec.register_implementation("tbnbfail", _FailingFS, clobber=True)
    fs = fsspec.filesystem("tbnbfail", skip_instance_cache=True)
    yield fs
    importlib.import_module("fsspec.registry")._registry.pop("tbnbfail", None)


def test_a_remote_credentials_error_names_the_logdir_and_storage_options(failing_fs: Any) -> None:
    _FailingFS.fail_on = "info"
    with pytest.raises(LogdirError) as caught:
        tbnb.load("tbnbfail://bucket/runs")
    message = str(caught.value)
    assert message.startswith(
        "tbnb: cannot open logdir 'tbnbfail://bucket/runs': "
        "NoCredentialsError: Unable to locate credentials"
    )
    assert "storage_options" in message
    assert "60 lines" not in message  # the first line of the cause, not its traceback
    assert isinstance(caught.value.original, NoCredentialsError)
    assert caught.value.__suppress_context__


def test_an_unlistable_remote_directory_warns_and_keeps_the_rest(failing_fs: Any) -> None:
    _FailingFS.fail_on = "ls"
    from tbnb._proto import Event

    payload = writers.frame_record(Event(step=0, file_version="brain.Event:2").SerializeToString())
    failing_fs.pipe("/bucket/runs/public/events.out.tfevents.1.h", payload)
    failing_fs.pipe("/bucket/runs/private/events.out.tfevents.1.h", payload)
    fs, root = open_logdir("tbnbfail://bucket/runs")
    with pytest.warns(tbnb.warnings.LogdirWarning, match=r"cannot list .*private.*Access Denied"):
        runs = find_runs(fs, root)
    assert list(runs) == ["public"]


def test_s3_messages_say_how_to_pass_credentials() -> None:
    from tbnb.io.remote import logdir_error

    message = str(logdir_error("s3://b/r", NoCredentialsError()))
    assert "storage_options" in message
    assert "'anon': True" in message
    assert "AWS_ACCESS_KEY_ID" in message
    assert "GOOGLE_APPLICATION_CREDENTIALS" in str(logdir_error("gs://b/r", OSError("denied")))
