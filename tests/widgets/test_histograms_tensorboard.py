"""The frames behind the histograms and distributions views equal TensorBoard's readers.

For every real writer (torch ``add_histogram`` with its default ``bins="tensorflow"``,
tensorboardX, TF2 ``tf.summary.histogram`` k x 3 tensors, the Keras callback layout) and a
PyTorch Lightning ``TensorBoardLogger`` run, TensorBoard itself reads the logdir:

- its histogram and distribution plugins, served from its multiplexer data provider with
  no reservoir limit (what its dashboards draw: ``[left, right, count]`` buckets and the
  nine compressed bands);
- its legacy ``EventAccumulator`` (``Histograms``, ``CompressedHistograms``) for the
  writers that write ``HistogramProto`` values: its bands are those of the float64 buckets.

``exp.histograms`` keeps the exact buckets, ``exp.distributions`` and the distributions
view's data carry TensorBoard's bands, every step kept.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import pandas as pd
import pytest

import tbnb
from tbnb.kinds.distributions import DISTRIBUTION_BPS, percentiles
from tests import writers
from tests.writers_lightning import cached_lightning

SOURCES = [*writers.WRITERS, "lightning"]
BAND_COLUMNS = [f"p{bp}" for bp in DISTRIBUTION_BPS]


def _logdir(name: str) -> str:
    return str(
        cached_lightning().logdir
        if name == "lightning"  # type: ignore[attr-defined]
        else writers.cached(name).logdir
    )


class TensorBoard:
    """TensorBoard's histogram and distribution plugins over one logdir (every step kept)."""

    def __init__(self, logdir: str) -> None:
        from tensorboard import context
        from tensorboard.backend.event_processing import data_provider
        from tensorboard.backend.event_processing import plugin_event_multiplexer as pem
        from tensorboard.plugins import base_plugin
        from tensorboard.plugins.distribution import distributions_plugin
        from tensorboard.plugins.histogram import histograms_plugin

        self.mux = pem.EventMultiplexer(tensor_size_guidance={"histograms": 0, "distributions": 0})
        self.mux.AddRunsFromDirectory(logdir)
        self.mux.Reload()
        provider = data_provider.MultiplexerDataProvider(self.mux, logdir)
        tb = base_plugin.TBContext(logdir=logdir, multiplexer=self.mux, data_provider=provider)
        self.histograms_plugin = histograms_plugin.HistogramsPlugin(tb)
        self.distributions_plugin = distributions_plugin.DistributionsPlugin(tb)
        self.ctx = context.RequestContext()

    def series(self) -> Iterator[tuple[str, str]]:
        for run, tags in self.histograms_plugin.index_impl(self.ctx, experiment="").items():
            for tag in tags:
                yield run, tag

    def histograms(self, run: str, tag: str) -> list[Any]:
        body, _ = self.histograms_plugin.histograms_impl(
            self.ctx, tag, run, experiment="", downsample_to=None
        )
        return body

    def distributions(self, run: str, tag: str) -> list[Any]:
        body, _ = self.distributions_plugin.distributions_impl(self.ctx, tag, run, experiment="")
        return body


def _rows(frame: pd.DataFrame, run: str, tag: str) -> pd.DataFrame:
    rows = frame[(frame["run"].astype(str) == run) & (frame["tag"].astype(str) == tag)]
    return rows.sort_values("step", kind="stable").reset_index(drop=True)


@pytest.fixture(scope="module", params=SOURCES)
def case(request: pytest.FixtureRequest) -> tuple[str, tbnb.Experiment, TensorBoard]:
    logdir = _logdir(request.param)
    return request.param, tbnb.load(logdir, progress=False), TensorBoard(logdir)


def test_histograms_frame_equals_tensorboards_histogram_plugin(
    case: tuple[str, tbnb.Experiment, TensorBoard],
) -> None:
    name, exp, tb = case
    series = list(tb.series())
    assert series, name
    hist = exp.histograms
    assert {
        (str(r), str(t)) for r, t in hist[["run", "tag"]].drop_duplicates().itertuples(index=False)
    } == set(series)
    for run, tag in series:
        ours = _rows(hist, run, tag)
        theirs = tb.histograms(run, tag)
        assert ours["step"].tolist() == [step for _, step, _ in theirs], (name, run, tag)
        assert ours["wall_time"].tolist() == [wall for wall, _, _ in theirs]
        for edges, counts, (_, step, raw) in zip(
            ours["edges"], ours["counts"], theirs, strict=True
        ):
            buckets = np.asarray(raw, dtype=np.float64).reshape(-1, 3)
            if len(buckets) == 0:
                assert len(counts) == 0
                continue
            tb_edges = np.append(buckets[:, 0], buckets[-1, 1])
            np.testing.assert_array_equal(counts, buckets[:, 2])
            if not np.array_equal(edges, tb_edges):
                # data_compat holds legacy HistogramProto buckets as float32; the frame
                # keeps the file's float64 edges, which round to exactly TensorBoard's
                np.testing.assert_array_equal(
                    edges.astype(np.float32).astype(np.float64),
                    tb_edges,
                    err_msg=f"{name} {run} {tag} {step}",
                )
                assert name in ("torch", "tensorboardX", "lightning")


