"""The %tbnb magic and tbnb.Dashboard, on a logdir written by tensorboardX."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import ipywidgets
import pytest

import tbnb
from tbnb.kinds import KINDS, Tab
from tbnb.notebook.dashboard import Dashboard, tabs
from tbnb.notebook.magic import parse_magic_line
from tbnb.notebook.samples import SampleSpec, write_sample
from tbnb.widgets.dashboard import DashboardWidget

pytest.importorskip("tensorboardX")
IPython = pytest.importorskip("IPython")
from IPython.core.error import UsageError  # noqa: E402

SPEC = SampleSpec(
    learning_rates=(1e-3, 1e-2),
    seeds=(0, 1),
    steps=40,
    val_every=20,
    hist_every=20,
    image_steps=(0,),
)


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("nb") / "my runs"  # a space, as users have
    write_sample(path, SPEC)
    return path


@pytest.fixture
def shell() -> Any:
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "tbnb")
    return ip


# ------------------------------------------------------------------ parsing
def test_parse_quoted_path_with_spaces(logdir: Path) -> None:
    ns = parse_magic_line(f'"{logdir}" --refresh 2.5 --runs "seed=0$" --tags ^train/')
    assert ns is not None
    assert (ns.logdir, ns.refresh, ns.runs, ns.tags) == (str(logdir), 2.5, "seed=0$", "^train/")
    ns = parse_magic_line(f"'{logdir}'")
    assert ns is not None
    assert ns.logdir == str(logdir)


def test_parse_expands_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "runs").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path))
    ns = parse_magic_line("~/runs")
    assert ns is not None
    assert ns.logdir == str(tmp_path / "runs")


def test_parse_keeps_urls() -> None:
    ns = parse_magic_line("s3://bucket/my%20runs --refresh 60")
    assert ns is not None
    assert ns.logdir == "s3://bucket/my%20runs"
    assert ns.refresh == 60.0


def test_a_second_word_is_a_second_logdir(tmp_path: Path) -> None:
    """``%tbnb DIR extra`` names two logdirs; one that cannot be read warns when loaded
    (it may be created later) and the others are shown."""
    args = parse_magic_line(f"{tmp_path} extra")
    assert args is not None
    assert args.logdir == [str(tmp_path), "extra"]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("/definitely/not/here", "does not exist"),
        ("{file}", "is not a directory"),
        ("{dir} --refresh 0", "must be > 0"),
        ("{dir} --refresh soon", "expected a number of seconds"),
        ("{dir} --runs '('", "invalid regular expression"),
        ("{dir} --tag x", "unrecognized arguments: --tag x"),
        ("'{dir}", "No closing quotation"),
    ],
)
def test_parse_errors_are_usage_errors(tmp_path: Path, line: str, message: str) -> None:
    (tmp_path / "f.txt").write_text("x")
    line = line.format(dir=tmp_path, file=tmp_path / "f.txt")
    with pytest.raises(UsageError, match=message) as info:
        parse_magic_line(line)
    assert "usage: %tbnb" in str(info.value)


def test_help_prints_and_returns_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_magic_line("--help") is None
    out = capsys.readouterr().out
    assert "--refresh N" in out
    assert "--runs REGEX" in out


# ---------------------------------------------------------------- dashboard
def test_dashboard_from_logdir(logdir: Path) -> None:
    dash = Dashboard(str(logdir))
    assert isinstance(dash, DashboardWidget)  # one anywidget: it draws wherever they draw
    expected = [spec for spec in tabs() if spec.shown_for(dash.experiment)]
    # the sample has a custom-scalars layout and add_hparams
    assert list(dash.views)[:3] == ["scalars", "custom_scalars", "hparams"]
    assert list(dash.views) == [spec.key for spec in expected]
    scal, hp = dash.views["scalars"], dash.views["hparams"]
    assert type(scal).__name__ == "ScalarsWidget"
    assert type(hp).__name__ == "HParamsWidget"
    assert dash.titles == [spec.title for spec in expected]
    views = list(dash.views.values())  # builds every tab
    assert [dash.pages[key] for key in dash.tab_keys] == views
    assert dash.page_keys["meshes"] == "mesh"  # the view of the one bundle that draws it
    shown = set(scal.data["run"])
    assert set(SPEC.run_names()) <= shown
    assert "my runs" in dash.header_text


def test_dashboard_filters_while_loading(logdir: Path) -> None:
    dash = Dashboard(logdir, runs="seed=1$", tags="^train/")
    data = dash.views["scalars"].data
    assert set(data["run"]) == {"lr=0.001,seed=1", "lr=0.01,seed=1"}
    assert set(data["tag"]) == {"train/loss", "train/acc"}
    assert set(dash.experiment.scalars["tag"].astype(str)) == {"train/loss", "train/acc"}


def test_dashboard_from_experiment(logdir: Path) -> None:
    exp = tbnb.load(logdir)
    dash = Dashboard(exp)
    assert dash.experiment is exp
    with pytest.raises(TypeError, match=r"tbnb.load"):
        Dashboard(exp, runs="x")


def test_hparams_selection_drives_scalars(logdir: Path) -> None:
    dash = Dashboard(logdir)
    hp, scal = dash.views["hparams"], dash.views["scalars"]
    assert len(dash.links) == 4  # scalars <-> selection (Python, browser); hparams -> selection
    hp.brush("lr", (0.005, 1.0))  # the lr=0.01 runs only
    assert set(hp.selected_runs) >= {"lr=0.01,seed=0", "lr=0.01,seed=1"}
    data = scal.data
    assert set(data.loc[data["tag"] == "train/loss", "run"]) == {"lr=0.01,seed=0", "lr=0.01,seed=1"}


def test_dashboard_refresh_starts_polling(logdir: Path) -> None:
    dash = Dashboard(logdir, refresh=3600)
    scal = dash.views["scalars"]
    coordinator = dash.experiment.coordinator
    try:
        assert coordinator.polling  # one poller for the experiment, whatever watches it
        timer = coordinator._poller
        assert timer is not None
    finally:
        dash.close()
    timer.join(timeout=10)
    assert not timer.is_alive()  # closing the dashboard stops its tabs' polling
    assert coordinator.subscribers == 0
    assert scal.comm is None


def test_dashboard_bad_arguments(logdir: Path) -> None:
    with pytest.raises(ValueError, match="refresh"):
        Dashboard(logdir, refresh=0)
    with pytest.raises(ValueError, match="runs="):
        Dashboard(logdir, runs="(")
    with pytest.raises(TypeError, match=r"logdir path/URL \(or several\) or a tbnb\.Experiment"):
        Dashboard(42)
    with pytest.raises(TypeError):
        Dashboard(logdir, smoothing=0.5)  # type: ignore[call-arg]


def test_empty_logdir_says_so(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "run")) as w:
        w.flush()  # the file holds its version record and nothing logged
    dash = Dashboard(tmp_path)
    assert dash.views == {}
    assert dash.tabs == []
    assert dash.header["state"] == "empty"
    assert "nothing to show" in dash.header_text


def test_no_hparams_tab_for_metrics_alone(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    for run in ("a", "b"):
        with SummaryWriter(str(tmp_path / run)) as w:
            for step in range(5):
                w.add_scalar("loss", 1.0 / (step + 1), step)
    dash = Dashboard(tmp_path)
    assert dash.titles[0] == "Scalars"
    assert "HParams" not in dash.titles
    assert len(dash.links) == 2  # the scalars tab and the run selection (Python, browser)


def test_header_escapes_paths(tmp_path: Path) -> None:
    evil = tmp_path / "<b onmouseover=alert(1)>"
    write_sample(
        evil,
        SampleSpec(
            learning_rates=(0.1,), seeds=(0,), steps=5, val_every=5, hist_every=5, image_steps=()
        ),
    )
    dash = Dashboard(evil)
    assert "<b onmouseover=alert(1)>" in dash.header["location"]  # text: the browser shows it
    assert dash.header_text.startswith("tbnb · ")  # as text (tests/ui/test_hostile_names.py)


def test_a_kind_declares_its_tab(logdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[Any, Any]] = []

    def texts(exp: Any, *, refresh: float | None) -> ipywidgets.Widget:
        calls.append((exp, refresh))
        return ipywidgets.HTML(f"{len(exp.text)} texts")

    for key, title in (("text", "Text (test)"), ("tensors", "Tensors (test)")):
        monkeypatch.setitem(KINDS, key, dataclasses.replace(KINDS[key], tab=Tab(title, texts)))
    titles = [spec.title for spec in tabs()]
    assert titles.index("Text (test)") < titles.index("Tensors (test)")  # the registry's order
    dash = Dashboard(logdir)
    assert "Text (test)" in dash.titles
    assert "Tensors (test)" not in dash.titles  # the sample logs no plain tensor: no tab
    assert calls == []  # built when first opened
    dash.selected_index = dash.titles.index("Text (test)")
    assert len(calls) == 1
    assert calls[0][1] is None
    assert dash.views["text"].value == f"{len(dash.experiment.text)} texts"


# -------------------------------------------------------------------- magic
def test_magic_displays_a_dashboard(
    shell: Any, logdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown: list[Any] = []
    monkeypatch.setattr("IPython.display.display", lambda *objs, **kw: shown.extend(objs))
    dash = shell.run_line_magic("tbnb", f'"{logdir}" --runs "seed=0$"')
    assert shown == []  # returned, shown once as the cell's result (never displayed twice)
    assert isinstance(dash, Dashboard)
    assert set(dash.views["scalars"].data["run"]) == {"lr=0.001,seed=0", "lr=0.01,seed=0"}


def test_magic_with_fsspec_url(shell: Any, logdir: Path) -> None:
    fsspec = pytest.importorskip("fsspec")
    fs = fsspec.filesystem("memory")
    for path in logdir.rglob("*"):
        if path.is_file():
            fs.pipe(f"/magic-url/{path.relative_to(logdir).as_posix()}", path.read_bytes())
    try:
        dash = shell.run_line_magic("tbnb", "memory://magic-url --tags ^val/")
    finally:
        fs.rm("/magic-url", recursive=True)
    assert set(dash.views["scalars"].data["tag"]) == {"val/loss", "val/acc"}
    assert "memory://magic-url" in dash.header_text


def test_magic_errors_do_not_raise_system_exit(shell: Any) -> None:
    with pytest.raises(UsageError, match="does not exist"):
        shell.run_line_magic("tbnb", "/no/such/logdir")
    with pytest.raises(UsageError, match="unrecognized arguments: --bogus"):
        shell.run_line_magic("tbnb", "--bogus")


def test_magic_registered_through_package_entry_point(shell: Any) -> None:
    assert "tbnb" in shell.magics_manager.magics["line"]
    assert "--refresh N" in shell.magics_manager.magics["line"]["tbnb"].__doc__


def test_magic_returns_the_dashboard_shown_once(shell: Any, logdir: Path) -> None:
    from IPython.utils.capture import capture_output

    from tbnb.notebook.dashboard import Dashboard

    with capture_output() as captured:
        result = shell.run_cell(f"%tbnb {str(logdir)!r}", store_history=True)
    dash = result.result
    try:
        assert isinstance(dash, Dashboard)
        assert captured.stdout.count("Dashboard object") == 1  # the cell's result, once
        kept = shell.run_cell(f"dash = %tbnb {str(logdir)!r}").result
        assert kept is None
        assert isinstance(shell.user_ns["dash"], Dashboard)
        shell.user_ns["dash"].close()
    finally:
        dash.close()
