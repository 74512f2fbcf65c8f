"""The nine distribution bands, vectorised, equal TensorBoard's compressor float for float."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from tbnb.kinds.distributions import DISTRIBUTION_BPS, histogram_percentiles, percentiles


def tb_bands(edges: np.ndarray, counts: np.ndarray) -> list[float]:
    from tensorboard.plugins.distribution.compressor import compress_histogram

    buckets = np.stack([edges[:-1], edges[1:], counts], axis=1) if counts.size else []
    return [v for _, v in compress_histogram(buckets)]


def same(a: list[float], b: list[float]) -> bool:
    return all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(a, b, strict=True))


@st.composite
def histogram_rows(draw: st.DrawFn) -> tuple[list[np.ndarray], list[np.ndarray]]:
    edges, counts = [], []
    for _ in range(draw(st.integers(1, 12))):
        k = draw(st.sampled_from([0, 1, 2, 3, 5, 8]))
        if k == 0:
            edges.append(np.zeros(0))
            counts.append(np.zeros(0))
            continue
        start = draw(st.floats(-1e6, 1e6, allow_nan=False))
        widths = draw(
            st.lists(st.sampled_from([0.0, 1e-9, 0.3, 1.0, 7.25, 1e4]), min_size=k, max_size=k)
        )
        edges.append(start + np.r_[0.0, np.cumsum(widths)])
        values = st.sampled_from([0.0, 1.0, 3.0, 0.1, 1e-3, 12345.0, 1e12])
        counts.append(np.array(draw(st.lists(values, min_size=k, max_size=k))))
    return edges, counts


@settings(max_examples=400, deadline=None)
@given(histogram_rows())
def test_bands_equal_tensorboards_compressor(
    rows: tuple[list[np.ndarray], list[np.ndarray]],
) -> None:
    edges, counts = rows
    frame = pd.DataFrame({"edges": edges, "counts": counts})
    table = histogram_percentiles(frame)
    for i, (e, c) in enumerate(zip(edges, counts, strict=True)):
        got = [table[f"p{bp}"].iloc[i] for bp in DISTRIBUTION_BPS]
        assert same(got, tb_bands(e, c)), (e, c, got)


def test_odd_values_go_through_tensorboards_loop() -> None:
    edges = [
        np.array([0.0, 1.0, 2.0]),
        np.array([0.0, np.inf, np.inf]),
        np.array([0.0, 1.0, 2.0]),
        np.array([0.0, 1.0, 2.0]),
    ]
    counts = [
        np.array([1.0, 3.0]),
        np.array([1.0, 1.0]),
        np.array([-1.0, 3.0]),
        np.array([np.nan, 1.0]),
    ]
    flat_edges = np.concatenate(edges)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # tbnb's own arithmetic warns of nothing
        table = percentiles(flat_edges, np.concatenate(counts), np.array([2, 2, 2, 2]))
    with np.errstate(invalid="ignore"):
        for row, e, c in zip(table, edges, counts, strict=True):
            assert same(row.tolist(), tb_bands(e, c))


def test_many_rows_equal_tensorboard() -> None:
    benchmark_rows = 5000
    rng = np.random.default_rng(4)
    edges = [np.sort(rng.normal(size=31)) for _ in range(benchmark_rows)]
    counts = [rng.integers(0, 100, size=30).astype(float) for _ in range(benchmark_rows)]
    table = histogram_percentiles(pd.DataFrame({"edges": edges, "counts": counts}))
    for i in range(0, benchmark_rows, 997):
        assert same(
            [table[f"p{bp}"].iloc[i] for bp in DISTRIBUTION_BPS], tb_bands(edges[i], counts[i])
        )


def _tensorboard_bands(logdir: str, run: str, tag: str) -> dict[int, list[float]]:
    """step -> the bands TensorBoard's distributions plugin serves (its own reader)."""
    import json

    from tensorboard.plugins.distribution.distributions_plugin import DistributionsPlugin

    from tests.tensorboard_plugins import plugin_routes

    get = plugin_routes(logdir, DistributionsPlugin, "histograms")
    return {
        int(step): [v for _, v in bands]
        for _, step, bands in json.loads(get("/distributions", run=run, tag=tag))
    }


def test_legacy_histograms_give_tensorboards_bands(tmp_path: Path) -> None:
    """TensorBoard migrates a legacy ``HistogramProto`` (torch, tensorboardX, TF1, Keras
    with ``histogram_freq``) to float32 buckets before compressing it: bands computed from
    the float64 buckets differ (here by far more than a rounding error)."""
    from torch.utils.tensorboard import SummaryWriter

    import tbnb

    writer = SummaryWriter(str(tmp_path))
    # counts beyond float32's 24 bits, and limits float32 cannot tell apart
    writer.add_histogram_raw(
        "fine", 0.0, 2.0, 3, 3.0, 3.0, [1.00000001, 1.00000002, 2.0], [1, 1, 1], global_step=0
    )
    writer.add_histogram_raw(
        "big",
        0.0,
        3.0,
        3 * 2**24,
        1.0,
        1.0,
        [1.0, 2.0, 3.0],
        [2**24 + 1, 3, 2**24 + 3],
        global_step=0,
    )
    rng = np.random.default_rng(3)
    for step in range(20):  # as Keras writes its weights: small values, many buckets
        writer.add_histogram("kernel", rng.normal(0, 0.02, 500) + step * 1e-3, step, bins=30)
    writer.close()
    exp = tbnb.load(str(tmp_path), progress=False)
    frame = exp.distributions
    differs = 0
    for tag in ("fine", "big", "kernel"):
        tb = _tensorboard_bands(str(tmp_path), ".", tag)
        rows = frame[frame["tag"] == tag]
        assert sorted(tb) == rows["step"].tolist()
        for row in rows.itertuples():
            got = [getattr(row, f"p{bp}") for bp in DISTRIBUTION_BPS]
            assert got == tb[row.step], (tag, row.step, got, tb[row.step])
        hist = exp.histograms[exp.histograms["tag"] == tag]
        plain = histogram_percentiles(hist.drop(columns=["sum"]))  # no float32 migration
        differs += int(
            (
                plain[[f"p{bp}" for bp in DISTRIBUTION_BPS]].to_numpy()
                != rows[[f"p{bp}" for bp in DISTRIBUTION_BPS]].to_numpy()
            ).any()
        )
    assert differs == 3  # float64 buckets would give other bands for every tag


def test_tf2_histograms_keep_their_own_precision(tmp_path: Path) -> None:
    from tensorboard.plugins.histogram.summary_v2 import histogram_pb

    import tbnb
    from tests.writers import _TF2Writer

    w = _TF2Writer(str(tmp_path), ".v2")
    rng = np.random.default_rng(5)
    for step in range(5):
        w.write(histogram_pb("w", rng.normal(0, 0.02, 300) + 1.00000001, buckets=17), step)
    w.close()
    frame = tbnb.load(str(tmp_path), progress=False).distributions
    tb = _tensorboard_bands(str(tmp_path), ".", "w")
    for row in frame.itertuples():
        assert [getattr(row, f"p{bp}") for bp in DISTRIBUTION_BPS] == tb[row.step]