def test_distributions_equal_tensorboards_distribution_plugin(
    case: tuple[str, tbnb.Experiment, TensorBoard],
) -> None:
    """The plugin runs TensorBoard's compressor on what its reader holds: TF2 tensors as
    written, legacy ``HistogramProto`` buckets rounded to float32 by ``data_compat``. The
    frame and the view give the same floats (the frame keeps the file's own buckets)."""
    name, exp, tb = case
    frame = exp.distributions
    view = tbnb.distributions(exp).data
    for run, tag in tb.series():
        theirs = tb.distributions(run, tag)
        want = np.array([[value for _, value in bands] for _, _, bands in theirs])
        assert [bp for bp, _ in theirs[0][2]] == list(DISTRIBUTION_BPS)
        for table in (frame, view):
            ours = _rows(table, run, tag)
            assert ours["step"].tolist() == [step for _, step, _ in theirs], (name, run, tag)
            assert ours["wall_time"].tolist() == [wall for wall, _, _ in theirs]
            np.testing.assert_array_equal(
                ours[BAND_COLUMNS].to_numpy(np.float64), want, err_msg=f"{name} {run} {tag}"
            )


@pytest.mark.parametrize("name", ["torch", "tensorboardX", "lightning"])
def test_legacy_event_accumulator_agrees(name: str) -> None:
    """Writers of ``HistogramProto`` values: ``EventAccumulator.Histograms`` keeps the
    writer's own buckets (limits and counts, empty ones too); its ``CompressedHistograms``
    compresses those float64 buckets (TensorBoard's dashboards no longer serve it: they
    compress the float32 buckets ``data_compat`` makes), the same floats as our
    compressor on the file's own buckets."""
    from tensorboard.backend.event_processing import event_accumulator as ea

    logdir = _logdir(name)
    exp = tbnb.load(logdir, progress=False)
    for run in sorted(set(exp.histograms["run"].astype(str))):
        path = logdir if run == "." else f"{logdir}/{run}"
        acc = ea.EventAccumulator(
            path, size_guidance={ea.HISTOGRAMS: 0, ea.COMPRESSED_HISTOGRAMS: 0}
        )
        acc.Reload()
        tags = acc.Tags()[ea.HISTOGRAMS]
        assert tags, (name, run)
        for tag in tags:
            ours = _rows(exp.histograms, run, tag)
            events = acc.Histograms(tag)
            assert ours["step"].tolist() == [e.step for e in events]
            for row, event in zip(ours.itertuples(), events, strict=True):
                value = event.histogram_value
                limits = np.asarray(value.bucket_limit)
                counts = np.asarray(value.bucket)
                assert (row.min, row.max, row.num) == (value.min, value.max, value.num)
                # the frame keeps every non-empty bucket exactly as written
                nonzero = np.flatnonzero(counts)
                kept = slice(nonzero[0], nonzero[-1] + 1)
                np.testing.assert_array_equal(row.counts, counts[kept])
                np.testing.assert_array_equal(row.edges[1:-1], limits[kept][:-1])
            rows = _rows(exp.histograms, run, tag)
            lengths = np.array([len(c) for c in rows["counts"]])
            bands = percentiles(
                np.concatenate([e for e in rows["edges"] if len(e)]),
                np.concatenate(list(rows["counts"])),
                lengths,
            )
            compressed = acc.CompressedHistograms(tag)
            theirs = np.array(
                [[value for _, value in e.compressed_histogram_values] for e in compressed]
            )
            assert [bp for bp, _ in compressed[0].compressed_histogram_values] == list(
                DISTRIBUTION_BPS
            )
            np.testing.assert_array_equal(bands, theirs, err_msg=f"{name} {run} {tag}")
