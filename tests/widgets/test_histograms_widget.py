"""The histograms widget (tbnb.histograms, tbnb.distributions) without a browser.

Logs come from real writers (tensorboardX ``add_histogram``, torch's default
``bins="tensorflow"``, TF2's tensors, the Keras layout); what the widget sends and shows
is checked against TensorBoard's own algorithms on the same histograms (re-binning as its
webapp does, bands as its compressor does).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import traitlets
from ipywidgets.widgets.widget import _remove_buffers

import tbnb
from tbnb.kinds.distributions import DISTRIBUTION_BPS
from tbnb.transforms.histograms import rebin, sample_indices
from tbnb.warnings import DataWarning, EmptyResultWarning
from tbnb.widgets.histograms.widget import HistogramsWidget
from tests import writers
from tests.writers_histograms import write_bad_histograms, write_histogram_runs


@pytest.fixture(scope="module")
def logdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_histogram_runs(tmp_path_factory.mktemp("hist") / "logs")


@pytest.fixture(scope="module")
def exp(logdir: Path) -> tbnb.Experiment:
    return tbnb.load(logdir, progress=False)


def _series(exp: tbnb.Experiment, run: str, tag: str) -> pd.DataFrame:
    """The histograms of a series with the buckets TensorBoard holds: a legacy
    ``HistogramProto``'s (one with a ``sum``) rounded to float32 by its ``data_compat``."""
    h = exp.histograms
    rows = h[(h["run"] == run) & (h["tag"] == tag)].sort_values("step", kind="stable")
    legacy = rows["sum"].notna().to_numpy()

    def f32(arrays: pd.Series) -> list[np.ndarray]:
        return [
            a.astype(np.float32).astype(np.float64) if old else a
            for a, old in zip(arrays, legacy, strict=True)
        ]

    return rows.assign(edges=f32(rows["edges"]), counts=f32(rows["counts"]))


def _tb_display(rows: pd.DataFrame, bins: int) -> np.ndarray:
    """TensorBoard's display bins of these histograms (range: every one of them)."""
    bounds = (float(rows["min"].min()), float(rows["max"].max()))
    return rebin(list(rows["edges"]), list(rows["counts"]), bins, bounds=bounds)[1]


def test_charts_are_rebinned_as_tensorboard_does(exp: tbnb.Experiment) -> None:
    w = tbnb.histograms(exp, bins=40)
    data = w.data
    for (run, tag), drawn in data.groupby(["run", "tag"]):
        rows = _series(exp, str(run), str(tag))
        picked = rows.iloc[sample_indices(rows["step"].to_numpy(), w.max_steps)]
        assert drawn["step"].unique().tolist() == picked["step"].tolist()
        display = rebin(
            list(rows["edges"]),
            list(rows["counts"]),
            40,
            bounds=(float(rows["min"].min()), float(rows["max"].max())),
        )
        want = display[1][sample_indices(rows["step"].to_numpy(), w.max_steps)]
        np.testing.assert_array_equal(
            drawn["count"].to_numpy().reshape(-1, 40), want.astype(np.float32)
        )
        assert drawn["bin_left"].iloc[0] == display[0][0]
    assert len(data.groupby(["run", "tag"])) == 6


def test_first_and_last_steps_always_drawn(exp: tbnb.Experiment) -> None:
    w = tbnb.histograms(exp, max_steps=7)
    steps = sorted(w.data["step"].unique())
    assert steps[0] == 0
    assert steps[-1] == 60
    assert len(steps) == 7
    assert np.allclose(np.diff(steps), 10)  # evenly spaced


def test_distributions_equal_tensorboards_compressor(exp: tbnb.Experiment) -> None:
    from tensorboard.plugins.distribution.compressor import compress_histogram

    d = tbnb.distributions(exp)
    assert d.mode == "distribution"
    data = d.data
    assert list(data.columns[4:]) == [f"p{bp}" for bp in DISTRIBUTION_BPS]
    assert len(data) == len(exp.histograms)  # every step of every series
    for _, row in data.sample(25, random_state=0).iterrows():
        hist = _series(exp, row["run"], row["tag"])
        source = hist[hist["step"] == row["step"]].iloc[0]
        buckets = np.stack([source["edges"][:-1], source["edges"][1:], source["counts"]], 1)
        assert [row[f"p{bp}"] for bp in DISTRIBUTION_BPS] == [
            v for _, v in compress_histogram(buckets)
        ]


def test_step_window_limits_steps_and_the_bins_span_it(exp: tbnb.Experiment) -> None:
    w = tbnb.histograms(exp, mode="heatmap", step_window=(40, 20), bins=16)
    assert w.step_window == [20, 40]
    data = w.data
    assert sorted(data["step"].unique()) == list(range(20, 41))
    for (run, tag), drawn in data.groupby(["run", "tag"]):
        rows = _series(exp, str(run), str(tag))
        rows = rows[(rows["step"] >= 20) & (rows["step"] <= 40)]
        np.testing.assert_array_equal(
            drawn["count"].to_numpy().reshape(-1, 16), _tb_display(rows, 16).astype(np.float32)
        )


