"""The profiler view's Python side: what the browser asks, answered as it would be.

Windows are checked against a plain selection of the spans in view; a span's details
against the correlation ids of the raw trace; the run selection, reloads, exp.info.
"""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

import tbnb
from tbnb.warnings import DataWarning
from tbnb.widgets.profile.timeline import TimelineIndex
from tests.writers_profile import extract_gpu_traces


@pytest.fixture(scope="module")
def gpu_logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return extract_gpu_traces(tmp_path_factory.mktemp("gpu_widget"))


@pytest.fixture(scope="module")
def view(gpu_logdir: Path) -> tbnb.widgets.profile.ProfileWidget:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        exp = tbnb.load(gpu_logdir, progress=False)
        return tbnb.profiler(exp, "torch/resnet18_bs32")


def test_window_holds_every_span_in_view(view: tbnb.widgets.profile.ProfileWidget) -> None:
    events = view.profile.trace(view.trace).events
    t0 = float(events["start"].min()) + 10_000.0
    t1 = t0 + 200.0
    reply = view.answer({"type": "window", "id": "1", "t0": t0, "t1": t1, "pixels": 100_000})
    assert "error" not in reply
    end = events["start"] + events["dur"]
    expected = set(events.index[(events["start"] < t1) & (end > t0)])
    assert set(reply["row"].tolist()) == expected  # at 2 ns a pixel nothing is merged
    assert (reply["count"] == 1).all()


def test_window_merges_spans_under_a_pixel(view: tbnb.widgets.profile.ProfileWidget) -> None:
    events = view.profile.trace(view.trace).events
    index = TimelineIndex(events)
    whole = index.window(index.t0, index.t1, 800)
    assert whole["count"].sum() == len(events)  # every span drawn, alone or merged
    assert len(whole["row"]) < len(events) / 2
    merged = whole["count"] > 1
    assert (whole["row"][merged] == -1).all()
    pixel = (index.t1 - index.t0) / 800
    assert (whole["dur"][~merged] >= 0).all()
    singles = whole["row"][~merged]
    durations = events["dur"].to_numpy()[singles]
    assert (durations[durations < pixel] >= 0).all()


def test_span_details_list_the_kernels_it_launched(
    view: tbnb.widgets.profile.ProfileWidget, gpu_logdir: Path
) -> None:
    events = view.profile.trace(view.trace).events
    (path,) = (gpu_logdir / "torch" / "resnet18_bs32").glob("*.pt.trace.json")
    raw = json.loads(path.read_text())["traceEvents"]
    op = events[events["name"].astype(str) == "aten::convolution_backward"].iloc[0]
    lo, hi = op["start"], op["start"] + op["dur"]
    corr = {
        e["args"]["correlation"]
        for e in raw
        if e.get("cat") in ("cuda_runtime", "cuda_driver")
        and e["tid"] == 473
        and lo <= e["ts"] <= hi
        and "correlation" in e.get("args", {})
    }
    expected = sorted(
        e["ts"] for e in raw if e.get("cat") == "kernel" and e["args"]["correlation"] in corr
    )
    reply = view.answer({"type": "span", "id": "2", "row": int(op.name)})
    assert reply["related_total"] == len(expected) > 0
    np.testing.assert_allclose(np.sort(reply["related"]["start"]), expected)
    assert ["name", "aten::convolution_backward"] in reply["fields"]
    kernel_row = int(reply["related"]["row"][0])
    back = view.answer({"type": "span", "id": "3", "row": kernel_row})
    assert back["related_label"] == "launched by"
    assert back["related_total"] == 1


def test_search_and_errors(view: tbnb.widgets.profile.ProfileWidget) -> None:
    found = view.answer({"type": "search", "id": "4", "query": "convolution_backward$"})
    assert found["total"] == 60
    assert np.all(np.diff(found["start"]) >= 0)
    exact = view.answer({"type": "search", "id": "5", "query": "aten::mm", "exact": True})
    events = view.profile.trace(view.trace).events
    assert exact["total"] == int((events["name"].astype(str) == "aten::mm").sum()) > 0
    bad = view.answer({"type": "search", "id": "6", "query": "("})  # not a regex: literal
    assert "error" not in bad
    empty = view.answer({"type": "search", "id": "7", "query": ""})
    assert "empty search" in empty["error"]
    missing = view.answer({"type": "span", "id": "8", "row": 10**9})
    assert "no span" in missing["error"]


def test_tabs_fill_when_opened(view: tbnb.widgets.profile.ProfileWidget) -> None:
    assert view._tables == {}
    view.tab = "kernels"
    kernels = view._tables["kernels"]
    events = view.profile.trace(view.trace).events
    device = events[events["kind"].isin(["kernel", "memcpy", "memset"])]
    assert len(kernels["data"]["name"]) == device["name"].astype(str).nunique() == 58
    view.by_shape = True
    assert view._tables["trace"] == [view.trace, True]
    view.tab = "memory"
    assert {c["device"] for c in view._memory["curves"]} == {-1, 0}
    view.tab = "compare"
    assert view._compare["a"] == view.trace
    with pytest.raises(Exception, match="tab must be one of"):
        view.tab = "flame"
    view.tab = "overview"


