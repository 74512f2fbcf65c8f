"""Every kind from every real writer, loaded and checked against what was written.

Writers: torch.utils.tensorboard, tensorboardX, TF2's tensor forms (tensorboard's
TF-free summary helpers) and the Keras callback's train/validation layout. Values
are compared with the writers' inputs; histograms also with TensorBoard's own reader
and ``data_compat`` migration, percentiles with TensorBoard's ``compress_histogram``.
"""

from __future__ import annotations

import glob
import socket
import warnings
from functools import cache
from typing import Any

import numpy as np
import pandas as pd
import pytest

from tbnb.kinds.distributions import DISTRIBUTION_BPS, histogram_percentiles
from tbnb.loader.experiment import Experiment
from tests import writers

NAMES = list(writers.WRITERS)


@cache
def _loaded(name: str, decoder: str = "auto") -> Experiment:
    written = writers.cached(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a clean logdir loads without a single warning
        return Experiment(written.logdir, progress=False, decoder=decoder)


@pytest.fixture(params=NAMES)
def case(request: pytest.FixtureRequest) -> tuple[writers.Written, Experiment]:
    return writers.cached(request.param), _loaded(request.param)


def _by_key(frame: pd.DataFrame, keys: list[str]) -> dict[tuple[Any, ...], Any]:
    rows = frame.astype({"run": str, "tag": str}).to_dict("records")
    out = {tuple(r[k] for k in keys): r for r in rows}
    assert len(out) == len(rows), f"duplicate {keys} rows"
    return out


def test_scalars_are_exactly_what_was_written(case: tuple[writers.Written, Experiment]) -> None:
    written, exp = case
    got = exp.scalars
    assert isinstance(got["run"].dtype, pd.CategoricalDtype)
    assert isinstance(got["tag"].dtype, pd.CategoricalDtype)
    assert got["step"].dtype == np.int64
    assert got["wall_time"].dtype == np.float64
    assert got["value"].dtype == np.float64
    rows = _by_key(got, ["run", "tag", "step"])
    expected = {(r, t, s): v for r, t, s, v in written.scalars}
    assert sorted(rows) == sorted(expected)
    for key, value in expected.items():
        stored = rows[key]["value"]
        assert stored == value or (np.isnan(value) and np.isnan(stored)), key


def test_scalar_wall_times_and_stream_order(case: tuple[writers.Written, Experiment]) -> None:
    written, exp = case
    got = exp.scalars
    first_tag = written.scalars[0][1]
    series = got[(got["run"] == written.scalars[0][0]) & (got["tag"] == first_tag)]
    assert series["step"].tolist() == sorted(series["step"])  # stream order kept
    assert series["wall_time"].tolist() == [writers.WALL0 + s for s in series["step"]]


def test_tf2_special_floats_and_doubles_land_in_scalars() -> None:
    exp = _loaded("tf2")
    special = exp.scalars.query("tag == 'special'").sort_values("step")["value"].to_numpy()
    assert np.isnan(special[0])
    assert special[1:].tolist() == [np.inf, -np.inf, 1e300, -1e-300, 0.1]  # float64 kept
    assert len(exp.tensors) == 0


def test_histograms_match_inputs_and_tensorboards_migration(
    case: tuple[writers.Written, Experiment],
) -> None:
    written, exp = case
    got = _by_key(exp.histograms, ["run", "tag", "step"])
    assert len(got) == len(written.histograms)
    for run, tag, step, values in written.histograms:
        row = got[(run, tag, step)]
        edges, counts = row["edges"], row["counts"]
        assert len(edges) == len(counts) + 1
        assert np.all(np.diff(edges) >= 0)
        assert counts.sum() == len(values) == row["num"]
        assert row["min"] == pytest.approx(values.min(), rel=1e-12)
        assert row["max"] == pytest.approx(values.max(), rel=1e-12)
        if written.writer in ("torch", "tensorboardX"):
            assert row["sum"] == pytest.approx(values.sum())
            assert row["sum_squares"] == pytest.approx((values**2).sum())
        # TensorBoard's reader + data_compat: [k, 3] buckets (left, right, count)
        path = writers.event_files(written.logdir if run == "." else f"{written.logdir}/{run}")
        (ref,) = [
            a
            for p in path
            for t, s, _, plugin, a in writers.reference_values(p)
            if t == tag and s == step
        ]
        ref_edges = np.concatenate([ref[:, 0], ref[-1:, 1]])
        np.testing.assert_array_equal(edges.astype(ref.dtype), ref_edges)
        np.testing.assert_array_equal(counts.astype(ref.dtype), ref[:, 2])


def test_histogram_percentiles_equal_tensorboards_compressor(
    case: tuple[writers.Written, Experiment],
) -> None:
    from tensorboard.plugins.distribution.compressor import compress_histogram

    _, exp = case
    hist = exp.histograms
    assert len(hist)  # every writer's logdir has histograms
    table = histogram_percentiles(hist)
    assert "edges" not in table.columns
    for i, (edges, counts, total) in enumerate(
        zip(hist["edges"], hist["counts"], hist["sum"], strict=True)
    ):
        # a legacy HistogramProto (it has a sum): TensorBoard holds float32 buckets
        held = np.float32 if not np.isnan(total) else np.float64
        buckets = np.stack([edges[:-1], edges[1:], counts], axis=1).astype(held)
        buckets = buckets.astype(np.float64)
        expected = [v for _, v in compress_histogram(buckets)]
        got = [table[f"p{bp}"].iloc[i] for bp in DISTRIBUTION_BPS]
        assert got == expected
    pd.testing.assert_frame_equal(exp.distributions, table)


def test_percentiles_of_odd_histograms_equal_tensorboards() -> None:
    from tensorboard.plugins.distribution.compressor import compress_histogram

    cases = [
        [[0.0, 1.0, 5.0]],  # one bucket
        [[0.0, 1.0, 0.0], [1.0, 2.0, 3.0], [2.0, 3.0, 0.0]],  # empty ends
        [[-1.0, 0.0, 2.0], [0.0, 0.0, 4.0], [0.0, 5.0, 1.0]],  # zero-width bucket
        [[0.0, 1.0, 0.0], [1.0, 2.0, 0.0]],  # no mass at all
        [[1e-300, 1e300, 7.0], [1e300, 1e301, 1e-3]],
    ]
    frame = pd.DataFrame(
        {
            "edges": [np.concatenate([np.array(c)[:, 0], np.array(c)[-1:, 1]]) for c in cases],
            "counts": [np.array(c)[:, 2] for c in cases],
        }
    )
    table = histogram_percentiles(frame)
    for i, buckets in enumerate(cases):
        expected = [v for _, v in compress_histogram(buckets)]
        assert [table[f"p{bp}"].iloc[i] for bp in DISTRIBUTION_BPS] == expected, buckets
    empty = histogram_percentiles(pd.DataFrame({"edges": [np.zeros(0)], "counts": [np.zeros(0)]}))
    assert [empty[f"p{bp}"].iloc[0] for bp in DISTRIBUTION_BPS] == [
        v for _, v in compress_histogram([])
    ]


def test_images_are_lazy_and_decode_to_what_was_written(
    case: tuple[writers.Written, Experiment],
) -> None:
    written, exp = case
    frame = exp.images
    got = _by_key(frame, ["run", "tag", "step", "sample"])
    assert sorted(got) == sorted((r, t, s, i) for r, t, s, i, _ in written.images)
    for run, tag, step, sample, array in written.images:
        row = got[(run, tag, step, sample)]
        blob = row["blob"]
        assert not any(isinstance(v, bytes | bytearray) for v in vars(blob).values())
        data = blob.read()
        assert row["nbytes"] == len(data)
        assert row["format"] == "png"
        decoded = writers.decode_png(data)
        assert decoded.shape[:2] == (row["height"], row["width"])
        if array.size:  # a torch-style batch is tiled into one grid: shape checked only
            np.testing.assert_array_equal(decoded, array)


def test_audio_decodes_to_what_was_written(case: tuple[writers.Written, Experiment]) -> None:
    written, exp = case
    got = _by_key(exp.audio, ["run", "tag", "step", "sample"])
    assert sorted(got) == sorted((r, t, s, i) for r, t, s, i, *_ in written.audio)
    for run, tag, step, sample, clip, rate in written.audio:
        row = got[(run, tag, step, sample)]
        samples, file_rate = writers.decode_wav(row["blob"].read())
        assert file_rate == rate == row["sample_rate"]
        assert row["content_type"] == "audio/wav"
        assert row["length_frames"] == len(clip)
        assert row["num_channels"] == (clip.shape[1] if clip.ndim == 2 else 1)
        np.testing.assert_allclose(samples, clip, atol=2 / 32767)
    if written.writer == "tf2":
        assert sorted(exp.audio["label"]) == ["hígh", "low"]


def test_text_is_exact(case: tuple[writers.Written, Experiment]) -> None:
    written, exp = case
    got = {k: r["text"] for k, r in _by_key(exp.text, ["run", "tag", "step"]).items()}
    assert got == {(r, t, s): text for r, t, s, text in written.text}


def test_pr_curves_match_the_labels_and_predictions(
    case: tuple[writers.Written, Experiment],
) -> None:
    written, exp = case
    got = _by_key(exp.pr_curves, ["run", "tag", "step"])
    assert len(got) == len(written.pr_curves)
    for run, tag, step, labels, predictions, n in written.pr_curves:
        row = got[(run, tag, step)]
        expected = writers.expected_pr(labels, predictions, n)
        for name, array in expected.items():
            np.testing.assert_array_equal(row[name], array, err_msg=name)
        np.testing.assert_array_equal(row["thresholds"], np.linspace(0, 1, n))
        tp, fp, fn = (
            expected["true_positives"],
            expected["false_positives"],
            expected["false_negatives"],
        )
        np.testing.assert_allclose(row["precision"], tp / np.maximum(1e-7, tp + fp), rtol=1e-6)
        np.testing.assert_allclose(row["recall"], tp / np.maximum(1e-7, tp + fn), rtol=1e-6)


def test_hparams_one_row_per_run(case: tuple[writers.Written, Experiment]) -> None:
    written, exp = case
    table = exp.hparams
    for run, (hparams, metrics) in written.hparams.items():
        row = table.loc[run]
        for key, value in hparams.items():
            assert row[key] == value, key
        for key, value in metrics.items():
            (column,) = [c for c in table.columns if c.startswith(key)]
            assert row[column] == pytest.approx(value), key
    # torch/tensorboardX's timestamped hparams sub-run is merged into its parent
    assert not [r for r in table.index if r.replace(".", "").isdigit()]


def test_no_value_lands_in_the_wrong_kind(case: tuple[writers.Written, Experiment]) -> None:
    written, exp = case
    assert len(exp.tensors) == 0
    kinds = set(exp.tags["kind"])
    for kind in ("histograms", "images", "audio", "text", "pr_curves"):
        assert (kind in kinds) == bool(getattr(written, kind)), kind


def test_custom_scalars_layout() -> None:
    from tbnb._proto import Layout

    for name in ("torch", "tensorboardX"):
        layouts = _loaded(name).custom_scalars
        raw = Layout.FromString(layouts.raw["."])  # the bytes as written stay reachable
        assert [c.title for c in raw.category] == ["group"]
        (category,) = layouts["."].categories
        assert category.title == "group"
        assert category.charts[0].kind == "multiline"
        assert category.charts[0].tags == ("train/loss",)
        assert layouts.merged == layouts["."]


def test_keras_layout_has_train_and_validation_runs() -> None:
    exp = _loaded("keras")
    assert exp.runs == ["train", "validation"]
    last = exp.scalars.groupby(["run", "tag"], observed=True)["value"].last()
    assert last[("validation", "epoch_loss")] == writers.f32(1 / 5 + 0.1)
    assert set(exp.histograms["run"]) == {"train"}


def test_metadata_names_writer_host_and_counts(case: tuple[writers.Written, Experiment]) -> None:
    written, exp = case
    meta = exp.metadata
    assert sorted(meta.index) == exp.runs
    host = socket.gethostname()
    counts = exp.scalars["run"].astype(str).value_counts()
    for run in exp.runs:
        row = meta.loc[run]
        assert row["host"] == host
        assert row["file_version"] == "brain.Event:2"
        directory = written.logdir if run == "." else f"{written.logdir}/{run}"
        assert row["files"] == len(glob.glob(f"{directory}/*tfevents*"))
        assert row["scalars"] == counts.get(run, 0)
        assert row["corrupt_records"] == 0
        assert row["first_wall_time"] <= row["last_wall_time"]
    source = (
        "" if written.writer == "tensorboardX" else "tensorboard.summary.writer.event_file_writer"
    )
    assert set(meta["source_writer"]) == {source}
    assert set(meta["writer"]) == {
        {
            "torch": "torch.utils.tensorboard",
            "tensorboardX": "tensorboardX",
        }.get(written.writer, "tensorboard EventFileWriter")  # the TF2 forms: TF-free writer
    }
    root = meta.loc[written.scalars[0][0]]
    assert root["histograms"] == sum(1 for h in written.histograms if h[0] == root.name)
    assert root["images"] == sum(1 for h in written.images if h[0] == root.name)


def test_tags_table(case: tuple[writers.Written, Experiment]) -> None:
    written, exp = case
    tags = exp.tags
    scalar_rows = tags[tags["kind"] == "scalars"]
    expected: dict[tuple[str, str], list[int]] = {}
    for run, tag, step, _ in written.scalars:
        expected.setdefault((run, tag), []).append(step)
    got = {
        (r, t): (c, lo, hi)
        for r, t, c, lo, hi in scalar_rows[
            ["run", "tag", "count", "first_step", "last_step"]
        ].itertuples(index=False)
    }
    assert got == {k: (len(v), min(v), max(v)) for k, v in expected.items()}


@pytest.mark.parametrize("decoder", ["numpy", "native"])
@pytest.mark.parametrize("name", NAMES)
def test_every_decoder_gives_the_frames_of_protobuf(name: str, decoder: str) -> None:
    fast, slow = _loaded(name, decoder), _loaded(name, "protobuf")
    assert (fast.last_report.decoders, slow.last_report.decoders) == ({decoder}, {"protobuf"})
    for kind in (
        "scalars",
        "histograms",
        "images",
        "audio",
        "text",
        "pr_curves",
        "tensors",
        "hparams",
        "tags",
        "metadata",
        "graphs",
        "distributions",
    ):
        writers.assert_frames_identical(getattr(fast, kind), getattr(slow, kind))
    assert fast.custom_scalars == slow.custom_scalars
    assert fast.hparams_values == slow.hparams_values


def test_embedding_projector_files_do_not_break_loading() -> None:
    written = writers.cached("torch")
    assert glob.glob(f"{written.logdir}/**/projector_config.pbtxt", recursive=True)
    assert glob.glob(f"{written.logdir}/**/tensors.tsv", recursive=True)
    assert _loaded("torch").all_runs == sorted(
        {r for r, *_ in written.scalars}
    )  # no run made of projector files
