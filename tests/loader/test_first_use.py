"""What a new user meets first: runs as they wrote them, graphs, empty results, summaries."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import tbnb
from tbnb.warnings import CorruptRecordWarning, EmptyResultWarning
from tests import writers


def _sweep(tmp_path: Path, *, name: str | None = None) -> Path:
    """Three runs, each with tensorboardX add_hparams (timestamped or ``name=`` sub-run)."""
    from tensorboardX import SummaryWriter

    for lr in (0.1, 0.01, 0.001):
        with SummaryWriter(str(tmp_path / f"lr={lr}")) as writer:
            for step in range(4):
                writer.add_scalar("train/loss", lr * step, step)
            writer.add_hparams({"lr": lr}, {"hparam/acc": 1 - lr}, name=name)
    return tmp_path


@pytest.mark.parametrize("name", [None, "final"])
def test_add_hparams_subruns_are_part_of_their_run(tmp_path: Path, name: str | None) -> None:
    logdir = _sweep(tmp_path, name=name)
    exp = tbnb.load(logdir, progress=False)
    assert exp.runs == ["lr=0.001", "lr=0.01", "lr=0.1"]
    assert len(exp.all_runs) == 6
    assert sorted(exp.subruns.values()) == exp.runs
    if name is not None:
        assert sorted(exp.subruns) == [f"{run}/final" for run in exp.runs]
    assert "3 runs" in repr(exp)
    table = exp.hparams
    assert sorted(table.index) == exp.runs  # one row per real run, hparams and curves
    assert table["hparam/acc.last"].notna().all()
    widget = tbnb.scalars(exp)
    assert sorted(widget.selected_runs) == exp.runs
    # the sub-run's metric is charted as its run's point (TensorBoard charts that run)
    assert ["hparam/acc"] in [chart["tags"] for chart in widget.charts]
    final = widget.data.query("tag == 'hparam/acc'")
    assert sorted(final["run"].astype(str)) == exp.runs
    assert sorted(final["value"]) == pytest.approx(sorted(1 - lr for lr in (0.1, 0.01, 0.001)))
    dash = tbnb.Dashboard(exp)
    try:
        assert "3 runs" in dash.header_text
    finally:
        dash.close()


def test_a_subdirectory_that_is_not_a_subrun_stays_out_of_a_filtered_load(tmp_path: Path) -> None:
    logdir = _sweep(tmp_path)
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(logdir / "lr=0.1" / "eval")) as writer:
        writer.add_scalar("eval/acc", 0.5, 0)
    exp = tbnb.load(logdir, runs=r"^lr=0\.1$", progress=False)
    assert exp.runs == ["lr=0.1"]  # its add_hparams sub-run follows it, "eval" does not
    assert len(exp.all_runs) == 2
    assert set(exp.scalars["run"].astype(str)) == set(exp.all_runs)
    assert "lr=0.1/eval" in tbnb.load(logdir, progress=False).runs


def test_graphs_are_reachable_as_bytes(tmp_path: Path) -> None:
    import torch
    from tensorboard.compat.proto.graph_pb2 import GraphDef
    from torch.utils.tensorboard import SummaryWriter

    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU(), torch.nn.Linear(3, 2))
    with SummaryWriter(str(tmp_path / "run")) as writer:
        writer.add_graph(model, torch.zeros(1, 4))
    graphs = tbnb.load(tmp_path, progress=False).graphs
    assert set(graphs["kind"]) >= {"graph_def"}
    row = graphs[graphs["kind"] == "graph_def"].iloc[0]
    data = row["blob"].read()
    assert len(data) == row["nbytes"] > 0
    graph = GraphDef.FromString(data)
    ops = {node.op for node in graph.node}
    assert {"aten::linear", "aten::relu"} <= ops, ops


def test_keras_model_graph_summary_is_reachable(tmp_path: Path) -> None:
    from tbnb._proto import Event, Summary, SummaryMetadata, TensorProto

    model_json = b'{"class_name": "Sequential", "config": {"layers": []}}'
    meta = SummaryMetadata()
    meta.plugin_data.plugin_name = "graph_keras_model"
    value = Summary.Value(
        tag="keras", metadata=meta, tensor=TensorProto(dtype=7, string_val=[model_json])
    )
    (tmp_path / "run").mkdir()
    writers.write_events(
        str(tmp_path / "run" / "events.out.tfevents.1.h.v2"),
        [Event(step=0, wall_time=1.0, summary=Summary(value=[value]))],
    )
    graphs = tbnb.load(tmp_path, progress=False).graphs
    assert graphs[["tag", "kind", "nbytes"]].to_dict("records") == [
        {"tag": "keras", "kind": "graph_keras_model", "nbytes": len(model_json)}
    ]
    assert graphs["blob"].iloc[0].read() == model_json


def _caught_load(path: Path | str, **kw: object) -> tuple[tbnb.Experiment, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exp = tbnb.load(path, progress=False, **kw)  # type: ignore[arg-type]
    return exp, [str(w.message) for w in caught if w.category is EmptyResultWarning]


def test_an_empty_directory_says_so(tmp_path: Path) -> None:
    exp, messages = _caught_load(tmp_path)
    assert messages == [
        f"tbnb: logdir {str(tmp_path)!r} is empty: no event files (events.out.tfevents.*) to load"
    ]
    assert exp.empty_reason == messages[0]


def test_a_run_filter_matching_nothing_names_the_filter_and_the_runs(tmp_path: Path) -> None:
    logdir = _sweep(tmp_path)
    exp, (message,) = _caught_load(logdir, runs="seed=9")
    assert message.startswith("tbnb: runs='seed=9' matched none of the 6 runs in logdir")
    assert "'lr=0.001'" in message
    assert exp.runs == []


def test_a_tag_filter_matching_nothing_names_the_tags_that_exist(tmp_path: Path) -> None:
    logdir = _sweep(tmp_path)
    _, (message,) = _caught_load(logdir, tags="^val/")
    assert message.startswith("tbnb: tags='^val/' matched none of the")
    assert "'train/loss'" in message


def test_event_types_with_no_data_say_what_was_asked(tmp_path: Path) -> None:
    logdir = _sweep(tmp_path)
    _, (message,) = _caught_load(logdir, event_types={"images"})
    assert message.startswith("tbnb: no images in logdir")


def test_the_dashboard_names_the_filter_that_matched_nothing(tmp_path: Path) -> None:
    logdir = _sweep(tmp_path)
    with pytest.warns(EmptyResultWarning):
        dash = tbnb.Dashboard(logdir, runs="seed=9")
    header = dash.header_text
    assert "nothing to show" in header
    assert "runs='seed=9' matched none of the 6 runs" in header


def test_a_good_load_warns_nothing(tmp_path: Path) -> None:
    _, messages = _caught_load(_sweep(tmp_path))
    assert messages == []


def test_html_summary_names_runs_kinds_tags_and_time_span(tmp_path: Path) -> None:
    exp = tbnb.load(_sweep(tmp_path), progress=False)
    page = exp._repr_html_()
    assert "3: &#x27;lr=0.001&#x27;, &#x27;lr=0.01&#x27;, &#x27;lr=0.1&#x27;" in page
    assert "scalar points" in page
    assert "train/loss" in page
    assert " UTC, over " in page


def test_html_summary_escapes_names(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "<img src=x onerror=alert(1)>")) as writer:
        writer.add_scalar("<b>tag</b>", 1.0, 0)
    page = tbnb.load(tmp_path, progress=False)._repr_html_()
    assert "<img" not in page
    assert "<b>tag" not in page
    assert "&lt;img src=x onerror=alert(1)&gt;" in page


def test_one_run_is_one_run(tmp_path: Path) -> None:
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "only")) as writer:
        writer.add_scalar("loss", 1.0, 0)
    exp = tbnb.load(tmp_path, progress=False)
    assert "1 run," in repr(exp)
    assert "1 runs" not in repr(exp)


def test_an_event_file_passed_as_the_logdir_names_its_folder(tmp_path: Path) -> None:
    from IPython.core.error import UsageError
    from tensorboardX import SummaryWriter

    from tbnb.notebook.magic import parse_magic_line

    with SummaryWriter(str(tmp_path / "only")) as writer:
        writer.add_scalar("loss", 1.0, 0)
    (event_file,) = (tmp_path / "only").glob("events.out.tfevents.*")
    folder = repr(str(tmp_path / "only"))
    with pytest.raises(NotADirectoryError, match="is an event file") as info:
        tbnb.load(event_file, progress=False)
    assert f"pass the folder it is in ({folder})" in str(info.value)
    with pytest.raises(UsageError, match="is an event file") as usage:
        parse_magic_line(str(event_file))
    assert folder in str(usage.value)


def test_an_embedding_out_of_range_says_what_exists() -> None:
    exp = tbnb.load(writers.cached("torch").logdir, progress=False)
    with pytest.raises(IndexError, match=r"embedding 5 does not exist: there are 1 embeddings"):
        exp.embedding(5)
    vectors, metadata = exp.embedding(0)
    assert vectors.shape == (5, 4)
    assert len(metadata) == 5


def test_an_embedding_when_there_are_none(tmp_path: Path) -> None:
    exp = tbnb.load(_sweep(tmp_path), progress=False)
    with pytest.raises(IndexError, match=r"no embeddings in .*projector_config"):
        exp.embedding(0)


def test_a_file_cut_mid_record_before_a_newer_file_reports_its_lost_tail(tmp_path: Path) -> None:
    from tbnb._proto import Event, Summary

    def events(start: int) -> list[Event]:
        return [
            Event(
                step=s,
                wall_time=float(s),
                summary=Summary(value=[Summary.Value(tag="loss", simple_value=s)]),
            )
            for s in range(start, start + 5)
        ]

    run = tmp_path / "run"
    run.mkdir()
    old, new = run / "events.out.tfevents.1.h", run / "events.out.tfevents.2.h"
    writers.write_events(str(old), events(0))
    data = old.read_bytes()
    old.write_bytes(data[:-7])  # the writer was killed mid-record
    exp = tbnb.load(tmp_path, progress=False)  # the file may still be growing: no word
    assert exp.scalars["step"].tolist() == [0, 1, 2, 3]
    writers.write_events(str(new), events(5))
    with pytest.warns(
        CorruptRecordWarning,
        match=r"events.out.tfevents.1.h: its last \d+ "
        r"bytes are a record cut short, and a newer file of the run follows",
    ):
        exp.reload()
    assert exp.scalars["step"].tolist() == [0, 1, 2, 3, 5, 6, 7, 8, 9]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exp.reload()  # said once
    fresh_warnings: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tbnb.load(tmp_path, progress=False)
        fresh_warnings = [str(w.message) for w in caught]
    assert any("record cut short" in m for m in fresh_warnings)


def test_an_add_hparams_subrun_whose_metric_names_the_writer_cleaned(tmp_path: Path) -> None:
    """tensorboardX cleans the metric's scalar tag but declares the name as given."""
    from tensorboardX import SummaryWriter

    with SummaryWriter(str(tmp_path / "run")) as writer:
        writer.add_scalar("loss", 1.0, 0)
        writer.add_hparams({"lr": 0.1}, {"hp/acc (val)": 0.5})
    exp = tbnb.load(tmp_path, progress=False)
    assert exp.runs == ["run"]
    assert list(exp.hparams.index) == ["run"]


def test_the_summary_lists_the_users_tags_before_those_that_configure_views(
    tmp_path: Path,
) -> None:
    exp = tbnb.load(_sweep(tmp_path), progress=False)
    summary = exp._repr_html_()
    assert "_hparams_/experiment" in summary
    assert summary.index("train/loss") < summary.index("_hparams_/")
    assert summary.index("hparam/acc") < summary.index("_hparams_/")