def test_requests_answer_what_the_browser_asks(exp: tbnb.Experiment) -> None:
    w = tbnb.histograms(exp)
    reply = w.answer(
        {
            "type": "series",
            "id": "r1",
            "keys": [["lr=0.1", "layer1/weight"]],
            "bins": 12,
            "limit": 5,
            "window": [10, 50],
        }
    )
    assert reply is not None
    (item,) = reply["items"]
    assert item["steps"].tolist() == [10, 20, 30, 40, 50]
    assert item["counts"].dtype == np.float32
    assert item["counts"].shape == (5 * 12,)
    assert item["bands"].shape == (5 * 9,)
    assert item["total"] == 41
    bad = w.answer({"type": "series", "id": "r2", "keys": [["nope", "layer1/weight"]]})
    assert bad is not None
    assert "no histograms of run 'nope'" in bad["error"]


def test_runs_at_one_step_share_bins(exp: tbnb.Experiment) -> None:
    w = tbnb.histograms(exp, mode="runs", step=33, bins=20)
    data = w.data
    assert set(data["step"]) == {33}
    assert set(data["run"]) == {"lr=0.1", "lr=0.01"}
    for _tag, chart in data.groupby("tag"):
        edges = chart.groupby("run")["bin_left"].apply(tuple)
        assert len(set(edges)) == 1  # common bins across the runs
    w.hidden_in_chart = {"layer1/weight": ["lr=0.01"]}
    assert set(w.data.query("tag == 'layer1/weight'")["run"]) == {"lr=0.1"}
    reply = w.answer(
        {
            "type": "at_step",
            "id": "s",
            "tag": "layer1/bias",
            "runs": ["lr=0.1", "lr=0.01"],
            "step": 12.4,
            "bins": 10,
        }
    )
    assert reply is not None
    assert [i["step"] for i in reply["items"]] == [12, 12]
    assert reply["left"] <= reply["right"]


def test_preview_waits_for_the_first_charts_then_comes_on_request(exp: tbnb.Experiment) -> None:
    w = tbnb.histograms(exp, bins=30)
    assert w._preview == {}  # the first charts are the kernel's answers, not the preview
    assert w._data["series"]["wall0"].dtype == np.float64
    reply = w.answer({"type": "preview", "id": "p"})
    assert reply is not None
    assert reply["charts"] == len(w._data["series"]["run"])
    made = w._preview
    assert made["counts"].dtype == np.uint8
    w.answer({"type": "preview", "id": "again"})
    assert w._preview is made  # made once until the data changes


def test_preview_is_small_and_close_to_the_exact_data(exp: tbnb.Experiment) -> None:
    w = tbnb.histograms(exp, bins=30)
    whole = w.get_state()  # saving or exporting reads the whole state: the preview is in it
    preview = w._preview
    assert set(whole["_preview"]) == set(preview)
    assert preview["counts"].dtype == np.uint8
    assert preview["bands"].dtype == np.uint16
    offsets = preview["offsets"]
    first = w._data["series"]["run"][0], w._data["series"]["tag"][0]
    run, tag = w._data["runs"][first[0]], w._data["tags"][first[1]]
    n = offsets[1] - offsets[0]
    exact = w.answer({"type": "series", "id": "x", "keys": [[run, tag]], "bins": 30, "limit": n})[
        "items"
    ][0]
    counts = preview["counts"][: n * 30].reshape(n, 30) / 255 * preview["scale"][:n, None]
    np.testing.assert_allclose(
        counts, exact["counts"].reshape(n, 30), atol=float(preview["scale"][:n].max()) / 255
    )
    state, paths, buffers = _remove_buffers(w.get_state())
    assert {p[0] for p in paths} == {"_data", "_preview"}  # every array: a binary buffer
    assert len(buffers) >= 10
    assert len(json.dumps(state["_data"])) + len(json.dumps(state["_preview"])) < 20_000


def test_state_budget_bounds_the_preview(exp: tbnb.Experiment) -> None:
    small = tbnb.histograms(exp, state_budget=10_000)
    big = tbnb.histograms(exp)
    small.get_state(), big.get_state()
    steps = small._preview["offsets"]
    assert 2 <= np.diff(steps).max() < np.diff(big._preview["offsets"]).max()
    size = sum(v.nbytes for v in small._preview.values() if isinstance(v, np.ndarray))
    assert size < 12_000
    with pytest.raises(ValueError, match="state_budget"):
        tbnb.histograms(exp, state_budget=10)


def test_every_writer_draws_and_matches_tensorboard() -> None:
    for name in writers.WRITERS:
        exp = tbnb.load(writers.cached(name).logdir, progress=False)
        w = tbnb.histograms(exp, bins=25, max_steps=1000)
        assert len(w.data)
        for (run, tag), drawn in w.data.groupby(["run", "tag"]):
            rows = _series(exp, str(run), str(tag))
            np.testing.assert_array_equal(
                drawn["count"].to_numpy().reshape(-1, 25), _tb_display(rows, 25).astype(np.float32)
            )
        dist = tbnb.distributions(exp).data
        pd.testing.assert_frame_equal(
            dist.reset_index(drop=True),
            exp.distributions.sort_values(["run", "tag", "step"], kind="stable")[dist.columns]
            .astype({"run": str, "tag": str})
            .reset_index(drop=True),
            check_dtype=False,
        )


