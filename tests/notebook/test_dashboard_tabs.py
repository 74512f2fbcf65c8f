"""The dashboard's tabs: built when first opened, one run selection, hparams filters all."""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tbnb.kinds import KINDS, Tab
from tbnb.notebook.dashboard import Dashboard
from tbnb.notebook.export import read_page, render_html
from tbnb.warnings import EmptyResultWarning
from tbnb.widgets.selection import RunSelectionWidget, apply_hparams

RUNS = ["lr=0.1", "lr=0.01", "baseline"]


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from torch.utils.tensorboard import SummaryWriter

    root = tmp_path_factory.mktemp("tabs")
    rng = np.random.default_rng(0)
    for i, run in enumerate(RUNS):
        with SummaryWriter(str(root / run)) as w:
            for step in range(4):
                w.add_scalar("loss", 1.0 / (step + 1 + i), step)
                w.add_histogram("weights", rng.normal(size=100), step)
            w.add_text("notes", f"run **{run}**", 0)
            if run != "baseline":  # the baseline has no hyperparameters
                w.add_hparams(
                    {"lr": float(run.split("=")[1])}, {"hp/loss": 0.1 * (i + 1)}, run_name="."
                )
    with SummaryWriter(str(root / "notes")) as w:  # text alone
        w.add_text("notes", "only text", 0)
    return root


def test_only_the_first_tab_is_built_until_opened(logdir: Path) -> None:
    dash = Dashboard(logdir)
    try:
        keys = list(dash.views)
        assert keys[:3] == ["scalars", "hparams", "histograms"]
        assert list(dash.views.built) == ["scalars"]
        assert list(dash.pages) == ["scalars"]  # the others' pages say they are coming
        dash.selected_index = 2  # the user opens Histograms
        assert list(dash.views.built) == ["scalars", "histograms"]
        assert dash.pages["histograms"] is dash.views.built["histograms"]
        assert dash.page_keys["histograms"] == "histograms"
        dash.selected_index = 0
        dash.selected_index = 2  # opening it again builds nothing new
        assert list(dash.views.built) == ["scalars", "histograms"]
        assert dash.views["text"] is dash.views["text"]  # asking builds once
    finally:
        dash.close()


def test_the_hparams_table_waits_for_its_tab(logdir: Path) -> None:
    dash = Dashboard(logdir)  # final metrics reduce every scalar: not before the tab opens
    try:
        assert "HParams" in dash.titles
        assert "hparams" not in dash.experiment.state.cache
        dash.selected_index = dash.titles.index("HParams")
        assert "hparams" in dash.experiment.state.cache
    finally:
        dash.close()