def test_two_selected_runs_are_compared(view: tbnb.widgets.profile.ProfileWidget) -> None:
    view.selected_runs = ["torch/resnet18_bs32", "jax"]  # compared in the traces' order
    assert view.trace.startswith("jax/")
    assert view.compare_with.startswith("torch/")
    view.selected_runs = ["torch/resnet18_bs32"]
    assert view.trace.startswith("torch/")


def test_reload_lists_a_new_trace_and_info_lists_traces(gpu_logdir: Path, tmp_path: Path) -> None:
    logdir = tmp_path / "logs"
    shutil.copytree(gpu_logdir / "jax", logdir / "jax")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        exp = tbnb.load(logdir, progress=False)
        widget = tbnb.profiler(exp)
        assert [t["run"] for t in widget.traces] == ["jax"]
        (trace,) = (gpu_logdir / "torch" / "resnet18_bs32").glob("*.pt.trace.json")
        (logdir / "resnet").mkdir()
        shutil.copy(trace, logdir / "resnet")
        from torch.utils.tensorboard import SummaryWriter

        writer = SummaryWriter(str(logdir / "resnet"))  # the reload sees new event bytes
        writer.add_scalar("loss", 1.0, 0)
        writer.close()
        exp.reload()
    assert [t["run"] for t in widget.traces] == ["jax", "resnet"]
    info = exp.info
    assert info.loc["resnet", ("profile", "traces")] == 1
    assert info.loc["jax", ("profile", "formats")] == "xplane"


def test_bad_arguments() -> None:
    with pytest.raises(TypeError, match="did you mean 'tab'"):
        tbnb.profiler(Path(__file__).parent, tabs="x")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="source must be"):
        tbnb.profiler(3)


def test_header_and_summary_count_runs_holding_only_traces(gpu_logdir: Path) -> None:
    from tbnb.notebook.dashboard import Dashboard

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        exp = tbnb.load(gpu_logdir, progress=False)
        dash = Dashboard(exp)
    assert exp.runs == []  # no event files: the runs hold traces only
    header = dash.header_text
    assert "2 runs" in header
    assert "Profile" in header
    assert (
        "<tr><th style='text-align:left;padding-right:1em'>runs</th><td style='text-align:left'>2:"
        in exp._repr_html_()
    )
    dash.close()


def test_to_plotly_stacks_steps_and_marks_the_memory_peak(
    view: tbnb.widgets.profile.ProfileWidget,
) -> None:
    from tbnb.analysis.profile.memory import memory_peaks
    from tbnb.analysis.profile.steps import CATEGORIES, step_table

    trace = view.profile.trace(view.trace)
    table = step_table(trace.events)
    fig = view.to_plotly()
    bars = [d for d in fig.data if d.type == "bar"]
    assert len(bars) == len(CATEGORIES)
    assert {d.offsetgroup for d in bars} == {"steps"}  # one place per step: stacked
    assert list(bars[0].x) == [str(s) for s in table["step"]]
    top = np.asarray(bars[-1].base, float) + np.asarray(bars[-1].y, float)
    np.testing.assert_allclose(top, table["duration"].to_numpy() / 1000.0)  # ms
    for bar, below in zip(bars[1:], bars[:-1], strict=True):  # each starts on the one below
        np.testing.assert_allclose(
            np.asarray(bar.base, float), np.asarray(below.base, float) + np.asarray(below.y, float)
        )
    peaks = memory_peaks(trace.memory, trace.events).set_index("device")
    for device, where in ((-1, "host"), (0, "GPU 0")):
        (dot,) = [d for d in fig.data if d.name == f"{where} peak"]
        assert dot.y[0] == pytest.approx(peaks.loc[device, "peak"] / 2**20)
    assert fig.layout.title.text == f"profile of {view.trace}"


def test_options_go_through_the_constructor(gpu_logdir: Path) -> None:
    from tbnb.widgets.colors import COLORBLIND_PALETTE
    from tbnb.widgets.profile import ProfileWidget
    from tbnb.widgets.profile.source import profile_source

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DataWarning)
        exp = tbnb.load(gpu_logdir, progress=False)
        view = tbnb.profiler(
            exp, "jax", compare_with="torch/resnet18_bs32", tab="memory", palette="colorblind"
        )
        assert view.trace.startswith("jax/")
        assert view.compare_with.startswith("torch/")
        assert view._memory["trace"] == view.trace  # the tab asked for is filled
        assert view.run_colors == {
            "jax": COLORBLIND_PALETTE[0],
            "torch/resnet18_bs32": COLORBLIND_PALETTE[1],
        }
        view.palette = "default"
        assert view.run_colors["jax"] == "#4e79a7"
        with pytest.raises(Exception, match="height must be between 160 and 4000 pixels"):
            ProfileWidget(source=profile_source(exp), height=20)
        with pytest.raises(Exception, match="tab must be one of"):
            tbnb.profiler(exp, tab="flame")
        with pytest.raises(ValueError, match="refresh= needs"):
            tbnb.profiler(exp.profile, refresh=1)
        with pytest.raises(TypeError, match="a ProfileSet"):
            tbnb.profiler(exp.scalars)
