"""The PR-curves view without a browser: frames against TensorBoard's own plugin, areas
against scikit-learn on what the writers were given, and the widget's state and requests."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import tbnb
from tbnb.analysis.pr_curves import CURVE_ROWS, pr_table
from tbnb.warnings import DataWarning
from tbnb.widgets.pr_curves.prepare import chart_specs, groups_of, nearest_index
from tests.writers_prcurves import (
    PrWritten,
    cached_pr_logdir,
    curve_counts,
    grid_inputs,
    tb_pr_curves,
)

COUNT_NAMES = {"true_positives", "false_positives", "true_negatives", "false_negatives"}


@pytest.fixture(scope="module")
def written() -> PrWritten:
    return cached_pr_logdir()


@pytest.fixture(scope="module")
def exp(written: PrWritten) -> Any:
    return tbnb.load(written.logdir, progress=False)


def test_tidy_frame_equals_tensorboards_pr_curves_route(written: PrWritten, exp: Any) -> None:
    """Every writer (torch, tensorboardX, TF, Lightning): the same points, thresholds and
    values as TensorBoard's plugin serves; counts exact (TensorBoard truncates weighted
    counts to integers, tbnb keeps the fractions)."""
    reference = tb_pr_curves(written.logdir)
    table = pr_table(exp.pr_curves)
    assert {
        (r, t) for r, t in zip(table["run"].astype(str), table["tag"].astype(str), strict=True)
    } == set(reference)
    assert {r for r, _ in reference} == {"torch", "tbx", "tf", "lightning/version_0"}
    for (run, tag), entries in reference.items():
        ours = table[(table["run"].astype(str) == run) & (table["tag"].astype(str) == tag)]
        assert sorted(set(ours["step"])) == [e["step"] for e in entries]
        for entry in entries:
            points = ours[ours["step"] == entry["step"]]
            assert points["wall_time"].iloc[0] == entry["wall_time"]
            assert points["threshold"].tolist() == entry["thresholds"], (run, tag)
            for name in ("precision", "recall"):
                assert points[name].tolist() == entry[name], (run, tag, name)
            for name in COUNT_NAMES:
                if tag == "weighted":
                    assert np.trunc(points[name]).astype(int).tolist() == entry[name]
                    assert not np.all(points[name] == np.trunc(points[name]))
                else:
                    assert points[name].tolist() == [float(v) for v in entry[name]], name


def test_torch_caps_thresholds_at_127(exp: Any) -> None:
    torch_pr = exp.pr_curves[(exp.pr_curves["run"] == "torch") & (exp.pr_curves["tag"] == "pr/cat")]
    for thresholds in torch_pr["thresholds"]:
        assert len(thresholds) == 127  # asked for 200
        assert thresholds[1] == pytest.approx(1 / 126)


def test_areas_of_every_writer_equal_scikit_learn(written: PrWritten, exp: Any) -> None:
    """The predictions were written mid-bucket, so the stored curve is the exact curve:
    the widget's areas equal scikit-learn's on the raw labels and predictions."""
    w = tbnb.pr_curves(exp)
    areas = w.auc.set_index(["run", "tag", "step"])
    checked = 0
    for run, tag, step, labels, predictions, n, weights in written.curves:
        row = areas.loc[(run, tag, step)]
        on_grid = np.allclose(predictions * (n - 1) % 1, 0.5, atol=1e-3)
        if not on_grid or labels.all() or not labels.any():
            continue  # Lightning's softmax scores fall anywhere in a bucket
        assert row["average_precision"] == pytest.approx(
            average_precision_score(labels, predictions, sample_weight=weights), abs=1e-6
        )
        assert row["roc_auc"] == pytest.approx(
            roc_auc_score(labels, predictions, sample_weight=weights), abs=1e-6
        )
        checked += 1
    assert checked >= 20
    lightning = areas.loc[("lightning/version_0", "val_pr/cat")]
    assert lightning["roc_auc"].between(0.5, 1).all()  # a trained classifier


def test_multi_class_tags_share_a_grid_and_tabs_exist(exp: Any) -> None:
    w = tbnb.pr_curves(exp)
    groups = {c["tag"]: c["group"] for c in w.charts}
    assert groups["pr/cat"] == groups["pr/dog"] == "pr"
    assert groups["cat/pr_curves"] == groups["dog/pr_curves"] == "pr_curves"
    assert groups["val_pr/cat"] == "val_pr"
    assert groups["raw"] == groups["weighted"] == ""
    assert [c["tag"] for c in chart_specs(["z", "b/x", "a/x"])] == ["a/x", "b/x", "z"]
    assert groups_of(["only/one"]) == {"only/one": ""}
    dash = tbnb.Dashboard(exp)
    assert {"pr_curves", "custom_scalars"} <= set(dash.views)
    assert isinstance(dash.views["pr_curves"], tbnb.widgets.pr_curves.PrCurvesWidget)
    dash.close()
    assert tbnb.pr_curves is tbnb.widgets.pr_curves.pr_curves


def test_steps_follow_the_nearest_rule_and_data_is_what_is_drawn(exp: Any) -> None:
    w = tbnb.pr_curves(exp, runs=["torch", "tbx"], tags="^pr/")
    assert w.selected_runs == ["tbx", "torch"]
    assert w.chart_step("pr/cat") == 30  # latest by default
    assert set(w.data["step"]) == {30}
    w.step = 14
    assert set(w.data["step"]) == {10}  # nearest of 0, 10, 20, 30
    w.step = 15
    assert set(w.data["step"]) == {10}  # a tie goes to the lower step, as in the browser
    w.chart_steps = {"pr/dog": 20}
    shown = w.shown_auc.set_index(["run", "tag"])["step"].to_dict()
    assert shown == {
        ("tbx", "pr/cat"): 10,
        ("torch", "pr/cat"): 10,
        ("tbx", "pr/dog"): 20,
        ("torch", "pr/dog"): 20,
    }
    expected = pr_table(
        exp.pr_curves[
            (exp.pr_curves["run"] == "torch")
            & (exp.pr_curves["tag"] == "pr/dog")
            & (exp.pr_curves["step"] == 20)
        ]
    )
    got = w.data[(w.data["run"] == "torch") & (w.data["tag"] == "pr/dog")]
    np.testing.assert_array_equal(got["precision"], expected["precision"])
    assert {"fpr", "tpr"} <= set(got.columns)
    w.selected_runs = ["tbx"]
    assert set(w.data["run"]) == {"tbx"}
    assert len(w.full_data) == len(
        pr_table(
            exp.pr_curves[
                (exp.pr_curves["run"] == "tbx")
                & exp.pr_curves["tag"].astype(str).str.startswith("pr/")
            ]
        )
    )
    assert nearest_index(np.array([]), 3) == -1


def test_payload_is_binary_sampled_and_the_rest_comes_on_request(exp: Any) -> None:
    w = tbnb.pr_curves(exp, max_curves=8)
    data = w._data
    assert data["total"] == len(w._index.frame)
    assert data["sent"] <= max(8, len(w._index.keys))
    state = w.get_state()["_data"]
    assert isinstance(state["curves"]["true_positives"]["view"], memoryview)
    assert state["curves"]["true_positives"]["dtype"] == "float32"  # the weighted curve
    assert "precision" not in state["curves"] or state["curves"]["precision"]["dtype"] == (
        "float32"
    )
    assert isinstance(state["steps"]["average_precision"]["view"], memoryview)
    json.dumps({k: v for k, v in state.items() if k in ("runs", "tags", "sent", "total")})
    curve_of = data["steps"]["curve"]
    for i in range(len(w._index.keys)):
        rows = w._index.rows_of(i)
        assert curve_of[rows.stop - 1] >= 0  # the latest step of every series is sent
    missing = [int(r) for r in np.flatnonzero(curve_of < 0)][:3]
    assert missing
    reply = w.answer({"type": "curves", "id": "1", "rows": missing})
    assert reply is not None
    assert "error" not in reply
    block = reply["curves"]
    assert block["rows"].tolist() == missing
    first = w._index.frame.iloc[missing[0]]
    n = block["offset"][1]
    np.testing.assert_array_equal(block["true_positives"][:n], first["true_positives"][:n])
    assert block["derived"]  # the stored recall is the writers' formula of the counts
    tp, fn = (np.asarray(first[c][:n], np.float64) for c in ("true_positives", "false_negatives"))
    np.testing.assert_array_equal(np.float32(tp / np.maximum(1e-7, tp + fn)), first["recall"][:n])
    bad = w.answer({"type": "curves", "id": "2", "rows": [10**6]})
    assert bad is not None
    assert "no curve rows" in bad["error"]


def test_view_palette_kwargs_and_plotly(exp: Any) -> None:
    w = tbnb.pr_curves(exp, view="ROC", palette="colorblind")
    assert w.view == "roc"
    fig = w.to_plotly()
    names = [t.name for t in fig.data if t.name]
    assert any("ROC-AUC" in name for name in names)
    assert w.run_colors["tbx"] == tbnb.widgets.colors.run_colors(exp.runs, "colorblind")["tbx"]
    with pytest.raises(TypeError, match="did you mean 'max_curves'"):
        tbnb.pr_curves(exp, max_curve=3)  # type: ignore[call-arg]
    with pytest.raises(Exception, match="view must be 'pr' or 'roc'"):
        tbnb.pr_curves(exp, view="det")
    with pytest.raises(ValueError, match="unknown runs"):
        tbnb.pr_curves(exp, runs=["nope"])


def _bad_curve_logdir(root: Path) -> Path:
    from tensorboard.compat.proto import event_pb2

    from tests.writers import _TF2Writer, tf2_pr_curve

    logdir = root / "bad"
    w = _TF2Writer(str(logdir / "run"))
    rng = np.random.default_rng(0)
    good = curve_counts(*grid_inputs(rng, 5, 40), 5)
    bad = good.copy()
    bad[0, 1] = np.nan
    w.write(tf2_pr_curve("pr", good, 5), 1)
    w.write(tf2_pr_curve("pr", bad, 5), 2)
    w.write(tf2_pr_curve("pr", good, 5), 3)
    w.writer.add_event(event_pb2.Event(step=4))
    w.close()
    return logdir


def test_bad_curves_warn_naming_run_tag_and_step_and_good_ones_stay(tmp_path: Path) -> None:
    exp = tbnb.load(_bad_curve_logdir(tmp_path), progress=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        w = tbnb.pr_curves(exp)
    (warning,) = [c for c in caught if issubclass(c.category, DataWarning)]
    assert "run 'run' tag 'pr' step 2: counts are not finite" in str(warning.message)
    assert w.problems == ["run 'run' tag 'pr' step 2: counts are not finite"]
    areas = w.auc.set_index("step")
    assert np.isfinite(areas.loc[1, "roc_auc"])
    assert np.isfinite(areas.loc[3, "roc_auc"])
    assert len(w.full_data) == len(pr_table(exp.pr_curves))  # the bad curve is kept


def test_empty_sources_say_why(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "scalars_only")) as writer:
        writer.add_scalar("loss", 1.0, 0)
    w = tbnb.pr_curves(tbnb.load(tmp_path, progress=False))
    assert w.charts == []
    assert "no PR curves in" in w.empty_reason
    assert "add_pr_curve" in w.empty_reason
    empty = pd.DataFrame(
        {c: [] for c in ("run", "tag", "step", "wall_time", "thresholds", *CURVE_ROWS)}
    )
    assert tbnb.pr_curves(empty).empty_reason == "the frame has no rows"
    with pytest.raises(ValueError, match="lacks column"):
        tbnb.pr_curves(pd.DataFrame({"run": ["a"]}))


def test_refresh_sends_new_steps(tmp_path: Path) -> None:
    from tests.writers import _TF2Writer, tf2_pr_curve

    curve = curve_counts(*grid_inputs(np.random.default_rng(1), 11), 11)
    logdir = tmp_path / "live"
    writer = _TF2Writer(str(logdir / "a"))
    writer.write(tf2_pr_curve("pr", curve, 11), 0)
    writer.writer.flush()
    exp = tbnb.load(logdir, progress=False)
    w = tbnb.pr_curves(exp)
    assert w._data["total"] == 1
    writer.write(tf2_pr_curve("pr", curve, 11), 5)
    writer.write(tf2_pr_curve("other", curve, 11), 5)
    writer.writer.flush()
    assert w.refresh_now() == 2
    assert w._data["total"] == 3
    assert [c["tag"] for c in w.charts] == ["other", "pr"]
    assert w.chart_step("pr") == 5
    writer.close()
    w.close()


DERIVED_JS = """
import { derivedRates } from "./src/widgets/pr_curves/store.js";
const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const { tp, fp, fn } = JSON.parse(chunks.join(""));
const { precision, recall } = derivedRates(tp, fp, fn);
process.stdout.write(JSON.stringify([Array.from(precision), Array.from(recall)]));
"""


def test_the_browser_derives_the_precision_and_recall_writers_store() -> None:
    """Blocks leave out precision and recall when they are the writers' formula: the
    browser's float32 values must be those exactly (whole and weighted counts)."""
    import shutil
    import subprocess

    rng = np.random.default_rng(4)
    tp = np.float32(np.r_[rng.integers(0, 500, 200), rng.uniform(0, 50, 200), 0.0])
    fp = np.float32(np.r_[rng.integers(0, 500, 200), rng.uniform(0, 50, 200), 0.0])
    fn = np.float32(np.r_[rng.integers(0, 500, 200), rng.uniform(0, 50, 200), 0.0])
    payload = {k: v.astype(float).tolist() for k, v in (("tp", tp), ("fp", fp), ("fn", fn))}
    node = shutil.which("node")
    assert node is not None
    proc = subprocess.run(
        [node, "--input-type=module", "-e", DERIVED_JS],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[2] / "js",
        check=True,
    )
    precision, recall = json.loads(proc.stdout)
    t, f, n = (a.astype(np.float64) for a in (tp, fp, fn))
    np.testing.assert_array_equal(np.float32(precision), np.float32(t / np.maximum(1e-7, t + f)))
    np.testing.assert_array_equal(np.float32(recall), np.float32(t / np.maximum(1e-7, t + n)))


def test_blocks_send_small_counts_as_uint16_and_raw_rates_as_they_are(
    written: PrWritten, exp: Any
) -> None:
    w = tbnb.pr_curves(exp, runs=["torch"], tags="^(pr/cat|raw|weighted)$")
    keys = {tag: i for i, (_, tag) in enumerate(w._index.keys)}
    block = w.answer(
        {"type": "curves", "id": "1", "rows": [w._index.rows_of(keys["pr/cat"]).start]}
    )["curves"]
    assert block["true_positives"].dtype == np.uint16
    assert block["derived"]
    weighted = w.answer(
        {"type": "curves", "id": "2", "rows": [w._index.rows_of(keys["weighted"]).start]}
    )["curves"]
    assert weighted["true_positives"].dtype == np.float32  # fractional counts