def test_a_tab_that_fails_to_build_says_why_and_the_others_work(
    logdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(exp: Any, *, refresh: float | None) -> Any:
        raise ValueError("bad <text> frame")

    monkeypatch.setitem(KINDS, "text", dataclasses.replace(KINDS["text"], tab=Tab("Text", broken)))
    dash = Dashboard(logdir)
    try:
        index = list(dash.views).index("text")
        dash.selected_index = index
        assert dash.errors == {"text": "ValueError: bad <text> frame"}  # text: shown as text
        assert "text" not in dash.pages
        dash.selected_index = list(dash.views).index("histograms")
        assert "histograms" in dash.views.built
    finally:
        dash.close()


def test_one_run_selection_for_every_tab(logdir: Path) -> None:
    dash = Dashboard(logdir)
    try:
        scal, hist, text = (dash.views[k] for k in ("scalars", "histograms", "text"))
        assert dash.selection.runs == sorted([*RUNS, "notes"])  # the experiment's order
        dash.selection.selected_runs = ["baseline"]
        assert scal.selected_runs == hist.selected_runs == text.selected_runs == ["baseline"]
        assert set(scal.data["run"]) == {"baseline"}
        hist.selected_runs = ["lr=0.1", "baseline"]  # a tab's own selector changes it for all
        assert dash.selection.selected_runs == ["lr=0.1", "baseline"]
        assert scal.selected_runs == text.selected_runs == ["lr=0.1", "baseline"]
        for view in (scal, hist, text):
            assert "tbnb-shared-runs" in view._dom_classes
            assert view.run_colors == {r: dash.selection.run_colors[r] for r in view.run_colors}
        assert "tbnb-shared-runs" not in dash.views["hparams"]._dom_classes
    finally:
        dash.close()


def test_a_tab_built_later_starts_from_the_selection(logdir: Path) -> None:
    dash = Dashboard(logdir)
    try:
        dash.selection.selected_runs = ["lr=0.01"]
        assert dash.views["text"].selected_runs == ["lr=0.01"]
    finally:
        dash.close()


def test_an_hparams_selection_filters_every_tab(logdir: Path) -> None:
    dash = Dashboard(logdir)
    try:
        hp, scal = dash.views["hparams"], dash.views["scalars"]
        hist = dash.views["histograms"]
        hp.brush("lr", (0.05, 1.0))  # only lr=0.1 (the others' lr is other or missing)
        assert dash.selection.selected_runs == ["lr=0.1"]
        assert set(scal.data["run"]) == {"lr=0.1"}
        assert hist.selected_runs == dash.views["text"].selected_runs == ["lr=0.1"]
        hp.clear_brushes()
        assert set(dash.selection.selected_runs) == {*RUNS, "notes"}
    finally:
        dash.close()


def test_export_builds_every_tab(logdir: Path) -> None:
    dash = Dashboard(logdir)
    try:
        payload = read_page(render_html(dash))
        assert list(dash.views.built) == list(dash.views)
        keys = {spec["state"].get("_esm", "") for spec in payload["state"].values()}
        assert keys  # every anywidget's module is inlined once
        names = {spec["model_name"] for spec in payload["state"].values()}
        assert "LinkModel" in names  # tabs stay tied to the run selection in the page
    finally:
        dash.close()


def test_new_runs_join_the_selection_on_reload(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    with SummaryWriter(str(tmp_path / "a")) as w:
        w.add_scalar("loss", 1.0, 0)
        w.add_text("notes", "first", 0)
    dash = Dashboard(tmp_path)
    try:
        scal, text = dash.views["scalars"], dash.views["text"]  # two built tabs
        dash.selection.selected_runs = []
        with SummaryWriter(str(tmp_path / "b")) as w:
            w.add_scalar("loss", 2.0, 0)
            w.add_text("notes", "second", 0)
        dash.experiment.reload()  # one reload (the coordinator) updates every built tab
        assert dash.selection.runs == ["a", "b"]
        assert dash.selection.selected_runs == ["b"]  # new runs are shown, choices kept
        assert "b" in dash.selection.run_colors
        assert set(scal.data["run"]) == {"b"}
        assert text.selected_runs == ["b"]
        assert set(text.data["run"]) == {"b"}  # what the tab shows
    finally:
        dash.close()


def test_selection_rule_in_the_browser_equals_python() -> None:
    node = shutil.which("node")
    assert node, "node is needed to run the front end's rule"
    rng = random.Random(7)
    names = [f"r{i}" for i in range(8)]
    cases = []
    for _ in range(200):
        runs = rng.sample(names, rng.randint(0, 8))
        cases.append(
            [
                runs,
                rng.sample(names, rng.randint(0, 8)),
                rng.sample(names, rng.randint(0, 8)),
                rng.sample(names, rng.randint(0, 8)),
            ]
        )
    rule = Path(__file__).parents[2] / "js" / "src" / "widgets" / "selection" / "rule.js"
    script = (
        f"import {{ applyHparams }} from {json.dumps(rule.as_uri())};"
        "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{"
        "console.log(JSON.stringify(JSON.parse(s).map(c=>applyHparams(...c))))})"
    )
    out = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    assert json.loads(out) == [apply_hparams(*case) for case in cases]


def test_selection_widget_alone() -> None:
    hub = RunSelectionWidget.of(["a", "b"], palette="colorblind")
    assert hub.run_colors == {"a": "#cc6677", "b": "#332288"}
    hub.palette = "default"
    assert hub.run_colors["a"] == "#4e79a7"
    hub.close()


def test_an_empty_logdir_fills_as_runs_are_written(tmp_path: Path) -> None:
    """``Dashboard(empty_dir, refresh=...)``: new runs, tags and kinds appear (a tab per
    kind, in the registry's order), with the tab the user is on kept."""
    from torch.utils.tensorboard import SummaryWriter

    with pytest.warns(EmptyResultWarning):  # an empty logdir says why it shows nothing
        dash = Dashboard(tmp_path, refresh=3600)
    try:
        assert dash.tabs == []
        assert dash.header["state"] == "empty"
        assert "looking again every 3600 s" in dash.header_text
        with SummaryWriter(str(tmp_path / "a")) as w:
            w.add_scalar("loss", 1.0, 0)
        dash.experiment.reload()  # what the poller does every `refresh` seconds
        assert dash.titles == ["Scalars", "Runs"]
        assert list(dash.views.built) == ["scalars"]  # the first tab is built at once
        assert dash.header["state"] == "data"
        assert "1 run" in dash.header_text
        dash.selected_index = 1  # the user is on Runs
        with SummaryWriter(str(tmp_path / "b")) as w:
            w.add_scalar("acc", 0.5, 0)
            w.add_histogram("weights", np.arange(10.0), 0)
            w.add_text("notes", "hello", 0)
        dash.experiment.reload()
        assert dash.titles == ["Scalars", "Histograms", "Distributions", "Text", "Runs"]
        assert dash.titles[dash.selected_index] == "Runs"  # still where the user was
        assert dash.selection.runs == ["a", "b"]
        scal = dash.views["scalars"]
        assert set(scal.data["tag"]) == {"loss", "acc"}  # a new tag in a built tab
        assert "2 runs" in dash.header_text
    finally:
        dash.close()
    assert dash.experiment.coordinator.subscribers == 0
