"""``%tbnb`` with no logdir finds the usual folders beside the notebook."""

from __future__ import annotations

from pathlib import Path

import pytest
from IPython.core.error import UsageError

from tbnb.notebook.magic import DEFAULT_LOGDIRS, find_logdir, parse_magic_line


def _run_in(folder: Path) -> None:
    (folder / "version_0").mkdir(parents=True)
    (folder / "version_0" / "events.out.tfevents.1.host").write_bytes(b"")


@pytest.mark.parametrize("name", DEFAULT_LOGDIRS)
def test_no_argument_finds_the_usual_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    _run_in(tmp_path / name)
    monkeypatch.chdir(tmp_path)
    ns = parse_magic_line("--refresh 5")
    assert ns is not None
    assert Path(ns.logdir).resolve() == (tmp_path / name).resolve()
    assert ns.refresh == 5.0


def test_first_folder_with_event_files_wins(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()  # exists, but nothing was logged there
    _run_in(tmp_path / "runs")
    _run_in(tmp_path / "lightning_logs")
    assert find_logdir(tmp_path) == tmp_path / "runs"
    _run_in(tmp_path / "logs")
    assert find_logdir(tmp_path) == tmp_path / "logs"


def test_nothing_found_says_where_it_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "runs").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match=r"no LOGDIR given.*logs/, runs/, lightning_logs/") as info:
        parse_magic_line("")
    assert str(tmp_path) in str(info.value)
    assert "usage: %tbnb" in str(info.value)
