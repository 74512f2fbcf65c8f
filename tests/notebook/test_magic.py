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


def test_several_logdirs_named_or_by_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _run_in(tmp_path / "a")
    _run_in(tmp_path / "b")
    monkeypatch.chdir(tmp_path)
    ns = parse_magic_line("baseline=a new=memory://bucket/runs --refresh 5 --runs seed")
    assert ns is not None
    assert ns.logdir == {"baseline": "a", "new": "memory://bucket/runs"}
    assert (ns.refresh, ns.runs) == (5.0, "seed")
    ns = parse_magic_line("a 'b' ~/elsewhere")
    assert ns is not None
    assert ns.logdir == ["a", "b", str(Path("~/elsewhere").expanduser())]
    (tmp_path / "lr=0.1").mkdir()  # a folder named like NAME=LOGDIR is a folder
    ns = parse_magic_line("lr=0.1")
    assert ns is not None
    assert ns.logdir == "lr=0.1"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("a=x b", r"name every logdir \(NAME=LOGDIR \.\.\.\) or none"),
        ("a=x a=y", r"a logdir name is given twice"),
        ("'a b '=x c=y", r"logdir name 'a b ' cannot prefix run names: it starts or ends"),
        ("..=x", r"logdir name '\.\.' cannot prefix run names"),
        ("x y x", r"logdir 'x' is given twice"),
        ("a=", r"logdir 'a' must be a path or URL"),
    ],
)
def test_several_logdirs_refused_with_the_reason(line: str, message: str) -> None:
    with pytest.raises(UsageError, match=message) as info:
        parse_magic_line(line)
    assert "usage: %tbnb" in str(info.value)


def test_magic_shows_both_logdirs_runs(tmp_path: Path) -> None:
    from tbnb.notebook import magic

    _run_in(tmp_path / "a")
    _run_in(tmp_path / "b")
    dash = magic.tbnb_magic(f"first={tmp_path / 'a'} second={tmp_path / 'b'}")
    assert dash is not None
    try:
        assert dash.experiment.logdirs == {  # type: ignore[attr-defined]
            "first": str(tmp_path / "a"),
            "second": str(tmp_path / "b"),
        }
        assert dash.experiment.runs == ["first/version_0", "second/version_0"]  # type: ignore[attr-defined]
    finally:
        dash.close()  # type: ignore[attr-defined]