def test_bad_histograms_are_left_out_with_a_warning(tmp_path: Path) -> None:
    exp = tbnb.load(write_bad_histograms(tmp_path), progress=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        w = tbnb.histograms(exp, max_steps=100)
        data = w.data
    messages = [str(c.message) for c in caught if issubclass(c.category, DataWarning)]
    assert messages
    assert "run 'bad' tag 'w'" in messages[0]
    assert sorted(data.query("run == 'bad'")["step"].unique()) == [0, 1, 2, 4, 6, 8, 9]
    assert sorted(data.query("run == 'good'")["step"].unique()) == list(range(10))
    (problem,) = w.problems
    assert "run 'bad' tag 'w': 3 histogram(s) left out (step 3, 5, 7)" in problem
    with pytest.warns(DataWarning, match="step 3 is left out"):
        bands = tbnb.distributions(exp).data
    assert len(bands.query("run == 'bad'")) == 7


def test_empty_results_say_why(exp: tbnb.Experiment) -> None:
    with pytest.warns(EmptyResultWarning, match="runs='nothing' matched none"):
        w = tbnb.histograms(exp, runs="nothing")
    assert "matched none" in w._data["empty"]
    assert len(w.data) == 0
    empty = pd.DataFrame(columns=["run", "tag", "step", "wall_time", "edges", "counts"])
    with pytest.warns(EmptyResultWarning, match="no histograms in the DataFrame"):
        tbnb.histograms(empty)


def test_arguments_are_checked(exp: tbnb.Experiment) -> None:
    with pytest.raises(TypeError, match="did you mean 'tag_filter'"):
        tbnb.histograms(exp, tagfilter="x")  # type: ignore[call-arg]
    with pytest.raises(traitlets.TraitError, match="mode must be one of"):
        tbnb.histograms(exp, mode="ridge")
    with pytest.raises(traitlets.TraitError, match="bins must be 1 to 512"):
        tbnb.histograms(exp, bins=1000)
    with pytest.raises(ValueError, match="run_filter= is not a valid regex"):
        tbnb.histograms(exp, run_filter="(")
    with pytest.raises(ValueError, match="histograms frame lacks"):
        tbnb.histograms(pd.DataFrame({"run": ["a"], "tag": ["t"], "step": [0]}))
    with pytest.raises(TypeError, match="source must be"):
        tbnb.histograms(42)


def test_live_reload_sends_new_histograms(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    logdir = write_histogram_runs(tmp_path / "live", runs=("a",), steps=5)
    exp = tbnb.load(logdir, progress=False)
    w = tbnb.histograms(exp)
    before = int(w._data["series"]["total"].sum())
    # a second file (the first writer's name has the same second in it)
    with SummaryWriter(str(logdir / "a"), filename_suffix=".more") as writer:
        for step in range(5, 9):
            writer.add_histogram("layer1/weight", np.random.default_rng(step).normal(size=50), step)
    assert w.refresh_now() == 4
    assert int(w._data["series"]["total"].sum()) == before + 4
    assert 8 in w.data["step"].tolist()
    w.close()


def test_run_colours_match_the_other_widgets(exp: tbnb.Experiment) -> None:
    w = tbnb.histograms(exp, palette="colorblind")
    from tbnb.widgets.colors import run_colors

    assert w.run_colors == run_colors(exp.runs, "colorblind")
    assert isinstance(w, HistogramsWidget)


def test_to_plotly_draws_each_mode(exp: tbnb.Experiment) -> None:
    kinds = {
        "offset": "scatter",
        "overlay": "scatter",
        "heatmap": "heatmap",
        "distribution": "scatter",
        "runs": "scatter",
    }
    for mode, trace in kinds.items():
        fig = tbnb.histograms(exp, mode=mode, tags="^layer1/weight$").to_plotly()
        assert {t.type for t in fig.data} == {trace}, mode
    with pytest.warns(UserWarning, match="the figure holds the first 2"):
        tbnb.histograms(exp).to_plotly(max_charts=2)


def test_builders_and_tabs_come_from_the_registry(
    sample_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tbnb.notebook.dashboard import Dashboard

    monkeypatch.setenv("TBNB_CACHE_DIR", str(sample_cache))  # written once per session
    assert tbnb.histograms.__module__ == "tbnb.widgets.histograms.factory"
    assert tbnb.distributions.__module__ == "tbnb.widgets.histograms.factory"
    dash = Dashboard(tbnb.samples.sample_logdir())
    assert {"Histograms", "Distributions"} <= set(dash.titles)
    assert dash.views["distributions"].mode == "distribution"
    assert dash.views["histograms"].mode == "offset"
    dash.close()
