"""A Lightning TensorBoardLogger run: tbnb's frames equal what was logged and what
TensorBoard's own reader (EventAccumulator) reads."""

from __future__ import annotations

import numpy as np
import pytest

import tbnb
from tests.writers import event_files, reference_values
from tests.writers_lightning import EPOCHS, RUN, cached_lightning


@pytest.fixture(scope="module")
def lightning() -> tuple[object, tbnb.Experiment]:
    written = cached_lightning()
    return written, tbnb.load(written.logdir, progress=False)


def _accumulator(logdir: str) -> object:
    from tensorboard.backend.event_processing import event_accumulator

    ea = event_accumulator
    everything = dict.fromkeys((ea.SCALARS, ea.HISTOGRAMS, ea.IMAGES, ea.TENSORS, ea.GRAPH), 0)
    acc = ea.EventAccumulator(f"{logdir}/{RUN}", size_guidance=everything)
    acc.Reload()
    return acc


def test_runs_and_scalars_equal_tensorboards_reader(
    lightning: tuple[object, tbnb.Experiment],
) -> None:
    written, exp = lightning
    assert exp.runs == [RUN]
    acc = _accumulator(written.logdir)  # type: ignore[attr-defined]
    scalars = exp.scalars
    tags = set(scalars["tag"].astype(str))
    assert {"train/loss", "val/loss", "val/acc", "epoch"} <= tags
    for tag in sorted(tags):
        ours = scalars[scalars["tag"] == tag]
        theirs = acc.Scalars(tag)  # type: ignore[attr-defined]
        assert ours["step"].tolist() == [e.step for e in theirs]
        np.testing.assert_array_equal(
            ours["value"].to_numpy(np.float32), np.array([e.value for e in theirs], np.float32)
        )
        np.testing.assert_array_equal(ours["wall_time"].to_numpy(), [e.wall_time for e in theirs])


def test_logged_values_arrive(lightning: tuple[object, tbnb.Experiment]) -> None:
    written, exp = lightning
    loss = exp.scalars[exp.scalars["tag"] == "train/loss"]
    expected = [
        (step, value)
        for run, tag, step, value in written.scalars  # type: ignore[attr-defined]
        if tag == "train/loss"
    ]
    assert list(zip(loss["step"], loss["value"].astype(np.float32), strict=True)) == expected
    assert exp.scalars[exp.scalars["tag"] == "val/acc"]["step"].nunique() == EPOCHS


def test_histograms_images_text_and_graph(lightning: tuple[object, tbnb.Experiment]) -> None:
    written, exp = lightning
    hist = exp.histograms
    assert len(hist) == EPOCHS
    for row, (_, _, step, values) in zip(
        hist.itertuples(),
        written.histograms,  # type: ignore[attr-defined]
        strict=True,
    ):
        assert row.step == step
        assert row.counts.sum() == values.size
    images = exp.images
    assert images["step"].tolist() == [s for _, _, s, _, _ in written.images]  # type: ignore[attr-defined]
    np.testing.assert_array_equal(images["blob"].iloc[-1].to_numpy(), written.images[-1][4])  # type: ignore[attr-defined]
    assert exp.text["text"].tolist() == [t for *_, t in written.text]  # type: ignore[attr-defined]
    graphs = exp.graphs
    assert "graph_def" in set(graphs["kind"])
    from tensorboard.compat.proto.graph_pb2 import GraphDef

    acc = _accumulator(written.logdir)  # type: ignore[attr-defined]
    ours = GraphDef.FromString(graphs.loc[graphs["kind"] == "graph_def", "blob"].iloc[0].read())
    assert ours == acc.Graph()  # type: ignore[attr-defined]
    assert len(ours.node) > 3


def test_hparams_from_events_and_hparams_yaml(lightning: tuple[object, tbnb.Experiment]) -> None:
    _, exp = lightning
    table = exp.hparams
    assert list(table.index) == [RUN]
    assert table.loc[RUN, "lr"] == pytest.approx(0.05)
    assert table.loc[RUN, "hidden"] == 8
    assert table.loc[RUN, "optimizer"] == "sgd"
    assert "val/acc.last" in table.attrs["default_metrics"]


def test_every_summary_value_agrees_with_data_compat(
    lightning: tuple[object, tbnb.Experiment],
) -> None:
    written, exp = lightning
    values = [
        v
        for path in event_files(written.logdir)  # type: ignore[attr-defined]
        for v in reference_values(path)
    ]
    plugins = {plugin for *_, plugin, _ in values}
    assert {"scalars", "histograms", "images", "text", "hparams"} <= plugins
    n_scalars = sum(plugin == "scalars" for *_, plugin, _ in values)
    assert n_scalars == len(exp.scalars)
