"""The custom-scalars view without a browser: charts resolved as TensorBoard's plugin
resolves them, the drawn data equal to its ``scalars`` route, notes for what is missing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.kinds.custom_scalars import layout_from_dict
from tbnb.transforms.smoothing import smooth
from tbnb.widgets.custom_scalars.prepare import MARGIN_SEP, resolve
from tests.writers_prcurves import PrWritten, cached_pr_logdir, tb_custom_scalars


@pytest.fixture(scope="module")
def written() -> PrWritten:
    return cached_pr_logdir()


@pytest.fixture(scope="module")
def exp(written: PrWritten) -> Any:
    return tbnb.load(written.logdir, progress=False)


def test_multiline_charts_collect_tags_across_runs_as_tensorboard(
    written: PrWritten, exp: Any
) -> None:
    _, scalars = tb_custom_scalars(written.logdir)
    w = tbnb.custom_scalars(exp, smoothing=0)
    full = w.full_data
    checked = 0
    for chart in w.charts:
        if chart["kind"] != "multiline":
            continue
        expected: dict[tuple[str, str], list[list[float]]] = {}
        for run in exp.runs:
            for regex in chart["tags"]:
                for tag, events in scalars(run, regex).items():
                    expected[(run, tag)] = events
        assert sorted(map(tuple, chart["series"])) == sorted(expected), chart["key"]
        drawn = full[full["chart"] == chart["key"]]
        for (run, tag), events in expected.items():
            ours = drawn[(drawn["run"] == run) & (drawn["tag"] == tag)]
            assert ours[["wall_time", "step", "value"]].to_numpy().tolist() == [
                list(e) for e in events
            ], (run, tag)
            checked += 1
    assert checked >= 8
    everything = next(c for c in w.charts if c["title"] == "everything")
    assert ["torch", "loss/val"] in everything["series"]  # "loss" matches from the start


def test_margin_chart_draws_value_and_band_as_tensorboard(written: PrWritten, exp: Any) -> None:
    _, scalars = tb_custom_scalars(written.logdir)
    w = tbnb.custom_scalars(exp, smoothing=0)
    (chart,) = [c for c in w.charts if c["kind"] == "margin"]
    assert chart["series"] == [
        ["torch", MARGIN_SEP.join(["margin/acc", "margin/acc_lo", "margin/acc_hi"])]
    ]
    escaped = "|".join(f"({t})" for t in ("margin/acc", "margin/acc_lo", "margin/acc_hi"))
    events = scalars("torch", escaped)
    drawn = w.full_data[w.full_data["chart"] == chart["key"]]
    assert drawn["tag"].unique().tolist() == ["margin/acc"]
    for column, tag in (
        ("value", "margin/acc"),
        ("lower", "margin/acc_lo"),
        ("upper", "margin/acc_hi"),
    ):
        assert drawn[["step", column]].to_numpy().tolist() == [[e[1], e[2]] for e in events[tag]], (
            column
        )
    assert drawn["smoothed"].tolist() == drawn["value"].tolist()  # smoothing 0


def test_smoothing_is_the_scalars_smoothing(exp: Any) -> None:
    w = tbnb.custom_scalars(exp, smoothing=0.8)
    data = w.data
    part = data[(data["run"] == "torch") & (data["tag"] == "loss/train")].drop_duplicates("step")
    np.testing.assert_allclose(part["smoothed"], smooth(part["value"].to_numpy(), 0.8))
    assert tbnb.custom_scalars is tbnb.widgets.custom_scalars.custom_scalars


def test_notes_say_what_cannot_be_drawn() -> None:
    df = pd.DataFrame(
        {
            "run": ["a", "a", "a", "b", "b", "b", "b"],
            "tag": ["v", "lo", "hi", "v", "lo", "v", "lo"],
            "step": [0, 0, 0, 0, 0, 1, 1],
            "wall_time": 0.0,
            "value": [1.0, 0.5, 1.5, 2.0, 1.0, 2.5, 2.0],
        }
    )
    layout = layout_from_dict(
        {
            "c": {
                "band": ["Margin", ["v", "lo", "hi"]],
                "bad": ["Multiline", ["(unclosed", "v"]],
                "none": ["Multiline", ["nothing.*"]],
                "other": ["Margin", ["x", "y", "z"]],
            }
        }
    )
    band, bad, none, other = resolve(layout, df)
    assert band["series"] == [["a", "v\x00lo\x00hi"]]
    assert band["notes"] == ["run 'b' lacks data for tags ['hi']"]
    assert bad["series"] == [["a", "v"], ["b", "v"]]
    assert bad["notes"][0].startswith("tag regex '(unclosed' is invalid")
    assert none["notes"] == [
        "no scalar tag of any run matches 'nothing.*' (matched from the "
        "tag's start, as TensorBoard does)"
    ]
    assert other["notes"] == ["no run has any of the tags ['x', 'y', 'z']"]


def test_margin_steps_that_differ_are_aligned_and_reported() -> None:
    df = pd.DataFrame(
        {
            "run": "a",
            "tag": ["v", "v", "v", "lo", "lo", "hi", "hi"],
            "step": [0, 1, 2, 0, 2, 0, 2],
            "wall_time": 0.0,
            "value": [1.0, 2.0, 3.0, 0.5, 2.5, 1.5, 3.5],
        }
    )
    w = tbnb.custom_scalars(df, layout={"c": {"band": ["Margin", ["v", "lo", "hi"]]}}, smoothing=0)
    (chart,) = w.charts
    assert "were logged at different steps" in chart["notes"][0]
    assert w.data[["step", "value", "lower", "upper"]].to_numpy().tolist() == [
        [0, 1.0, 0.5, 1.5],
        [2, 3.0, 2.5, 3.5],
    ]


def test_state_is_binary_and_the_layout_can_be_given(exp: Any) -> None:
    w = tbnb.custom_scalars(
        exp,
        layout={"mine": {"val": ["Multiline", ["loss/val"]]}},
        runs="torch|tbx",
        log_y=["mine/val"],
        palette="colorblind",
    )
    assert [c["key"] for c in w.charts] == ["mine/val"]
    assert w.charts[0]["series"] == [["torch", "loss/val"]]
    assert w.layout.categories[0].title == "mine"
    state = w.get_state()
    assert isinstance(state["_data"]["columns"]["value"]["view"], memoryview)
    assert "margin" not in json.dumps(state["charts"])
    assert w.log_y == ["mine/val"]
    assert len(w.to_plotly().data) == 2


def test_empty_and_bad_arguments_say_why(exp: Any, tmp_path: Path) -> None:
    df = pd.DataFrame({"run": "a", "tag": "x", "step": [0], "wall_time": 0.0, "value": 1.0})
    assert tbnb.custom_scalars(df).empty_reason == "a DataFrame holds no layout: pass layout="
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "r")) as writer:
        writer.add_scalar("x", 1.0, 0)
    w = tbnb.custom_scalars(tbnb.load(tmp_path, progress=False))
    assert "wrote a custom-scalars layout (add_custom_scalars)" in w.empty_reason
    with pytest.raises(TypeError, match="did you mean 'log_y'"):
        tbnb.custom_scalars(exp, logy=["a"])  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="layout= must be"):
        tbnb.custom_scalars(exp, layout=["Multiline"])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="chart type must be"):
        tbnb.custom_scalars(exp, layout={"c": {"x": ["Bar", []]}})


def test_refresh_follows_new_points_and_a_new_layout(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    logdir = tmp_path / "live"
    writer = SummaryWriter(str(logdir / "a"))
    writer.add_custom_scalars({"c": {"loss": ["Multiline", ["loss"]]}})
    writer.add_scalar("loss", 1.0, 0)
    writer.flush()
    exp = tbnb.load(logdir, progress=False)
    w = tbnb.custom_scalars(exp)
    assert len(w.full_data) == 1
    writer.add_scalar("loss", 0.5, 1)
    writer.add_scalar("acc", 0.5, 1)
    writer.flush()
    assert w.refresh_now() == 1
    assert len(w.full_data) == 2
    writer2 = SummaryWriter(str(logdir / "b"))
    writer2.add_custom_scalars({"d": {"acc": ["Multiline", ["acc"]]}})
    writer2.flush()
    w.refresh_now()
    assert [c["key"] for c in w.charts] == ["c/loss", "d/acc"]
    writer.close()
    writer2.close()
    w.close()
