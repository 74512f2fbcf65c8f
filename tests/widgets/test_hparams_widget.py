"""The hparams widget, Python side: table encoding, brushes and selection, importance
requests, the link to the scalars widget and the plotly export."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import traitlets

import tbnb
from tbnb.analysis.importance import parameter_importance
from tbnb.widgets.hparams import HParamsWidget, hparams, link
from tbnb.widgets.serializers import tree_to_json


@pytest.fixture
def table() -> pd.DataFrame:
    """27 runs of lr x bs x optimizer with two metrics, built like exp.hparams."""
    rows, index = [], []
    for i, (lr, bs, opt) in enumerate(
        (lr, bs, opt)
        for lr in (0.1, 0.01, 0.001)
        for bs in (16, 32, 64)
        for opt in ("adam", "sgd", "rmsprop")
    ):
        index.append(f"run{i}")
        acc = 0.9 - 0.1 * abs(np.log10(lr) + 2) + (0.05 if opt == "adam" else 0.0) + bs / 10000
        rows.append((lr, bs, opt, acc, 1 - acc))
    df = pd.DataFrame(
        rows,
        columns=["lr", "bs", "opt", "val/acc.last", "train/loss.last"],
        index=pd.Index(index, name="run"),
    )
    df["bs"] = df["bs"].astype("Int64")
    df["opt"] = df["opt"].astype("string")
    df.loc["run5", "opt"] = pd.NA
    df.attrs.update(
        {
            "hparam_columns": ["lr", "bs", "opt"],
            "metric_columns": ["val/acc.last", "train/loss.last"],
            "domains": {"opt": {"type": "string", "values": ["sgd", "adam", "rmsprop"]}},
            "members": {f"run{i}": [f"run{i}", f"run{i}/validation"] for i in range(27)},
        }
    )
    return df


def test_table_goes_as_binary_columns(table: pd.DataFrame) -> None:
    w = hparams(table, importance=False)
    data = w._table
    assert data["runs"] == list(table.index)
    assert data["members"]["run3"] == ["run3", "run3/validation"]
    cols = {c["name"]: c for c in data["columns"]}
    assert cols["lr"]["kind"] == "number"
    assert cols["lr"]["values"].dtype == np.float64
    assert cols["bs"]["values"].tolist()[:3] == [16.0, 16.0, 16.0]
    assert cols["opt"]["kind"] == "category"
    assert cols["opt"]["labels"] == ["sgd", "adam", "rmsprop"]  # declared domain order
    assert cols["opt"]["codes"].dtype == np.int32
    assert cols["opt"]["codes"][:6].tolist() == [1, 0, 2, 1, 0, -1]
    assert cols["val/acc.last"]["role"] == "metric"
    assert cols["lr"]["role"] == "hparam"
    wire = tree_to_json(data)
    lr_wire = next(c for c in wire["columns"] if c["name"] == "lr")["values"]
    assert isinstance(lr_wire["view"], memoryview)
    assert lr_wire["view"].nbytes == 27 * 8


def test_defaults(table: pd.DataFrame) -> None:
    w = hparams(table, importance=False)
    assert w.order == ["lr", "bs", "opt", "val/acc.last", "train/loss.last"]
    assert w.metric == "val/acc.last"
    assert w.color_by == "val/acc.last"
    assert len(w.selected) == 27
    assert len(w.selected_runs) == 54
    assert w.page_size == 25
    w = hparams(
        table, metric="train/loss.last", color="opt", columns=["opt", "lr"], importance=False
    )
    assert (w.order, w.metric, w.color_by) == (["opt", "lr"], "train/loss.last", "opt")


def test_default_axes_are_capped(table: pd.DataFrame) -> None:
    wide = table.copy()
    for k in range(30):
        wide[f"m{k}.last"] = float(k)
    wide.attrs = {
        **table.attrs,
        "metric_columns": [*table.attrs["metric_columns"], *(f"m{k}.last" for k in range(30))],
    }
    w = hparams(wide, importance=False)
    assert len(w.order) == 20
    assert w.order[:4] == ["lr", "bs", "opt", "val/acc.last"]


def test_brushes_select_rows_and_runs(table: pd.DataFrame) -> None:
    w = hparams(table, importance=False)
    seen: list[list[str]] = []
    w.on_select(lambda df: seen.append(list(df.index)))
    w.brush("lr", (0.005, 0.05))
    assert set(w.selected["lr"]) == {0.01}
    assert len(w.selected) == 9
    w.brush("opt", ["adam", "rmsprop"])
    assert list(w.selected.index) == ["run9", "run11", "run12", "run14", "run15", "run17"]
    assert w.selected_runs[:2] == ["run9", "run9/validation"]
    pd.testing.assert_frame_equal(w.selected, table.loc[w.selected.index])
    w.brushes = dict(w.brushes)  # same brushes: no new notification
    w.brush("opt", None)
    w.clear_brushes()
    assert len(seen) == 4
    assert len(seen[-1]) == 27


def test_brush_edges_and_missing_values(table: pd.DataFrame) -> None:
    w = hparams(table, importance=False)
    w.brushes = {"lr": {"range": [0.1, 0.01]}}  # reversed ends are normalised, ends inclusive
    assert w.brushes == {"lr": {"range": [0.01, 0.1]}}
    assert len(w.selected) == 18
    w.brushes = {"opt": {"values": ["sgd", "adam", "rmsprop"]}}
    assert "run5" not in w.selected.index  # missing never passes a brushed axis
    assert len(w.selected) == 26
    w.brushes = {"bs": {"values": [32]}}  # a set of numbers on a number axis
    assert set(w.selected["bs"]) == {32}


def test_invalid_state_is_rejected(table: pd.DataFrame) -> None:
    w = hparams(table, importance=False)
    with pytest.raises(traitlets.TraitError, match="unknown column"):
        w.brushes = {"nope": {"range": [0, 1]}}
    with pytest.raises(traitlets.TraitError, match="must be"):
        w.brushes = {"lr": [0, 1]}
    with pytest.raises(traitlets.TraitError, match="scale of 'lr'"):
        w.scales = {"lr": "sqrt"}
    with pytest.raises(traitlets.TraitError, match="page_size"):
        w.page_size = 0
    with pytest.raises(TypeError, match="did you mean 'scales'"):
        hparams(table, scale={"lr": "log"})  # type: ignore[call-arg]
    with pytest.raises(ValueError, match="unknown column"):
        hparams(table, color="nope")
    with pytest.raises(ValueError, match="unknown column"):
        hparams(table, columns=["lr", "nope"])
    with pytest.raises(TypeError, match="source must be"):
        hparams(42)


def test_importance_in_state_and_on_request(table: pd.DataFrame) -> None:
    w = hparams(table)
    assert w.wait_ready(60)
    assert list(w._importance) == ["val/acc.last"]
    entry = w._importance["val/acc.last"]
    assert set(entry["feature"]) == {"lr", "bs", "opt=adam", "opt=rmsprop", "opt=sgd"}
    assert entry["importance"].sum() == pytest.approx(1.0)
    reply = w.answer({"type": "importance", "id": 1, "metric": "train/loss.last"})
    assert reply == {"type": "importance", "id": 1, "metric": "train/loss.last"}
    assert w.wait_ready(60)
    assert set(w._importance) == {"val/acc.last", "train/loss.last"}
    pd.testing.assert_frame_equal(
        w.importance("train/loss.last"),
        parameter_importance(table, "train/loss.last", columns=["lr", "bs", "opt"]),
    )
    bad = w.answer({"type": "importance", "id": 2, "metric": "lr"})
    assert bad is not None
    assert "unknown metric" in bad["error"]
    w.metric = "train/loss.last"  # already computed: no work, no change
    assert set(w._importance) == {"val/acc.last", "train/loss.last"}


def test_link_forwards_selected_runs(table: pd.DataFrame) -> None:
    long = pd.DataFrame(
        {
            "run": [f"run{i}/validation" for i in range(27)],
            "tag": "epoch_loss",
            "step": 0,
            "wall_time": 0.0,
            "value": np.arange(27.0),
        }
    )
    hp = hparams(table, importance=False)
    sc = tbnb.scalars(long)
    browser = tbnb.link(hp, sc)
    assert browser.source == (hp, "selected_runs")
    assert browser.target == (sc, "selected_runs")
    hp.brush("opt", ["sgd"])
    assert sc.selected_runs == hp.selected_runs
    assert "run1/validation" in sc.selected_runs
    assert "run0/validation" not in sc.selected_runs
    browser.unlink()
    hp.clear_brushes()
    assert "run0/validation" not in sc.selected_runs
    with pytest.raises(TypeError):
        link(sc, hp)


def test_to_plotly_reflects_the_view(table: pd.DataFrame) -> None:
    w = hparams(table, importance=False, scales={"lr": "log"}, inverted=["bs"])
    w.brush("lr", (0.005, 0.2))
    w.brush("opt", ["adam"])
    w.order = ["opt", "lr", "bs", "val/acc.last"]
    fig = w.to_plotly()
    (trace,) = fig.data
    assert trace.type == "parcoords"
    dims = trace.dimensions
    assert [d.label for d in dims] == ["opt", "lr (log)", "bs", "val/acc.last"]
    assert list(dims[0].ticktext) == ["sgd", "adam", "rmsprop"]
    assert dims[0].constraintrange == ([0.6, 1.4],) or list(dims[0].constraintrange[0]) == [
        0.6,
        1.4,
    ]
    np.testing.assert_allclose(dims[1].values[:3], [-1.0, -1.0, -1.0])  # noqa: PD011
    np.testing.assert_allclose(dims[1].constraintrange, np.log10([0.005, 0.2]))
    assert list(dims[2].range) == [64.0, 16.0]  # inverted
    assert fig.layout.title.text == f"{len(w.selected)} of 27 runs"
    w.scales = {"val/acc.last": "quantile"}
    dim = w.to_plotly().data[0].dimensions[3]
    assert dim.label == "val/acc.last (quantile)"
    assert min(dim.values) > 0
    assert max(dim.values) == 1.0


def test_from_experiment_and_logdir(tmp_path: Path) -> None:
    from torch.utils.tensorboard import SummaryWriter

    for i, lr in enumerate((0.1, 0.01)):
        with SummaryWriter(str(tmp_path / f"r{i}")) as writer:
            for step in range(3):
                writer.add_scalar("loss", lr * (3 - step), step)
            writer.add_hparams({"lr": lr, "opt": "adam"}, {"hp/acc": 0.5 + i})
    exp = tbnb.load(tmp_path, progress=False)
    w = hparams(exp, importance=False)
    assert w._table["runs"] == ["r0", "r1"]
    assert w.order == ["lr", "opt", "hp/acc.last", "loss.last"]
    assert len(w.selected_runs) == 4  # each row and its add_hparams sub-run
    w = hparams(exp, metrics=["min", "max"], importance=False)
    assert "loss.min" in w.order
    w = hparams(str(tmp_path), importance=False)
    assert w._table["runs"] == ["r0", "r1"]
    w.brush("lr", (0.05, 1))
    assert list(w.selected.index) == ["r0"]


def test_frame_with_run_column_and_no_attrs() -> None:
    df = pd.DataFrame(
        {"run": ["a", "b"], "lr": [0.1, 0.2], "flag": [True, False], "loss.last": [1.0, 2.0]}
    )
    w = hparams(df, importance=False)
    assert w._table["runs"] == ["a", "b"]
    assert w.order == ["lr", "flag", "loss.last"]
    flag = next(c for c in w._table["columns"] if c["name"] == "flag")
    assert flag["kind"] == "category"
    assert flag["labels"] == ["False", "True"]
    w.brush("flag", [True])
    assert list(w.selected.index) == ["a"]


def test_widget_state_is_small(table: pd.DataFrame) -> None:
    big = pd.concat([table] * 40, ignore_index=False)
    big.index = pd.Index([f"r{i}" for i in range(len(big))], name="run")
    big.attrs = {k: v for k, v in table.attrs.items() if k != "members"}
    w: Any = hparams(big, importance=False)
    state = w.get_state()
    table_state = state["_table"]
    sizes = [
        c["values"]["view"].nbytes if "values" in c else c["codes"]["view"].nbytes
        for c in table_state["columns"]
    ]
    assert sum(sizes) == len(big) * (8 * 4 + 4)  # four float64 columns, one int32
    assert isinstance(w, HParamsWidget)


def test_tbnb_hparams_is_callable_after_discovery_ran(table: pd.DataFrame) -> None:
    """``exp.hparams`` imports the discovery module; ``tbnb.hparams`` stays the widget."""
    import importlib

    importlib.import_module("tbnb.analysis.hparams.frame")
    w = tbnb.hparams(table, importance=False)
    assert isinstance(w, HParamsWidget)
    assert tbnb.link is link


def test_default_axes_are_hparams_then_the_frames_default_metrics(table: pd.DataFrame) -> None:
    """exp.hparams marks its default metrics (declared first, then metric-looking tags);
    the widget shows those after the hparams instead of every metric column."""
    wide = table.copy()
    for name in ("lr.last", "epoch.last", "val/loss.last"):
        wide[name] = np.linspace(0, 1, len(wide))
    wide.attrs = {
        **table.attrs,
        "metric_columns": [
            *table.attrs["metric_columns"],
            "lr.last",
            "epoch.last",
            "val/loss.last",
        ],
        "default_metrics": ["val/loss", "val/acc.last", "val/loss.last", "gone.last"],
    }
    w = hparams(wide, importance=False)
    assert w.order == ["lr", "bs", "opt", "val/loss.last", "val/acc.last"]
    assert w.metric == "val/loss.last"
    chosen = hparams(wide, metric="epoch.last", importance=False)
    assert chosen.order == ["lr", "bs", "opt", "epoch.last", "val/loss.last", "val/acc.last"]
    # without the mark, every metric column (the rule before default_metrics existed)
    del wide.attrs["default_metrics"]
    assert hparams(wide, importance=False).order == [
        "lr",
        "bs",
        "opt",
        "val/acc.last",
        "train/loss.last",
        "lr.last",
        "epoch.last",
        "val/loss.last",
    ]


def test_positive_columns_spanning_100x_get_a_log_axis(table: pd.DataFrame) -> None:
    df = table.copy()
    df["wd"] = np.geomspace(1e-6, 1e-2, len(df))  # 10000x
    df["ratio"] = np.linspace(1, 99, len(df))  # 99x: linear
    df["signed"] = np.linspace(-1, 1000, len(df))  # not all positive: linear
    w = hparams(df, importance=False)
    assert w.scales == {"lr": "log", "wd": "log"}  # lr: 0.001 .. 0.1, 100x
    df["lr"] = np.where(df["lr"] == 0.001, 0.0011, df["lr"])
    assert hparams(df, importance=False).scales == {"wd": "log"}  # 91x: linear
    given = hparams(df, scales={"wd": "quantile", "ratio": "log"}, importance=False)
    assert given.scales == {"wd": "quantile", "ratio": "log"}  # yours win


def test_colour_lines_by_run(table: pd.DataFrame) -> None:
    w = hparams(table, color="run", importance=False)
    assert w.color_by == "run"
    assert list(w.run_colors)[:2] == ["run0", "run1"]
    with pytest.raises(traitlets.TraitError, match="color_by"):
        w.color_by = "nope"
    with pytest.raises(traitlets.TraitError, match="palette"):
        w.palette = "rainbow"
